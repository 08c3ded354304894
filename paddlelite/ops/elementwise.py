"""Binary elementwise ops with NumPy broadcasting; their grads reduce to each input's shape."""
from .registry import Meta, register_op
from .shape_rules import broadcast_shapes, check_same_dtype


def _binary_rule(name):
    def infer(x, y, **attrs):
        check_same_dtype(name, x, y)
        return Meta(broadcast_shapes(name, x.shape, y.shape), x.dtype)
    return infer


def _binary(name, forward, grad, double_grad=True):
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=forward,
                       infer=_binary_rule(name), grad=grad, same_dtype=("X", "Y"), double_grad=double_grad)


def _add_grad(g):
    dout = g.output_grad("Out")
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(dout, g.input("X")))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(dout, g.input("Y")))


def _subtract_grad(g):
    dout = g.output_grad("Out")
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(dout, g.input("X")))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(g.op("scale", dout, scale=-1.0), g.input("Y")))


def _multiply_grad(g):
    dout, x, y = g.output_grad("Out"), g.input("X"), g.input("Y")
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(g.op("multiply", dout, y), x))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(g.op("multiply", dout, x), y))


def _divide_grad(g):
    # out = x / y: dx = dout / y, dy = -dout * out / y
    dout, x, y = g.output_grad("Out"), g.input("X"), g.input("Y")
    dx = g.op("divide", dout, y)
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(dx, x))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(g.op("scale", g.op("multiply", dx, g.output("Out")), scale=-1.0), y))


def _minmax_grad(pick_x_op):
    # the gradient goes to x where x wins (ties to x, as Paddle), else to y
    def grad(g):
        dout, x, y = g.output_grad("Out"), g.input("X"), g.input("Y")
        mask = g.op(pick_x_op, x, y)
        zeros = g.zeros_like(dout)
        if g.needs("X"):
            g.set_input_grad("X", g.reduce_as(g.op("where", mask, dout, zeros), x))
        if g.needs("Y"):
            g.set_input_grad("Y", g.reduce_as(g.op("where", mask, zeros, dout), y))
    return grad


def _elementwise_pow_grad(g):
    # out = x ** y: dx = dout * y * x**(y-1), dy = dout * out * log(x)
    dout, x, y = g.output_grad("Out"), g.input("X"), g.input("Y")
    if g.needs("X"):
        xpow = g.op("elementwise_pow", x, g.op("scale", y, scale=1.0, bias=-1.0))
        g.set_input_grad("X", g.reduce_as(g.op("multiply", dout, g.op("multiply", y, xpow)), x))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(g.op("multiply", dout, g.op("multiply", g.output("Out"), g.op("log", x))), y))


ADD = _binary("add", lambda xp, x, y: xp.add(x, y), _add_grad)
SUBTRACT = _binary("subtract", lambda xp, x, y: xp.subtract(x, y), _subtract_grad)
MULTIPLY = _binary("multiply", lambda xp, x, y: xp.multiply(x, y), _multiply_grad)
DIVIDE = _binary("divide", lambda xp, x, y: xp.true_divide(x, y), _divide_grad)
MAXIMUM = _binary("maximum", lambda xp, x, y: xp.maximum(x, y), _minmax_grad("greater_equal"))
MINIMUM = _binary("minimum", lambda xp, x, y: xp.minimum(x, y), _minmax_grad("less_equal"))
ELEMENTWISE_POW = _binary("elementwise_pow", lambda xp, x, y: xp.power(x, y), _elementwise_pow_grad)


def _compare(name, fn):
    def infer(x, y, **attrs):
        check_same_dtype(name, x, y)
        import numpy as np
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
