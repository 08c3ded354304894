"""Pooling (pool2d / pool3d and their grads): max or average, explicit/SAME/VALID padding, ceil mode, global and
adaptive windows, channel-first or channel-last. Fixed windows are gathered by conv's window view, position in
the window first, so max/sum and the max routing of the grad run over contiguous slices; adaptive windows loop over
cells. Every helper works for any number of spatial dims."""
import functools
import itertools

import numpy as np

from ..framework.random import get_rng
from .conv import (_FORMATS, check_data_format, crop_hw, fold_windows, from_nchw, ints, nchw_out_shape, nchw_shape,
                   out_size, pad_hw, resolve_pads, scatter_add, to_nchw, window_view)
from .registry import Meta, register_op
from .shape_rules import check_float, known_shapes_differ


def _grad_meta(grad_name, x, dout, expected):
    """X's meta, for a pooling grad op whose DOut must have the pooled shape `expected` (-1: any size)."""
    if known_shapes_differ(dout.shape, expected):
        raise ValueError(f"op '{grad_name}': DOut has shape {list(dout.shape)} but pooling X {list(x.shape)} "
                         f"gives {list(expected)}")
    return Meta(x.shape, x.dtype)


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
    """x channel-first -> (its windows [N, C, *ksize, *outs]: a view of x padded, sizes, ksize, strides, pads,
    outs, padded sizes)."""
    (n, c, *sizes), ksize, strides, pads, outs = _geometry(op, nd, x.shape, **{**attrs,
                                                                              "data_format": _FORMATS[nd][0]})
    # extend the after-padding so ceil-mode windows that run past the edge still fit
    need = [(o - 1) * s + k for o, s, k in zip(outs, strides, ksize)]
    pads = [(a, max(b, m - a - size)) for (a, b), m, size in zip(pads, need, sizes)]
    fill = -np.inf if attrs["pooling_type"] == "max" else 0.0
    xpad = pad_hw(xp, x, pads, fill)
    return window_view(xp, xpad, ksize, strides, [1] * nd, outs), sizes, ksize, strides, pads, outs, xpad.shape[2:]


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

    def cell_grid(attrs):
        """Output cells of adaptive pooling (global pooling: one cell), or None for fixed windows."""
        if attrs["global_pooling"]:
            return [1] * nd
        return ints(name, "ksize", attrs["ksize"], nd) if attrs["adaptive"] else None

    def infer(x, **attrs):
        check_float(name, x, real=True)
        (n, c, *_), _, _, _, outs = _geometry(name, nd, x.shape, **attrs)
        return Meta(nchw_out_shape(n, c, outs, attrs["data_format"]), x.dtype)

    def forward(xp, x, **attrs):
        fmt = attrs["data_format"]
        x = to_nchw(x, fmt)
        outs = cell_grid(attrs)
        if outs is not None:
            out = xp.empty(x.shape[:2] + tuple(outs), dtype=x.dtype)
            for index, region in _adaptive_cells(x.shape[2:], outs):
                block = x[_ALL + region]
                out[_ALL + index] = block.max(axis=axes) if attrs["pooling_type"] == "max" else block.mean(axis=axes)
            return from_nchw(xp, out, fmt)
        view, sizes, ksize, strides, pads, outs, _ = _windows(xp, nd, x, attrs, name)
        # gathered window position first, so max/sum reduce over contiguous slices
        cols = xp.ascontiguousarray(xp.moveaxis(view, axes, tuple(range(nd)))).reshape(-1, *x.shape[:2], *outs)
        if attrs["pooling_type"] == "max":
            out = cols.max(axis=0)
        else:
            out = (cols.sum(axis=0) / _avg_divisor(xp, attrs, sizes, ksize, strides, pads, outs)).astype(x.dtype)
        return from_nchw(xp, out, fmt)

    def grad_forward(xp, x, out, dout, **attrs):
        fmt = attrs["data_format"]
        x, dout = to_nchw(x, fmt), to_nchw(dout, fmt)
        n, c = x.shape[:2]
        outs = cell_grid(attrs)
        if outs is not None:
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
        view, sizes, ksize, strides, pads, outs, padded = _windows(xp, nd, x, attrs, grad_name)
        if attrs["pooling_type"] != "max":
            d = (dout / _avg_divisor(xp, attrs, sizes, ksize, strides, pads, outs)).astype(x.dtype)
            dcols = xp.broadcast_to(d.reshape(n, c, *[1] * nd, *outs), (n, c, *ksize, *outs))
            return from_nchw(xp, crop_hw(fold_windows(xp, dcols, padded, strides, [1] * nd), pads, sizes), fmt)
        # Paddle's rule: the gradient goes to the first element of the window equal to the maximum. Window slot by
        # slot, read from x's window view and written (disjoint windows) or added into dx's
        out = to_nchw(out, fmt)
        dx = xp.zeros((n, c, *padded), dtype=x.dtype)
        dx_view = window_view(xp, dx, ksize, strides, [1] * nd, outs)
        disjoint = all(s >= k for s, k in zip(strides, ksize))
        slot_grad = None if disjoint else xp.empty(out.shape, dtype=x.dtype)
        bits = np.dtype(f"i{dout.dtype.itemsize}")
        routed = None
        for offset in itertools.product(*(range(k) for k in ksize)):
            slot = (slice(None), slice(None), *offset)
            hit = view[slot] == out
            if routed is None:
                routed = hit
            else:
                xp.greater(hit, routed, out=hit)  # hit and not routed yet
                routed |= hit
            # dout where hit else +0, by masking the bits: inf/NaN in dout stay where they belong (0 * inf
            # would leak NaN) and there is no branch per element
            target = dx_view[slot] if disjoint else slot_grad
            xp.bitwise_and(dout.view(bits), xp.negative(hit, dtype=bits), out=target.view(bits))
            if not disjoint:  # within one slot the windows' elements are distinct
                dx_view[slot] += slot_grad
        return from_nchw(xp, crop_hw(dx, pads, sizes), fmt)

    def grad_infer(x, out, dout, **attrs):
        return _grad_meta(grad_name, x, dout, infer(x, **attrs).shape)

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


# ---- fractional max pooling (Graham 2015) with Paddle's pseudo-random windows -----------------------
def fractional_bounds(size, out, kernel, u):
    """(starts, ends) of the `out` windows over `size` for random_u `u`, in float32 as Paddle's kernel computes
    them: alpha = (size - kernel) / (out - 1) (overlapping, kernel > 0) or size / out with u rescaled so the
    windows stay inside (disjoint, kernel 0); start_i = int((i + u) alpha) - int(u alpha)."""
    f = np.float32
    i = np.arange(out, dtype=f)
    if kernel > 0:
        if out == 1:  # alpha is infinite: Paddle's one window starts at 0
            return np.zeros(1, np.int64), np.full(1, min(kernel, size), np.int64)
        alpha, u = f(size - kernel) / f(out - 1), f(u)
        starts = ((i + u) * alpha).astype(np.int64) - int(u * alpha)
        ends = starts + kernel
    else:
        alpha = f(size) / f(out)
        base = size // out
        u = f(u) * min(f(base + 2) / alpha - f(1), f(size + 1 - base) / alpha - f(out - 1))
        starts = ((i + u) * alpha).astype(np.int64) - int(u * alpha)
        ends = ((i + f(1) + u) * alpha).astype(np.int64) - int(u * alpha)
    return np.maximum(starts, 0), np.minimum(ends, size)


def _fractional_table(sizes, outs, kernels, u):
    """[K, L] flat input positions of each output cell's window (L cells, K window slots); unused slots hold
    prod(sizes), one past the end. Slots run in row-major window order, so the first maximum is Paddle's."""
    volume = int(np.prod(sizes))
    coords, inside = [], []
    for d, (size, out, k) in enumerate(zip(sizes, outs, kernels)):
        starts, ends = fractional_bounds(size, out, k, u)
        width = max(1, int((ends - starts).max()))
        c = starts[None, :] + np.arange(width)[:, None]                       # [width, out]
        shape = [1] * (2 * len(sizes))
        shape[d], shape[len(sizes) + d] = width, out
        coords.append(np.clip(c, 0, size - 1).reshape(shape))
        inside.append((c < ends[None, :]).reshape(shape))
    coords = np.broadcast_arrays(*coords)
    flat = np.ravel_multi_index(coords, sizes)
    ok = np.logical_and.reduce(np.broadcast_arrays(*inside))
    table = np.where(ok, flat, volume)
    nd = len(sizes)
    return table.reshape(int(np.prod(table.shape[:nd])), -1)


def _table_max(xp, x, table, outs):
    """(max of x's flattened spatial volume over each column of the position table [K, L], int32 flat index of
    that max in the volume): table entries equal to the volume size are padding. Paddle starts each window at
    -FLT_MAX (whatever the dtype): an empty window yields it, with mask -1."""
    n, c = x.shape[:2]
    volume = int(np.prod(x.shape[2:]))
    low = xp.full((n, c, 1), -np.finfo(np.float32).max, dtype=x.dtype)
    table = xp.asarray(table)
    cols = xp.concatenate([x.reshape(n, c, volume), low], axis=2)[:, :, table]   # [N, C, K, L]
    where = cols.argmax(axis=2)[:, :, None]
    out = xp.take_along_axis(cols, where, axis=2)[:, :, 0]
    mask = table[where[:, :, 0], xp.arange(table.shape[1])]
    mask = xp.where(mask == volume, -1, mask).astype(np.int32)
    shape = (n, c) + tuple(outs)
    return out.reshape(shape), mask.reshape(shape)


def _table_max_grad(xp, x, mask, dout):
    """dout added into x at the flat index (mask) of each output's maximum."""
    n, c = x.shape[:2]
    volume = int(np.prod(x.shape[2:]))
    flat = mask.reshape(n * c, -1).astype(np.int64)
    rows = xp.broadcast_to(xp.arange(n * c)[:, None], flat.shape)
    # an empty window (mask -1) routes its gradient into a spare last column, dropped after
    dx = xp.zeros((n * c, volume + 1), dtype=dout.dtype)
    scatter_add(xp, dx, (rows, xp.where(flat < 0, volume, flat)), dout.reshape(n * c, -1))
    return dx[:, :volume].reshape(x.shape)


def _register_masked_max(name, attrs, infer, forward, draws=False):
    """Register max pooling op `name` (outputs Out and Mask, the int32 flat index of each maximum) and its grad
    op, which adds the output gradient into the masked positions."""
    grad_name = name + "_grad"

    def grad_infer(x, mask, dout, **attrs):
        return _grad_meta(grad_name, x, dout, infer(x, **attrs)[0].shape)

    def grad(g):
        if g.needs("X"):
            g.set_input_grad("X", g.op(grad_name, g.input("X"), g.output("Mask"), g.output_grad("Out"), **g.attrs))

    pool = register_op(name, inputs=("X",), outputs=("Out", "Mask"), forward=forward, infer=infer, grad=grad,
                       attrs=attrs, draws=draws)
    pool_grad = register_op(grad_name, inputs=("X", "Mask", "DOut"), outputs=("DX",),
                            forward=lambda xp, x, mask, dout, **a: _table_max_grad(xp, x, mask, dout),
                            infer=grad_infer, attrs=attrs, nondiff_inputs=("X", "Mask"))
    return pool, pool_grad


# ---- max pooling with the index of each maximum (Paddle's max_pool{2,3}d_with_index: F.max_pool with
# return_mask, the adaptive max pools) --------------------------------------------------------------------------
def _with_index_attrs(nd):
    return {"ksize": [1] * nd, "strides": [1] * nd, "paddings": [0] * nd, "global_pooling": False,
            "adaptive": False, "ceil_mode": False}


def _register_with_index(nd):
    name = f"max_pool{nd}d_with_index"

    def geometry(x_shape, ksize, strides, paddings, global_pooling, adaptive, ceil_mode):
        """(spatial sizes, ksize, strides, (before, after) pads, output sizes) of the channel-first x."""
        if len(x_shape) != nd + 2:
            raise ValueError(f"op '{name}': X must be {nd + 2}-D (N, C, *spatial), received shape {list(x_shape)}")
        sizes = list(x_shape[2:])
        if global_pooling:
            return sizes, sizes, [1] * nd, [(0, 0)] * nd, [1] * nd
        ksize = ints(name, "ksize", ksize, nd)
        if min(ksize) < 1:
            raise ValueError(f"op '{name}': ksize must be >= 1, received {ksize}")
        if adaptive:
            return sizes, ksize, [1] * nd, [(0, 0)] * nd, ksize
        strides = ints(name, "strides", strides, nd)
        paddings = list(paddings)
        if len(paddings) != nd or min(strides) < 1 or min(paddings) < 0:
            raise ValueError(f"op '{name}': strides must be {nd} positive ints and paddings {nd} non-negative ints "
                             f"(one per dim, both sides), received strides {strides}, paddings {paddings}")
        pads = [(p, p) for p in paddings]
        if any(max(p) >= k for p, k in zip(pads, ksize)):
            raise ValueError(f"op '{name}': paddings {paddings} must be smaller than ksize {ksize}")
        outs = [out_size(size, p, k, s, 1, ceil_mode) for size, p, k, s in zip(sizes, pads, ksize, strides)]
        if any(o != -1 and o < 1 for o in outs):
            raise ValueError(f"op '{name}': the output would be empty ({outs}): X spatial size {sizes} is smaller "
                             f"than ksize {ksize} with paddings {paddings}")
        return sizes, ksize, strides, pads, outs

    def table(sizes, ksize, strides, pads, outs, adaptive):
        """[K, L] flat positions in x's volume of every window element (the volume size: outside x)."""
        if adaptive:  # output o along a dim of size s covers [floor(o * s / out), ceil((o + 1) * s / out))
            starts = [np.arange(o) * s // o for s, o in zip(sizes, outs)]
            ends = [-(-(np.arange(o) + 1) * s // o) for s, o in zip(sizes, outs)]
            ksize = [int((e - b).max()) for b, e in zip(starts, ends)]
        grids = np.meshgrid(*[np.arange(k) for k in ksize], *[np.arange(o) for o in outs], indexing="ij")
        if adaptive:
            coords = [starts[d][grids[d + nd]] + grids[d] for d in range(nd)]
            inside = np.logical_and.reduce([cd < ends[d][grids[d + nd]] for d, cd in enumerate(coords)])
        else:
            coords = [grids[d + nd] * strides[d] + grids[d] - pads[d][0] for d in range(nd)]
            inside = np.logical_and.reduce([(cd >= 0) & (cd < size) for cd, size in zip(coords, sizes)])
        flat = np.ravel_multi_index([np.clip(cd, 0, size - 1) for cd, size in zip(coords, sizes)], sizes)
        return np.where(inside, flat, int(np.prod(sizes))).reshape(int(np.prod(ksize)), -1)

    def infer(x, **attrs):
        check_float(name, x, real=True)
        outs = geometry(x.shape, **attrs)[-1]
        shape = tuple(x.shape[:2]) + tuple(outs)
        return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int32))

    def forward(xp, x, **attrs):
        sizes, ksize, strides, pads, outs = geometry(x.shape, **attrs)
        return _table_max(xp, x, table(sizes, ksize, strides, pads, outs, attrs["adaptive"]), outs)

    return _register_masked_max(name, _with_index_attrs(nd), infer, forward)


MAX_POOL2D_WITH_INDEX, MAX_POOL2D_WITH_INDEX_GRAD = _register_with_index(2)
MAX_POOL3D_WITH_INDEX, MAX_POOL3D_WITH_INDEX_GRAD = _register_with_index(3)


def _fractional_attrs(nd):
    return {"output_size": [1] * nd, "kernel_size": [0] * nd, "random_u": 0.0}


def _register_fractional(nd):
    name = f"fractional_max_pool{nd}d"

    def geometry(x_shape, output_size, kernel_size, random_u):
        if len(x_shape) != nd + 2:
            raise ValueError(f"op '{name}': X must be {nd + 2}-D (N, C, *spatial), received shape {list(x_shape)}")
        outs, kernels = ints(name, "output_size", output_size, nd), ints(name, "kernel_size", kernel_size, nd)
        if min(outs) < 1 or min(kernels) < 0:
            raise ValueError(f"op '{name}': output_size must be positive and kernel_size non-negative, received "
                             f"output_size={outs}, kernel_size={kernels}")
        if not 0.0 <= random_u < 1.0:
            raise ValueError(f"op '{name}': random_u must lie in (0, 1) (0 draws one), received {random_u}")
        sizes = list(x_shape[2:])
        for size, out, k in zip(sizes, outs, kernels):
            if size != -1 and size < out + k - 1:
                raise ValueError(f"op '{name}': the input size {size} is less than output_size + kernel_size - 1 "
                                 f"= {out + k - 1} (output_size={outs}, kernel_size={kernels})")
        return sizes, outs, kernels

    def infer(x, **attrs):
        check_float(name, x, real=True)
        _, outs, _ = geometry(x.shape, **attrs)
        shape = tuple(x.shape[:2]) + tuple(outs)
        return Meta(shape, x.dtype), Meta(shape, np.dtype(np.int32))

    def forward(xp, x, output_size, kernel_size, random_u):
        sizes, outs, kernels = geometry(x.shape, output_size, kernel_size, random_u)
        u = random_u or float(get_rng(np).random())
        table = _fractional_table(sizes, outs, kernels, u)
        return _table_max(xp, x, table, outs)

    return _register_masked_max(name, _fractional_attrs(nd), infer, forward, draws=True)  # random_u = 0: drawn


FRACTIONAL_MAX_POOL2D, FRACTIONAL_MAX_POOL2D_GRAD = _register_fractional(2)
FRACTIONAL_MAX_POOL3D, FRACTIONAL_MAX_POOL3D_GRAD = _register_fractional(3)
