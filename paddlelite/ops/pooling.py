"""Pooling (pool2d / pool3d and their grads): max or average, explicit/SAME/VALID padding, ceil mode, global and
adaptive windows, channel-first or channel-last. Fixed windows reuse conv's window gather; adaptive windows
loop over cells. Every helper works for any number of spatial dims."""
import functools
import itertools

import numpy as np

from .conv import (_FORMATS, check_data_format, crop_hw, extract_windows, fold_windows, from_nchw, ints,
                   nchw_out_shape, nchw_shape, out_size, pad_hw, resolve_pads, to_nchw)
from .registry import Meta, register_op
from .shape_rules import check_float


def _pool_attrs(nd):
    return {"pooling_type": "max", "ksize": [1] * nd, "strides": [1] * nd, "paddings": [0] * nd,
            "padding_algorithm": "EXPLICIT", "ceil_mode": False, "exclusive": True, "global_pooling": False,
            "adaptive": False, "data_format": _FORMATS[nd][0]}


def _geometry(op, nd, x_shape, pooling_type, ksize, strides, paddings, padding_algorithm, ceil_mode, exclusive,
              global_pooling, adaptive, data_format):
    """-> (N, C, *sizes), ksize, strides, pads, out_sizes for fixed windows (adaptive: ksize is the output)."""
    check_data_format(op, data_format, nd)
    if pooling_type not in ("max", "avg"):
        raise ValueError(f"op '{op}': pooling_type must be 'max' or 'avg', received {pooling_type!r}")
    if len(x_shape) != nd + 2:
        raise ValueError(f"op '{op}': X must be {nd + 2}-D ({data_format}), received shape {list(x_shape)}")
    n, c, *sizes = nchw_shape(x_shape, data_format)
    none = [(0, 0)] * nd
    if global_pooling:
        return (n, c, *sizes), sizes, [1] * nd, none, [1] * nd
    ksize = ints(op, "ksize", ksize, nd)
    if min(ksize) < 1:
        raise ValueError(f"op '{op}': ksize must be >= 1, received {ksize}")
    if adaptive:
        return (n, c, *sizes), ksize, [1] * nd, none, list(ksize)
    strides = ints(op, "strides", strides, nd)
    if min(strides) < 1:
        raise ValueError(f"op '{op}': strides must be >= 1, received {strides}")
    pads, _ = resolve_pads(op, paddings, padding_algorithm, sizes, ksize, strides, [1] * nd)
    for (a, b), k in zip(pads, ksize):
        if max(a, b) >= k and a != -1:
            raise ValueError(f"op '{op}': paddings {pads} must be smaller than ksize {ksize}")
    outs = [out_size(size, p, k, s, 1, ceil_mode) for size, p, k, s in zip(sizes, pads, ksize, strides)]
    if any(v != -1 and v < 1 for v in outs):
        raise ValueError(f"op '{op}': the output would be empty ({outs}): X spatial size {sizes} is "
                         f"smaller than ksize {ksize} with paddings {pads}")
    return (n, c, *sizes), ksize, strides, pads, outs


def _adaptive_bounds(n, out):
    return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]


def _windows(xp, nd, x, attrs, op):
    """x channel-first -> (cols [N, C, *ksize, *outs], sizes, ksize, strides, pads, outs, padded sizes)."""
    (n, c, *sizes), ksize, strides, pads, outs = _geometry(op, nd, x.shape, **{**attrs,
                                                                              "data_format": _FORMATS[nd][0]})
    # extend the after-padding so ceil-mode windows that run past the edge still fit
    need = [(o - 1) * s + k for o, s, k in zip(outs, strides, ksize)]
    pads = [(a, max(b, m - a - size)) for (a, b), m, size in zip(pads, need, sizes)]
    fill = -np.inf if attrs["pooling_type"] == "max" else 0.0
    xpad = pad_hw(xp, x, pads, fill)
    cols = extract_windows(xp, xpad, ksize, strides, [1] * nd, outs)
    return cols, sizes, ksize, strides, pads, outs, xpad.shape[2:]


def _avg_divisor(xp, attrs, sizes, ksize, strides, pads, outs):
    if not attrs["exclusive"]:
        return float(np.prod(ksize))
    counts = [[max(0, min(i * s - a + k, size) - max(i * s - a, 0)) for i in range(o)]
              for size, k, s, (a, _), o in zip(sizes, ksize, strides, pads, outs)]
    return xp.asarray(functools.reduce(np.multiply.outer, [np.asarray(cnt, np.float64) for cnt in counts]))


def _adaptive_cells(sizes, outs):
    """(output index, input slices) of every adaptive cell."""
    for cell in itertools.product(*(enumerate(_adaptive_bounds(n, o)) for n, o in zip(sizes, outs))):
        yield tuple(i for i, _ in cell), tuple(slice(a, b) for _, (a, b) in cell)


def _first_max_mask(xp, blocks, axis):
    """One-hot (same shape as blocks) marking the first maximum along `axis` (where max pooling routes grads)."""
    idx = xp.expand_dims(blocks.argmax(axis=axis), axis)
    shape = [1] * blocks.ndim
    shape[axis] = blocks.shape[axis]
    return xp.arange(blocks.shape[axis]).reshape(shape) == idx


def _register_pool(nd):
    name, grad_name = f"pool{nd}d", f"pool{nd}d_grad"
    axes = tuple(range(2, 2 + nd))
    _ALL = (slice(None), slice(None))

    def infer(x, **attrs):
        check_float(name, x, real=True)
        (n, c, *_), _, _, _, outs = _geometry(name, nd, x.shape, **attrs)
        return Meta(nchw_out_shape(n, c, outs, attrs["data_format"]), x.dtype)

    def forward(xp, x, **attrs):
        fmt = attrs["data_format"]
        x = to_nchw(x, fmt)
        if attrs["adaptive"] and not attrs["global_pooling"]:
            outs = ints(name, "ksize", attrs["ksize"], nd)
            out = xp.empty(x.shape[:2] + tuple(outs), dtype=x.dtype)
            for index, region in _adaptive_cells(x.shape[2:], outs):
                block = x[_ALL + region]
                out[_ALL + index] = block.max(axis=axes) if attrs["pooling_type"] == "max" else block.mean(axis=axes)
            return from_nchw(xp, out, fmt)
        cols, sizes, ksize, strides, pads, outs, _ = _windows(xp, nd, x, attrs, name)
        if attrs["pooling_type"] == "max":
            out = cols.max(axis=axes)
        else:
            out = (cols.sum(axis=axes) / _avg_divisor(xp, attrs, sizes, ksize, strides, pads, outs)).astype(x.dtype)
        return from_nchw(xp, out, fmt)

    def grad_forward(xp, x, out, dout, **attrs):
        fmt = attrs["data_format"]
        x, dout = to_nchw(x, fmt), to_nchw(dout, fmt)
        n, c = x.shape[:2]
        if attrs["adaptive"] and not attrs["global_pooling"]:
            outs = ints(name, "ksize", attrs["ksize"], nd)
            dx = xp.zeros(x.shape, dtype=x.dtype)
            for index, region in _adaptive_cells(x.shape[2:], outs):
                d = dout[_ALL + index].reshape((n, c) + (1,) * nd)
                block = x[_ALL + region]
                if attrs["pooling_type"] == "max":
                    mask = _first_max_mask(xp, block.reshape(n, c, -1), 2).reshape(block.shape)
                    dx[_ALL + region] += xp.where(mask, d, 0)
                else:
                    dx[_ALL + region] += d / block[0, 0].size
            return from_nchw(xp, dx, fmt)
        cols, sizes, ksize, strides, pads, outs, padded = _windows(xp, nd, x, attrs, grad_name)
        k = int(np.prod(ksize))
        if attrs["pooling_type"] == "max":
            mask = _first_max_mask(xp, cols.reshape(n, c, k, *outs), 2)
            dcols = xp.where(mask, dout[:, :, None], 0).astype(x.dtype)
        else:
            d = (dout / _avg_divisor(xp, attrs, sizes, ksize, strides, pads, outs)).astype(x.dtype)
            dcols = xp.broadcast_to(d[:, :, None], (n, c, k) + tuple(outs))
        dx = fold_windows(xp, dcols.reshape(n, c, *ksize, *outs), padded, strides, [1] * nd)
        return from_nchw(xp, crop_hw(dx, pads, sizes), fmt)

    def grad_infer(x, out, dout, **attrs):
        expected = infer(x, **attrs).shape
        if len(dout.shape) != nd + 2 or any(a != b and -1 not in (a, b) for a, b in zip(dout.shape, expected)):
            raise ValueError(f"op '{grad_name}': DOut has shape {list(dout.shape)} but pooling X {list(x.shape)} "
                             f"gives {list(expected)}")
        return Meta(x.shape, x.dtype)

    def grad(g):
        if g.needs("X"):
            g.set_input_grad("X", g.op(grad_name, g.input("X"), g.output("Out"), g.output_grad("Out"), **g.attrs))

    pool = register_op(name, inputs=("X",), outputs=("Out",), forward=forward, infer=infer, grad=grad,
                       attrs=_pool_attrs(nd))
    # the grad op has no grad maker: double backward through pooling is not supported.
    pool_grad = register_op(grad_name, inputs=("X", "Out", "DOut"), outputs=("DX",), forward=grad_forward,
                            infer=grad_infer, attrs=_pool_attrs(nd), nondiff_inputs=("Out",))
    return pool, pool_grad


POOL2D, POOL2D_GRAD = _register_pool(2)
POOL3D, POOL3D_GRAD = _register_pool(3)
