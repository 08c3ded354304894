"""paddle.compat.nn.functional: torch.nn.functional's spellings of pad, linear (weight [out, in]), unfold,
softmax and scaled_dot_product_attention ([batch, heads, seq, dim] layout)."""
from .... import tensor as _t
from ....framework.mode import in_dynamic_mode
from ....nn import functional as _F
from ....tensor.tensor_args import is_tensor_like as _is_tensor_like
from ....tensor.tensor_attrs import softmax
from ....utils.decorator_utils import ForbidKeywordsDecorator

__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]


def _check_valid_pad_len(pad_len, x_dim, is_constant):
    if pad_len > 6 or pad_len < 0:
        raise ValueError(f"Expect len(pad) <= 6 and not -1, got: {pad_len}")
    max_dim = 2 * x_dim - (0 if is_constant else 2)
    if pad_len > max_dim:
        raise ValueError(f"len(pad) is bounded by input.ndim: expect len(pad) <= {max_dim}, got: {pad_len}")


@ForbidKeywordsDecorator(illegal_keys={"x", "name", "data_format", "pad_from_left_axis"},
                         func_name="paddle.compat.nn.functional.pad", correct_name="paddle.nn.functional.pad")
def pad(input, pad, mode="constant", value=0.0):
    """torch.nn.functional.pad: `pad` lists (before, after) pairs from the last dimension backwards."""
    if mode not in ("reflect", "replicate", "constant", "circular"):
        raise AssertionError(f"mode should be one of constant, reflect, replicate, circular, but got {mode}.")
    x_dim = len(input.shape)
    if in_dynamic_mode() and _is_tensor_like(pad) and pad.size == 0:
        return input.clone()
    if _is_tensor_like(pad):
        pad = pad.tolist()
    pad = list(pad)
    if mode == "constant" and len(pad) != (x_dim - 2) * 2:  # any rank: Paddle's pad op over every dimension
        pairs = pad + [0] * (2 * x_dim - len(pad))
        return _F.pad(input, pairs, mode="constant", value=float(value), pad_from_left_axis=False)
    if not 1 <= x_dim <= 5:
        raise AssertionError(f"Input tensor dimension must be in [1-5] but got {x_dim}")
    constant = mode == "constant"
    if not constant and x_dim < 2:
        raise ValueError(f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now, got ndim: "
                         f"{x_dim}")
    _check_valid_pad_len(len(pad), x_dim, constant)
    pad = pad + [0] * (6 - len(pad))
    extra = list(range(5 - x_dim))  # as a 5-D NCDHW input, for pad3d
    out = _F.pad(input.unsqueeze(axis=extra) if extra else input, pad, mode=mode, value=value, data_format="NCDHW")
    return out.squeeze(axis=extra) if extra else out


@ForbidKeywordsDecorator(illegal_keys={"x", "name"}, func_name="paddle.compat.nn.functional.linear",
                         correct_name="paddle.nn.functional.linear")
def linear(input, weight, bias=None):
    """input @ weightᵀ (+ bias): torch's weight layout [out_features, in_features]."""
    out = _t.matmul(input, weight, transpose_y=True)
    return out if bias is None else _t.add(out, bias)


def _as_list(x):
    return x.tolist() if _is_tensor_like(x) else x


@ForbidKeywordsDecorator(illegal_keys={"x", "kernel_sizes", "dilations", "paddings", "strides", "name"},
                         func_name="paddle.compat.nn.functional.unfold", correct_name="paddle.nn.functional.unfold")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """torch.nn.functional.unfold: the sliding blocks of `input` [N, C, H, W] as columns."""
    return _F.unfold(input, kernel_sizes=_as_list(kernel_size), strides=_as_list(stride),
                     paddings=_as_list(padding), dilations=_as_list(dilation))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """torch's scaled_dot_product_attention: query/key/value [batch, heads, seq, head_dim] (Paddle's own takes
    [batch, seq, heads, head_dim])."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("Explicit attn_mask should not be set when is_causal=True")
    query, key, value = (t.swapaxes(-3, -2) for t in (query, key, value))
    out = _F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, True, None, scale,
                                          enable_gqa, None)
    return out.swapaxes(-3, -2)
