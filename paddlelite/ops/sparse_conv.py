"""Sparse convolution and max pooling of point clouds (paddle.sparse.nn): channels-last COO tensors
[N, *spatial, C] whose sparse dims are the batch and spatial dims and whose values are [nnz, C].

Each op builds a rulebook: for every kernel offset, the pairs (input entry, output entry) it connects. A regular
convolution's output sites are every position some input site reaches (sorted); a submanifold convolution's are
the input's own sites, so the pattern does not dilate layer after layer. The convolution is then, per offset, a
gather of input rows, one product with that offset's [C_in, C_out] filter slice and a scatter-add into the output
rows (the scatter is a product with a 0/1 sparse matrix: SciPy's on the CPU, cupyx.scipy.sparse's on the GPU).
The gradients run the same rulebook backwards. Weights are [*kernel, C_in, C_out] (Paddle's DHWCM).
"""
import itertools

import numpy as np

from ..framework.sparse import SparseCoo
from .registry import DATA_DEPENDENT_SHAPE
from .search import _scatter_at
from .sparse import grad_op_of, linear_keys, sparse_module, sparse_op, unravel

_INT = np.int64


def _output_spatial(spatial, kernel, strides, paddings, dilations):
    return [(n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, s, p, d in zip(spatial, kernel, strides, paddings,
                                                                          dilations)]


def rulebook(xp, x, kernel, strides, paddings, dilations, subm):
    """(output indices [1 + rank, n_out], output shape, [(input entries, output entries) per kernel offset])."""
    if not isinstance(x, SparseCoo) or x.sparse_dim != len(x.shape) - 1:
        raise ValueError("sparse conv/pool: x must be a COO tensor [N, *spatial, C] with the channels as its values")
    rank = len(kernel)
    spatial = list(x.shape[1:1 + rank])
    if subm and any(s != 1 for s in strides):
        raise ValueError(f"sparse submanifold conv: strides must be 1, received {list(strides)}")
    out_spatial = spatial if subm else _output_spatial(spatial, kernel, strides, paddings, dilations)
    if any(n <= 0 for n in out_spatial):
        raise ValueError(f"sparse conv/pool: the output would have spatial shape {out_spatial}")
    coords = x.indices.astype(_INT)
    offsets = list(itertools.product(*[range(k) for k in kernel]))
    in_dims = [x.shape[0]] + spatial
    if subm:  # the output sites: the input's, sorted (as Paddle's kernel gives them)
        in_keys = linear_keys(xp, coords, in_dims)
        order = xp.argsort(in_keys)
        sorted_keys = in_keys[order]
        out_indices = coords[:, order]
        pairs = []
        for off in offsets:  # the input site each output site reads through this offset
            q = [out_indices[0]] + [out_indices[1 + a] - paddings[a] + off[a] * dilations[a] for a in range(rank)]
            inside = xp.ones(coords.shape[1], dtype=bool)
            for a in range(rank):
                inside &= (q[1 + a] >= 0) & (q[1 + a] < spatial[a])
            keys = linear_keys(xp, xp.stack([xp.where(inside, c, 0) for c in q]), in_dims)
            at = xp.minimum(xp.searchsorted(sorted_keys, keys), sorted_keys.shape[0] - 1) if keys.size else keys
            found = inside & (sorted_keys[at] == keys) if keys.size else inside
            out_rows = xp.nonzero(found)[0]
            pairs.append((order[at[out_rows]], out_rows))
        return out_indices, [x.shape[0]] + out_spatial + [None], pairs
    out_dims = [x.shape[0]] + out_spatial
    candidates = []
    for off in offsets:  # the output site each input site writes through this offset
        o = [coords[1 + a] + paddings[a] - off[a] * dilations[a] for a in range(rank)]
        ok = xp.ones(coords.shape[1], dtype=bool)
        for a in range(rank):
            ok &= (o[a] % strides[a] == 0) & (o[a] >= 0) & (o[a] // strides[a] < out_spatial[a])
        rows = xp.nonzero(ok)[0]
        out_coords = xp.stack([coords[0][rows]] + [o[a][rows] // strides[a] for a in range(rank)])
        candidates.append((rows, linear_keys(xp, out_coords, out_dims)))
    all_keys = xp.unique(xp.concatenate([k for _, k in candidates])) if candidates else xp.zeros(0, dtype=_INT)
    pairs = [(rows, xp.searchsorted(all_keys, keys)) for rows, keys in candidates]
    return unravel(xp, all_keys, out_dims), [x.shape[0]] + out_spatial + [None], pairs


def scatter_rows(xp, rows, values, n):
    """out[rows[i]] += values[i] for an out of n rows: a product with a 0/1 sparse matrix."""
    sp = sparse_module(xp)
    ones = xp.ones(rows.shape[0], dtype=values.dtype)
    m = sp.coo_matrix((ones, (rows, xp.arange(rows.shape[0]))), shape=(n, rows.shape[0])).tocsr()
    return xp.asarray(m @ values)


def _conv_forward(xp, x, filter, strides, paddings, dilations, subm):
    kernel = filter.shape[:-2]
    out_indices, shape, pairs = rulebook(xp, x, kernel, strides, paddings, dilations, subm)
    n_out = out_indices.shape[1]
    w = filter.reshape(-1, filter.shape[-2], filter.shape[-1])
    if x.values.shape[-1] != w.shape[1]:
        raise ValueError(f"sparse conv: x has {x.values.shape[-1]} channels but the filter expects {w.shape[1]}")
    rows = xp.concatenate([o for _, o in pairs])
    products = xp.concatenate([x.values[i] @ w[k] for k, (i, _) in enumerate(pairs)])
    values = scatter_rows(xp, rows, products, n_out).astype(x.values.dtype, copy=False)
    shape[-1] = w.shape[2]
    return SparseCoo(out_indices, values, shape)


def _conv_grad_forward(xp, x, filter, dout, strides, paddings, dilations, subm):
    """(dX on X's pattern, dFilter): the rulebook backwards."""
    _, _, pairs = rulebook(xp, x, filter.shape[:-2], strides, paddings, dilations, subm)
    w = filter.reshape(-1, filter.shape[-2], filter.shape[-1])
    d = dout.values
    rows = xp.concatenate([i for i, _ in pairs])
    products = xp.concatenate([d[o] @ w[k].T for k, (_, o) in enumerate(pairs)])
    dx = scatter_rows(xp, rows, products, x.values.shape[0]).astype(x.values.dtype, copy=False)
    dw = xp.stack([x.values[i].T @ d[o] for i, o in pairs]).reshape(filter.shape)
    return x.with_values(dx), dw.astype(filter.dtype, copy=False)


def _conv_grad(g):
    dx, dw = g.op("sparse_conv_grad", g.input("X"), g.input("Filter"), g.output_grad("Out"), **g.attrs)
    g.set_input_grads(("X", "Filter"), (dx, dw))


_CONV_ATTRS = {"strides": [1, 1, 1], "paddings": [0, 0, 0], "dilations": [1, 1, 1], "subm": False}
SPARSE_CONV = sparse_op("sparse_conv", inputs=("X", "Filter"), outputs=("Out",), forward=_conv_forward,
                        grad=_conv_grad, attrs=_CONV_ATTRS, host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_CONV_GRAD = sparse_op("sparse_conv_grad", inputs=("X", "Filter", "DOut"), outputs=("DX", "DFilter"),
                             forward=_conv_grad_forward, attrs=_CONV_ATTRS, host_sync=DATA_DEPENDENT_SHAPE)


def _pool_pairs(xp, x, ksize, strides, paddings):
    out_indices, shape, pairs = rulebook(xp, x, ksize, strides, paddings, [1] * len(ksize), False)
    shape[-1] = x.values.shape[-1]
    return out_indices, shape, pairs


def _max_pool_forward(xp, x, ksize, strides, paddings):
    """The channel-wise maximum over the input sites each output site's window holds."""
    out_indices, shape, pairs = _pool_pairs(xp, x, ksize, strides, paddings)
    n_out = out_indices.shape[1]
    values = xp.full((n_out, x.values.shape[-1]), -np.inf, dtype=x.values.dtype)
    for i, o in pairs:
        _scatter_at(xp, values, o, x.values[i], "max")
    return SparseCoo(out_indices, values, shape, coalesced=True)


def _max_pool_grad_forward(xp, x, out, dout, ksize, strides, paddings):
    """Each output's gradient to the input entries holding its maximum (every tied one, channel by channel)."""
    _, _, pairs = _pool_pairs(xp, x, ksize, strides, paddings)
    rows = xp.concatenate([i for i, _ in pairs])
    grads = xp.concatenate([xp.where(x.values[i] == out.values[o], dout.values[o], 0) for i, o in pairs])
    return x.with_values(scatter_rows(xp, rows, grads, x.values.shape[0]).astype(x.values.dtype, copy=False))


_POOL_ATTRS = {"ksize": [1, 1, 1], "strides": [1, 1, 1], "paddings": [0, 0, 0]}
SPARSE_MAX_POOL = sparse_op(
    "sparse_max_pool", inputs=("X",), outputs=("Out",), forward=_max_pool_forward, attrs=_POOL_ATTRS,
    grad=grad_op_of("sparse_max_pool_grad", "X", "Out"), host_sync=DATA_DEPENDENT_SHAPE)
SPARSE_MAX_POOL_GRAD = sparse_op("sparse_max_pool_grad", inputs=("X", "Out", "DOut"), outputs=("DX",),
                                 forward=_max_pool_grad_forward, attrs=_POOL_ATTRS, host_sync=DATA_DEPENDENT_SHAPE)

