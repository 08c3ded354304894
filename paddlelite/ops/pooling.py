"""2-D pooling (pool2d / pool2d_grad): max or average, explicit/SAME/VALID padding, ceil mode, global and
adaptive windows, NCHW or NHWC. Fixed windows reuse conv's window gather; adaptive windows loop over cells."""
import numpy as np

from .conv import (check_data_format, crop_hw, extract_windows, fold_windows, from_nchw, nchw_out_shape,
                   nchw_shape, out_size, pad_hw, pair, resolve_pads, to_nchw)
from .registry import Meta, register_op
from .shape_rules import check_float

_POOL_ATTRS = {"pooling_type": "max", "ksize": [1, 1], "strides": [1, 1], "paddings": [0, 0],
               "padding_algorithm": "EXPLICIT", "ceil_mode": False, "exclusive": True, "global_pooling": False,
               "adaptive": False, "data_format": "NCHW"}


def _geometry(op, x_shape, pooling_type, ksize, strides, paddings, padding_algorithm, ceil_mode, exclusive,
              global_pooling, adaptive, data_format):
    """-> (N, C, H, W), ksize, strides, pads, (OH, OW) for fixed windows (adaptive: ksize is the output)."""
    check_data_format(op, data_format)
    if pooling_type not in ("max", "avg"):
        raise ValueError(f"op '{op}': pooling_type must be 'max' or 'avg', received {pooling_type!r}")
    if len(x_shape) != 4:
        raise ValueError(f"op '{op}': X must be 4-D ({data_format}), received shape {list(x_shape)}")
    n, c, h, w = nchw_shape(x_shape, data_format)
    if global_pooling:
        return (n, c, h, w), [h, w], [1, 1], [(0, 0), (0, 0)], (1, 1)
    ksize = pair(op, "ksize", ksize)
    if min(ksize) < 1:
        raise ValueError(f"op '{op}': ksize must be >= 1, received {ksize}")
    if adaptive:
        return (n, c, h, w), ksize, [1, 1], [(0, 0), (0, 0)], tuple(ksize)
    strides = pair(op, "strides", strides)
    if min(strides) < 1:
        raise ValueError(f"op '{op}': strides must be >= 1, received {strides}")
    pads, _ = resolve_pads(op, paddings, padding_algorithm, (h, w), ksize, strides, [1, 1])
    for (a, b), k in zip(pads, ksize):
        if max(a, b) >= k and a != -1:
            raise ValueError(f"op '{op}': paddings {pads} must be smaller than ksize {ksize}")
    oh = out_size(h, pads[0], ksize[0], strides[0], 1, ceil_mode)
    ow = out_size(w, pads[1], ksize[1], strides[1], 1, ceil_mode)
    if (oh != -1 and oh < 1) or (ow != -1 and ow < 1):
        raise ValueError(f"op '{op}': the output would be empty ({oh}x{ow}): X spatial size {[h, w]} is "
                         f"smaller than ksize {ksize} with paddings {pads}")
    return (n, c, h, w), ksize, strides, pads, (oh, ow)


def _pool2d_infer(x, **attrs):
    check_float("pool2d", x, real=True)
    (n, c, _, _), _, _, _, (oh, ow) = _geometry("pool2d", x.shape, **attrs)
    return Meta(nchw_out_shape(n, c, oh, ow, attrs["data_format"]), x.dtype)


def _adaptive_bounds(n, out):
    return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]


def _windows(xp, x, attrs, op):
    """x NCHW -> (cols [N, C, kh, kw, OH, OW], counts [OH, OW] for exclusive averages, geometry)."""
    (n, c, h, w), ksize, strides, pads, (oh, ow) = _geometry(op, nchw_shape(x.shape, "NCHW"), **{
        **attrs, "data_format": "NCHW"})
    # extend the bottom/right padding so ceil-mode windows that run past the edge still fit
    need = [(o - 1) * s + k for o, s, k in zip((oh, ow), strides, ksize)]
    pads = [(a, max(b, nd - a - size)) for (a, b), nd, size in zip(pads, need, (h, w))]
    fill = -np.inf if attrs["pooling_type"] == "max" else 0.0
    xpad = pad_hw(xp, x, pads, fill)
    cols = extract_windows(xp, xpad, ksize, strides, (1, 1), (oh, ow))
    return cols, (h, w), ksize, strides, pads, (oh, ow), xpad.shape[2:]


def _avg_divisor(xp, attrs, hw, ksize, strides, pads, out_hw):
    if not attrs["exclusive"]:
        return float(ksize[0] * ksize[1])
    (h, w), (oh, ow) = hw, out_hw
    rows = [max(0, min(i * strides[0] - pads[0][0] + ksize[0], h) - max(i * strides[0] - pads[0][0], 0))
            for i in range(oh)]
    cols = [max(0, min(j * strides[1] - pads[1][0] + ksize[1], w) - max(j * strides[1] - pads[1][0], 0))
            for j in range(ow)]
    return xp.asarray(np.outer(rows, cols).astype(np.float64))


def _pool2d_forward(xp, x, **attrs):
    fmt = attrs["data_format"]
    x = to_nchw(x, fmt)
    if attrs["adaptive"] and not attrs["global_pooling"]:
        return from_nchw(xp, _adaptive_forward(xp, x, attrs), fmt)
    cols, hw, ksize, strides, pads, out_hw, _ = _windows(xp, x, attrs, "pool2d")
    if attrs["pooling_type"] == "max":
        out = cols.max(axis=(2, 3))
    else:
        out = (cols.sum(axis=(2, 3)) / _avg_divisor(xp, attrs, hw, ksize, strides, pads, out_hw)).astype(x.dtype)
    return from_nchw(xp, out, fmt)


def _adaptive_forward(xp, x, attrs):
    n, c, h, w = x.shape
    oh, ow = pair("pool2d", "ksize", attrs["ksize"])
    out = xp.empty((n, c, oh, ow), dtype=x.dtype)
    for i, (hs, he) in enumerate(_adaptive_bounds(h, oh)):
        for j, (ws, we) in enumerate(_adaptive_bounds(w, ow)):
            block = x[:, :, hs:he, ws:we]
            out[:, :, i, j] = block.max(axis=(2, 3)) if attrs["pooling_type"] == "max" else block.mean(axis=(2, 3))
    return out


def _first_max_mask(xp, blocks, axis):
    """One-hot (same shape as blocks) marking the first maximum along `axis` (where max pooling routes grads)."""
    idx = xp.expand_dims(blocks.argmax(axis=axis), axis)
    shape = [1] * blocks.ndim
    shape[axis] = blocks.shape[axis]
    return xp.arange(blocks.shape[axis]).reshape(shape) == idx


def _pool2d_grad_forward(xp, x, out, dout, **attrs):
    fmt = attrs["data_format"]
    x, dout = to_nchw(x, fmt), to_nchw(dout, fmt)
    if attrs["adaptive"] and not attrs["global_pooling"]:
        return from_nchw(xp, _adaptive_grad(xp, x, dout, attrs), fmt)
    cols, hw, ksize, strides, pads, out_hw, padded_hw = _windows(xp, x, attrs, "pool2d_grad")
    n, c = x.shape[:2]
    k = ksize[0] * ksize[1]
    if attrs["pooling_type"] == "max":
        mask = _first_max_mask(xp, cols.reshape(n, c, k, *out_hw), 2)
        dcols = xp.where(mask, dout[:, :, None], 0).astype(x.dtype)
    else:
        d = (dout / _avg_divisor(xp, attrs, hw, ksize, strides, pads, out_hw)).astype(x.dtype)
        dcols = xp.broadcast_to(d[:, :, None], (n, c, k) + tuple(out_hw))
    dx = fold_windows(xp, dcols.reshape(n, c, ksize[0], ksize[1], *out_hw), padded_hw, strides, (1, 1))
    return from_nchw(xp, crop_hw(dx, pads, hw), fmt)


def _adaptive_grad(xp, x, dout, attrs):
    n, c, h, w = x.shape
    oh, ow = pair("pool2d", "ksize", attrs["ksize"])
    dx = xp.zeros(x.shape, dtype=x.dtype)
    for i, (hs, he) in enumerate(_adaptive_bounds(h, oh)):
        for j, (ws, we) in enumerate(_adaptive_bounds(w, ow)):
            d = dout[:, :, i, j][:, :, None, None]
            if attrs["pooling_type"] == "max":
                block = x[:, :, hs:he, ws:we]
                mask = _first_max_mask(xp, block.reshape(n, c, -1), 2).reshape(block.shape)
                dx[:, :, hs:he, ws:we] += xp.where(mask, d, 0)
            else:
                dx[:, :, hs:he, ws:we] += d / ((he - hs) * (we - ws))
    return dx


def _pool2d_grad_infer(x, out, dout, **attrs):
    expected = _pool2d_infer(x, **attrs).shape
    if len(dout.shape) != 4 or any(a != b and -1 not in (a, b) for a, b in zip(dout.shape, expected)):
        raise ValueError(f"op 'pool2d_grad': DOut has shape {list(dout.shape)} but pooling X {list(x.shape)} "
                         f"gives {list(expected)}")
    return Meta(x.shape, x.dtype)


def _pool2d_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("pool2d_grad", g.input("X"), g.output("Out"), g.output_grad("Out"), **g.attrs))


POOL2D = register_op("pool2d", inputs=("X",), outputs=("Out",), forward=_pool2d_forward, infer=_pool2d_infer,
                     grad=_pool2d_grad, attrs=_POOL_ATTRS)

# pool2d_grad has no grad maker: double backward through pooling is not supported.
POOL2D_GRAD = register_op("pool2d_grad", inputs=("X", "Out", "DOut"), outputs=("DX",), forward=_pool2d_grad_forward,
                          infer=_pool2d_grad_infer, attrs=_POOL_ATTRS, nondiff_inputs=("Out",))
