"""Paddle 3.3.1's AMP op lists (python/paddle/amp/amp_lists.py), by Paddle's op names.

auto_cast resolves each name to an op type here (ops/autocast.py: op_type), so a list may name an op
by its type, its legacy-IR type (ops/legacy.py) or the name Paddle's lists use."""

# Numerically safe and performance-critical: computed in float16/bfloat16.
WHITE_LIST = {
    "conv2d", "einsum", "matmul", "matmul_v2", "linear_v2", "max_pool2d_with_index", "mul",
    "fused_gemm_epilogue", "fused_rotary_position_embedding", "flash_attn",
}
# Supported in float16 but not bfloat16.
ONLY_FP16_WHITE_LIST = {
    "fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max", "fused_attention",
    "fused_feedforward",
}
FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST

# Numerically dangerous, with effects seen downstream: computed in float32.
FP16_BLACK_LIST = {
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1", "log", "log10",
    "log2", "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean", "reduce_mean", "reduce_prod",
    "cumprod", "cumsum", "dist", "pnorm", "frobenius_norm", "renorm", "group_norm", "layer_norm", "softmax",
    "softmin", "softplus", "log_softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
    "c_softmax_with_cross_entropy", "c_softmax_with_multi_label_cross_entropy", "cross_entropy",
    "cross_entropy2", "nll_loss", "huber_loss", "triplet_margin_loss", "log_loss", "hsigmoid_loss",
    "margin_cross_entropy",
}
# Their low-precision gradients are slower than float32's: float32 at every level.
EXTRA_BLACK_LIST = {
    "linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2", "trilinear_interp_v2",
    "lookup_table", "lookup_table_v2", "scatter",
}

BF16_WHITE_LIST = WHITE_LIST
BF16_BLACK_LIST = FP16_BLACK_LIST


def white_list():
    """{dtype: {level: ops computed in the low dtype}}."""
    return {"float16": {"OD": FP16_WHITE_LIST, "O1": FP16_WHITE_LIST, "O2": FP16_WHITE_LIST},
            "bfloat16": {"OD": BF16_WHITE_LIST, "O1": BF16_WHITE_LIST, "O2": BF16_WHITE_LIST}}


def black_list():
    """{dtype: {level: ops computed in float32}}."""
    return {"float16": {"OD": set(), "O1": FP16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST},
            "bfloat16": {"OD": set(), "O1": BF16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST}}
