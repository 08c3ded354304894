"""Spatial transformers: affine_grid (sampling grid from affine matrices) and grid_sample (bilinear/nearest
sampling of 4-D or 5-D inputs at grid points). Compositions of registered ops (floor, arithmetic, clip,
take_along_axis), so the gradients for x and grid come from their formula rules."""
import itertools
import math

from ... import tensor as T
from ...framework.tensor import Tensor
from ...tensor.math import _check_tensor, check_tensor_type

__all__ = ["affine_grid", "grid_sample"]

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")


def _unnormalize(coord, size, align_corners):
    """[-1, 1] -> pixel index space: the corner pixels' centres (align_corners) or their outer edges."""
    if align_corners:
        return (coord + 1.0) * ((size - 1) / 2.0)
    return ((coord + 1.0) * size - 1.0) / 2.0


def _reflect(coord, twice_low, twice_high):
    """coord folded back into [twice_low / 2, twice_high / 2] by reflecting at the bounds, repeatedly."""
    if twice_low == twice_high:
        return coord * 0.0
    low, span = twice_low / 2.0, (twice_high - twice_low) / 2.0
    dist = T.abs(coord - low)
    flips = T.floor(dist / span)
    extra = dist - flips * span
    even = (flips - 2.0 * T.floor(flips / 2.0)) == 0.0
    return T.where(even, extra + low, (span - extra) + low)


def _source_coord(coord, size, padding_mode, align_corners):
    coord = _unnormalize(coord, size, align_corners)
    if padding_mode == "reflection":
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else _reflect(coord, -1, 2 * size - 1)
    if padding_mode in ("border", "reflection"):
        coord = T.clip(coord, 0.0, float(size - 1))
    return coord


def _round_half_even(v):
    """Paddle's nearest mode rounds ties to even (std::nearbyint)."""
    r = T.floor(v + 0.5)
    tie_odd = ((r - v) == 0.5).logical_and((r - 2.0 * T.floor(r / 2.0)) == 1.0)
    return T.where(tie_odd, r - 1.0, r)


def _gather(flat, corner, sizes, n, points):
    """flat [N, C, prod(sizes)] at integer-valued float coords `corner` (one [N, L] per spatial axis) -> values
    [N, C, L] and the in-bounds mask [N, 1, L] (outside points read index 0 and are masked)."""
    index, inside = None, None
    for c, size in zip(corner, sizes):
        ok = (c >= 0.0).logical_and(c <= float(size - 1))
        inside = ok if inside is None else inside.logical_and(ok)
        c = T.clip(c, 0.0, float(size - 1))
        index = c if index is None else index * float(size) + c
    index = T.reshape(T.cast(index, "int64"), [n, 1, points])
    values = T.take_along_axis(flat, index, axis=2)
    return values, T.reshape(T.cast(inside, flat.dtype), [n, 1, points])


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None):
    """x [N, C, (D,) H, W] sampled at grid [N, (D_out,) H_out, W_out, nd] whose last axis holds normalised
    (x, y(, z)) coordinates in [-1, 1]; returns [N, C, (D_out,) H_out, W_out]."""
    _check_tensor(x, "grid_sample")
    _check_tensor(grid, "grid_sample", "grid")
    if len(x.shape) not in (4, 5):
        raise ValueError(f"grid_sample: x must be 4-D or 5-D, received shape {list(x.shape)}")
    nd = len(x.shape) - 2
    if len(grid.shape) != nd + 2 or grid.shape[-1] != nd:
        raise ValueError(f"grid_sample: grid must have shape [N, {'D, ' * (nd == 3)}H, W, {nd}] for {nd + 2}-D x, "
                         f"received {list(grid.shape)}")
    if x.shape[0] != grid.shape[0]:
        raise ValueError(f"grid_sample: x and grid must have the same batch size, received {x.shape[0]} "
                         f"and {grid.shape[0]}")
    if mode not in _MODES:
        raise ValueError(f"grid_sample: mode must be one of {_MODES}, received {mode!r}")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"grid_sample: padding_mode must be one of {_PADDINGS}, received {padding_mode!r}")
    if not isinstance(align_corners, bool):
        raise ValueError(f"grid_sample: align_corners must be a bool, received {align_corners!r}")
    n, c, sizes = x.shape[0], x.shape[1], list(x.shape[2:])
    out_spatial = list(grid.shape[1:-1])
    points = math.prod(out_spatial)
    flat = T.reshape(x, [n, c, math.prod(sizes)])
    g = T.reshape(grid, [n, points, nd])
    # grid's last axis is (x, y, z): x indexes the last spatial axis of x
    coords = [_source_coord(g[:, :, nd - 1 - k], sizes[k], padding_mode, align_corners) for k in range(nd)]
    if mode == "nearest":
        values, inside = _gather(flat, [_round_half_even(v) for v in coords], sizes, n, points)
        out = values * inside
    else:
        lows = [T.floor(v) for v in coords]
        fracs = [v - lo for v, lo in zip(coords, lows)]
        out = None
        for bits in itertools.product((0, 1), repeat=nd):
            corner = [lo + 1.0 if b else lo for lo, b in zip(lows, bits)]
            weight = None
            for f, b in zip(fracs, bits):
                w = f if b else 1.0 - f
                weight = w if weight is None else weight * w
            values, inside = _gather(flat, corner, sizes, n, points)
            term = values * (T.reshape(weight, [n, 1, points]) * inside)
            out = term if out is None else out + term
    return T.reshape(out, [n, c, *out_spatial])


def _base_axis(size, align_corners, dtype):
    line = T.linspace(-1.0, 1.0, size, dtype=dtype)
    return line if align_corners or size <= 1 else line * ((size - 1) / size)


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """Sampling grid [N, H, W, 2] (or [N, D, H, W, 3]) of theta [N, 2, 3] (or [N, 3, 4]) applied to the
    normalised (x, y(, z), 1) coordinates of an output of shape out_shape [N, C, H, W] (or [N, C, D, H, W])."""
    check_tensor_type(theta, "affine_grid", "theta")
    if isinstance(out_shape, Tensor):
        out_shape = [int(v) for v in out_shape.numpy().tolist()]
    if not isinstance(out_shape, (list, tuple)):  # TypeError as Paddle's
        raise TypeError(f"affine_grid: out_shape must be a list, a tuple or a Tensor, received "
                        f"{type(out_shape).__name__}")
    if len(out_shape) not in (4, 5):
        raise ValueError(f"affine_grid: out_shape must be a list of 4 or 5 ints, received {out_shape!r}")
    nd = len(out_shape) - 2
    if list(theta.shape[1:]) != [nd, nd + 1]:
        raise ValueError(f"affine_grid: theta must have shape [N, {nd}, {nd + 1}] for out_shape {list(out_shape)}, "
                         f"received {list(theta.shape)}")
    if theta.shape[0] not in (-1, out_shape[0]):  # -1: a static batch left open
        raise ValueError(f"affine_grid: theta's batch size {theta.shape[0]} differs from out_shape[0] "
                         f"{out_shape[0]}")
    n, spatial = out_shape[0], [int(s) for s in out_shape[2:]]
    axes = [_base_axis(s, align_corners, theta.dtype) for s in spatial]
    mesh = T.meshgrid(*axes)  # one [*spatial] grid per axis, in (D,) H, W order
    base = T.stack([*mesh[::-1], T.ones_like(mesh[0])], axis=-1)  # (x, y(, z), 1)
    base = T.reshape(base, [1, math.prod(spatial), nd + 1])
    out = T.matmul(T.expand(base, [n, math.prod(spatial), nd + 1]), theta, transpose_y=True)
    return T.reshape(out, [n, *spatial, nd])
