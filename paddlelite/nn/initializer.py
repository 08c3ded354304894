"""Parameter initialisers (paddle.nn.initializer).

An initialiser is a registry op and its attrs (`uniform_random`, `gaussian_random`, `fill_constant`,
`truncated_gaussian_random`, `assign_value`). Eagerly it runs the op and rebinds the parameter's
array; in static mode it appends the op to the startup program's block, writing the parameter, so
`exe.run(startup_program)` initialises it -- the same way Paddle's initialisers work.
"""
import math
import threading

import numpy as np

from ..framework import dtype as _dtype
from ..framework.mode import no_grad, static_guard
from ..framework.tensor import Tensor
from ..ops import dispatch
from ..ops.registry import get_op
from ..utils import unique_name

__all__ = ["Initializer", "Constant", "Normal", "Uniform", "XavierUniform", "XavierNormal", "KaimingNormal",
           "KaimingUniform", "TruncatedNormal", "Assign", "calculate_gain", "set_global_initializer",
           "ConstantInitializer", "NormalInitializer", "UniformInitializer", "XavierInitializer",
           "MSRAInitializer", "TruncatedNormalInitializer", "NumpyArrayInitializer", "Bilinear",
           "Orthogonal", "Dirac"]


def _fans(shape):
    """(fan_in, fan_out) as Paddle computes them: [in, out] for 2-D weights, [out, in, *k] for convs."""
    shape = list(shape)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for an activation (paddle.nn.initializer.calculate_gain)."""
    gains = {"sigmoid": 1.0, "linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0,
             "conv1d_transpose": 1.0, "conv2d_transpose": 1.0, "conv3d_transpose": 1.0,
             "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in gains:
        raise ValueError(f"calculate_gain: nonlinearity must be one of {sorted(gains) + ['leaky_relu']}, "
                         f"received {nonlinearity!r}")
    return gains[nonlinearity]


class Initializer:
    """Base: subclasses give `_op(shape, dtype)` -> (op type, attrs)."""

    _bare_desc = False  # Paddle's Constant appends a bare fill_constant desc (no empty input slots listed)
    # parameter dtypes Paddle's initialiser draws in float32 into `<_tmp_key>.<param>.tmp_<n>` and casts (static mode)
    _float32_for = frozenset()
    _tmp_key = None
    _seed = 0  # a random op's seed; 0: the program's random_seed (itself 0: unseeded)

    def _op(self, shape, dtype):
        raise TypeError(f"{type(self).__name__} does not define how to initialise a parameter")

    def __call__(self, param, block=None):
        """Initialise `param`: eagerly now, or (static mode) by an op appended to `block`
        (default: the startup program's global block)."""
        shape = [int(d) for d in param.shape]
        if -1 in shape:
            raise ValueError(f"{type(self).__name__}: cannot initialise '{param.name}' with an unknown "
                             f"dim in its shape {shape}")
        dtype = _dtype.convert_dtype(param.dtype).name
        op_type, attrs = self._op(shape, dtype)
        if isinstance(param, Tensor):
            param._data = self.array(shape, dtype, param._place)
            param._bump_version()
            return None
        if block is None:
            from .. import static
            block = static.default_startup_program().global_block()
        target = param
        if dtype in self._float32_for:
            target = block.create_var(unique_name.generate(f"{self._tmp_key}.{param.name}.tmp"), shape, "float32")
            op_type, attrs = self._op(shape, "float32")
        if attrs.get("seed") == 0:
            attrs = dict(attrs, seed=block.program.random_seed)
        op = block.append_op(type=op_type, outputs={"Out": [target]}, attrs=attrs)
        op._bare_desc = self._bare_desc
        if target is not param:
            block.append_op(type="cast", inputs={"X": [target]}, outputs={"Out": [param]}, attrs={"dtype": dtype})
        return op

    def array(self, shape, dtype, place=None):
        """The initial values as an array (NumPy/CuPy) on `place` (default: the current device). A random op of
        seed 0 draws with the main program's random_seed, as Paddle's legacy initialisers do eagerly too: a
        generator of that seed for each parameter when it is set (_manual_program_seed), paddle.seed's otherwise."""
        op_type, attrs = self._op([int(d) for d in shape], _dtype.convert_dtype(dtype).name)
        if attrs.get("seed") == 0:
            from .. import static
            attrs = dict(attrs, seed=static.default_main_program().random_seed)
        if place is not None:
            attrs = dict(attrs, place=place)
        with static_guard(False), no_grad():
            return dispatch.apply(get_op(op_type), **attrs)._data


class Constant(Initializer):
    _bare_desc = True
    def __init__(self, value=0.0):
        if not isinstance(value, (int, float, np.number, bool)):
            raise TypeError(f"Constant: value must be a number, received {type(value).__name__}")
        self.value = value

    def _op(self, shape, dtype):
        floating = _dtype.convert_dtype(dtype)
        v = float(self.value) if floating.is_floating_point or floating.is_complex else int(self.value)
        return "fill_constant", {"shape": shape, "value": v, "dtype": dtype}


class NormalInitializer(Initializer):
    """Paddle's fluid-era spelling with the random op's seed (0: the program's random_seed); Normal is one."""

    def __init__(self, loc=0.0, scale=1.0, seed=0):
        if scale < 0:
            raise ValueError(f"{type(self).__name__}: std must be non-negative, received {scale}")
        self.mean, self.std, self._seed = float(loc), float(scale), seed

    def _op(self, shape, dtype):
        return "gaussian_random", {"shape": shape, "dtype": dtype, "mean": self.mean, "std": self.std,
                                   "seed": self._seed}


class Normal(NormalInitializer):
    def __init__(self, mean=0.0, std=1.0, name=None):
        super().__init__(mean, std)


class TruncatedNormalInitializer(Initializer):
    """Paddle's fluid-era spelling with the random op's seed; TruncatedNormal is one."""

    _float32_for, _tmp_key = frozenset({"float16", "bfloat16"}), "truncated_gaussian_random"

    def __init__(self, loc=0.0, scale=1.0, seed=0, a=-2.0, b=2.0):
        if not a < b:
            raise ValueError(f"{type(self).__name__}: a ({a}) must be less than b ({b})")
        self.mean, self.std, self.a, self.b, self._seed = float(loc), float(scale), float(a), float(b), seed

    def _op(self, shape, dtype):
        return "truncated_gaussian_random", {"shape": shape, "dtype": dtype, "mean": self.mean, "std": self.std,
                                             "a": self.a, "b": self.b, "seed": self._seed}


class TruncatedNormal(TruncatedNormalInitializer):
    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        super().__init__(mean, std, 0, a, b)


class UniformInitializer(Initializer):
    """Paddle's fluid-era spelling with the random op's seed; Uniform is one. Its diagonal arguments (values set on
    a diagonal after the draw) are not supported: only their defaults are accepted."""

    _float32_for, _tmp_key = frozenset({"float16"}), "uniform_random"

    def __init__(self, low=-1.0, high=1.0, seed=0, diag_num=0, diag_step=0, diag_val=1.0):
        if low > high:
            raise ValueError(f"{type(self).__name__}: low ({low}) must not exceed high ({high})")
        if diag_num or diag_step:
            raise NotImplementedError(f"{type(self).__name__}: diag_num/diag_step (a diagonal set after the draw) "
                                      f"are not supported; received diag_num={diag_num}, diag_step={diag_step}")
        self.low, self.high, self._seed = float(low), float(high), seed

    def _op(self, shape, dtype):
        return "uniform_random", {"shape": shape, "dtype": dtype, "min": self.low, "max": self.high,
                                  "seed": self._seed}


class Uniform(UniformInitializer):
    def __init__(self, low=-1.0, high=1.0, name=None):
        super().__init__(low, high)


class _FanBased(Initializer):
    def __init__(self, fan_in=None, fan_out=None):
        self.fan_in, self.fan_out = fan_in, fan_out

    def _draw(self, distribution, shape, dtype):
        """The op of `distribution` (a Uniform or Normal) drawn with this initialiser's seed."""
        op_type, attrs = distribution._op(shape, dtype)
        return op_type, dict(attrs, seed=self._seed)

    def _fan(self, shape):
        fi, fo = _fans(shape)
        return (fi if self.fan_in is None else self.fan_in), (fo if self.fan_out is None else self.fan_out)


class XavierUniform(_FanBased):
    _float32_for, _tmp_key = frozenset({"float16"}), "xavier_init"

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        super().__init__(fan_in, fan_out)
        self.gain = float(gain)

    def _op(self, shape, dtype):
        fi, fo = self._fan(shape)
        limit = self.gain * math.sqrt(6.0 / float(fi + fo))
        return self._draw(Uniform(-limit, limit), shape, dtype)


class XavierNormal(_FanBased):
    _float32_for, _tmp_key = frozenset({"float16", "bfloat16"}), "xavier_init"

    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        super().__init__(fan_in, fan_out)
        self.gain = float(gain)

    def _op(self, shape, dtype):
        fi, fo = self._fan(shape)
        return self._draw(Normal(0.0, self.gain * math.sqrt(2.0 / float(fi + fo))), shape, dtype)


def _kaiming_mode(mode, fan_in):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"The mode of KaimingNormal/KaimingUniform should be 'fan_in' or 'fan_out', but received "
                         f"{mode}.")
    if mode == "fan_out" and fan_in is not None:
        raise ValueError("The mode of KaimingNormal/KaimingUniform is 'fan_out', but fan_in is set. Please set fan_in "
                         "to None.")


class KaimingNormal(_FanBased):
    """He normal: std = gain / sqrt(fan_in), gain = calculate_gain(nonlinearity, negative_slope)."""

    _float32_for, _tmp_key = frozenset({"float16", "bfloat16"}), "masra_init"  # sic: Paddle's key

    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in", name=None):
        _kaiming_mode(mode, fan_in)
        super().__init__(fan_in, None)
        self.gain = calculate_gain(nonlinearity, negative_slope)
        self.mode = mode

    def _op(self, shape, dtype):
        fan = self._fan(shape)[self.mode == "fan_out"]
        return self._draw(Normal(0.0, self.gain / math.sqrt(float(fan))), shape, dtype)


class KaimingUniform(_FanBased):
    """He uniform: limit = gain * sqrt(3 / fan_in)."""

    _float32_for, _tmp_key = frozenset({"float16"}), "masra_init"

    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu", mode="fan_in", name=None):
        _kaiming_mode(mode, fan_in)
        super().__init__(fan_in, None)
        self.gain = calculate_gain(nonlinearity, negative_slope)
        self.mode = mode

    def _op(self, shape, dtype):
        fan = self._fan(shape)[self.mode == "fan_out"]
        limit = self.gain * math.sqrt(3.0 / float(fan))
        return self._draw(Uniform(-limit, limit), shape, dtype)


class Assign(Initializer):
    """Initialise from given values (a NumPy array, list, number or Tensor): the parameter takes their shape."""

    _float32_for, _tmp_key = frozenset({"float16", "bfloat16"}), "numpy_array_init"

    def __init__(self, value, name=None):
        if isinstance(value, Tensor):
            value = value._host()
        self.value = np.asarray(value)
        if self.value.dtype.kind not in "biuf":
            raise TypeError(f"Assign: value must be numeric, received dtype {self.value.dtype}")

    def _op(self, shape, dtype):
        shape = list(self.value.shape)  # Paddle's: the parameter takes the value's shape, whatever it was declared
        kind = np.dtype(dtype).kind
        vals = self.value.astype(dtype).ravel()
        values = [float(v) for v in vals] if kind in "fc" else [int(v) for v in vals] if kind in "iu" \
            else [bool(v) for v in vals]
        return "assign_value", {"shape": shape, "dtype": dtype, "values": values}


class Bilinear(Initializer):
    """Weights of a transposed convolution that upsamples bilinearly (shape [C, 1, K, K] style)."""

    def _op(self, shape, dtype):
        if len(shape) != 4 or shape[2] != shape[3]:
            raise ValueError(f"Bilinear: expects a 4-D weight with square kernels, received {shape}")
        k = shape[3]
        f = math.ceil(k / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        idx = np.arange(int(np.prod(shape)))
        x, y = idx % k, (idx // k) % k
        w = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        return Assign(w.reshape(shape))._op(shape, dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix from the QR of a Gaussian draw (drawn with paddle.seed's generator)."""

    def __init__(self, gain=1.0, name=None):
        self.gain = float(gain)

    def _op(self, shape, dtype):
        from ..framework.random import get_rng
        rows = shape[0]
        cols = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        a = get_rng(np).normal(size=(max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return Assign(self.gain * q[:rows, :cols].reshape(shape))._op(shape, dtype)


class Dirac(Initializer):
    """Identity-preserving convolution weights [out, in, *kernel] (3-, 4- or 5-D): in each of `groups` groups of
    output channels, channel j gets a 1 at input channel j in the kernel's centre, zeros elsewhere."""

    def __init__(self, groups=1, name=None):
        if not isinstance(groups, int) or isinstance(groups, bool) or groups <= 0:
            raise AssertionError(" 'groups' must be a positive integer. ")  # Paddle's class and message
        self._groups = groups

    def _op(self, shape, dtype):
        if len(shape) not in (3, 4, 5):
            raise AssertionError("Only Tensor with 3/4/5 dimensions can be initialized by Dirac")
        if shape[0] % self._groups:
            raise AssertionError("Tensor 0-dimension must be divisible by groups")
        per_group = shape[0] // self._groups
        w = np.zeros(shape)
        centre = tuple(k // 2 for k in shape[2:])
        for i in range(self._groups):
            for j in range(min(per_group, shape[1])):
                w[(i * per_group + j, j, *centre)] = 1.0
        return Assign(w)._op(shape, dtype)


_global = {"weight": None, "bias": None}


def set_global_initializer(weight_init, bias_init=None):
    """Initialisers used by layers when their ParamAttr names none (None restores the defaults)."""
    for v in (weight_init, bias_init):
        if v is not None and not isinstance(v, Initializer):
            raise TypeError(f"set_global_initializer: expected Initializer or None, received {type(v).__name__}")
    _global["weight"], _global["bias"] = weight_init, bias_init


def global_initializer(is_bias):
    return _global["bias" if is_bias else "weight"]


# fluid-era names
ConstantInitializer = Constant
NumpyArrayInitializer = Assign


def XavierInitializer(uniform=True, fan_in=None, fan_out=None, seed=0, gain=1.0):
    init = XavierUniform(fan_in, fan_out, gain) if uniform else XavierNormal(fan_in, fan_out, gain)
    init._seed = seed
    return init


def MSRAInitializer(uniform=True, fan_in=None, seed=0, negative_slope=0.0, nonlinearity="relu", mode="fan_in"):
    init = (KaimingUniform if uniform else KaimingNormal)(fan_in, negative_slope, nonlinearity, mode)
    init._seed = seed
    return init


class LazyGuard:
    """Paddle's lazy-initialisation scope for building huge models. Parameters created inside it are
    initialised at once here: paddlelite allocates them as NumPy/CuPy arrays on creation (README.md,
    "Compatibility"); their `initialize()` succeeds once, as Paddle's."""

    _depth = threading.local()

    @classmethod
    def active(cls):
        return getattr(cls._depth, "n", 0) > 0

    def __enter__(self):
        LazyGuard._depth.n = getattr(LazyGuard._depth, "n", 0) + 1
        return self

    def __exit__(self, *exc):
        LazyGuard._depth.n -= 1
        return False

