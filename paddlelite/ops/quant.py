"""Fake quantization: the ops paddle.quantization's quanters and nn.quant's converted layers apply.

`fake_quantize_dequantize_moving_average_abs_max` (QAT's FakeQuanterWithAbsMaxObserver): in training the scale is a
moving average of max|x| (state = rate * state + 1, accum = rate * accum + max|x|, scale = accum / state), then x
is rounded onto the 2^(bits-1) - 1 levels of [-scale, scale] and mapped back. round_type 1 (the quanter's) clips x
to [-scale, scale] and rounds half away from zero; 0 rounds half to even and clips the levels to
[-levels - 1, levels]. Its gradient is the straight-through estimator: dX = dOut, as Paddle's.
`quantize_linear` / `dequantize_linear` (LinearQuanter / LinearDequanter): levels = round(levels / scale * x) clipped
to [qmin, qmax] (half to even), and back levels * scale / levels, per tensor or per channel along quant_axis. As
Paddle's kernels, the zero point is read but not applied. Scales below 1e-30 divide as scale + 1e-6.
"""
import numpy as np

from .registry import Meta, register_op
from .shape_rules import check_float


def _levels(bit_length):
    return (1 << (bit_length - 1)) - 1


def _inverse(xp, s):
    """1 / s, with s + 1e-6 for a (near) zero scale (Paddle's `inverse`)."""
    return s.dtype.type(1) / xp.where(s <= s.dtype.type(1e-30), s + s.dtype.type(1e-6), s)


def _round_half_away(xp, v):
    whole = xp.trunc(v)  # v - trunc(v) is exact, so halves are found exactly
    return xp.where(xp.abs(v - whole) >= v.dtype.type(0.5), whole + xp.sign(v), whole)


def _quantize(xp, x, s, levels, round_type):
    """The integer levels of x under scale s (round_type 0: half to even, levels clipped; 1: x clipped first, half
    away from zero)."""
    factor = x.dtype.type(levels) * _inverse(xp, s)
    if round_type == 0:
        return xp.clip(xp.rint(factor * x), -levels - 1, levels)
    return _round_half_away(xp, factor * xp.clip(x, -s, s))


def _moving_average_forward(xp, x, in_scale, in_accum, in_state, moving_rate, bit_length, is_test, round_type):
    levels = _levels(bit_length)
    if is_test:
        scale, state, accum = in_scale, in_state, in_accum
    else:
        rate = x.dtype.type(moving_rate)
        current = xp.abs(x).max() if x.size else x.dtype.type(0)
        state = rate * in_state + x.dtype.type(1)
        accum = rate * in_accum + current
        scale = accum / state
    s = scale.reshape(())
    out = _quantize(xp, x, s, levels, round_type) * s / x.dtype.type(levels)
    placeholder = xp.zeros_like(scale)  # outputs a test-mode run does not write (Paddle leaves them unset)
    return (out.astype(x.dtype, copy=False), scale.copy(), placeholder if state is None else state,
            placeholder if accum is None else accum)


def _moving_average_infer(x, in_scale, in_accum, in_state, moving_rate, bit_length, is_test, round_type):
    op = "fake_quantize_dequantize_moving_average_abs_max"
    check_float(op, x, real=True)
    if not is_test and (in_accum is None or in_state is None):
        raise ValueError(f"op '{op}': training (is_test=False) needs InAccum and InState")
    if not 2 <= bit_length <= 16:
        raise ValueError(f"op '{op}': bit_length must lie in [2, 16], received {bit_length}")
    scale = Meta(tuple(in_scale.shape), x.dtype)
    return Meta(tuple(x.shape), x.dtype), scale, scale, scale


def _straight_through(g):
    """dX = dOut: rounding's derivative (zero almost everywhere) replaced by the identity's."""
    g.set_input_grad("X", g.output_grad_or_zeros("Out"))


FAKE_QDQ_MOVING_AVERAGE_ABS_MAX = register_op(
    "fake_quantize_dequantize_moving_average_abs_max", inputs=("X", "InScale", "InAccum", "InState"),
    outputs=("Out", "OutScale", "OutState", "OutAccum"), optional_inputs=("InAccum", "InState"),
    nondiff_inputs=("InScale", "InAccum", "InState"), intermediate_outputs=("OutScale", "OutState", "OutAccum"),
    forward=_moving_average_forward, infer=_moving_average_infer,
    grad=_straight_through, attrs={"moving_rate": 0.9, "bit_length": 8, "is_test": False, "round_type": 1})


def _per_channel(name, scale, x, quant_axis):
    """The scale broadcast against x: one value, or one per index of x's axis quant_axis."""
    if quant_axis < 0:
        return scale.reshape(())
    _check_axis(name, quant_axis, x.ndim)
    shape = [1] * x.ndim
    shape[quant_axis] = -1
    return scale.reshape(shape)


def _check_axis(name, quant_axis, rank):
    """Paddle's kernels quantize per tensor (-1) or along axis 0 or 1 (a weight's output or input channels)."""
    if quant_axis not in (-1, 0, 1) or quant_axis >= rank:
        raise ValueError(f"op '{name}': quant_axis should be -1, 0 or 1 (and below X's rank {rank}), received "
                         f"{quant_axis}")


def _quantize_linear_forward(xp, x, scale, zero_point, quant_axis, bit_length, qmin, qmax, round_type):
    s = _per_channel("quantize_linear", scale.astype(x.dtype, copy=False), x, quant_axis)
    q = _quantize(xp, x, s, _levels(bit_length), round_type)
    return xp.clip(q, qmin, qmax).astype(x.dtype, copy=False)


def _dequantize_linear_forward(xp, x, scale, zero_point, quant_axis, bit_length, qmin, qmax, round_type):
    s = _per_channel("dequantize_linear", scale.astype(x.dtype, copy=False), x, quant_axis)
    return (x * s / x.dtype.type(_levels(bit_length))).astype(x.dtype, copy=False)


def _linear_infer(name):
    def infer(x, scale, zero_point, quant_axis, bit_length, qmin, qmax, round_type):
        check_float(name, x, real=True)
        _check_axis(name, quant_axis, len(x.shape))
        count = int(np.prod(scale.shape))
        channels = 1 if quant_axis < 0 else x.shape[quant_axis]
        per_tensor_ok = quant_axis < 0 and len(scale.shape) <= 1 and count in (1, -1)
        per_channel_ok = quant_axis >= 0 and len(scale.shape) == 1 and (count == channels or -1 in (channels, count))
        if not (per_tensor_ok or per_channel_ok):
            raise ValueError(f"op '{name}': Scale must hold {channels} value(s) (quant_axis={quant_axis}), received "
                             f"shape {list(scale.shape)}")
        return Meta(tuple(x.shape), x.dtype)
    return infer


_LINEAR_ATTRS = {"quant_axis": -1, "bit_length": 8, "qmin": -128, "qmax": 127, "round_type": 0}
QUANTIZE_LINEAR = register_op("quantize_linear", inputs=("X", "Scale", "ZeroPoint"), outputs=("Y",),
                              optional_inputs=("ZeroPoint",), forward=_quantize_linear_forward,
                              infer=_linear_infer("quantize_linear"), attrs=_LINEAR_ATTRS)
DEQUANTIZE_LINEAR = register_op("dequantize_linear", inputs=("X", "Scale", "ZeroPoint"), outputs=("Y",),
                                optional_inputs=("ZeroPoint",), forward=_dequantize_linear_forward,
                                infer=_linear_infer("dequantize_linear"), attrs=_LINEAR_ATTRS)
