"""Gradient cases for the ROI pooling ops (ops/detection.py): boxes over two images, one reaching past the map's
edge, one thinner than a pixel; distinct values keep roi_pool's maxima away from ties. yolov3_loss: gt boxes in
distinct cells (a cell two boxes share takes the later box's gradient, as Paddle's), one zero-sized (padding)."""
import numpy as np

from . import OpCase, distinct, rand, rng

_ROIS = np.array([[1.2, 0.5, 7.3, 6.1], [0.0, 0.0, 9.0, 8.0], [3.5, 2.2, 4.1, 8.7], [-2.0, -1.0, 3.0, 3.0]])
_NUM = np.array([2, 2], dtype=np.int32)

CASES = [
    *[OpCase("roi_align", {"X": rand(2, 3, 9, 10, seed=i), "ROIs": _ROIS, "RoisNum": _NUM},
             {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8, "sampling_ratio": ratio, "aligned": aligned},
             id=f"roi_align-ratio{ratio}-{'aligned' if aligned else 'legacy'}")
      for i, (ratio, aligned) in enumerate(((-1, True), (2, True), (-1, False), (3, False)))],
    OpCase("roi_pool", {"X": distinct(2, 3, 9, 10, seed=5), "ROIs": _ROIS, "RoisNum": _NUM},
           {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8}),
    OpCase("psroi_pool", {"X": rand(2, 12, 9, 10, seed=6), "ROIs": _ROIS, "RoisNum": _NUM},
           {"output_channels": 2, "pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8}),
]

# the grad ops are linear in Out@GRAD; their own gradient is the pooling again (roi_pool's reads at Argmax)
_ALIGN = {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8, "sampling_ratio": 2, "aligned": True}
_ARGMAX = np.random.default_rng(3).integers(-1, 90, size=(4, 3, 3, 2))
CASES += [
    OpCase("roi_align_grad", {"X": rand(2, 3, 9, 10, seed=7), "ROIs": _ROIS, "RoisNum": _NUM,
                              "Out@GRAD": rand(4, 3, 3, 2, seed=8)}, _ALIGN, grad_inputs=("Out@GRAD",)),
    OpCase("psroi_pool_grad", {"X": rand(2, 12, 9, 10, seed=9), "ROIs": _ROIS, "RoisNum": _NUM,
                               "Out@GRAD": rand(4, 2, 3, 2, seed=10)},
           {"output_channels": 2, "pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8},
           grad_inputs=("Out@GRAD",)),
    OpCase("roi_pool_grad", {"X": rand(2, 3, 9, 10, seed=11), "ROIs": _ROIS, "RoisNum": _NUM, "Argmax": _ARGMAX,
                             "Out@GRAD": rand(4, 3, 3, 2, seed=12)},
           {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.8}, grad_inputs=("Out@GRAD",)),
]

_GT = np.array([[[0.3, 0.4, 0.3, 0.35], [0.8, 0.7, 0.5, 0.4], [0.55, 0.1, 0.2, 0.1], [0.1, 0.9, 0.0, 0.0]],
                [[0.6, 0.6, 0.25, 0.6], [0.2, 0.3, 0.1, 0.15], [0.9, 0.2, 0.7, 0.5], [0.4, 0.85, 0.9, 0.95]]])
_YOLO = {"anchors": [10, 13, 16, 30, 33, 23, 30, 61], "anchor_mask": [0, 1, 2], "class_num": 2, "downsample_ratio": 8}
CASES += [
    OpCase("yolov3_loss", {"X": rand(2, 21, 4, 4, low=-2, high=2, seed=13), "GTBox": _GT,
                           "GTLabel": np.array([[0, 1, 1, 0], [1, 0, 1, 0]], dtype=np.int32),
                           "GTScore": rng(14).uniform(0.5, 1.0, (2, 4))},
           {**_YOLO, "ignore_thresh": 0.3, "scale_x_y": 1.1}, grad_inputs=("X",)),
]
