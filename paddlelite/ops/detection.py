"""Detection ops (paddle.vision.ops): region-of-interest pooling (roi_align, roi_pool, psroi_pool and their grad
ops), non-maximum suppression (nms, matrix_nms), box encoding (box_coder), SSD priors (prior_box), YOLOv3 decoding
(yolo_box) and training loss (yolov3_loss) and the two-stage detectors' proposals (generate_proposals_v2, distribute_fpn_proposals), as Paddle's CPU
kernels compute them.

ROIs [R, 4] are (x1, y1, x2, y2) boxes in input-image coordinates (times spatial_scale on the feature map X
[N, C, H, W]); RoisNum [N] (int32) says how many consecutive ROIs belong to each image.

- roi_align averages, in each of the pooled_height x pooled_width bins of an ROI, a grid of bilinear samples
  (sampling_ratio per side, or ceil(roi size / pooled size)). Sampling is separable, so an ROI's bins are one pair
  of interpolation matrices Ay [pooled_height, H], Ax [pooled_width, W] and out = Ay @ X @ Ax^T: the forward and
  its gradient (Ay^T @ dout @ Ax) are matrix products, whatever each ROI's grid size.
- roi_pool takes the maximum of each (rounded) bin, remembering where (Argmax) for the gradient.
- psroi_pool (position sensitive) averages bin (i, j) of output channel c from input channel (c * ph + i) * pw + j:
  box sums from a summed-area table, the gradient spread back through the same table's difference form.
"""
import numpy as np

from .conv import scatter_add
from .math import matmul_array
from .registry import DATA_DEPENDENT_SHAPE, Meta, register_op
from .shape_rules import check_float


def _host(xp, a):
    return a if xp is np else xp.asnumpy(a)


def _check_rois(op, x, rois, rois_num):
    if len(x.shape) != 4:
        raise ValueError(f"op '{op}': X must be 4-D [N, C, H, W], received shape {list(x.shape)}")
    if len(rois.shape) != 2 or rois.shape[1] not in (4, -1):
        raise ValueError(f"op '{op}': ROIs must have shape [num_rois, 4], received {list(rois.shape)}")
    if rois_num is not None and len(rois_num.shape) != 1:
        raise ValueError(f"op '{op}': RoisNum must be 1-D [batch_size], received shape {list(rois_num.shape)}")
    check_float(op, x, "X", real=True)


def _roi_batch(xp, op, n, rois, rois_num):
    """The image (of n) each ROI belongs to (host int64 array)."""
    r = rois.shape[0]
    if rois_num is None:
        if n != 1:
            raise ValueError(f"op '{op}': RoisNum is required for a batch of {n} images")
        return np.zeros(r, dtype=np.int64)
    counts = _host(xp, rois_num).astype(np.int64)
    if counts.size != n or (counts < 0).any() or int(counts.sum()) != r:
        raise ValueError(f"op '{op}': RoisNum must give the ROIs of each of the {n} images and sum to {r}, received "
                         f"{counts.tolist()}")
    return np.repeat(np.arange(n), counts)


def _per_image(xp, batch):
    """(image, the positions of its ROIs, on the device) for each image that has ROIs."""
    return [(int(b), xp.asarray(np.nonzero(batch == b)[0])) for b in np.unique(batch)]


# ---- roi_align -------------------------------------------------------------------------------------------------
def _align_matrix(xp, start, length, pooled, grid, extent, dtype):
    """[R, pooled, extent]: the bilinear weights, averaged over each bin's grid of samples, with which the samples of
    one axis read the feature map (Paddle's bilinear_interpolate: a sample beyond [-1, extent] reads 0, one below 0
    reads at 0, one at or beyond extent - 1 reads the last row)."""
    r = start.shape[0]
    most = int(grid.max()) if r else 1
    bin_size = (length / pooled)[:, None, None]
    at = xp.arange(most, dtype=dtype)[None, None, :]
    y = start[:, None, None] + xp.arange(pooled, dtype=dtype)[None, :, None] * bin_size + \
        (at + 0.5) * bin_size / grid[:, None, None]
    used = (at < grid[:, None, None]) & (y >= -1.0) & (y <= extent)
    y = xp.maximum(y, 0)
    low = xp.floor(y).astype(np.int64)
    last = low >= extent - 1
    low = xp.where(last, extent - 1, low)
    high = xp.where(last, extent - 1, low + 1)
    frac = xp.where(last, 0, y - low)
    weight = used / grid[:, None, None]
    matrix = xp.zeros((r, pooled, extent), dtype=dtype)
    rows = (xp.arange(r)[:, None, None] * pooled + xp.arange(pooled)[None, :, None]) * extent
    scatter_add(xp, matrix.reshape(-1), (rows + low).reshape(-1), ((1 - frac) * weight).reshape(-1))
    scatter_add(xp, matrix.reshape(-1), (rows + high).reshape(-1), (frac * weight).reshape(-1))
    return matrix


def _align_matrices(xp, x_shape, rois, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned, dtype):
    rois = rois.astype(dtype)
    offset = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (rois[:, k] * spatial_scale - offset for k in range(4))
    width, height = x2 - x1, y2 - y1
    if not aligned:
        width, height = xp.maximum(width, 1.0), xp.maximum(height, 1.0)
    if sampling_ratio > 0:
        grid_h = grid_w = xp.full(rois.shape[0], sampling_ratio, dtype=dtype)
    else:
        grid_h, grid_w = xp.ceil(height / pooled_height), xp.ceil(width / pooled_width)
    # a zero-sized grid (an empty ROI) averages nothing: Paddle's count = max(grid_h * grid_w, 1)
    grid_h, grid_w = xp.maximum(grid_h, 1), xp.maximum(grid_w, 1)
    return (_align_matrix(xp, y1, height, pooled_height, grid_h, x_shape[2], dtype),
            _align_matrix(xp, x1, width, pooled_width, grid_w, x_shape[3], dtype))


def _roi_align_forward(xp, x, rois, rois_num, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned):
    batch = _roi_batch(xp, "roi_align", x.shape[0], rois, rois_num)
    ay, ax = _align_matrices(xp, x.shape, rois, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned,
                             x.dtype)
    out = xp.zeros((rois.shape[0], x.shape[1], pooled_height, pooled_width), dtype=x.dtype)
    for image, at in _per_image(xp, batch):
        rows = matmul_array(xp, ay[at][:, None], x[image][None])                   # [r, C, ph, W]
        out[at] = matmul_array(xp, rows, ax[at].swapaxes(1, 2)[:, None])          # [r, C, ph, pw]
    return out


def _roi_align_grad_forward(xp, x, rois, rois_num, dout, pooled_height, pooled_width, spatial_scale, sampling_ratio,
                            aligned):
    batch = _roi_batch(xp, "roi_align_grad", x.shape[0], rois, rois_num)
    ay, ax = _align_matrices(xp, x.shape, rois, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned,
                             dout.dtype)
    dx = xp.zeros(x.shape, dtype=dout.dtype)
    for image, at in _per_image(xp, batch):
        rows = matmul_array(xp, ay[at].swapaxes(1, 2)[:, None], dout[at])          # [r, C, H, pw]
        dx[image] = xp.tensordot(rows, ax[at], axes=([0, 3], [0, 1]))              # [C, H, W]
    return dx


def _pooled_meta(op, x, rois, rois_num, pooled_height, pooled_width, channels=None):
    _check_rois(op, x, rois, rois_num)
    if pooled_height < 1 or pooled_width < 1:
        raise ValueError(f"op '{op}': pooled_height and pooled_width must be positive, received "
                         f"{pooled_height} and {pooled_width}")
    return Meta((rois.shape[0], x.shape[1] if channels is None else channels, pooled_height, pooled_width), x.dtype)


def _roi_align_infer(x, rois, rois_num, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned):
    return _pooled_meta("roi_align", x, rois, rois_num, pooled_height, pooled_width)


def _roi_grad_maker(grad_op, out_slot="Out", extra=()):
    def grad(g):
        if g.needs("X"):
            g.set_input_grad("X", g.op(grad_op, g.input("X"), g.input("ROIs"), g.input("RoisNum"),
                                       *(g.output(s) for s in extra), g.output_grad(out_slot), **g.attrs))
    return grad


def _linear_grad_grad(forward_op):
    """The grad op of a pooling linear in X is that pooling's transpose: its own gradient is the pooling."""
    def grad(g):
        if g.needs("Out@GRAD"):
            g.set_input_grad("Out@GRAD", g.op(forward_op, g.output_grad("X@GRAD"), g.input("ROIs"),
                                              g.input("RoisNum"), **g.attrs))
    return grad


_ROI_SLOTS = dict(inputs=("X", "ROIs", "RoisNum"), outputs=("Out",), optional_inputs=("RoisNum",),
                  nondiff_inputs=("ROIs", "RoisNum"), host_sync="reads RoisNum on the host")
_GRAD_SLOTS = dict(inputs=("X", "ROIs", "RoisNum", "Out@GRAD"), outputs=("X@GRAD",), meta_inputs=("X",),
                   optional_inputs=("RoisNum",), nondiff_inputs=("ROIs", "RoisNum"),
                   host_sync="reads RoisNum on the host")
_ALIGN_ATTRS = {"pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0, "sampling_ratio": -1, "aligned": False}

ROI_ALIGN = register_op("roi_align", **_ROI_SLOTS, forward=_roi_align_forward, infer=_roi_align_infer,
                        grad=_roi_grad_maker("roi_align_grad"), attrs=_ALIGN_ATTRS, double_grad=True)
ROI_ALIGN_GRAD = register_op("roi_align_grad", **_GRAD_SLOTS, forward=_roi_align_grad_forward,
                             infer=lambda x, rois, rois_num, dout, **attrs: Meta(x.shape, dout.dtype),
                             grad=_linear_grad_grad("roi_align"), attrs=_ALIGN_ATTRS, double_grad=True)


# ---- psroi_pool ------------------------------------------------------------------------------------------------
def _round(xp, v):
    """C's round: halves away from zero (NumPy's round goes to even)."""
    return xp.sign(v) * xp.floor(xp.abs(v) + 0.5)


def _ps_bins(xp, x_shape, rois, pooled_height, pooled_width, spatial_scale, dtype):
    """Each ROI's bin edges, clipped to the map: (h_start, h_end [R, ph], w_start, w_end [R, pw]) ints."""
    x1, y1, x2, y2 = (_round(xp, rois[:, k].astype(dtype)) for k in range(4))
    x1, y1, x2, y2 = x1 * spatial_scale, y1 * spatial_scale, (x2 + 1.0) * spatial_scale, (y2 + 1.0) * spatial_scale
    height, width = xp.maximum(y2 - y1, 0.1), xp.maximum(x2 - x1, 0.1)

    def edges(start, size, pooled, extent):
        step = (size / pooled)[:, None]
        at = xp.arange(pooled, dtype=dtype)[None, :]
        lo = xp.floor(step * at + start[:, None]).astype(np.int64)
        hi = xp.ceil(step * (at + 1) + start[:, None]).astype(np.int64)
        return xp.clip(lo, 0, extent), xp.clip(hi, 0, extent)
    return (*edges(y1, height, pooled_height, x_shape[2]), *edges(x1, width, pooled_width, x_shape[3]))


def _ps_layout(x_shape, pooled_height, pooled_width, output_channels):
    """Input channel of (output channel c, bin i, j) is (c * ph + i) * pw + j: X viewed as [N, c, ph, pw, H, W]."""
    return (x_shape[0], output_channels, pooled_height, pooled_width, x_shape[2], x_shape[3])


def _ps_corners(xp, bins, at):
    hs, he, ws, we = (b[at] for b in bins)
    area = (he - hs)[:, :, None] * (we - ws)[:, None, :]
    return hs[:, :, None], he[:, :, None], ws[:, None, :], we[:, None, :], area


def _psroi_forward(xp, x, rois, rois_num, output_channels, pooled_height, pooled_width, spatial_scale):
    batch = _roi_batch(xp, "psroi_pool", x.shape[0], rois, rois_num)
    _check_ps_channels("psroi_pool", x.shape, output_channels, pooled_height, pooled_width)
    bins = _ps_bins(xp, x.shape, rois, pooled_height, pooled_width, spatial_scale, x.dtype)
    view = x.reshape(_ps_layout(x.shape, pooled_height, pooled_width, output_channels))
    table = xp.zeros(view.shape[:4] + (x.shape[2] + 1, x.shape[3] + 1), dtype=x.dtype)  # summed-area table
    table[..., 1:, 1:] = view.cumsum(axis=4).cumsum(axis=5)
    out = xp.zeros((rois.shape[0], output_channels, pooled_height, pooled_width), dtype=x.dtype)
    i, j = xp.arange(pooled_height)[:, None], xp.arange(pooled_width)[None, :]
    for image, at in _per_image(xp, batch):
        hs, he, ws, we, area = _ps_corners(xp, bins, at)
        t = table[image]                                                           # [c, ph, pw, H + 1, W + 1]
        total = t[:, i, j, he, we] - t[:, i, j, hs, we] - t[:, i, j, he, ws] + t[:, i, j, hs, ws]
        out[at] = xp.where(area > 0, total / xp.maximum(area, 1), 0).swapaxes(0, 1)
    return out


def _psroi_grad_forward(xp, x, rois, rois_num, dout, output_channels, pooled_height, pooled_width, spatial_scale):
    batch = _roi_batch(xp, "psroi_pool_grad", x.shape[0], rois, rois_num)
    bins = _ps_bins(xp, x.shape, rois, pooled_height, pooled_width, spatial_scale, dout.dtype)
    shape = _ps_layout(x.shape, pooled_height, pooled_width, output_channels)
    # the difference form of the summed-area table: +d at (hs, ws) and (he, we), -d at (hs, we) and (he, ws)
    corners = xp.zeros(shape[:4] + (shape[4] + 1, shape[5] + 1), dtype=dout.dtype)
    _, c, ph, pw, h, w = shape
    cell = (xp.arange(c)[:, None, None] * ph + xp.arange(ph)[:, None]) * pw + xp.arange(pw)    # [c, ph, pw]
    for image, at in _per_image(xp, batch):
        hs, he, ws, we, area = _ps_corners(xp, bins, at)
        share = xp.where(area[:, None] > 0, dout[at] / xp.maximum(area[:, None], 1), 0)  # [r, c, ph, pw]
        plane = (image * c * ph * pw + cell) * (h + 1)
        for rows, cols, sign in ((hs, ws, 1), (he, we, 1), (hs, we, -1), (he, ws, -1)):
            flat = (plane + rows[:, None]) * (w + 1) + cols[:, None]
            scatter_add(xp, corners.reshape(-1), flat.reshape(-1), (sign * share).reshape(-1))
    return corners.cumsum(axis=4).cumsum(axis=5)[..., :-1, :-1].reshape(x.shape)


def _check_ps_channels(op, x_shape, output_channels, pooled_height, pooled_width):
    if output_channels <= 1:  # Paddle's shape rule
        raise ValueError(f"op '{op}': the pooled output channels must be greater than 1, received {output_channels}")
    if x_shape[1] != -1 and x_shape[1] != output_channels * pooled_height * pooled_width:
        raise ValueError(f"op '{op}': X must have output_channels * pooled_height * pooled_width = "
                         f"{output_channels * pooled_height * pooled_width} channels, received {x_shape[1]}")


def _psroi_infer(x, rois, rois_num, output_channels, pooled_height, pooled_width, spatial_scale):
    _check_ps_channels("psroi_pool", x.shape, output_channels, pooled_height, pooled_width)
    return _pooled_meta("psroi_pool", x, rois, rois_num, pooled_height, pooled_width, output_channels)


_PS_ATTRS = {"output_channels": 1, "pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0}
PSROI_POOL = register_op("psroi_pool", **_ROI_SLOTS, forward=_psroi_forward, infer=_psroi_infer,
                         grad=_roi_grad_maker("psroi_pool_grad"), attrs=_PS_ATTRS, double_grad=True)
PSROI_POOL_GRAD = register_op("psroi_pool_grad", **_GRAD_SLOTS, forward=_psroi_grad_forward,
                              infer=lambda x, rois, rois_num, dout, **attrs: Meta(x.shape, dout.dtype),
                              grad=_linear_grad_grad("psroi_pool"), attrs=_PS_ATTRS, double_grad=True)


# ---- roi_pool --------------------------------------------------------------------------------------------------
def _pool_bins(xp, rois, pooled, spatial_scale, lo_col, hi_col, extent):
    """Bin edges along one axis, as Paddle's roi_pool: ROI ends rounded half away from zero, bins of
    max(end - start + 1, 1) / pooled cells, floor/ceil edges clipped to the map. [R, pooled] each."""
    scaled = rois.astype(np.float64) * spatial_scale
    start, end = _round(xp, scaled[:, lo_col]), _round(xp, scaled[:, hi_col])
    step = (xp.maximum(end - start + 1, 1) / pooled)[:, None]
    at = xp.arange(pooled)[None, :]
    lo = xp.floor(at * step).astype(np.int64) + start[:, None].astype(np.int64)
    hi = xp.ceil((at + 1) * step).astype(np.int64) + start[:, None].astype(np.int64)
    return xp.clip(lo, 0, extent), xp.clip(hi, 0, extent)


def _roi_pool_forward(xp, x, rois, rois_num, pooled_height, pooled_width, spatial_scale):
    batch = _roi_batch(xp, "roi_pool", x.shape[0], rois, rois_num)
    n, c, h, w = x.shape
    hs, he = _pool_bins(xp, rois, pooled_height, spatial_scale, 1, 3, h)
    ws, we = _pool_bins(xp, rois, pooled_width, spatial_scale, 0, 2, w)
    r = rois.shape[0]
    out = xp.zeros((r, c, pooled_height, pooled_width), dtype=x.dtype)
    argmax = xp.full((r, c, pooled_height, pooled_width), -1, dtype=np.int64)
    if r == 0:
        return out, argmax
    # every bin read as a window of the largest bin's size, the cells past its own edges masked out
    span_h, span_w = int((he - hs).max()), int((we - ws).max())
    if span_h <= 0 or span_w <= 0:
        return out, argmax
    dh, dw = xp.arange(span_h), xp.arange(span_w)
    rows = hs[:, :, None] + dh                                                     # [R, ph, sh]
    cols = ws[:, :, None] + dw                                                     # [R, pw, sw]
    inside = (rows < he[:, :, None])[:, :, None, :, None] & (cols < we[:, :, None])[:, None, :, None, :]
    flat = xp.minimum(rows, h - 1)[:, :, None, :, None] * w + xp.minimum(cols, w - 1)[:, None, :, None, :]
    flat = xp.broadcast_to(flat, inside.shape).reshape(r, 1, pooled_height, pooled_width, -1)
    inside = inside.reshape(r, 1, pooled_height, pooled_width, -1)
    planes = x.reshape(n, c, h * w)[xp.asarray(batch)]                             # [R, C, H*W]
    for k in range(pooled_height):  # one row of bins at a time bounds the window tensor
        idx = xp.broadcast_to(flat[:, :, k], (r, c, pooled_width, flat.shape[-1]))
        vals = xp.take_along_axis(planes[:, :, None, :], idx, axis=3)
        vals = xp.where(inside[:, :, k], vals, -xp.inf)
        best = xp.argmax(vals, axis=3)
        found = xp.take_along_axis(vals, best[..., None], axis=3)[..., 0]
        empty = ~inside[:, :, k].any(axis=3)
        out[:, :, k] = xp.where(empty, 0, found)
        argmax[:, :, k] = xp.where(empty, -1, xp.take_along_axis(idx, best[..., None], axis=3)[..., 0])
    return out, argmax


def _roi_pool_grad_forward(xp, x, rois, rois_num, argmax, dout, pooled_height, pooled_width, spatial_scale):
    batch = xp.asarray(_roi_batch(xp, "roi_pool_grad", x.shape[0], rois, rois_num))
    n, c, h, w = x.shape
    dx = xp.zeros(x.size, dtype=dout.dtype)
    plane = (batch[:, None] * c + xp.arange(c)[None, :]) * (h * w)                  # [R, C]
    hit = argmax >= 0
    target = (plane[:, :, None, None] + argmax)[hit]
    scatter_add(xp, dx, target, dout[hit])
    return dx.reshape(x.shape)


def _roi_pool_infer(x, rois, rois_num, pooled_height, pooled_width, spatial_scale):
    out = _pooled_meta("roi_pool", x, rois, rois_num, pooled_height, pooled_width)
    return out, Meta(out.shape, np.dtype(np.int64))


def _roi_pool_grad_grad(g):
    if g.needs("Out@GRAD"):  # dOut reaches X at Argmax: its gradient reads X@GRAD's gradient back there
        g.set_input_grad("Out@GRAD", g.op("roi_pool_grad_grad", g.input("X"), g.input("ROIs"), g.input("RoisNum"),
                                          g.input("Argmax"), g.output_grad("X@GRAD"), **g.attrs))


def _roi_pool_grad_grad_forward(xp, x, rois, rois_num, argmax, ddx, pooled_height, pooled_width, spatial_scale):
    batch = xp.asarray(_roi_batch(xp, "roi_pool_grad_grad", x.shape[0], rois, rois_num))
    planes = ddx.reshape(x.shape[0], x.shape[1], -1)[batch]                         # [R, C, H*W]
    read = xp.take_along_axis(planes, xp.maximum(argmax, 0).reshape(argmax.shape[0], argmax.shape[1], -1), axis=2)
    return xp.where(argmax >= 0, read.reshape(argmax.shape), 0)


_POOL_ATTRS = {"pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0}
ROI_POOL = register_op("roi_pool", inputs=("X", "ROIs", "RoisNum"), outputs=("Out", "Argmax"),
                       intermediate_outputs=("Argmax",), optional_inputs=("RoisNum",),
                       nondiff_inputs=("ROIs", "RoisNum"), forward=_roi_pool_forward, infer=_roi_pool_infer,
                       grad=_roi_grad_maker("roi_pool_grad", extra=("Argmax",)), attrs=_POOL_ATTRS,
                       double_grad=True, host_sync="reads RoisNum on the host")
ROI_POOL_GRAD = register_op("roi_pool_grad", inputs=("X", "ROIs", "RoisNum", "Argmax", "Out@GRAD"),
                            outputs=("X@GRAD",), meta_inputs=("X",), optional_inputs=("RoisNum",),
                            nondiff_inputs=("ROIs", "RoisNum", "Argmax"), forward=_roi_pool_grad_forward,
                            infer=lambda x, rois, rois_num, argmax, dout, **attrs: Meta(x.shape, dout.dtype),
                            grad=_roi_pool_grad_grad, attrs=_POOL_ATTRS, host_sync="reads RoisNum on the host")
ROI_POOL_GRAD_GRAD = register_op(
    "roi_pool_grad_grad", inputs=("X", "ROIs", "RoisNum", "Argmax", "X@GRAD@GRAD"), outputs=("Out@GRAD@GRAD",),
    meta_inputs=("X",), optional_inputs=("RoisNum",), nondiff_inputs=("ROIs", "RoisNum", "Argmax"),
    forward=_roi_pool_grad_grad_forward,
    infer=lambda x, rois, rois_num, argmax, ddx, **attrs: Meta(argmax.shape, ddx.dtype),
    attrs=_POOL_ATTRS, host_sync="reads RoisNum on the host")


# ---- nms -------------------------------------------------------------------------------------------------------
def _nms_forward(xp, boxes, iou_threshold):
    """The indices of the boxes kept by greedy suppression in the given order: a box is dropped when its IoU with
    a kept earlier box exceeds iou_threshold."""
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"op 'nms': Boxes must have shape [num_boxes, 4], received {list(boxes.shape)}")
    x1, y1, x2, y2 = (boxes[:, k][:, None] for k in range(4))
    area = (x2 - x1) * (y2 - y1)
    inter = (xp.maximum(xp.minimum(x2, x2.T) - xp.maximum(x1, x1.T), 0) *
             xp.maximum(xp.minimum(y2, y2.T) - xp.maximum(y1, y1.T), 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        overlaps = _host(xp, inter / (area + area.T - inter) > iou_threshold)
    suppressed = np.zeros(boxes.shape[0], dtype=bool)
    keep = []
    for i in range(boxes.shape[0]):
        if not suppressed[i]:
            keep.append(i)
            suppressed |= overlaps[i]
    return xp.asarray(np.array(keep, dtype=np.int64))


def _nms_infer(boxes, iou_threshold):
    if len(boxes.shape) != 2 or boxes.shape[1] not in (4, -1):
        raise ValueError(f"op 'nms': Boxes must have shape [num_boxes, 4], received {list(boxes.shape)}")
    return Meta((-1,), np.dtype(np.int64))


NMS = register_op("nms", inputs=("Boxes",), outputs=("KeepBoxesIdxs",), nondiff_inputs=("Boxes",),
                  forward=_nms_forward, infer=_nms_infer, attrs={"iou_threshold": 1.0}, host_sync=DATA_DEPENDENT_SHAPE)


# ---- box_coder -------------------------------------------------------------------------------------------------
def _center_size(boxes, extra, midpoint=False):
    """(center x, center y, width, height); un-normalized boxes count their end pixel (extra = 1), and their
    centers are x1 + width / 2, except an encoded target's, the midpoint (Paddle's kernel)."""
    w = boxes[..., 2] - boxes[..., 0] + extra
    h = boxes[..., 3] - boxes[..., 1] + extra
    if midpoint:
        return (boxes[..., 0] + boxes[..., 2]) / 2, (boxes[..., 1] + boxes[..., 3]) / 2, w, h
    return boxes[..., 0] + w / 2, boxes[..., 1] + h / 2, w, h


def _box_coder_forward(xp, prior, prior_var, target, code_type, box_normalized, axis, variance):
    extra = 0.0 if box_normalized else 1.0
    var = prior_var if prior_var is not None else (xp.asarray(variance, dtype=prior.dtype) if variance else None)
    if code_type == "encode_center_size":
        pcx, pcy, pw, ph = (v[None, :] for v in _center_size(prior, extra))
        tcx, tcy, tw, th = (v[:, None] for v in _center_size(target, extra, midpoint=True))
        with np.errstate(divide="ignore"):  # a degenerate box encodes to -inf, as Paddle's
            out = xp.stack([(tcx - pcx) / pw, (tcy - pcy) / ph, xp.log(xp.abs(tw / pw)), xp.log(xp.abs(th / ph))],
                           -1)
        return (out if var is None else out / var).astype(target.dtype)
    # decode: prior (and a per-prior variance) broadcast along `axis` of target [N, M, 4]
    expand = (lambda v: v[None]) if axis == 0 else (lambda v: v[:, None])
    pcx, pcy, pw, ph = (expand(v) for v in _center_size(prior, extra))
    if var is None:
        var = xp.ones(4, dtype=target.dtype)
    v = expand(var) if var.ndim == 2 else var
    vx, vy, vw, vh = (v[..., k] for k in range(4))
    cx = vx * target[..., 0] * pw + pcx
    cy = vy * target[..., 1] * ph + pcy
    w = xp.exp(vw * target[..., 2]) * pw
    h = xp.exp(vh * target[..., 3]) * ph
    return xp.stack([cx - w / 2, cy - h / 2, cx + w / 2 - extra, cy + h / 2 - extra], -1).astype(target.dtype)


def _box_coder_infer(prior, prior_var, target, code_type, box_normalized, axis, variance):
    op = "box_coder"
    if code_type not in ("encode_center_size", "decode_center_size"):
        raise ValueError(f"op '{op}': code_type must be 'encode_center_size' or 'decode_center_size', received "
                         f"{code_type!r}")
    if len(prior.shape) != 2 or prior.shape[1] not in (4, -1):
        raise ValueError(f"op '{op}': PriorBox must have shape [M, 4], received {list(prior.shape)}")
    if prior_var is not None and list(prior_var.shape) not in ([prior.shape[0], 4], [-1, 4], [4]):
        raise ValueError(f"op '{op}': PriorBoxVar must have shape [M, 4] or [4], received {list(prior_var.shape)}")
    if variance and len(variance) != 4:
        raise ValueError(f"op '{op}': variance must hold 4 values, received {list(variance)}")
    if code_type == "encode_center_size":
        if len(target.shape) != 2 or target.shape[1] not in (4, -1):
            raise ValueError(f"op '{op}': TargetBox must have shape [N, 4] to encode, received {list(target.shape)}")
        return Meta((target.shape[0], prior.shape[0], 4), target.dtype)
    if len(target.shape) != 3 or target.shape[2] not in (4, -1):
        raise ValueError(f"op '{op}': TargetBox must have shape [N, M, 4] to decode, received {list(target.shape)}")
    if axis not in (0, 1):
        raise ValueError(f"op '{op}': axis must be 0 or 1, received {axis}")
    return Meta(tuple(target.shape), target.dtype)


BOX_CODER = register_op("box_coder", inputs=("PriorBox", "PriorBoxVar", "TargetBox"), outputs=("OutputBox",),
                        optional_inputs=("PriorBoxVar",), nondiff_inputs=("PriorBox", "PriorBoxVar", "TargetBox"),
                        forward=_box_coder_forward, infer=_box_coder_infer,
                        attrs={"code_type": "encode_center_size", "box_normalized": True, "axis": 0, "variance": []})


# ---- prior_box -------------------------------------------------------------------------------------------------
def _expanded_ratios(aspect_ratios, flip):
    """1 first, then each new ratio (and its inverse with flip), as Paddle's ExpandAspectRatios."""
    out = [1.0]
    for ar in aspect_ratios:
        if all(abs(ar - seen) >= 1e-6 for seen in out):
            out.append(float(ar))
            if flip:
                out.append(1.0 / ar)
    return out


def _prior_sizes(min_sizes, max_sizes, ratios, min_max_aspect_ratios_order):
    """The (half width, half height) of each prior at a position, in Paddle's order."""
    sizes = []
    for s, low in enumerate(min_sizes):
        shaped = [(low * np.sqrt(ar) / 2, low / np.sqrt(ar) / 2) for ar in ratios]
        both = [(np.sqrt(low * max_sizes[s]) / 2,) * 2] if max_sizes else []
        if min_max_aspect_ratios_order:
            sizes += [(low / 2, low / 2)] + both + [wh for wh, ar in zip(shaped, ratios) if abs(ar - 1) >= 1e-6]
        else:
            sizes += shaped + both
    return sizes


def _prior_box_forward(xp, input, image, min_sizes, max_sizes, aspect_ratios, variances, flip, clip, step_w, step_h,
                       offset, min_max_aspect_ratios_order):
    (h, w), (img_h, img_w) = input.shape[2:], image.shape[2:]
    sizes = np.array(_prior_sizes(min_sizes, max_sizes, _expanded_ratios(aspect_ratios, flip),
                                  min_max_aspect_ratios_order))                                 # [P, 2]
    step_w = step_w if step_w else img_w / w
    step_h = step_h if step_h else img_h / h
    cx = ((np.arange(w) + offset) * step_w)[None, :, None]
    cy = ((np.arange(h) + offset) * step_h)[:, None, None]
    bw, bh = sizes[:, 0], sizes[:, 1]
    boxes = np.stack(np.broadcast_arrays((cx - bw) / img_w, (cy - bh) / img_h, (cx + bw) / img_w,
                                         (cy + bh) / img_h), -1)                                 # [H, W, P, 4]
    if clip:
        boxes = np.clip(boxes, 0.0, 1.0)
    var = np.broadcast_to(np.asarray(variances, dtype=np.float64), boxes.shape)
    return xp.asarray(boxes.astype(input.dtype)), xp.asarray(np.ascontiguousarray(var).astype(input.dtype))


def _prior_box_infer(input, image, min_sizes, max_sizes, aspect_ratios, variances, flip, clip, step_w, step_h, offset,
                     min_max_aspect_ratios_order):
    op = "prior_box"
    for slot, meta in (("Input", input), ("Image", image)):
        if len(meta.shape) != 4:
            raise ValueError(f"op '{op}': {slot} must be 4-D [N, C, H, W], received shape {list(meta.shape)}")
    if not min_sizes or any(v <= 0 for v in min_sizes):
        raise ValueError(f"op '{op}': min_sizes must be positive numbers, received {list(min_sizes)}")
    if max_sizes and (len(max_sizes) != len(min_sizes) or any(hi <= lo for lo, hi in zip(min_sizes, max_sizes))):
        raise ValueError(f"op '{op}': max_sizes must pair with min_sizes, each larger, received {list(max_sizes)} "
                         f"for {list(min_sizes)}")
    if len(variances) != 4 or any(v <= 0 for v in variances):
        raise ValueError(f"op '{op}': variances must be 4 positive numbers, received {list(variances)}")
    priors = len(_prior_sizes(min_sizes, max_sizes, _expanded_ratios(aspect_ratios, flip),
                              min_max_aspect_ratios_order))
    shape = (input.shape[2], input.shape[3], priors, 4)
    return Meta(shape, input.dtype), Meta(shape, input.dtype)


PRIOR_BOX = register_op(
    "prior_box", inputs=("Input", "Image"), outputs=("Boxes", "Variances"), meta_inputs=("Input", "Image"),
    forward=_prior_box_forward, infer=_prior_box_infer,
    attrs={"min_sizes": [], "max_sizes": [], "aspect_ratios": [1.0], "variances": [0.1, 0.1, 0.2, 0.2],
           "flip": False, "clip": False, "step_w": 0.0, "step_h": 0.0, "offset": 0.5,
           "min_max_aspect_ratios_order": False})


# ---- yolo_box --------------------------------------------------------------------------------------------------
def _sigmoid(xp, v):
    return 1.0 / (1.0 + xp.exp(-v))


def _yolo_box_forward(xp, x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox, scale_x_y,
                      iou_aware, iou_aware_factor):
    n, c, h, w = x.shape
    an_num = len(anchors) // 2
    if iou_aware:
        iou, x = x[:, :an_num], x[:, an_num:]
    entries = x.reshape(n, an_num, 5 + class_num, h, w)
    conf = _sigmoid(xp, entries[:, :, 4])
    if iou_aware:
        conf = conf ** (1 - iou_aware_factor) * _sigmoid(xp, iou) ** iou_aware_factor
    keep = conf >= conf_thresh
    img_h = img_size[:, 0].astype(x.dtype).reshape(n, 1, 1, 1)
    img_w = img_size[:, 1].astype(x.dtype).reshape(n, 1, 1, 1)
    bias = -0.5 * (scale_x_y - 1.0)
    grid_x, grid_y = xp.arange(w, dtype=x.dtype), xp.arange(h, dtype=x.dtype)[:, None]
    cx = (grid_x + _sigmoid(xp, entries[:, :, 0]) * scale_x_y + bias) * img_w / w
    cy = (grid_y + _sigmoid(xp, entries[:, :, 1]) * scale_x_y + bias) * img_h / h
    anchor = xp.asarray(np.asarray(anchors, dtype=x.dtype).reshape(an_num, 2))
    bw = xp.exp(entries[:, :, 2]) * anchor[:, 0, None, None] * img_w / (downsample_ratio * w)
    bh = xp.exp(entries[:, :, 3]) * anchor[:, 1, None, None] * img_h / (downsample_ratio * h)
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x1, y1 = xp.maximum(x1, 0), xp.maximum(y1, 0)
        x2, y2 = xp.minimum(x2, img_w - 1), xp.minimum(y2, img_h - 1)
    boxes = xp.where(keep[..., None], xp.stack([x1, y1, x2, y2], -1), 0).reshape(n, -1, 4)
    scores = xp.where(keep[:, :, None], conf[:, :, None] * _sigmoid(xp, entries[:, :, 5:]), 0)   # [N, A, C, H, W]
    return boxes.astype(x.dtype), scores.transpose(0, 1, 3, 4, 2).reshape(n, -1, class_num).astype(x.dtype)


def _yolo_box_infer(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox, scale_x_y, iou_aware,
                    iou_aware_factor):
    op = "yolo_box"
    check_float(op, x, "X", real=True)
    if len(x.shape) != 4:
        raise ValueError(f"op '{op}': X must be 4-D [N, C, H, W], received shape {list(x.shape)}")
    if len(img_size.shape) != 2 or img_size.shape[1] not in (2, -1) or np.dtype(img_size.dtype) != np.int32:
        raise ValueError(f"op '{op}': ImgSize must be an int32 tensor [N, 2], received {img_size.dtype} "
                         f"{list(img_size.shape)}")
    if not anchors or len(anchors) % 2:
        raise ValueError(f"op '{op}': anchors must hold (width, height) pairs, received {list(anchors)}")
    if class_num <= 0:
        raise ValueError(f"op '{op}': class_num must be positive, received {class_num}")
    an_num = len(anchors) // 2
    channels = an_num * (5 + class_num) + (an_num if iou_aware else 0)
    if x.shape[1] not in (channels, -1):
        raise ValueError(f"op '{op}': X must have {channels} channels for {an_num} anchors and {class_num} classes"
                         f"{' (iou_aware)' if iou_aware else ''}, received {x.shape[1]}")
    boxes = -1 if -1 in x.shape[2:] else an_num * x.shape[2] * x.shape[3]
    return Meta((x.shape[0], boxes, 4), x.dtype), Meta((x.shape[0], boxes, class_num), x.dtype)


YOLO_BOX = register_op(
    "yolo_box", inputs=("X", "ImgSize"), outputs=("Boxes", "Scores"), nondiff_inputs=("X", "ImgSize"),
    forward=_yolo_box_forward, infer=_yolo_box_infer,
    attrs={"anchors": [], "class_num": 1, "conf_thresh": 0.01, "downsample_ratio": 32, "clip_bbox": True,
           "scale_x_y": 1.0, "iou_aware": False, "iou_aware_factor": 0.5})


# ---- yolov3_loss -----------------------------------------------------------------------------------------------
# YOLOv3's training loss of one head, as Paddle's CPU kernel computes it, vectorised over images, anchors, cells and
# ground-truth boxes (no Python loop). A gt box (cx, cy, w, h, normalised to the image) counts when w and h are not
# below 1e-6; it matches the anchor (of all anchors) whose box, centred with it, overlaps it most, and when that
# anchor is one of anchor_mask's, the prediction of its cell (int(cx * W), int(cy * H)) pays the location loss
# (sigmoid cross entropy towards the offset in the cell, L1 towards log(size / anchor)), weighted by
# (2 - w * h) * score, and the class loss (sigmoid cross entropy, label smoothing by min(1 / class_num, 1 / 40)).
# Every prediction pays the objectness loss: towards 1 times the score at matched cells, towards 0 elsewhere, except
# where its decoded box overlaps some gt box by more than ignore_thresh. ObjectnessMask holds those weights (score,
# 0, or -1 ignored), GTMatchMask each gt box's position in anchor_mask (-1 none). As Paddle's kernel, the grid size
# is H for both axes (X must be square) and the gradient of a cell two gt boxes share is the last box's.
_OBJ_POSITIVE, _OBJ_IGNORED = 1e-5, -0.5  # the kernel's thresholds on ObjectnessMask's values


def _sigmoid_ce(xp, logit, label):
    return xp.maximum(logit, 0) - logit * label + xp.log1p(xp.exp(-xp.abs(logit)))


def _center_iou(xp, a, b):
    """IoU of boxes given as (cx, cy, w, h) tuples of broadcastable arrays."""
    def overlap(c1, w1, c2, w2):
        return xp.minimum(c1 + w1 / 2, c2 + w2 / 2) - xp.maximum(c1 - w1 / 2, c2 - w2 / 2)
    ow, oh = overlap(a[0], a[2], b[0], b[2]), overlap(a[1], a[3], b[1], b[3])
    inter = xp.where((ow < 0) | (oh < 0), 0, ow * oh)
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def _label_targets(class_num, use_label_smooth):
    smooth = min(1.0 / class_num, 1.0 / 40) if use_label_smooth else 0.0
    return 1.0 - smooth, smooth


def _gt_matches(xp, x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, downsample_ratio,
                use_label_smooth, match=None):
    """What the gt boxes ask of the predictions at their cells: (match [N, B]: position in anchor_mask, -1 none;
    key [N, B]: the cell, mask position * H * W + y * W + x, where the box writes the objectness weight and the
    gradient, or the spare slot M * H * W for a box that matches none or whose cell a later box takes; the
    predictions there [N, B, 5 + C]; their targets [N, B, 5 + C] (channel 4 unused); the weight of each box's terms
    [N, B] (its score, 0 unmatched); the location terms' extra weight 2 - w * h [N, B]). `match` (the forward's
    GTMatchMask) skips the matching."""
    n, _, h, w = x.shape
    m, dtype = len(anchor_mask), x.dtype.type
    gx, gy, gw, gh = (gt_box[..., k] for k in range(4))
    an = xp.asarray(np.asarray(anchors, dtype=x.dtype).reshape(-1, 2) / dtype(downsample_ratio * h))
    if match is None:
        # the anchor each gt box overlaps most, centred together (the kernel compares these IoUs as float32)
        iou = _center_iou(xp, (0, 0, gw[..., None], gh[..., None]), (0, 0, an[:, 0], an[:, 1]))
        best = xp.argmax(iou.astype(np.float32), axis=-1)
        position = np.full(an.shape[0], -1, dtype=np.int32)
        for j in reversed(range(m)):  # an anchor listed twice in anchor_mask takes its first position
            position[anchor_mask[j]] = j
        valid = (gw >= 1e-6) & (gh >= 1e-6)
        match = xp.where(valid, xp.asarray(position)[best], -1).astype(np.int32)
    matched = match >= 0
    slot = xp.maximum(match, 0)
    best = xp.asarray(np.asarray(anchor_mask, dtype=np.int64))[slot]
    # C's int() truncates; a centre outside [0, 1) stays in the grid (the kernel would read past the row)
    gi = xp.clip((gx * w).astype(np.int64), 0, w - 1)
    gj = xp.clip((gy * h).astype(np.int64), 0, h - 1)
    cell = slot * (h * w) + gj * w + gi
    later = (cell[:, :, None] == cell[:, None, :]) & matched[:, None, :] & xp.triu(
        xp.ones((cell.shape[1],) * 2, dtype=bool), 1)
    key = xp.where(matched & ~later.any(-1), cell, m * h * w)
    channel = slot[..., None] * (5 + class_num) + xp.arange(5 + class_num)
    pred = x.reshape(n, -1, h * w)[xp.arange(n)[:, None, None], channel, (gj * w + gi)[..., None]]
    pos, neg = _label_targets(class_num, use_label_smooth)
    labels = xp.where(xp.arange(class_num) == gt_label[..., None], dtype(pos), dtype(neg))
    box = [gx * w - gi, gy * h - gj, xp.log(xp.where(matched, gw, 1) / an[best, 0]),
           xp.log(xp.where(matched, gh, 1) / an[best, 1]), xp.zeros_like(gx)]
    target = xp.concatenate([xp.stack(box, -1).astype(x.dtype), labels], -1)
    score = xp.ones(gx.shape, x.dtype) if gt_score is None else gt_score
    return match, key, pred, target, xp.where(matched, score, 0).astype(x.dtype), (2 - gw * gh).astype(x.dtype)


def _yolov3_loss_forward(xp, x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh,
                         downsample_ratio, use_label_smooth, scale_x_y):
    _yolov3_loss_infer(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh,
                       downsample_ratio, use_label_smooth, scale_x_y)  # eager calls reach here unchecked
    n, _, h, w = x.shape
    m = len(anchor_mask)
    match, key, pred, target, weight, box_weight = _gt_matches(
        xp, x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, downsample_ratio, use_label_smooth)
    ce = _sigmoid_ce(xp, pred, target)
    location = (ce[..., 0] + ce[..., 1] + xp.abs(pred[..., 2] - target[..., 2])
                + xp.abs(pred[..., 3] - target[..., 3])) * box_weight
    loss = ((location + ce[..., 5:].sum(-1)) * weight).sum(-1)
    # predictions whose decoded box overlaps a gt box by more than ignore_thresh pay no objectness loss
    entries = x.reshape(n, m, 5 + class_num, h, w)
    an = np.asarray(anchors, dtype=x.dtype).reshape(-1, 2)[list(anchor_mask)] / x.dtype.type(downsample_ratio * h)
    bias = -0.5 * (scale_x_y - 1.0)
    decoded = ((xp.arange(w, dtype=x.dtype) + _sigmoid(xp, entries[:, :, 0]) * scale_x_y + bias) / h,
               (xp.arange(h, dtype=x.dtype)[:, None] + _sigmoid(xp, entries[:, :, 1]) * scale_x_y + bias) / h,
               xp.exp(entries[:, :, 2]) * xp.asarray(an[:, 0, None, None]),
               xp.exp(entries[:, :, 3]) * xp.asarray(an[:, 1, None, None]))
    gt = [gt_box[:, None, None, None, :, k] for k in range(4)]
    iou = _center_iou(xp, [d[..., None] for d in decoded], gt)                        # [N, M, H, W, B]
    valid = (gt[2] >= 1e-6) & (gt[3] >= 1e-6)
    ignored = xp.where(valid, iou, 0).max(-1) > ignore_thresh
    obj = xp.concatenate([xp.where(ignored, -1, 0).astype(x.dtype).reshape(n, -1), xp.zeros((n, 1), x.dtype)], 1)
    obj[xp.arange(n)[:, None], key] = weight
    obj = obj[:, :-1].reshape(n, m, h, w)
    logit = entries[:, :, 4]
    objectness = xp.where(obj > _OBJ_POSITIVE, _sigmoid_ce(xp, logit, 1) * obj,
                          xp.where(obj > _OBJ_IGNORED, _sigmoid_ce(xp, logit, 0), 0))
    return (loss + objectness.sum((1, 2, 3))).astype(x.dtype), obj, match


def _yolov3_loss_grad_forward(xp, x, gt_box, gt_label, gt_score, obj, match, dloss, anchors, anchor_mask, class_num,
                              ignore_thresh, downsample_ratio, use_label_smooth, scale_x_y):
    n, _, h, w = x.shape
    m, k = len(anchor_mask), 5 + class_num
    _, key, pred, target, weight, box_weight = _gt_matches(
        xp, x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, downsample_ratio, use_label_smooth,
        match=match)
    d = _sigmoid(xp, pred) - target                                                   # [N, B, 5 + C]
    d[..., 2:4] = xp.where(pred[..., 2:4] > target[..., 2:4], 1, -1)
    d[..., :4] *= box_weight[..., None]
    cells = xp.zeros((n, m * h * w + 1, k), x.dtype)
    cells[xp.arange(n)[:, None], key] = d * (weight * dloss[:, None])[..., None]
    dx = xp.ascontiguousarray(cells[:, :-1].reshape(n, m, h * w, k).transpose(0, 1, 3, 2))
    o, s = obj.reshape(n, m, h * w), _sigmoid(xp, x.reshape(n, m, k, h * w)[:, :, 4])
    dx[:, :, 4] = xp.where(o > _OBJ_POSITIVE, (s - 1) * o, xp.where(o > _OBJ_IGNORED, s, 0)) * dloss[:, None, None]
    return dx.reshape(x.shape).astype(x.dtype)


def _yolov3_loss_infer(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh,
                       downsample_ratio, use_label_smooth, scale_x_y):
    op = "yolov3_loss"
    check_float(op, x, "X", real=True)
    if len(x.shape) != 4 or x.shape[2] != x.shape[3]:
        raise ValueError(f"op '{op}': X must be 4-D [N, C, H, W] with H == W, received shape {list(x.shape)}")
    if not anchors or len(anchors) % 2:
        raise ValueError(f"op '{op}': anchors must hold (width, height) pairs, received {list(anchors)}")
    if not anchor_mask or any(not 0 <= a < len(anchors) // 2 for a in anchor_mask):
        raise ValueError(f"op '{op}': anchor_mask must index the {len(anchors) // 2} anchors, received "
                         f"{list(anchor_mask)}")
    if class_num <= 0:
        raise ValueError(f"op '{op}': class_num must be positive, received {class_num}")
    if x.shape[1] not in (len(anchor_mask) * (5 + class_num), -1):
        raise ValueError(f"op '{op}': X must have len(anchor_mask) * (5 + class_num) = "
                         f"{len(anchor_mask) * (5 + class_num)} channels, received {x.shape[1]}")
    if len(gt_box.shape) != 3 or gt_box.shape[2] not in (4, -1) or np.dtype(gt_box.dtype) != np.dtype(x.dtype):
        raise ValueError(f"op '{op}': GTBox must be a {np.dtype(x.dtype)} tensor [N, B, 4] (X's dtype), received "
                         f"{np.dtype(gt_box.dtype)} {list(gt_box.shape)}")
    for slot, t, dtype in (("GTLabel", gt_label, np.int32), ("GTScore", gt_score, x.dtype)):
        if t is not None and (tuple(t.shape) != tuple(gt_box.shape[:2]) or np.dtype(t.dtype) != np.dtype(dtype)):
            raise ValueError(f"op '{op}': {slot} must be a {np.dtype(dtype)} tensor of GTBox's [N, B] = "
                             f"{list(gt_box.shape[:2])}, received {np.dtype(t.dtype)} {list(t.shape)}")
    return (Meta((x.shape[0],), x.dtype), Meta((x.shape[0], len(anchor_mask), *x.shape[2:]), x.dtype),
            Meta(tuple(gt_box.shape[:2]), np.dtype(np.int32)))


def _yolov3_loss_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("yolov3_loss_grad", g.input("X"), g.input("GTBox"), g.input("GTLabel"),
                                   g.input("GTScore"), g.output("ObjectnessMask"), g.output("GTMatchMask"),
                                   g.output_grad("Loss"), **g.attrs))


_YOLO_LOSS_ATTRS = {"anchors": [], "anchor_mask": [], "class_num": 1, "ignore_thresh": 0.7, "downsample_ratio": 32,
                    "use_label_smooth": True, "scale_x_y": 1.0}
YOLOV3_LOSS = register_op(
    "yolov3_loss", inputs=("X", "GTBox", "GTLabel", "GTScore"), outputs=("Loss", "ObjectnessMask", "GTMatchMask"),
    intermediate_outputs=("ObjectnessMask", "GTMatchMask"), optional_inputs=("GTScore",),
    nondiff_inputs=("GTBox", "GTLabel", "GTScore"), forward=_yolov3_loss_forward, infer=_yolov3_loss_infer,
    grad=_yolov3_loss_grad, attrs=_YOLO_LOSS_ATTRS)
YOLOV3_LOSS_GRAD = register_op(
    "yolov3_loss_grad",
    inputs=("X", "GTBox", "GTLabel", "GTScore", "ObjectnessMask", "GTMatchMask", "Loss@GRAD"), outputs=("X@GRAD",),
    optional_inputs=("GTScore",),
    nondiff_inputs=("GTBox", "GTLabel", "GTScore", "ObjectnessMask", "GTMatchMask", "Loss@GRAD"),
    forward=_yolov3_loss_grad_forward, infer=lambda x, *rest, **attrs: Meta(x.shape, x.dtype),
    attrs=_YOLO_LOSS_ATTRS)


# ---- matrix_nms ------------------------------------------------------------------------------------------------
def _pairwise_iou(boxes, normalized):
    """[K, K] IoU of boxes [K, 4], as Paddle's JaccardOverlap: un-normalized boxes count their end pixel (+1), in
    the intersection too, of boxes whose coordinates overlap (touching counts)."""
    extra = 0.0 if normalized else 1.0
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    area = (x2 - x1 + extra) * (y2 - y1 + extra)
    iw = np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None])
    ih = np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None])
    inter = np.where((iw >= 0) & (ih >= 0), (iw + extra) * (ih + extra), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(inter > 0, inter / (area[:, None] + area[None] - inter), 0.0)


def _matrix_nms_class(boxes, scores, score_threshold, post_threshold, nms_top_k, use_gaussian, sigma, normalized):
    """(kept box indices, decayed scores) of one class: each candidate's score decays by the worst ratio over the
    higher-scored candidates j of its IoU with j against j's own largest IoU (Matrix NMS, SOLOv2)."""
    candidates = np.nonzero(scores > score_threshold)[0]
    order = candidates[np.argsort(-scores[candidates], kind="stable")]
    if nms_top_k > -1:
        order = order[:nms_top_k]
    if order.size == 0:
        return order, scores[order]
    iou = np.tril(_pairwise_iou(boxes[order], normalized), -1)                       # iou[i, j], j < i
    iou_max = iou.max(axis=1)                                                        # each one's largest IoU above
    lower = np.tril(np.ones_like(iou, dtype=bool), -1)
    if use_gaussian:
        decay = np.exp((iou_max[None, :] ** 2 - iou ** 2) * sigma)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            decay = (1.0 - iou) / (1.0 - iou_max[None, :])
    decayed = np.where(lower, decay, 1.0).min(axis=1, initial=1.0) * scores[order]
    kept = decayed > post_threshold
    return order[kept], decayed[kept]


def _matrix_nms_forward(xp, bboxes, scores, background_label, score_threshold, post_threshold, nms_top_k, keep_top_k,
                        normalized, use_gaussian, gaussian_sigma):
    boxes_h, scores_h = _host(xp, bboxes).astype(np.float64), _host(xp, scores).astype(np.float64)
    n, classes, m = scores_h.shape
    rows, index, counts = [], [], []
    for image in range(n):
        found = []
        for c in range(classes):
            if c == background_label:
                continue
            kept, decayed = _matrix_nms_class(boxes_h[image], scores_h[image, c], score_threshold, post_threshold,
                                              nms_top_k, use_gaussian, gaussian_sigma, normalized)
            found += [(s, c, i) for s, i in zip(decayed, kept)]
        found.sort(key=lambda t: -t[0])
        if keep_top_k > -1:
            found = found[:keep_top_k]
        rows += [[c, s, *boxes_h[image, i]] for s, c, i in found]
        index += [image * m + i for _, _, i in found]
        counts.append(len(found))
    out = np.array(rows, dtype=bboxes.dtype).reshape(-1, 6)
    return (xp.asarray(out), xp.asarray(np.array(index, dtype=np.int32).reshape(-1, 1)),
            xp.asarray(np.array(counts, dtype=np.int32)))


def _matrix_nms_infer(bboxes, scores, background_label, score_threshold, post_threshold, nms_top_k, keep_top_k,
                      normalized, use_gaussian, gaussian_sigma):
    op = "matrix_nms"
    if len(bboxes.shape) != 3 or bboxes.shape[2] not in (4, -1):
        raise ValueError(f"op '{op}': BBoxes must have shape [N, M, 4], received {list(bboxes.shape)}")
    if len(scores.shape) != 3:
        raise ValueError(f"op '{op}': Scores must have shape [N, C, M], received {list(scores.shape)}")
    if -1 not in (bboxes.shape[1], scores.shape[2]) and bboxes.shape[1] != scores.shape[2]:
        raise ValueError(f"op '{op}': BBoxes [N, M, 4] and Scores [N, C, M] must agree on M, received "
                         f"{list(bboxes.shape)} and {list(scores.shape)}")
    return (Meta((-1, 6), bboxes.dtype), Meta((-1, 1), np.dtype(np.int32)),
            Meta((bboxes.shape[0],), np.dtype(np.int32)))


MATRIX_NMS = register_op(
    "matrix_nms", inputs=("BBoxes", "Scores"), outputs=("Out", "Index", "RoisNum"), nondiff_inputs=("BBoxes", "Scores"),
    forward=_matrix_nms_forward, infer=_matrix_nms_infer, host_sync=DATA_DEPENDENT_SHAPE,
    attrs={"background_label": 0, "score_threshold": 0.0, "post_threshold": 0.0, "nms_top_k": -1, "keep_top_k": -1,
           "normalized": True, "use_gaussian": False, "gaussian_sigma": 2.0})


# ---- distribute_fpn_proposals ----------------------------------------------------------------------------------
def _fpn_levels(xp, rois, min_level, max_level, refer_level, refer_scale, pixel_offset):
    """The FPN level of each ROI: floor(log2(sqrt(area) / refer_scale + 1e-8) + refer_level), clipped."""
    extra = 1.0 if pixel_offset else 0.0
    w, h = rois[:, 2] - rois[:, 0] + extra, rois[:, 3] - rois[:, 1] + extra
    area = xp.where((w < extra) | (h < extra), 0.0, w * h)  # a box with x2 < x1 (or y2 < y1) has no area
    with np.errstate(divide="ignore"):
        level = xp.floor(xp.log2(xp.sqrt(area) / refer_scale + 1e-8) + refer_level)
    return xp.clip(level, min_level, max_level).astype(np.int64)


def _distribute_forward(xp, rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset):
    images = rois_num.shape[0] if rois_num is not None else 1
    batch = _roi_batch(xp, "distribute_fpn_proposals", images, rois, rois_num)
    level = _host(xp, _fpn_levels(xp, rois, min_level, max_level, refer_level, refer_scale, pixel_offset))
    multi, counts, order = [], [], []
    for lvl in range(min_level, max_level + 1):
        at = np.nonzero(level == lvl)[0]                      # image after image: ROIs come grouped by image
        multi.append(rois[xp.asarray(at)])
        counts.append(xp.asarray(np.bincount(batch[at], minlength=images).astype(np.int32)))
        order.append(at)
    restore = np.empty(rois.shape[0], dtype=np.int32)
    restore[np.concatenate(order)] = np.arange(rois.shape[0], dtype=np.int32)
    return multi, counts, xp.asarray(restore.reshape(-1, 1))


def _distribute_infer(rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset):
    if len(rois.shape) != 2 or rois.shape[1] not in (4, -1):
        raise ValueError(f"op 'distribute_fpn_proposals': FpnRois must have shape [R, 4], received {list(rois.shape)}")
    levels = max_level - min_level + 1
    images = rois_num.shape[0] if rois_num is not None else 1
    return ([Meta((-1, 4), rois.dtype) for _ in range(levels)],
            [Meta((images,), np.dtype(np.int32)) for _ in range(levels)], Meta((rois.shape[0], 1), np.dtype(np.int32)))


DISTRIBUTE_FPN_PROPOSALS = register_op(
    "distribute_fpn_proposals", inputs=("FpnRois", "RoisNum"), optional_inputs=("RoisNum",),
    outputs=("MultiFpnRois", "MultiLevelRoIsNum", "RestoreIndex"),
    variadic_outputs=("MultiFpnRois", "MultiLevelRoIsNum"), nondiff_inputs=("FpnRois", "RoisNum"),
    forward=_distribute_forward, infer=_distribute_infer, host_sync=DATA_DEPENDENT_SHAPE,
    attrs={"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224, "pixel_offset": False})


# ---- generate_proposals ----------------------------------------------------------------------------------------
_BBOX_CLIP = np.log(1000.0 / 16.0)  # the largest log-scale a delta may apply (Paddle's kBBoxClipDefault)


def _decode_proposals(anchors, deltas, variances, offset):
    """Anchors [K, 4] moved by deltas [K, 4] (scaled by variances), as the RPN's box coder."""
    w = anchors[:, 2] - anchors[:, 0] + offset
    h = anchors[:, 3] - anchors[:, 1] + offset
    cx, cy = anchors[:, 0] + 0.5 * w, anchors[:, 1] + 0.5 * h
    d = deltas * variances if variances is not None else deltas
    px, py = d[:, 0] * w + cx, d[:, 1] * h + cy
    pw, ph = np.exp(np.minimum(d[:, 2], _BBOX_CLIP)) * w, np.exp(np.minimum(d[:, 3], _BBOX_CLIP)) * h
    return np.stack([px - pw / 2, py - ph / 2, px + pw / 2 - offset, py + ph / 2 - offset], 1)


def _greedy_nms(boxes, threshold, eta, normalized):
    """Greedy NMS of boxes in score order with Paddle's adaptive threshold (times eta after each kept box while
    above 0.5)."""
    iou = _pairwise_iou(boxes, normalized)
    keep = []
    for i in range(boxes.shape[0]):
        if all(iou[i, j] <= threshold for j in keep):
            keep.append(i)
            if eta < 1 and threshold > 0.5:
                threshold *= eta
    return np.array(keep, dtype=np.int64)


def _generate_proposals_forward(xp, scores, deltas, im_shape, anchors, variances, pre_nms_topN, post_nms_topN,
                                nms_thresh, min_size, eta, pixel_offset):
    """Per image: the pre_nms_topN best-scored anchors moved by their deltas, clipped to the image, those smaller than
    min_size dropped, NMS, the post_nms_topN best kept (RPN proposals)."""
    pre_nms_top_n, post_nms_top_n = pre_nms_topN, post_nms_topN
    offset = 1.0 if pixel_offset else 0.0
    s_h, d_h, im_h = _host(xp, scores), _host(xp, deltas), _host(xp, im_shape).astype(np.float64)
    a_h, v_h = _host(xp, anchors).reshape(-1, 4), _host(xp, variances).reshape(-1, 4)
    n = s_h.shape[0]
    rois, probs, counts = [], [], []
    for image in range(n):
        score = s_h[image].transpose(1, 2, 0).reshape(-1)                        # [H, W, A] order, as the anchors
        delta = d_h[image].reshape(-1, 4, *d_h.shape[2:]).transpose(2, 3, 0, 1).reshape(-1, 4)
        order = np.argsort(-score, kind="stable")
        if 0 < pre_nms_top_n < order.size:
            order = order[:pre_nms_top_n]
        boxes = _decode_proposals(a_h[order], delta[order], v_h[order], offset)
        height, width = im_h[image, 0], im_h[image, 1]
        boxes[:, 0::2] = np.clip(boxes[:, 0::2], 0, width - offset)
        boxes[:, 1::2] = np.clip(boxes[:, 1::2], 0, height - offset)
        bw, bh = boxes[:, 2] - boxes[:, 0] + offset, boxes[:, 3] - boxes[:, 1] + offset
        keep = (bw >= max(min_size, 1.0)) & (bh >= max(min_size, 1.0))
        if pixel_offset:
            keep &= (boxes[:, 0] + bw / 2 <= width) & (boxes[:, 1] + bh / 2 <= height)
        boxes, kept_scores = boxes[keep], score[order][keep]
        if boxes.shape[0] == 0:  # Paddle keeps one empty proposal for an image with none
            boxes, kept_scores = np.zeros((1, 4)), np.zeros(1)
        elif nms_thresh > 0:
            chosen = _greedy_nms(boxes, nms_thresh, eta, not pixel_offset)
            if 0 < post_nms_top_n < chosen.size:
                chosen = chosen[:post_nms_top_n]
            boxes, kept_scores = boxes[chosen], kept_scores[chosen]
        rois.append(boxes)
        probs.append(kept_scores)
        counts.append(boxes.shape[0])
    dtype = scores.dtype
    return (xp.asarray(np.concatenate(rois).astype(dtype)), xp.asarray(np.concatenate(probs).reshape(-1, 1)
                                                                       .astype(dtype)),
            xp.asarray(np.array(counts, dtype=np.int32)))


def _generate_proposals_infer(scores, deltas, im_shape, anchors, variances, pre_nms_topN, post_nms_topN,
                              nms_thresh, min_size, eta, pixel_offset):
    op = "generate_proposals"
    if len(scores.shape) != 4 or len(deltas.shape) != 4:
        raise ValueError(f"op '{op}': Scores [N, A, H, W] and BboxDeltas [N, 4A, H, W] must be 4-D, received "
                         f"{list(scores.shape)} and {list(deltas.shape)}")
    if -1 not in (scores.shape[1], deltas.shape[1]) and deltas.shape[1] != 4 * scores.shape[1]:
        raise ValueError(f"op '{op}': BboxDeltas must have 4 channels per anchor ({4 * scores.shape[1]}), received "
                         f"{deltas.shape[1]}")
    for slot, meta in (("Anchors", anchors), ("Variances", variances)):
        if meta.shape[-1] not in (4, -1):
            raise ValueError(f"op '{op}': {slot} must end in 4 box coordinates, received {list(meta.shape)}")
    return (Meta((-1, 4), scores.dtype), Meta((-1, 1), scores.dtype), Meta((scores.shape[0],), np.dtype(np.int32)))


GENERATE_PROPOSALS = register_op(
    "generate_proposals_v2", inputs=("Scores", "BboxDeltas", "ImShape", "Anchors", "Variances"),
    outputs=("RpnRois", "RpnRoiProbs", "RpnRoisNum"),
    nondiff_inputs=("Scores", "BboxDeltas", "ImShape", "Anchors", "Variances"),
    forward=_generate_proposals_forward, infer=_generate_proposals_infer, host_sync=DATA_DEPENDENT_SHAPE,
    attrs={"pre_nms_topN": 6000, "post_nms_topN": 1000, "nms_thresh": 0.5, "min_size": 0.1, "eta": 1.0,
           "pixel_offset": True})
