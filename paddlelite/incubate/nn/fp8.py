"""paddle.incubate.nn.functional's blockwise float8 (e4m3fn) names, each a registry op of ops/fp8.py (where the
scale rule and the scale layouts are written): quantize in 1 x 128 or 128 x 128 blocks, dequantize, multiply
quantized operands, and the fused quantizations of an MoE training step. Paddle ships them for Hopper GPU builds;
here they run on the CPU and the GPU alike, in eager and static mode (none has a gradient, as in Paddle)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...framework.dtype import convert_dtype
from ...ops import fp8 as _fp8
from ...ops.dispatch import apply
from ...tensor.manipulation import inplace_apply
from ...tensor.tensor_args import is_tensor_like

if TYPE_CHECKING:
    from ...framework.tensor import Tensor

__all__ = ["fp8_quant_blockwise", "fp8_gemm_blockwise", "fused_act_dequant", "fused_stack_transpose_quant",
           "fused_transpose_split_quant", "fused_transpose_wlch_split_quant", "fused_weighted_swiglu_act_quant"]


def check_tensor(x, api, arg, optional=False):
    """`arg` of `api` must be a Tensor (or None when optional)."""
    if not (is_tensor_like(x) or (optional and x is None)):
        raise TypeError(f"{api}: {arg} must be a Tensor{' or None' if optional else ''}, received "
                        f"{type(x).__name__}")


def _check_2d(x, api, arg="x"):
    check_tensor(x, api, arg)
    if len(x.shape) != 2:
        raise ValueError(f"{api}: {arg} must be 2-D, received shape {list(x.shape)}")


def fp8_quant_blockwise(x: Tensor, epsilon: float = 0.0, input_transpose: bool = False,
                        output_scale_transpose: bool = True, return_transpose_only: bool = False,
                        using_pow2_scale: bool = True, using_ue8m0_scale: bool = False, quant_method: str = "1x128",
                        output_type: str = "e4m3", name: str | None = None):
    """x [M, N] (bfloat16/float16) quantized to float8_e4m3fn in 1 x 128 or 128 x 128 blocks: (out, scale), or
    with input_transpose (out, scale, out_transposed, scale_transposed) -- just the transposed pair with
    return_transpose_only. The scales are the decode scales (float32, or ue8m0 exponents packed in int32)."""
    api = "fp8_quant_blockwise"
    if quant_method not in ("1x128", "128x128"):
        raise ValueError(f"{api}: Unsupported quantization method {quant_method!r} (expected '1x128' or '128x128')")
    if output_type != "e4m3":
        raise ValueError(f"{api}: Unsupported output type {output_type!r} (only 'e4m3')")
    _check_2d(x, api)
    if x.dtype.name not in ("bfloat16", "float16"):
        raise TypeError(f"{api}: x must be bfloat16 or float16, received {x.dtype.name}")
    rows, cols = x.shape
    if (input_transpose or quant_method == "128x128") and (rows % _fp8.BLOCK or cols % _fp8.BLOCK):
        raise ValueError(f"{api}: x's dims must be multiples of 128 for {quant_method} blocks"
                         f"{' with input_transpose' if input_transpose else ''}, received shape {list(x.shape)}")
    out, scale, out_t, scale_t = apply(
        _fp8.FP8_QUANT_BLOCKWISE, x, epsilon=float(epsilon), using_1x128_vec_quant=quant_method == "1x128",
        input_transpose=bool(input_transpose), output_scale_transpose=bool(output_scale_transpose),
        return_transpose_only=bool(return_transpose_only), using_e5m2=False, using_pow2_scale=bool(using_pow2_scale),
        using_ue8m0_scale=bool(using_ue8m0_scale))
    if not input_transpose:
        return out, scale
    if return_transpose_only:
        return out_t, scale_t
    return out, scale, out_t, scale_t


def fused_act_dequant(x: Tensor, x_scale: Tensor) -> Tensor:
    """x [M, N] float8_e4m3fn times its 1 x 128 decode scales x_scale (float32 [M, ceil(N / 128)], or ue8m0 int32
    [M, ceil(N / 512)]), as bfloat16."""
    api = "fused_act_dequant"
    _check_2d(x, api)
    _check_2d(x_scale, api, "x_scale")
    return apply(_fp8.FUSED_ACT_DEQUANT, x, x_scale)


def fp8_gemm_blockwise(a: Tensor, a_decode_scale: Tensor, b: Tensor, b_decode_scale: Tensor, out_dtype,
                       out: Tensor | None = None, bias: Tensor | None = None, accumulate: bool = False,
                       use_split_accumulator: bool = True, is_a_1d_scaled: bool = True,
                       is_b_1d_scaled: bool = True) -> Tensor:
    """a [M, K] @ b [N, K].T from float8 operands and their decode scales (1-D scaled: 1 x 128 blocks, scales
    [K / 128, rows]; else 128 x 128 blocks, scales [rows / 128, K / 128]), accumulated in float32 and cast to
    out_dtype; with `out` the result is written into it (added to its values when accumulate)."""
    api = "fp8_gemm_blockwise"
    if bias is not None:
        raise AssertionError(f"{api}: Bias is not supported")
    for arg, t in (("a", a), ("a_decode_scale", a_decode_scale), ("b", b), ("b_decode_scale", b_decode_scale)):
        _check_2d(t, api, arg)
    check_tensor(out, api, "out", optional=True)
    attrs = dict(out_dtype=convert_dtype(out_dtype).name, accumulate=bool(accumulate), is_a_1d_scaled=bool(is_a_1d_scaled),
                 is_b_1d_scaled=bool(is_b_1d_scaled))
    if out is None:
        return apply(_fp8.FP8_GEMM_BLOCKWISE, a, a_decode_scale, b, b_decode_scale, None, **attrs)
    if list(out.shape) != [a.shape[0], b.shape[0]]:
        raise AssertionError(f"{api}: Expected shape {(a.shape[0], b.shape[0])}, got {list(out.shape)}")
    return inplace_apply(out, api, lambda o: apply(_fp8.FP8_GEMM_BLOCKWISE, a, a_decode_scale, b, b_decode_scale, o,
                                                   **attrs))


def fused_stack_transpose_quant(x: Sequence[Tensor], transpose: bool = True):
    """The experts' bfloat16 [M, K] matrices stacked (each transposed with transpose=True: [E * K, M], else
    [E * M, K]) and quantized in 128 x 128 blocks: (out float8_e4m3fn, decode scales float32)."""
    api = "fused_stack_transpose_quant"
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"{api}: x must be a non-empty list or tuple of Tensors, received {type(x).__name__}")
    for t in x:
        _check_2d(t, api)
    op = _fp8.FUSED_STACK_TRANSPOSE_QUANT if transpose else _fp8.FUSED_STACK_QUANT
    return tuple(apply(op, list(x)))


def fused_transpose_split_quant(x, input_scales, tokens_per_expert, pow_2_scales=False):
    """x [M, K] (bfloat16, or float8_e4m3fn with its 1 x 128 input_scales) split into the experts' runs of rows,
    each transposed and quantized in 1 x 128 blocks along the tokens: (outs [K, t_i], scales [t_i / 128, K])."""
    api = "fused_transpose_split_quant"
    tokens_per_expert = [int(t) for t in tokens_per_expert]
    _check_2d(x, api)
    check_tensor(input_scales, api, "input_scales", optional=True)
    if x.shape[0] == 0 or x.shape[1] == 0:
        return [], []
    outs, scales = apply(_fp8.FUSED_TRANSPOSE_SPLIT_QUANT, x, input_scales, tokens_per_expert=tokens_per_expert,
                         pow_2_scales=bool(pow_2_scales))
    return list(outs), list(scales)


def fused_transpose_wlch_split_quant(x: Tensor, tokens_per_expert: Sequence[int], pow_2_scales: bool = False):
    """fused_transpose_split_quant of x [W, L, C, H] (bfloat16) read as rows in [L, W, C] order: per expert
    (outs [H, t_i], scales [t_i / 128, H])."""
    api = "fused_transpose_wlch_split_quant"
    tokens_per_expert = [int(t) for t in tokens_per_expert]
    check_tensor(x, api, "x")
    if len(x.shape) != 4:
        raise ValueError(f"{api}: x must be 4-D [W, L, C, H], received shape {list(x.shape)}")
    outs, scales = apply(_fp8.FUSED_TRANSPOSE_WLCH_SPLIT_QUANT, x, tokens_per_expert=tokens_per_expert,
                         pow_2_scales=bool(pow_2_scales))
    return list(outs), list(scales)


def fused_weighted_swiglu_act_quant(x: Tensor, prob: Tensor | None = None, using_pow2_scaling: bool = False,
                                    name: str | None = None):
    """silu(x1) * x2 (* prob per row) of x's halves [..., 2I] (bfloat16), quantized in 1 x 128 blocks:
    (out float8_e4m3fn [rows, I], decode scales float32 [rows, ceil(I / 128)])."""
    api = "fused_weighted_swiglu_act_quant"
    check_tensor(x, api, "x")
    check_tensor(prob, api, "prob", optional=True)
    return tuple(apply(_fp8.FUSED_WEIGHTED_SWIGLU_ACT_QUANT, x, prob, using_pow2_scaling=bool(using_pow2_scaling)))
