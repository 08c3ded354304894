"""Gradient cases for the ROI pooling ops (ops/detection.py): boxes over two images, one reaching past the map's
edge, one thinner than a pixel; distinct values keep roi_pool's maxima away from ties."""
import numpy as np

from . import OpCase, distinct, rand

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
