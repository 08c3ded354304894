"""Binary elementwise ops with NumPy broadcasting; their grads reduce to each input's shape.

The ops Paddle names elementwise_* also take Paddle's `axis` attribute (shape_rules.axis_padding): the operand of
lower rank is padded with trailing 1-dims (a view), then everything broadcasts as NumPy does."""
import numpy as np

from .formula import conj_if_complex, equal, isnan, log, real, reshape_as, sign, unsqueeze, where, zeros_like
from .launch.generated import with_axis as _ew
from .registry import Meta, register_op
from .shape_rules import axis_padding, broadcast_shapes, check_same_dtype, padded

_AXIS = {"axis": -1}


def binary_rule(name):
    def infer(x, y, **attrs):  # the ops Paddle names elementwise_* have an `axis`
        check_same_dtype(name, x, y)
        tx, ty = axis_padding(name, x.shape, y.shape, attrs.get("axis", -1))
        return Meta(broadcast_shapes(name, padded(x.shape, tx), padded(y.shape, ty)), x.dtype)
    return infer


def with_axis(name, forward):
    """`forward(xp, x, y)` with the `axis` attribute: its lower-rank operand viewed with trailing 1-dims."""
    def aligned(xp, x, y, axis):
        if axis == -1:
            return forward(xp, x, y)
        tx, ty = axis_padding(name, x.shape, y.shape, axis)
        return forward(xp, x.reshape(padded(x.shape, tx)), y.reshape(padded(y.shape, ty)))
    return aligned


def _binary(name, forward, grad, axis=True, elementwise=None):
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=with_axis(name, forward) if axis else forward,
                       infer=binary_rule(name), grad=grad, same_dtype=("X", "Y"), double_grad=True,
                       attrs=_AXIS if axis else None, elementwise=elementwise)


def _axis(g):
    return (g.attrs or _AXIS).get("axis", -1)


def _operands(g):
    """(x, y, dout) of a binary op's grad maker, x and y padded as the forward's `axis` pads them."""
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    if _axis(g) == -1:
        return x, y, dout
    tx, ty = axis_padding("elementwise grad", g.shape(x), g.shape(y), _axis(g))
    return _with_trailing_ones(g, x, tx), _with_trailing_ones(g, y, ty), dout


def _with_trailing_ones(g, v, ones):
    rank = len(g.shape(v))
    return unsqueeze(v, axis=list(range(rank, rank + ones))) if ones else v


def _unbroadcast(g, x, y, dx, dy):
    """Give X and Y their gradients (None: not needed), each summed back to its input's shape (through the
    padded operand's where `axis` padded it)."""
    for slot, operand, grad in (("X", x, dx), ("Y", y, dy)):
        if grad is not None:
            grad = g.reduce_as(grad, operand)
            g.set_input_grad(slot, grad if _axis(g) == -1 else reshape_as(grad, g.input(slot)))


def _add_grad(g):
    x, y, dout = _operands(g)
    _unbroadcast(g, x, y, dout if g.needs("X") else None, dout if g.needs("Y") else None)


def _subtract_grad(g):
    x, y, dout = _operands(g)
    _unbroadcast(g, x, y, dout if g.needs("X") else None, -dout if g.needs("Y") else None)


def _multiply_grad(g):
    x, y, dout = _operands(g)
    _unbroadcast(g, x, y, dout * conj_if_complex(y) if g.needs("X") else None,
                 dout * conj_if_complex(x) if g.needs("Y") else None)


def _divide_grad(g):  # out = x / y: dx = dout / y, dy = -dx * out (conjugated for complex)
    x, y, dout = _operands(g)
    dx = dout / conj_if_complex(y)
    _unbroadcast(g, x, y, dx if g.needs("X") else None,
                 -dx * conj_if_complex(g.output("Out")) if g.needs("Y") else None)


def _elementwise_pow_grad(g):
    """out = x ** y: dx = dout * y * x ** (y - 1), dy = dout * out * log(x), with the limits Paddle and PyTorch
    take where the formulas give 0 * inf: dx = 0 where y = 0 (x ** 0 is constant), dy = 0 where x = 0 and
    y >= 0 (0 ** y is constant there)."""
    x, y, dout = _operands(g)
    dx = dy = None
    if g.needs("X"):
        dx = where(equal(y, zeros_like(y)), zeros_like(dout), dout * conj_if_complex(y * x ** (y - 1)))
    if g.needs("Y"):
        y_real = real(y) if g.is_complex(y) else y
        flat = equal(x, zeros_like(x)) & (y_real >= 0)
        dy = where(flat, zeros_like(dout), dout * conj_if_complex(g.output("Out") * log(x)))
    _unbroadcast(g, x, y, dx, dy)


def _tie_split_grad(x_wins):
    """maximum/minimum: the gradient goes to the winner, half to each at a tie (Paddle's rule), and nowhere
    where x or y is NaN (no comparison holds)."""
    def grad(g):
        x, y, dout = _operands(g)
        zeros = zeros_like(dout)
        half = where(equal(x, y), dout * 0.5, zeros)
        _unbroadcast(g, x, y, where(x_wins(x, y), dout, half) if g.needs("X") else None,
                     where(x_wins(y, x), dout, half) if g.needs("Y") else None)
    return grad


def _minmax_grad(x_wins):
    # fmax/fmin: the gradient goes to x where x wins (ties to x, as Paddle), else to y
    def grad(g):
        x, y, dout = _operands(g)
        mask, zeros = x_wins(x, y), zeros_like(dout)
        _unbroadcast(g, x, y, where(mask, dout, zeros) if g.needs("X") else None,
                     where(mask, zeros, dout) if g.needs("Y") else None)
    return grad


# `+` rather than xp.add: the engine sums gradients with this op, and a sparse tensor's gradients (framework/sparse.py)
# add by their values
ADD = _binary("add", lambda xp, x, y: x + y, _add_grad, elementwise=_ew(lambda x, y: f"({x} + {y})"))
SUBTRACT = _binary("subtract", lambda xp, x, y: xp.subtract(x, y), _subtract_grad,
                   elementwise=_ew(lambda x, y: f"({x} - {y})"))
MULTIPLY = _binary("multiply", lambda xp, x, y: xp.multiply(x, y), _multiply_grad,
                   elementwise=_ew(lambda x, y: f"({x} * {y})"))
DIVIDE = _binary("divide", lambda xp, x, y: xp.true_divide(x, y), _divide_grad,
                 elementwise=_ew(lambda x, y: f"({x} / {y})"))
# NumPy's maximum/minimum: NaN from either side, and y where they tie (its -0.0 against 0.0)
MAXIMUM = _binary("maximum", lambda xp, x, y: xp.maximum(x, y), _tie_split_grad(lambda x, y: x > y),
                  elementwise=_ew(lambda x, y: f"(({x} > {y} || {x} != {x}) ? {x} : {y})"))
MINIMUM = _binary("minimum", lambda xp, x, y: xp.minimum(x, y), _tie_split_grad(lambda x, y: x < y),
                  elementwise=_ew(lambda x, y: f"(({x} < {y} || {x} != {x}) ? {x} : {y})"))
ELEMENTWISE_POW = _binary("elementwise_pow", lambda xp, x, y: xp.power(x, y), _elementwise_pow_grad)


def _compare(name, fn):
    def infer(x, y, **attrs):
        check_same_dtype(name, x, y)
        return Meta(broadcast_shapes(name, x.shape, y.shape), np.dtype(bool))
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=fn, infer=infer,
                       same_dtype=("X", "Y"))


EQUAL = _compare("equal", lambda xp, x, y: xp.equal(x, y))
NOT_EQUAL = _compare("not_equal", lambda xp, x, y: xp.not_equal(x, y))
LESS_THAN = _compare("less_than", lambda xp, x, y: xp.less(x, y))
LESS_EQUAL = _compare("less_equal", lambda xp, x, y: xp.less_equal(x, y))
GREATER_THAN = _compare("greater_than", lambda xp, x, y: xp.greater(x, y))
GREATER_EQUAL = _compare("greater_equal", lambda xp, x, y: xp.greater_equal(x, y))
LOGICAL_AND = _compare("logical_and", lambda xp, x, y: xp.logical_and(x, y))
LOGICAL_OR = _compare("logical_or", lambda xp, x, y: xp.logical_or(x, y))
LOGICAL_XOR = _compare("logical_xor", lambda xp, x, y: xp.logical_xor(x, y))


# ---- copysign, heaviside, fmax/fmin: differentiable binaries Paddle computes in the inputs' dtype ------
def _copysign_grad(g):  # out = |x| with y's sign: dx = dout * sign(x) * sign(out) (0 at x = 0), dy = 0
    x, y, dout = _operands(g)
    _unbroadcast(g, x, y, dout * (sign(x) * sign(g.output("Out"))) if g.needs("X") else None,
                 zeros_like(dout) if g.needs("Y") else None)


def _heaviside_forward(xp, x, y):
    return xp.where(x == 0, y, (x > 0).astype(x.dtype))


def _heaviside_grad(g):  # piecewise constant in x; y is taken where x == 0
    x, y, dout = _operands(g)
    zeros = zeros_like(dout)
    _unbroadcast(g, x, y, zeros if g.needs("X") else None, where(equal(x, zeros_like(x)), dout, zeros) if g.needs("Y") else None)


COPYSIGN = _binary("copysign", lambda xp, x, y: xp.copysign(x, y).astype(x.dtype, copy=False), _copysign_grad, axis=False)
HEAVISIDE = _binary("heaviside", _heaviside_forward, _heaviside_grad, axis=False)
# fmax/fmin ignore a NaN operand: the gradient goes to x where x wins or y is NaN
FMAX = _binary("fmax", lambda xp, x, y: xp.fmax(x, y), _minmax_grad(lambda x, y: (x >= y) | isnan(y)), axis=False)
FMIN = _binary("fmin", lambda xp, x, y: xp.fmin(x, y), _minmax_grad(lambda x, y: (x <= y) | isnan(y)), axis=False)


def _atan2_grad(g):  # out = atan2(x, y): dx = dout * y / (x^2 + y^2), dy = -dout * x / (x^2 + y^2)
    x, y, dout = _operands(g)
    scaled = dout / (x * x + y * y)
    _unbroadcast(g, x, y, scaled * y if g.needs("X") else None, -scaled * x if g.needs("Y") else None)


ATAN2 = _binary("atan2", lambda xp, x, y: xp.arctan2(x, y), _atan2_grad, axis=False)


# ---- integer binaries (no gradient): bitwise logic and shifts, gcd, lcm --------------------------------
def _integer_binary(name, forward, kinds="iub", attrs=None):
    def check(dtype):
        if np.dtype(dtype).kind not in kinds:
            allowed = "integer or bool" if "b" in kinds else "integer"
            raise TypeError(f"op '{name}': inputs must be {allowed} tensors, received {dtype}")

    def infer(x, y, **attrs):
        check_same_dtype(name, x, y)
        check(x.dtype)
        return Meta(broadcast_shapes(name, x.shape, y.shape), x.dtype)

    def checked_forward(xp, x, y, **attrs):
        check(x.dtype)
        return forward(xp, x, y, **attrs)
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=checked_forward, infer=infer,
                       same_dtype=("X", "Y"), attrs=attrs)


def _right_shift(xp, x, y, is_arithmetic):
    if is_arithmetic or x.dtype.kind == "u":
        return xp.right_shift(x, y)
    unsigned = np.dtype(f"u{x.dtype.itemsize}")  # a logical shift: the bits as unsigned, zeros shifted in
    return xp.right_shift(x.view(unsigned), y.astype(unsigned)).view(x.dtype)


BITWISE_AND = _integer_binary("bitwise_and", lambda xp, x, y: xp.bitwise_and(x, y))
BITWISE_OR = _integer_binary("bitwise_or", lambda xp, x, y: xp.bitwise_or(x, y))
BITWISE_XOR = _integer_binary("bitwise_xor", lambda xp, x, y: xp.bitwise_xor(x, y))
BITWISE_LEFT_SHIFT = _integer_binary("bitwise_left_shift", lambda xp, x, y, is_arithmetic: xp.left_shift(x, y),
                                     kinds="iu", attrs={"is_arithmetic": True})
BITWISE_RIGHT_SHIFT = _integer_binary("bitwise_right_shift", _right_shift, kinds="iu", attrs={"is_arithmetic": True})
GCD = _integer_binary("gcd", lambda xp, x, y: xp.gcd(x, y), kinds="iu")
LCM = _integer_binary("lcm", lambda xp, x, y: xp.lcm(x, y), kinds="iu")
