"""Blockwise float8 (e4m3fn) quantization: the ops of paddle.incubate.nn.functional's fp8 names (Paddle ships them
for Hopper GPU builds; here one xp forward serves NumPy and CuPy, float8 through ml_dtypes as the cast op gives it).

A block of values (1 x 128 along a row, or 128 x 128) is quantized with scale = 448 / max(amax, epsilon) (1 for an
all-zero block; the largest float below 2^128 when 448 / amax overflows), rounded down to a power of two with
pow2 scaling: q = e4m3(x * scale), saturating. The scale tensors hold the decode scale 1 / scale, float32 -- or,
with ue8m0 scaling, that (power-of-two) scale's 8 exponent bits, four consecutive blocks packed little-endian into
one int32. Layouts, as Paddle's kernels write them:
- 1x128: scale [M, ceil(N / 128)], or [ceil(N / 128), M] with output_scale_transpose (the layout fp8_gemm_blockwise
  takes for a "1-D scaled" operand); 128x128: [M / 128, N / 128], or its transpose.
- input_transpose also quantizes x.T (its own 1x128 blocks run down x's columns): out_transposed [N, M] with
  scale_transposed shaped by the same rule.
- fused_transpose_split_quant: per expert's run of rows, its transpose in 1 x 128 blocks along the tokens;
  fused_transpose_wlch_split_quant the same over x [W, L, C, H] read as rows in [L, W, C] order.
- fp8_gemm_blockwise(a [M, K], a scale, b [N, K], b scale): a @ b.T from the dequantized operands, accumulated in
  float32 (+ the given out with accumulate), cast to out_dtype.
"""
import ml_dtypes
import numpy as np

from ..framework.dtype import FLOAT8_E4M3FN, convert_dtype
from .registry import Meta, get_op, register_op

BLOCK = 128
FP8_MAX = 448.0
_F32 = np.dtype(np.float32)
_INT32 = np.dtype(np.int32)
_BF16 = np.dtype(ml_dtypes.bfloat16)
_HALF_FLOATS = (np.dtype(np.float16), _BF16)


def _blocks(n):
    return -(-n // BLOCK)


def _encode_scale(xp, amax, epsilon, pow2):
    """The multiplication scale of blocks with max |x| `amax` (float32), as Paddle's ScaleWrapper."""
    amax = xp.maximum(amax, np.float32(epsilon))
    with np.errstate(divide="ignore"):
        scale = np.float32(FP8_MAX) / amax
    if pow2:
        mantissa, exponent = xp.frexp(scale)  # scale = m 2^e, m in [0.5, 1): the power of two below is 2^(e - 1)
        scale = xp.ldexp(xp.ones_like(scale), exponent - 1).astype(_F32)
        overflow = np.float32(2.0 ** 127)
    else:
        overflow = np.float32(np.ldexp(np.float64(0x1FE), 119))  # 0x1.FEp127
    scale = xp.where(xp.isinf(scale), overflow, scale)
    return xp.where(amax == 0, np.float32(1), scale).astype(_F32)


def to_e4m3(xp, values):
    """float32 values as float8_e4m3fn, rounded to nearest even and saturating (the cast op's rule)."""
    return get_op("cast").forward(xp, values, dtype="float8_e4m3fn")


def _pack_ue8m0(xp, decode):
    """Decode scales [R, B] (powers of two) as their exponent bytes, four blocks per int32 (little-endian)."""
    rows, blocks = decode.shape
    exponent = (decode.view(np.uint32) >> 23) & 0xFF
    padded = xp.zeros((rows, -(-blocks // 4) * 4), dtype=np.uint8)
    padded[:, :blocks] = exponent.astype(np.uint8)
    return xp.ascontiguousarray(padded).view(np.int32)


def _unpack_ue8m0(xp, packed, blocks):
    """The float32 decode scales [R, blocks] of packed ue8m0 exponents [R, ceil(blocks / 4)]."""
    exponent = xp.ascontiguousarray(packed).view(np.uint8)[:, :blocks].astype(np.int32)
    return xp.ldexp(xp.ones(exponent.shape, _F32), exponent - 127).astype(_F32)


def quantize_rows(xp, x, epsilon, pow2):
    """x [M, N] in 1 x 128 blocks along its rows (the last block may be partial): (e4m3 [M, N], decode [M, B])."""
    rows, cols = x.shape
    wide = x.astype(_F32)
    blocks = _blocks(cols)
    padded = xp.zeros((rows, blocks * BLOCK), _F32)
    padded[:, :cols] = wide
    amax = xp.abs(padded.reshape(rows, blocks, BLOCK)).max(axis=2)
    scale = _encode_scale(xp, amax, epsilon, pow2)
    q = to_e4m3(xp, wide * xp.repeat(scale, BLOCK, axis=1)[:, :cols])
    return q, (np.float32(1) / scale).astype(_F32)


def _quantize_tiles(xp, x, epsilon, pow2):
    """x [M, N] (both multiples of 128) in 128 x 128 blocks: (e4m3 [M, N], decode [M / 128, N / 128])."""
    rows, cols = x.shape
    wide = x.astype(_F32)
    tiles = wide.reshape(rows // BLOCK, BLOCK, cols // BLOCK, BLOCK)
    scale = _encode_scale(xp, xp.abs(tiles).max(axis=(1, 3)), epsilon, pow2)
    q = to_e4m3(xp, (tiles * scale[:, None, :, None]).reshape(rows, cols))
    return q, (np.float32(1) / scale).astype(_F32)


def _scale_layout(xp, decode, transpose, ue8m0):
    stored = _pack_ue8m0(xp, decode) if ue8m0 else decode
    return xp.ascontiguousarray(stored.T) if transpose else stored


def _quant_blockwise_forward(xp, x, epsilon, using_1x128_vec_quant, input_transpose, output_scale_transpose,
                             return_transpose_only, using_e5m2, using_pow2_scale, using_ue8m0_scale):
    quantize = quantize_rows if using_1x128_vec_quant else _quantize_tiles
    pow2 = using_pow2_scale or using_ue8m0_scale
    q, decode = quantize(xp, x, epsilon, pow2)
    if input_transpose:
        if using_1x128_vec_quant:
            q_t, decode_t = quantize_rows(xp, x.T, epsilon, pow2)
        else:
            q_t, decode_t = xp.ascontiguousarray(q.T), xp.ascontiguousarray(decode.T)
        outs_t = (q_t, _scale_layout(xp, decode_t, output_scale_transpose, using_ue8m0_scale))
    else:
        outs_t = (xp.zeros((0, 0), FLOAT8_E4M3FN), xp.zeros((0, 0), _INT32 if using_ue8m0_scale else _F32))
    return (q, _scale_layout(xp, decode, output_scale_transpose, using_ue8m0_scale), *outs_t)


def _scale_shape(rows, cols, row_block, transpose, ue8m0):
    """The stored scale shape of [rows, cols] quantized in row_block x 128 blocks."""
    shape = (-1 if rows == -1 else _blocks(rows) if row_block > 1 else rows, -1 if cols == -1 else _blocks(cols))
    if ue8m0 and shape[1] != -1:
        shape = (shape[0], -(-shape[1] // 4))
    return shape[::-1] if transpose else shape


def _quant_blockwise_infer(x, epsilon, using_1x128_vec_quant, input_transpose, output_scale_transpose,
                           return_transpose_only, using_e5m2, using_pow2_scale, using_ue8m0_scale):
    op = "fp8_quant_blockwise"
    if len(x.shape) != 2:
        raise ValueError(f"op '{op}': x must be 2-D, received shape {list(x.shape)}")
    if x.dtype not in _HALF_FLOATS:
        raise TypeError(f"op '{op}': x must be bfloat16 or float16, received {x.dtype}")
    if using_e5m2:
        raise ValueError(f"op '{op}': only the e4m3 output type is supported (Paddle's kernels have no e5m2)")
    rows, cols = x.shape
    aligned = all(d == -1 or d % BLOCK == 0 for d in (rows, cols))
    if not aligned and (input_transpose or not using_1x128_vec_quant):
        raise ValueError(f"op '{op}': x's dims must be multiples of 128 for 128x128 blocks or input_transpose, "
                         f"received shape {list(x.shape)}")
    if cols != -1 and cols % 4:
        raise ValueError(f"op '{op}': x's last dim must be a multiple of 4, received {cols}")
    scale_dtype = _INT32 if using_ue8m0_scale else _F32
    row_block = 1 if using_1x128_vec_quant else BLOCK
    metas = (Meta((rows, cols), FLOAT8_E4M3FN),
             Meta(_scale_shape(rows, cols, row_block, output_scale_transpose, using_ue8m0_scale), scale_dtype))
    if not input_transpose:
        return (*metas, Meta((0, 0), FLOAT8_E4M3FN), Meta((0, 0), scale_dtype))
    return (*metas, Meta((cols, rows), FLOAT8_E4M3FN),
            Meta(_scale_shape(cols, rows, row_block, output_scale_transpose, using_ue8m0_scale), scale_dtype))


FP8_QUANT_BLOCKWISE = register_op(
    "fp8_quant_blockwise", inputs=("x",), outputs=("out", "scale", "out_transposed", "scale_transposed"),
    forward=_quant_blockwise_forward, infer=_quant_blockwise_infer,
    attrs={"epsilon": 0.0, "using_1x128_vec_quant": True, "input_transpose": False, "output_scale_transpose": True,
           "return_transpose_only": False, "using_e5m2": False, "using_pow2_scale": True,
           "using_ue8m0_scale": False})


# ---- dequantization --------------------------------------------------------------------------------------------
def _act_dequant_forward(xp, x, x_scale):
    """x [M, N] e4m3 times its 1 x 128 decode scales (float32 [M, ceil(N / 128)], or ue8m0-packed int32
    [M, ceil(N / 512)]), as bfloat16."""
    cols = x.shape[1]
    decode = _unpack_ue8m0(xp, x_scale, _blocks(cols)) if x_scale.dtype == _INT32 else x_scale
    values = x.astype(_F32) * xp.repeat(decode.astype(_F32), BLOCK, axis=1)[:, :cols]
    return values.astype(_BF16)


def _act_dequant_infer(x, x_scale):
    op = "fused_act_dequant"
    if x.dtype != FLOAT8_E4M3FN or len(x.shape) != 2:
        raise TypeError(f"op '{op}': x must be a 2-D float8_e4m3fn tensor, received {x.dtype} {list(x.shape)}")
    rows, cols = x.shape
    per = 4 * BLOCK if x_scale.dtype == _INT32 else BLOCK
    want = (rows, -1 if cols == -1 else -(-cols // per))
    if x_scale.dtype not in (_F32, _INT32) or (-1 not in want + tuple(x_scale.shape) and
                                               tuple(x_scale.shape) != want):
        raise ValueError(f"op '{op}': x_scale must be float32 {list(want)} (or ue8m0 int32 [M, ceil(N / 512)]), "
                         f"received {x_scale.dtype} {list(x_scale.shape)}")
    return Meta((rows, cols), _BF16)


FUSED_ACT_DEQUANT = register_op("fused_act_dequant", inputs=("x", "x_scale"), outputs=("out",),
                                forward=_act_dequant_forward, infer=_act_dequant_infer)


# ---- fp8_gemm_blockwise ----------------------------------------------------------------------------------------
def _dequantize_operand(xp, q, decode, one_d):
    """An operand [R, K] from its e4m3 values and decode scales: 1 x 128 blocks ([K / 128, R]) or 128 x 128
    ([R / 128, K / 128])."""
    rows, depth = q.shape
    if one_d:
        per_element = xp.repeat(decode.T, BLOCK, axis=1)[:, :depth]
    else:
        per_element = xp.repeat(xp.repeat(decode, BLOCK, axis=0), BLOCK, axis=1)[:rows, :depth]
    return q.astype(_F32) * per_element.astype(_F32)


def _gemm_forward(xp, a, a_decode_scale, b, b_decode_scale, out, out_dtype, accumulate, is_a_1d_scaled,
                  is_b_1d_scaled):
    product = _dequantize_operand(xp, a, a_decode_scale, is_a_1d_scaled) @ \
        _dequantize_operand(xp, b, b_decode_scale, is_b_1d_scaled).T
    if accumulate and out is not None:
        product = product + out.astype(_F32)
    return product.astype(convert_dtype(out_dtype).np)


def _operand_scale_shape(rows, depth, one_d):
    blocks = -1 if depth == -1 else _blocks(depth)
    if one_d:
        return blocks, rows
    return (-1 if rows == -1 else _blocks(rows)), blocks


def _gemm_infer(a, a_decode_scale, b, b_decode_scale, out, out_dtype, accumulate, is_a_1d_scaled, is_b_1d_scaled):
    op = "fp8_gemm_blockwise"
    for slot, m in (("a", a), ("b", b)):
        if m.dtype != FLOAT8_E4M3FN or len(m.shape) != 2:
            raise TypeError(f"op '{op}': {slot} must be a 2-D float8_e4m3fn tensor, received {m.dtype} "
                            f"{list(m.shape)}")
    if -1 not in (a.shape[1], b.shape[1]) and a.shape[1] != b.shape[1]:
        raise ValueError(f"op '{op}': a [M, K] and b [N, K] must share K, received {list(a.shape)} and "
                         f"{list(b.shape)}")
    for slot, m, scale, one_d in (("a", a, a_decode_scale, is_a_1d_scaled), ("b", b, b_decode_scale,
                                                                               is_b_1d_scaled)):
        want = _operand_scale_shape(m.shape[0], m.shape[1], one_d)
        if scale.dtype != _F32 or (-1 not in want + tuple(scale.shape) and tuple(scale.shape) != want):
            raise ValueError(f"op '{op}': {slot}_decode_scale must be float32 {list(want)} "
                             f"({'1x128' if one_d else '128x128'} blocks), received {scale.dtype} "
                             f"{list(scale.shape)}")
    shape = (a.shape[0], b.shape[0])
    if out is not None and -1 not in shape + tuple(out.shape) and tuple(out.shape) != shape:
        raise ValueError(f"op '{op}': out must have shape {list(shape)}, received {list(out.shape)}")
    return Meta(shape, convert_dtype(out_dtype).np)


FP8_GEMM_BLOCKWISE = register_op(
    "fp8_gemm_blockwise", inputs=("a", "a_decode_scale", "b", "b_decode_scale", "out"), outputs=("output",),
    optional_inputs=("out",), forward=_gemm_forward, infer=_gemm_infer,
    attrs={"out_dtype": "bfloat16", "accumulate": False, "is_a_1d_scaled": True, "is_b_1d_scaled": True})


# ---- fused quantizations of the MoE training step --------------------------------------------------------------
def _check_bf16(op, slot, meta):
    if meta.dtype != _BF16:
        raise TypeError(f"op '{op}': {slot} must be bfloat16, received {meta.dtype}")


def _check_tiles(op, slot, shape):
    if len(shape) != 2 or any(d != -1 and d % BLOCK for d in shape):
        raise ValueError(f"op '{op}': {slot} must be 2-D with dims that are multiples of 128, received {list(shape)}")


def _stack_quant(transpose):
    """fused_stack_(transpose_)quant: the experts' [M, K] matrices (or their transposes) stacked along rows and
    quantized in 128 x 128 blocks (no power-of-two rounding): (out [E * M, K] or [E * K, M], decode scales)."""
    op = "fused_stack_transpose_quant" if transpose else "fused_stack_quant"

    def forward(xp, x):
        return _quantize_tiles(xp, xp.concatenate([m.T if transpose else m for m in x], axis=0), 0.0, False)

    def infer(x):
        for m in x:
            _check_bf16(op, "x", m)
            _check_tiles(op, "x", m.shape)
        if any(tuple(m.shape) != tuple(x[0].shape) for m in x):
            raise ValueError(f"op '{op}': the tensors of x must share one shape, received "
                             f"{[list(m.shape) for m in x]}")
        rows, cols = x[0].shape[::-1] if transpose else x[0].shape
        total = -1 if rows == -1 else rows * len(x)
        return (Meta((total, cols), FLOAT8_E4M3FN),
                Meta((-1 if total == -1 else total // BLOCK, -1 if cols == -1 else cols // BLOCK), _F32))

    return register_op(op, inputs=("x",), outputs=("out", "scale"), variadic_inputs=("x",), forward=forward,
                       infer=infer)


FUSED_STACK_QUANT = _stack_quant(False)
FUSED_STACK_TRANSPOSE_QUANT = _stack_quant(True)


def _transpose_split_forward(xp, x, input_scales, tokens_per_expert, pow_2_scales):
    """Per expert's run of rows x_i [t_i, K] (t_i a multiple of 128): x_i.T [K, t_i] in 1 x 128 blocks along the
    tokens, scales [t_i / 128, K]; a float8 x is first dequantized with its 1 x 128 input_scales [M, ceil(K / 128)]
    and rounded to bfloat16, as Paddle's kernel loads it."""
    if input_scales is not None:
        x = _act_dequant_forward(xp, x, input_scales)
    outs, scales = [], []
    start = 0
    for tokens in tokens_per_expert:
        q, decode = quantize_rows(xp, x[start:start + tokens].T, 0.0, pow_2_scales)
        outs.append(q)
        scales.append(xp.ascontiguousarray(decode.T))
        start += tokens
    return outs, scales


def _transpose_split_infer(x, input_scales, tokens_per_expert, pow_2_scales):
    op = "fused_transpose_split_quant"
    if len(x.shape) != 2:
        raise ValueError(f"op '{op}': x must be 2-D, received shape {list(x.shape)}")
    if input_scales is None:
        _check_bf16(op, "x", x)
    else:
        _act_dequant_infer(x, input_scales)
    if any(t < 0 or t % BLOCK for t in tokens_per_expert):
        raise ValueError(f"op '{op}': tokens_per_expert must hold multiples of 128, received "
                         f"{list(tokens_per_expert)}")
    if x.shape[0] != -1 and sum(tokens_per_expert) != x.shape[0]:
        raise ValueError(f"op '{op}': tokens_per_expert must sum to x's {x.shape[0]} rows, received "
                         f"{list(tokens_per_expert)}")
    cols = x.shape[1]
    return ([Meta((cols, t), FLOAT8_E4M3FN) for t in tokens_per_expert],
            [Meta((t // BLOCK, cols), _F32) for t in tokens_per_expert])


FUSED_TRANSPOSE_SPLIT_QUANT = register_op(
    "fused_transpose_split_quant", inputs=("x", "input_scales"), outputs=("out", "scale"),
    optional_inputs=("input_scales",), variadic_outputs=("out", "scale"), forward=_transpose_split_forward,
    infer=_transpose_split_infer, attrs={"tokens_per_expert": [], "pow_2_scales": False})


def _wlch_rows(x):
    """x [W, L, C, H] as the rows Paddle's kernel reads, in [L, W, C] order: [L * W * C, H]."""
    return x.transpose(1, 0, 2, 3).reshape(-1, x.shape[3])


def _wlch_split_forward(xp, x, tokens_per_expert, pow_2_scales):
    return _transpose_split_forward(xp, _wlch_rows(x), None, tokens_per_expert, pow_2_scales)


def _wlch_split_infer(x, tokens_per_expert, pow_2_scales):
    op = "fused_transpose_wlch_split_quant"
    if len(x.shape) != 4:
        raise ValueError(f"op '{op}': x must be 4-D [W, L, C, H], received shape {list(x.shape)}")
    rows = -1 if -1 in x.shape[:3] else int(np.prod(x.shape[:3]))
    return _transpose_split_infer(Meta((rows, x.shape[3]), x.dtype), None, tokens_per_expert, pow_2_scales)


FUSED_TRANSPOSE_WLCH_SPLIT_QUANT = register_op(
    "fused_transpose_wlch_split_quant", inputs=("x",), outputs=("out", "scale"), variadic_outputs=("out", "scale"),
    forward=_wlch_split_forward, infer=_wlch_split_infer, attrs={"tokens_per_expert": [], "pow_2_scales": False})


def _swiglu_act(xp, x, prob):
    """silu(x1) * x2 in float32 over x's halves [..., 2I] as rows [R, I], times each row's prob when given."""
    wide = x.astype(_F32).reshape(-1, x.shape[-1])
    half = wide.shape[1] // 2
    gate, up = wide[:, :half], wide[:, half:]
    act = gate / (np.float32(1) + xp.exp(-gate)) * up
    return act if prob is None else act * prob.reshape(-1, 1).astype(_F32)


def _weighted_swiglu_quant_forward(xp, x, prob, using_pow2_scaling):
    return quantize_rows(xp, _swiglu_act(xp, x, prob), 0.0, using_pow2_scaling)


def _weighted_swiglu_quant_infer(x, prob, using_pow2_scaling):
    op = "fused_weighted_swiglu_act_quant"
    _check_bf16(op, "x", x)
    cols = x.shape[-1] if x.shape else -1
    if cols != -1 and cols % 2:
        raise ValueError(f"op '{op}': x's last dim must be even, received {cols}")
    rows = -1 if -1 in x.shape[:-1] else int(np.prod(x.shape[:-1]))
    if prob is not None:
        if prob.dtype != _F32:
            raise TypeError(f"op '{op}': prob must be float32, received {prob.dtype}")
        if -1 not in (rows, prob.shape[0] if prob.shape else 1) and int(np.prod(prob.shape)) != rows:
            raise ValueError(f"op '{op}': prob must hold one value per row of x ({rows}), received shape "
                             f"{list(prob.shape)}")
    half = -1 if cols == -1 else cols // 2
    return (Meta((rows, half), FLOAT8_E4M3FN), Meta((rows, -1 if half == -1 else _blocks(half)), _F32))


FUSED_WEIGHTED_SWIGLU_ACT_QUANT = register_op(
    "fused_weighted_swiglu_act_quant", inputs=("x", "prob"), outputs=("out", "scale"), optional_inputs=("prob",),
    forward=_weighted_swiglu_quant_forward, infer=_weighted_swiglu_quant_infer, attrs={"using_pow2_scaling": False})
