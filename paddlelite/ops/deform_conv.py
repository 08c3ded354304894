"""Deformable convolution (Paddle's `deformable_conv`, v2 with a modulation Mask, and `deformable_conv_v1`
without) and its grad op, by a bilinear im2col + the grouped matmul of conv2d.

Every kernel tap k = (i, j) of output position (ho, wo) reads the input at
    (ho * stride_h - pad_h + i * dilation_h + dh, wo * stride_w - pad_w + j * dilation_w + dw),
(dh, dw) taken from Offset [N, deformable_groups * kh * kw * 2, Ho, Wo] (channel = (group, tap, h|w)),
by bilinear interpolation (corners outside the image read 0; a point at or beyond one pixel outside reads
0), and multiplies it by Mask [N, deformable_groups * kh * kw, Ho, Wo] (v2). Input channels are split into
deformable_groups consecutive blocks, each with its own offsets. The gradient follows the same sampling:
Input gets the bilinear weights scattered back, Offset the slope of the interpolation, Mask the sampled
values, Filter the conv2d filter gradient.
"""
import numpy as np

from .conv import out_size, pair, scatter_add
from .math import matmul_array
from .registry import Meta, register_op
from .shape_rules import check_float, known_shapes_differ

_ATTRS = {"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "groups": 1, "deformable_groups": 1,
          "im2col_step": 64}


def _geometry(op, x_shape, offset_shape, w_shape, mask_shape, strides, paddings, dilations, groups,
              deformable_groups, im2col_step):
    """Validate shapes and attrs -> (strides, paddings, dilations, (Ho, Wo))."""
    for slot, shape, what in (("Input", x_shape, "[N, C, H, W]"), ("Filter", w_shape, "[C_out, C/groups, kh, kw]"),
                              ("Offset", offset_shape, "[N, 2 * deformable_groups * kh * kw, H_out, W_out]")):
        if len(shape) != 4:
            raise ValueError(f"op '{op}': {slot} must be 4-D {what}, received shape {list(shape)}")
    strides, paddings, dilations = (pair(op, "strides", strides), pair(op, "paddings", paddings),
                                    pair(op, "dilations", dilations))
    if min(strides) < 1 or min(dilations) < 1 or min(paddings) < 0:
        raise ValueError(f"op '{op}': strides and dilations must be >= 1 and paddings >= 0, received strides "
                         f"{strides}, paddings {paddings}, dilations {dilations}")
    for name, value in (("groups", groups), ("deformable_groups", deformable_groups), ("im2col_step", im2col_step)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            raise ValueError(f"op '{op}': {name} must be a positive int, received {value!r}")
    n, c, h, w = x_shape
    o, cg, kh, kw = w_shape
    if c != -1 and c != cg * groups:
        raise ValueError(f"op '{op}': Input has {c} channels but Filter {list(w_shape)} with groups={groups} expects "
                         f"{cg * groups}")
    if o % groups:
        raise ValueError(f"op '{op}': the number of output channels ({o}) must be divisible by groups={groups}")
    if c != -1 and c % deformable_groups:
        raise ValueError(f"op '{op}': Input's {c} channels must be divisible by deformable_groups={deformable_groups}")
    if n != -1 and n > im2col_step and n % im2col_step:
        raise ValueError(f"op '{op}': the batch size ({n}) must be at most im2col_step ({im2col_step}) or divisible "
                         "by it")
    outs = tuple(out_size(size, (p, p), k, s, d) for size, p, k, s, d in zip((h, w), paddings, (kh, kw), strides,
                                                                            dilations))
    if any(v != -1 and v < 1 for v in outs):
        raise ValueError(f"op '{op}': the output would be empty ({list(outs)}): Input {list(x_shape)} with paddings "
                         f"{paddings} is smaller than the dilated kernel {[kh, kw]} (dilations {dilations})")
    taps = deformable_groups * kh * kw
    if known_shapes_differ(offset_shape, (n, 2 * taps, *outs)):
        raise ValueError(f"op '{op}': Offset must have shape {[n, 2 * taps, *outs]} ([N, 2 * deformable_groups * kh "
                         f"* kw, H_out, W_out]), received {list(offset_shape)}")
    if mask_shape is not None and known_shapes_differ(mask_shape, (n, taps, *outs)):
        raise ValueError(f"op '{op}': Mask must have shape {[n, taps, *outs]} ([N, deformable_groups * kh * kw, "
                         f"H_out, W_out]), received {list(mask_shape)}")
    return strides, paddings, dilations, outs


def _corners(xp, x_shape, offset, w_shape, strides, paddings, dilations, deformable_groups, outs):
    """The bilinear reads of every tap: four (flat index into H*W, weight, d weight/dh, d weight/dw), arrays of
    shape [N, dg, 1, K, Ho, Wo] (K = kh * kw); weights are 0 where a corner (or the point) is outside."""
    n, _, h, w = x_shape
    _, _, kh, kw = w_shape
    ho, wo = outs
    dtype = offset.dtype
    off = offset.reshape(n, deformable_groups, 1, kh * kw, 2, ho, wo)
    tap_h = np.repeat(np.arange(kh) * dilations[0], kw).reshape(kh * kw, 1, 1)
    tap_w = np.tile(np.arange(kw) * dilations[1], kh).reshape(kh * kw, 1, 1)
    base_h = xp.asarray(tap_h + (np.arange(ho) * strides[0] - paddings[0]).reshape(1, ho, 1), dtype=dtype)
    base_w = xp.asarray(tap_w + (np.arange(wo) * strides[1] - paddings[1]).reshape(1, 1, wo), dtype=dtype)
    ph, pw = base_h + off[:, :, :, :, 0], base_w + off[:, :, :, :, 1]
    inside = ((ph > -1) & (pw > -1) & (ph < h) & (pw < w)).astype(dtype)
    h0, w0 = xp.floor(ph), xp.floor(pw)
    lh, lw = ph - h0, pw - w0
    h0, w0 = h0.astype(np.int64), w0.astype(np.int64)
    out = []
    # corner (h0 + a, w0 + b): weight (a ? lh : 1 - lh) * (b ? lw : 1 - lw)
    for a in (0, 1):
        for b in (0, 1):
            ch, cw = h0 + a, w0 + b
            valid = inside * ((ch >= 0) & (ch < h) & (cw >= 0) & (cw < w))
            fh, fw = (lh if a else 1 - lh), (lw if b else 1 - lw)
            sh, sw = (1 if a else -1), (1 if b else -1)
            index = xp.clip(ch, 0, h - 1) * w + xp.clip(cw, 0, w - 1)
            out.append((index, valid * fh * fw, valid * sh * fw, valid * fh * sw))
    return out


def _sample(xp, xg, corners):
    """Bilinear reads of xg [N, dg, C/dg, H*W] -> ([N, dg, C/dg, K, Ho, Wo] values, per-corner reads)."""
    n, dg, cd, _ = xg.shape
    reads = []
    for index, *_ in corners:
        flat = index.reshape(n, dg, 1, -1)
        reads.append(xp.take_along_axis(xg, flat, axis=3).reshape((n, dg, cd) + index.shape[3:]))
    return sum(r * weight for r, (_, weight, _, _) in zip(reads, corners)), reads


def _columns(xp, x, offset, w_shape, mask, attrs, op):
    """The deformable im2col: (cols [N, C, K, Ho, Wo] (sampled, modulated), sampled values, corners, reads)."""
    _, _, _, outs = _geometry(op, x.shape, offset.shape, w_shape, None if mask is None else mask.shape, **attrs)
    n, c, h, w = x.shape
    dg = attrs["deformable_groups"]
    corners = _corners(xp, x.shape, offset, w_shape, attrs["strides"], attrs["paddings"], attrs["dilations"], dg,
                       outs)
    values, reads = _sample(xp, x.reshape(n, dg, c // dg, h * w), corners)
    cols = values if mask is None else values * mask.reshape(n, dg, 1, -1, *outs)
    return cols.reshape(n, c, -1, *outs), values, corners, reads


def _group_shapes(n, w_shape, groups):
    o, cg, kh, kw = w_shape
    return (groups, o // groups, cg * kh * kw), (n, groups, cg * kh * kw, -1)


def _forward(xp, x, offset, w, mask, **attrs):
    cols, _, _, _ = _columns(xp, x, offset, w.shape, mask, attrs, "deformable_conv")
    w_groups, col_groups = _group_shapes(x.shape[0], w.shape, attrs["groups"])
    out = matmul_array(xp, w.reshape(w_groups), cols.reshape(col_groups))            # [N, G, O/G, Ho*Wo]
    return out.reshape(x.shape[0], w.shape[0], *cols.shape[3:])


def _grad_forward(xp, x, offset, w, mask, dout, **attrs):
    cols, values, corners, reads = _columns(xp, x, offset, w.shape, mask, attrs, "deformable_conv_grad")
    n, c, h, wd = x.shape
    dg = attrs["deformable_groups"]
    w_groups, col_groups = _group_shapes(n, w.shape, attrs["groups"])
    d = dout.reshape(n, attrs["groups"], w.shape[0] // attrs["groups"], -1)
    dw = matmul_array(xp, d, cols.reshape(col_groups).swapaxes(-1, -2)).sum(axis=0).reshape(w.shape)
    dcols = matmul_array(xp, w.reshape(w_groups).swapaxes(-1, -2), d).reshape(values.shape)
    dmask = (dcols * values).sum(axis=2).reshape(n, -1, *values.shape[4:])          # also for v1 (Mask = 1)
    dvalues = dcols if mask is None else dcols * mask.reshape(n, dg, 1, *values.shape[3:])
    dx = xp.zeros(x.size, dtype=x.dtype)
    channel_base = (xp.arange(n * c, dtype=np.int64) * (h * wd)).reshape(n, dg, c // dg, 1, 1, 1)
    doff_h = doff_w = 0
    for read, (index, weight, slope_h, slope_w) in zip(reads, corners):
        scatter_add(xp, dx, (channel_base + index).reshape(-1), xp.broadcast_to(dvalues * weight, values.shape)
                    .reshape(-1))
        doff_h = doff_h + (dvalues * read * slope_h).sum(axis=2)
        doff_w = doff_w + (dvalues * read * slope_w).sum(axis=2)
    doffset = xp.stack([doff_h, doff_w], axis=3).reshape(offset.shape)                # (group, tap, h|w)
    return dx.reshape(x.shape), doffset, xp.ascontiguousarray(dw), dmask


def _infer(x, offset, w, mask, **attrs):
    for slot, meta in (("Input", x), ("Offset", offset), ("Filter", w), ("Mask", mask)):
        if meta is not None:
            check_float("deformable_conv", meta, slot, real=True)
    _, _, _, outs = _geometry("deformable_conv", x.shape, offset.shape, w.shape,
                              None if mask is None else mask.shape, **attrs)
    return Meta((x.shape[0], w.shape[0], *outs), x.dtype)


def _grad_infer(x, offset, w, mask, dout, **attrs):
    n, _, *outs = expected = _infer(x, offset, w, mask, **attrs).shape
    if known_shapes_differ(dout.shape, expected):
        raise ValueError(f"op 'deformable_conv_grad': DOutput has shape {list(dout.shape)} but the deformable "
                         f"convolution's output has shape {list(expected)}")
    taps = attrs["deformable_groups"] * w.shape[2] * w.shape[3]
    return (Meta(x.shape, x.dtype), Meta(offset.shape, offset.dtype), Meta(w.shape, w.dtype),
            Meta((n, taps, *outs), x.dtype))


_SLOTS = ("Input", "Offset", "Filter", "Mask")


def _grad_maker(slots):
    """One deformable_conv_grad op gives the gradients of `slots` (v1 has no Mask: the op gets None)."""
    def grad(g):
        if g.needs_any(*slots):
            mask = g.input("Mask") if "Mask" in slots else None
            g.set_input_grads(slots, g.op("deformable_conv_grad", g.input("Input"), g.input("Offset"),
                                          g.input("Filter"), mask, g.output_grad("Output"), **g.attrs))
    return grad


DEFORMABLE_CONV = register_op(
    "deformable_conv", inputs=_SLOTS, outputs=("Output",), forward=_forward, infer=_infer, grad=_grad_maker(_SLOTS),
    attrs=_ATTRS, same_dtype=_SLOTS)
DEFORMABLE_CONV_V1 = register_op(
    "deformable_conv_v1", inputs=_SLOTS[:3], outputs=("Output",),
    forward=lambda xp, x, offset, w, **attrs: _forward(xp, x, offset, w, None, **attrs),
    infer=lambda x, offset, w, **attrs: _infer(x, offset, w, None, **attrs), grad=_grad_maker(_SLOTS[:3]),
    attrs=_ATTRS,
    same_dtype=_SLOTS[:3])
DEFORMABLE_CONV_GRAD = register_op(
    "deformable_conv_grad", inputs=(*_SLOTS, "DOutput"), outputs=("DInput", "DOffset", "DFilter", "DMask"),
    forward=_grad_forward, infer=_grad_infer, attrs=_ATTRS, optional_inputs=("Mask",),
    same_dtype=("Input", "Offset", "Filter", "DOutput"))
