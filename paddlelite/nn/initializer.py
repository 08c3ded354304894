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
from ..ops.legacy import legacy_type
from ..ops.registry import Meta, get_op
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


class _EagerOps:
    """Runs an initialiser's ops at once (eager mode) on `place`; `out` (where a static op would write) is not
    needed: every op gives a new tensor."""

    ops = ()

    def __init__(self, place):
        self.place = place
        from .. import static
        self.random_seed = static.default_main_program().random_seed

    def run(self, op_type, *inputs, out=None, **attrs):
        op = get_op(op_type)
        if not inputs and self.place is not None:
            attrs["place"] = self.place
        with static_guard(False), no_grad():
            return dispatch.apply(op, *inputs, **attrs)


class _StaticOps:
    """Appends an initialiser's ops to `block`. `out` names where an op writes: the parameter's Variable, or the key
    of a new temporary (`unique_name.generate(key)`, one per output slot when a tuple; `<op type>.tmp` when None).
    Paddle's initialisers write some ops' outputs into their inputs' variables again (reshape, scatter); here each
    writes a new temporary, so every variable keeps one shape."""

    def __init__(self, block):
        self.block, self.ops = block, []
        self.random_seed = block.program.random_seed

    def run(self, op_type, *inputs, out=None, **attrs):
        op = get_op(op_type)
        given = {slot: v for slot, v in zip(op.inputs, inputs) if v is not None}
        metas = [Meta(given[slot]._shape, given[slot]._dtype.np) if slot in given else None for slot in op.inputs]
        out_metas = op.infer(*metas, **op.fill_attrs(attrs))
        out_metas = (out_metas,) if op.n_out == 1 else out_metas
        targets = out if isinstance(out, tuple) else (f"{op_type}.tmp" if out is None else out,)
        outs = [t if not isinstance(t, str) else
                self.block.create_var(unique_name.generate(t), m.shape, m.dtype, stop_gradient=True)
                for t, m in zip(targets, out_metas)]
        self.ops.append(self.block.append_op(type=legacy_type(op.type), inputs=given, outputs=dict(zip(op.outputs, outs)),
                                             attrs=attrs))
        return outs[0] if op.n_out == 1 else tuple(outs)


class Initializer:
    """Base: subclasses give `_op(shape, dtype)` -> (op type, attrs) for one op, or `_build` for several."""

    _bare_desc = False  # Paddle's Constant appends a bare fill_constant desc (no empty input slots listed)
    # parameter dtypes Paddle's initialiser draws in float32 into `<_tmp_key>.<param>.tmp_<n>` and casts
    _float32_for = frozenset()
    _tmp_key = None
    _seed = 0  # a random op's seed; 0: the program's random_seed (itself 0: unseeded)
    _returned_op = 0  # which of its appended ops Paddle's initialiser returns

    def _op(self, shape, dtype):
        raise TypeError(f"{type(self).__name__} does not define how to initialise a parameter")

    def _build(self, ops, shape, dtype, out):
        """Run (eager) or append (static) through `ops` the ops that write the initial values of a parameter of
        `shape` and `dtype` into `out` (the parameter's Variable; a name key eagerly); returns the last result."""
        if dtype not in self._float32_for:
            return self._run(ops, shape, dtype, out)
        drawn = self._run(ops, shape, "float32", f"{self._tmp_key}.{out.name}.tmp" if hasattr(out, "name") else None)
        return ops.run("cast", drawn, out=out, dtype=dtype)

    def _run(self, ops, shape, dtype, out):
        op_type, attrs = self._op(shape, dtype)
        if attrs.get("seed") == 0:
            attrs = dict(attrs, seed=ops.random_seed)
        return ops.run(op_type, out=out, **attrs)

    @staticmethod
    def _checked_shape(param, who):
        shape = [int(d) for d in param.shape]
        if -1 in shape:
            raise ValueError(f"{who}: cannot initialise '{param.name}' with an unknown dim in its shape {shape}")
        return shape

    def __call__(self, param, block=None):
        """Initialise `param`: eagerly now, or (static mode) by ops appended to `block` (default: the startup
        program's global block), returning the op Paddle's initialiser returns."""
        shape = self._checked_shape(param, type(self).__name__)
        dtype = _dtype.convert_dtype(param.dtype).name
        if isinstance(param, Tensor):
            param._data = self.array(shape, dtype, param._place)
            param._bump_version()
            return None
        if block is None:
            from .. import static
            block = static.default_startup_program().global_block()
        ops = _StaticOps(block)
        self._build(ops, shape, dtype, param)
        op = ops.ops[self._returned_op]
        op._bare_desc = self._bare_desc
        return op

    def array(self, shape, dtype, place=None):
        """The initial values as an array (NumPy/CuPy) on `place` (default: the current device), made by the ops
        the static initialiser appends. A random op of seed 0 draws with the main program's random_seed, as
        Paddle's legacy initialisers do eagerly too: a generator of that seed for each parameter when it is set
        (_manual_program_seed), paddle.seed's otherwise."""
        shape = [int(d) for d in shape]
        return self._build(_EagerOps(place), shape, _dtype.convert_dtype(dtype).name, None)._data


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
    """Weights of a transposed convolution that upsamples bilinearly (shape [C, 1, K, K] style), set in float32
    (float16, bfloat16 and float64 weights by a cast of those, as Paddle's)."""

    _float32_for, _tmp_key = frozenset({"float16", "bfloat16", "float64"}), "bilinear_init"

    def _op(self, shape, dtype):
        if len(shape) != 4 or shape[2] != shape[3]:
            raise ValueError(f"Bilinear: expects a 4-D weight with square kernels, received {shape}")
        if dtype != "float32":
            raise TypeError(f"Bilinear: unsupported dtype {dtype}; expected float16, bfloat16, float32 or float64")
        if int(np.prod(shape)) > 1024 * 1024:  # Paddle's limit on the values an assign_value op carries
            raise ValueError(f"Bilinear: the weight is too big ({shape}); at most 1024 * 1024 elements")
        k = shape[3]
        f = math.ceil(k / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        idx = np.arange(int(np.prod(shape)))
        x, y = idx % k, (idx // k) % k
        w = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        return Assign(w.reshape(shape))._op(shape, dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix: Paddle's ops -- a Gaussian draw of [max(rows, cols), min(rows, cols)], its QR,
    Q's columns times the signs of R's diagonal, transposed when rows < cols, reshaped and scaled by `gain`."""

    _returned_op = -1  # Paddle's returns its last op, the scale

    def __init__(self, gain=1.0, name=None):
        self.gain = float(gain)

    def _build(self, ops, shape, dtype, out):
        if len(shape) < 2:
            raise AssertionError("Only Tensor with 2 or more dimensions can be initialized by Orthogonal")
        if dtype not in ("float32", "float64"):
            raise TypeError(f"Orthogonal: the parameter's dtype must be float32 or float64, received {dtype}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        normal = ops.run("gaussian_random", out="gaussian_random.tmp", shape=[max(rows, cols), min(rows, cols)],
                         mean=0.0, std=1.0, seed=ops.random_seed, dtype=dtype)
        q, r = ops.run("qr", normal, out=("qr.q.tmp", "qr.r.tmp"), mode="reduced")
        diagonal = ops.run("diag_v2", r, out="diag.tmp", offset=0, padding_value=0.0)
        q = ops.run("multiply", q, ops.run("sign", diagonal))
        if rows < cols:
            q = ops.run("transpose", q, out="transpose.tmp", perm=[1, 0])
        q = ops.run("reshape", q, shape=shape)
        return ops.run("scale", q, out=out, scale=self.gain, bias=0.0)


class Dirac(Initializer):
    """Identity-preserving convolution weights [out, in, *kernel] (3-, 4- or 5-D): in each of `groups` groups of
    output channels, channel j gets a 1 at input channel j in the kernel's centre, zeros elsewhere. Paddle's ops:
    zeros in float32, flattened, ones scattered at those offsets, reshaped back (then cast to the weight's dtype)."""

    _returned_op = 4  # Paddle's returns its scatter

    def __init__(self, groups=1, name=None):
        if not isinstance(groups, int) or isinstance(groups, bool) or groups <= 0:
            raise AssertionError(" 'groups' must be a positive integer. ")  # Paddle's class and message
        self._groups = groups

    def _build(self, ops, shape, dtype, out):
        if dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(f"Dirac: the parameter's dtype must be float16, bfloat16, float32 or float64, "
                            f"received {dtype}")
        if len(shape) not in (3, 4, 5):
            raise AssertionError("Only Tensor with 3/4/5 dimensions can be initialized by Dirac")
        if shape[0] % self._groups:
            raise AssertionError("Tensor 0-dimension must be divisible by groups")
        per_group = shape[0] // self._groups
        centre = [k // 2 for k in shape[2:]]
        offsets = [int(np.ravel_multi_index((i * per_group + j, j, *centre), shape))
                   for i in range(self._groups) for j in range(min(per_group, shape[1]))]
        w = ops.run("fill_constant", shape=shape, value=0.0, dtype="float32")
        w = ops.run("reshape", w, shape=[-1])
        index = ops.run("assign_value", out="scatter_index", shape=[len(offsets)], dtype="int64", values=offsets)
        ones = ops.run("assign_value", out="scatter_value", shape=[len(offsets)], dtype="float32",
                       values=[1.0] * len(offsets))
        w = ops.run("scatter", w, index, ones, overwrite=True)
        if dtype == "float32":
            return ops.run("reshape", w, out=out, shape=shape)
        return ops.run("cast", ops.run("reshape", w, shape=shape), out=out, dtype=dtype)


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
    """Paddle's lazy-initialisation scope for building huge models: parameters created inside it have a shape and a
    dtype but no values (using them raises RuntimeError) until their initialize() runs their initialiser;
    `Layer._startup_program()` gives the program of the initialisers' ops instead."""

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
