"""paddle.vision.ops: the detection operators (ROI pooling, non-maximum suppression, box coding), deformable
convolution, and reading/decoding image files, over the registry ops of ops/detection.py and ops/deform_conv.py."""
from __future__ import annotations

import numpy as np

from .. import tensor as T
from ..framework.arg_errors import bad_argument, not_a_tensor
from ..framework.mode import in_static_mode
from ..nn import initializer as _init
from ..nn.layer.layers import Layer
from ..ops import deform_conv as _deform_ops
from ..ops import detection as _detection
from ..ops.dispatch import apply
from ..tensor.tensor_args import is_tensor_like

__all__ = ["yolo_loss", "yolo_box", "prior_box", "box_coder", "matrix_nms", "distribute_fpn_proposals", "generate_proposals", "deform_conv2d", "DeformConv2D", "read_file", "decode_jpeg", "roi_pool", "RoIPool",
           "psroi_pool", "PSRoIPool", "roi_align", "RoIAlign", "nms"]


def _check_tensor(x, api, arg, dtypes=("float32", "float64")):
    if not is_tensor_like(x):
        raise not_a_tensor(f"{api}: {arg} must be a Tensor, received {type(x).__name__}")
    if dtypes and x.dtype.name not in dtypes:
        raise TypeError(f"{api}: {arg} must be a Tensor of dtype {list(dtypes)}, received {x.dtype.name}")


def _pair(value, api, arg):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)] * 2
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, np.integer)) for v in value):
        return [int(v) for v in value]
    raise ValueError(f"{api}: {arg} must be an int or a pair of ints, received {value!r}")


def _rois(api, x, boxes, boxes_num, output_size):
    _check_tensor(x, api, "x")
    _check_tensor(boxes, api, "boxes")
    if boxes_num is None:
        if not in_static_mode():
            raise AssertionError(f"{api}: boxes_num should not be None in dygraph mode.")
    else:
        _check_tensor(boxes_num, api, "boxes_num", ("int32",))
    return _pair(output_size, api, "output_size")


# ---- ROI pooling -----------------------------------------------------------------------------------------------
def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=True, name=None):
    """[num_boxes, C, *output_size]: each box's region of x (N, C, H, W) averaged over bins of bilinear samples
    (sampling_ratio per bin side, or adaptive when <= 0); aligned shifts the boxes by half a pixel."""
    height, width = _rois("roi_align", x, boxes, boxes_num, output_size)
    return apply(_detection.ROI_ALIGN, x, boxes, boxes_num, pooled_height=height, pooled_width=width,
                 spatial_scale=float(spatial_scale), sampling_ratio=int(sampling_ratio), aligned=bool(aligned))


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """[num_boxes, C, *output_size]: the maximum of each bin of each box's (rounded) region of x."""
    height, width = _rois("roi_pool", x, boxes, boxes_num, output_size)
    return apply(_detection.ROI_POOL, x, boxes, boxes_num, pooled_height=height, pooled_width=width,
                 spatial_scale=float(spatial_scale))[0]


def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive ROI pooling: [num_boxes, C / (ph * pw), ph, pw], bin (i, j) of output channel c the mean
    of input channel (c * ph + i) * pw + j over the bin."""
    height, width = _rois("psroi_pool", x, boxes, boxes_num, output_size)
    if len(x.shape) != 4:
        raise ValueError(f"psroi_pool: x must be 4-D (N, C, H, W), received shape {list(x.shape)}")
    if height * width == 0:
        raise ValueError("output_size should not contain 0.")
    return apply(_detection.PSROI_POOL, x, boxes, boxes_num, output_channels=int(x.shape[1] / (height * width)),
                 pooled_height=height, pooled_width=width, spatial_scale=float(spatial_scale))


class RoIAlign(Layer):
    """roi_align with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size, self._spatial_scale = output_size, spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned)


class RoIPool(Layer):
    """roi_pool with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size, self._spatial_scale = output_size, spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class PSRoIPool(Layer):
    """psroi_pool with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self.output_size, self.spatial_scale = output_size, spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)


# ---- non-maximum suppression -----------------------------------------------------------------------------------
def _nms(boxes, iou_threshold):
    return apply(_detection.NMS, boxes, iou_threshold=float(iou_threshold))


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """The indices (int64) of the boxes [N, 4] kept by non-maximum suppression: in the given order without scores;
    else by descending score, per category when category_idxs and categories are given, at most top_k of them."""
    _check_tensor(boxes, "nms", "boxes")
    if scores is None:
        return _nms(boxes, iou_threshold)
    if category_idxs is None:
        order = T.argsort(scores, descending=True)
        return T.gather(order, _nms(T.gather(boxes, order), iou_threshold))
    if top_k is not None and top_k > scores.shape[0]:
        raise AssertionError("top_k should be smaller equal than the number of boxes")
    if categories is None:
        raise AssertionError("if category_idxs is given, categories which is a list of unique id of all categories "
                             "is necessary")
    mask = T.zeros_like(scores, dtype="int32")
    for category in categories:
        members = T.reshape(T.nonzero(T.equal(category_idxs, T.to_tensor(category, dtype=category_idxs.dtype))),
                            [-1])
        if members.shape[0] == 0:
            continue
        order = T.argsort(T.gather(scores, members), descending=True)
        kept = T.gather(members, T.gather(order, _nms(T.gather(boxes, T.gather(members, order)), iou_threshold)))
        mask = T.scatter(mask, kept, T.ones_like(kept, dtype="int32"), overwrite=True)
    kept = T.reshape(T.nonzero(mask), [-1])
    kept_scores = T.gather(scores, kept)
    if top_k is None:
        return T.gather(kept, T.argsort(kept_scores, descending=True))
    return T.gather(kept, T.topk(kept_scores, min(top_k, kept.shape[0]))[1])


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
               gaussian_sigma=2.0, background_label=0, normalized=True, return_index=False, return_rois_num=True,
               name=None):
    """Matrix NMS (SOLOv2) of bboxes [N, M, 4] scored per class by scores [N, C, M]: (out [K, 6] rows of (label,
    decayed score, box), rois_num [N] (int32) or None, index [K, 1] into the N * M boxes or None)."""
    _check_tensor(bboxes, "matrix_nms", "bboxes")
    _check_tensor(scores, "matrix_nms", "scores")
    out, index, rois_num = apply(
        _detection.MATRIX_NMS, bboxes, scores, background_label=int(background_label),
        score_threshold=float(score_threshold), post_threshold=float(post_threshold), nms_top_k=int(nms_top_k),
        keep_top_k=int(keep_top_k), normalized=bool(normalized), use_gaussian=bool(use_gaussian),
        gaussian_sigma=float(gaussian_sigma))
    return out, (rois_num if return_rois_num else None), (index if return_index else None)


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale, pixel_offset=False,
                             rois_num=None, name=None):
    """FPN level assignment: (multi_rois, one [R_l, 4] per level min_level..max_level; restore_ind [R, 1], where
    each ROI went in their concatenation; rois_num_per_level, one [N] int32 per level, or None without rois_num).
    A ROI of size s goes to floor(refer_level + log2(s / refer_scale)), clipped to the levels."""
    if min_level <= 0 or max_level <= 0:
        raise AssertionError("min_level and max_level should be greater than 0")
    if not 1 < max_level - min_level + 1 < 100:
        raise AssertionError("max_level should be greater than min_level, with at most 100 levels")
    _check_tensor(fpn_rois, "distribute_fpn_proposals", "fpn_rois")
    if rois_num is None and not in_static_mode():
        raise AssertionError("rois_num should not be None in dygraph mode.")
    multi, counts, restore = apply(
        _detection.DISTRIBUTE_FPN_PROPOSALS, fpn_rois, rois_num, min_level=int(min_level), max_level=int(max_level),
        refer_level=int(refer_level), refer_scale=int(refer_scale), pixel_offset=bool(pixel_offset))
    return multi, restore, (counts if rois_num is not None else None)


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000, post_nms_top_n=1000,
                       nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=False, return_rois_num=False, name=None):
    """RPN proposals: (rpn_rois [K, 4], rpn_roi_probs [K, 1], rpn_rois_num [N] int32, or None in static mode
    without return_rois_num) from objectness scores [N, A, H, W], deltas [N, 4A, H, W], img_size [N, 2] (height,
    width) and the anchors and variances [H, W, A, 4]."""
    for x, arg in ((scores, "scores"), (bbox_deltas, "bbox_deltas"), (img_size, "img_size"), (anchors, "anchors"),
                   (variances, "variances")):
        _check_tensor(x, "generate_proposals", arg)
    if not return_rois_num and not in_static_mode():
        raise AssertionError("return_rois_num should be True in dygraph mode.")
    rois, probs, counts = apply(
        _detection.GENERATE_PROPOSALS, scores, bbox_deltas, img_size, anchors, variances,
        pre_nms_topN=int(pre_nms_top_n), post_nms_topN=int(post_nms_top_n), nms_thresh=float(nms_thresh),
        min_size=float(min_size), eta=float(eta), pixel_offset=bool(pixel_offset))
    return rois, probs, (counts if return_rois_num else None)


# ---- box coding ------------------------------------------------------------------------------------------------
def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True, axis=0,
              name=None):
    """Encode target boxes [N, 4] against prior boxes [M, 4] as center-size offsets [N, M, 4] divided by the
    variances, or decode such offsets [N, M, 4] back into boxes (the priors along `axis`)."""
    _check_tensor(prior_box, "box_coder", "prior_box")
    _check_tensor(target_box, "box_coder", "target_box")
    if is_tensor_like(prior_box_var):
        var, variance = prior_box_var, []
    elif isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise AssertionError("Input prior_box_var must be Variable or list|tuple with 4 elements.")
        var, variance = None, [float(v) for v in prior_box_var]
    else:
        raise TypeError("Input prior_box_var must be Variable or list|tuple")
    return apply(_detection.BOX_CODER, prior_box, var, target_box, code_type=code_type,
                 box_normalized=bool(box_normalized), axis=int(axis), variance=variance)


def _floats(value):
    return [float(v) for v in (value if isinstance(value, (list, tuple)) else [value])]


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0], variance=[0.1, 0.1, 0.2, 0.2],  # noqa: B006
              flip=False, clip=False, steps=[0.0, 0.0], offset=0.5, min_max_aspect_ratios_order=False,  # noqa: B006
              name=None):
    """SSD prior boxes (boxes, variances), each [H, W, num_priors, 4]: at every position of the feature map input,
    boxes of min_sizes (and sqrt(min * max) with max_sizes) at each aspect ratio, normalized by image's size."""
    _check_tensor(input, "prior_box", "input")
    _check_tensor(image, "prior_box", "image")
    steps = _floats(steps)
    if len(steps) != 2:
        raise ValueError("steps should be (step_w, step_h)")
    max_sizes = _floats(max_sizes) if max_sizes is not None and len(_floats(max_sizes)) and \
        _floats(max_sizes)[0] > 0 else []
    return apply(_detection.PRIOR_BOX, input, image, min_sizes=_floats(min_sizes), max_sizes=max_sizes,
                 aspect_ratios=_floats(aspect_ratios), variances=_floats(variance), flip=bool(flip), clip=bool(clip),
                 step_w=steps[0], step_h=steps[1], offset=float(offset),
                 min_max_aspect_ratios_order=bool(min_max_aspect_ratios_order))


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, name=None,
             scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """YOLOv3 detections from one head's output x [N, anchors * (5 + class_num), H, W] (boxes [N, M, 4] in the
    pixels of img_size [N, 2] (height, width), scores [N, M, class_num]); a prediction whose objectness is below
    conf_thresh gives zeros."""
    _check_tensor(x, "yolo_box", "x")
    _check_tensor(img_size, "yolo_box", "img_size", ("int32",))
    return apply(_detection.YOLO_BOX, x, img_size, anchors=[int(a) for a in anchors], class_num=int(class_num),
                 conf_thresh=float(conf_thresh), downsample_ratio=int(downsample_ratio), clip_bbox=bool(clip_bbox),
                 scale_x_y=float(scale_x_y), iou_aware=bool(iou_aware), iou_aware_factor=float(iou_aware_factor))


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio, gt_score=None,
              use_label_smooth=True, name=None, scale_x_y=1.0):
    """YOLOv3's training loss [N] of one head's output x [N, len(anchor_mask) * (5 + class_num), H, H] against the
    ground-truth boxes gt_box [N, B, 4] ((cx, cy, w, h), normalised to the image; zero-sized boxes are padding),
    their int32 labels gt_label [N, B] and mixup scores gt_score [N, B] (ops/detection.py's yolov3_loss)."""
    api = "yolo_loss"
    for arg, t, dtypes in (("x", x, ("float32", "float64")), ("gt_box", gt_box, ("float32", "float64")),
                           ("gt_label", gt_label, ("int32",)), ("gt_score", gt_score, ("float32", "float64"))):
        if t is not None or arg != "gt_score":
            _check_tensor(t, api, arg, ())
            if t.dtype.name not in dtypes:
                raise bad_argument(f"{api}: {arg} must be a Tensor of dtype {list(dtypes)}, received {t.dtype.name}")
    for arg, value in (("anchors", anchors), ("anchor_mask", anchor_mask)):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, (int, np.integer)) for v in value):
            raise bad_argument(f"{api}: {arg} must be a list or tuple of ints, received {value!r}")
    for arg, value, kinds in (("class_num", class_num, (int, np.integer)), ("downsample_ratio", downsample_ratio,
                              (int, np.integer)), ("ignore_thresh", ignore_thresh, (int, float, np.number)),
                              ("scale_x_y", scale_x_y, (int, float, np.number)),
                              ("use_label_smooth", use_label_smooth, (bool, np.bool_))):
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds[0] is not bool):
            raise bad_argument(f"{api}: {arg} must be {kinds[0].__name__}, received {type(value).__name__}")
    return apply(_detection.YOLOV3_LOSS, x, gt_box, gt_label, gt_score, anchors=[int(a) for a in anchors],
                 anchor_mask=[int(a) for a in anchor_mask], class_num=int(class_num),
                 ignore_thresh=float(ignore_thresh), downsample_ratio=int(downsample_ratio),
                 use_label_smooth=bool(use_label_smooth), scale_x_y=float(scale_x_y))[0]


# ---- deformable convolution ------------------------------------------------------------------------------------
def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups=1, groups=1,
                  mask=None, name=None):
    """Deformable convolution: v2 (modulated by mask) when a mask is given, else v1 (ops deformable_conv /
    deformable_conv_v1), plus bias per output channel."""
    _check_tensor(x, "deform_conv2d", "x")
    _check_tensor(offset, "deform_conv2d", "offset")
    attrs = dict(strides=_pair(stride, "deform_conv2d", "stride"), paddings=_pair(padding, "deform_conv2d", "padding"),
                 dilations=_pair(dilation, "deform_conv2d", "dilation"), groups=groups,
                 deformable_groups=deformable_groups, im2col_step=1)
    if mask is None:
        out = apply(_deform_ops.DEFORMABLE_CONV_V1, x, offset, weight, **attrs)
    else:
        out = apply(_deform_ops.DEFORMABLE_CONV, x, offset, weight, mask, **attrs)
    return out if bias is None else out + T.reshape(bias, [1, -1, 1, 1])


class DeformConv2D(Layer):
    """A deformable convolution layer: weight [out_channels, in_channels / groups, *kernel_size] (He-normal over all
    input channels, as Paddle) and a bias; forward(x, offset, mask=None)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, deformable_groups=1,
                 groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._deformable_groups, self._groups = deformable_groups, groups
        self._stride = _pair(stride, "DeformConv2D", "stride")
        self._padding = _pair(padding, "DeformConv2D", "padding")
        self._dilation = _pair(dilation, "DeformConv2D", "dilation")
        self._kernel_size = _pair(kernel_size, "DeformConv2D", "kernel_size")
        std = (2.0 / (int(np.prod(self._kernel_size)) * in_channels)) ** 0.5
        self.weight = self.create_parameter([out_channels, in_channels // groups, *self._kernel_size],
                                            attr=weight_attr, default_initializer=_init.Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)


# ---- image files -----------------------------------------------------------------------------------------------
def read_file(filename, name=None):
    """A file's bytes as a 1-D uint8 Tensor."""
    with open(filename, "rb") as f:
        data = f.read()
    return T.to_tensor(np.frombuffer(data, dtype=np.uint8).copy())


_JPEG_MODES = {"unchanged": None, "gray": "L", "rgb": "RGB"}


def decode_jpeg(x, mode="unchanged", name=None):
    """The image a 1-D uint8 Tensor of JPEG bytes holds, as a [C, H, W] uint8 Tensor (mode 'unchanged', 'gray' or
    'rgb'); decoded by Pillow (the `vision` extra). A file that is not a readable image raises ValueError."""
    _check_tensor(x, "decode_jpeg", "x", ("uint8",))
    if mode not in _JPEG_MODES:
        raise ValueError(f"decode_jpeg: mode must be one of {list(_JPEG_MODES)}, received {mode!r}")
    try:
        import io

        from PIL import Image
    except ImportError as e:  # pragma: no cover - Pillow is the `vision` extra
        raise ImportError("decode_jpeg needs Pillow: pip install 'paddlelite-numpy[vision]'") from e
    try:
        image = Image.open(io.BytesIO(x.numpy().tobytes()))
        image.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise ValueError(f"decode_jpeg: x is not a decodable image ({e})") from e
    if _JPEG_MODES[mode] is not None:
        image = image.convert(_JPEG_MODES[mode])
    array = np.asarray(image, dtype=np.uint8)
    array = array[None] if array.ndim == 2 else array.transpose(2, 0, 1)
    return T.to_tensor(np.ascontiguousarray(array))
