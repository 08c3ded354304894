"""Gradient cases for conv2d/conv3d, their grad ops and conv2d_transpose/conv3d_transpose (ops/conv.py)."""
from . import OpCase, rand

CASES = [
    # ---- conv2d: stride / padding / dilation / groups / SAME / NHWC
    OpCase("conv2d", {"Input": rand(1, 2, 4, 4, seed=1), "Filter": rand(3, 2, 3, 3, seed=2)}, id="conv2d-basic"),
    OpCase("conv2d", {"Input": rand(2, 2, 4, 4, seed=3), "Filter": rand(2, 2, 2, 2, seed=4)},
           {"strides": [2, 1], "paddings": [1, 0]}, id="conv2d-stride-pad"),
    OpCase("conv2d", {"Input": rand(1, 2, 5, 4, seed=5), "Filter": rand(2, 2, 2, 2, seed=6)},
           {"dilations": [2, 1], "paddings": [1, 0, 0, 1]}, id="conv2d-dilation-asym-pad"),
    OpCase("conv2d", {"Input": rand(1, 4, 3, 3, seed=7), "Filter": rand(4, 2, 2, 2, seed=8)},
           {"groups": 2, "paddings": [1, 1]}, id="conv2d-groups"),
    OpCase("conv2d", {"Input": rand(1, 3, 3, 2, seed=9), "Filter": rand(2, 2, 2, 2, seed=10)},
           {"padding_algorithm": "SAME", "strides": [2, 2], "data_format": "NHWC"}, id="conv2d-same-nhwc"),
    OpCase("conv2d_grad", {"Input": rand(1, 2, 3, 3, seed=11), "Filter": rand(2, 2, 2, 2, seed=12),
                           "DOutput": rand(1, 2, 2, 2, seed=13)}, {"paddings": [0, 0]}, id="conv2d_grad"),
    OpCase("conv2d_grad", {"Input": rand(1, 2, 3, 3, seed=14), "Filter": rand(2, 1, 2, 2, seed=15),
                           "DOutput": rand(1, 2, 2, 2, seed=16)}, {"groups": 2, "strides": [2, 2], "paddings": [1, 1]},
           id="conv2d_grad-groups-stride"),
    # ---- conv2d_transpose: stride + output_padding / groups + dilation / NHWC + asymmetric pads
    OpCase("conv2d_transpose", {"Input": rand(1, 2, 3, 3, seed=17), "Filter": rand(2, 3, 3, 3, seed=18)},
           {"strides": [2, 2], "paddings": [1, 1], "output_padding": [1, 0]}, id="conv2d_transpose-stride"),
    OpCase("conv2d_transpose", {"Input": rand(1, 4, 3, 2, seed=19), "Filter": rand(4, 1, 2, 2, seed=20)},
           {"groups": 2, "dilations": [2, 1]}, id="conv2d_transpose-groups-dilation"),
    OpCase("conv2d_transpose", {"Input": rand(2, 3, 2, 2, seed=21), "Filter": rand(2, 2, 2, 3, seed=22)},
           {"data_format": "NHWC", "paddings": [1, 0, 0, 1], "strides": [1, 2]}, id="conv2d_transpose-nhwc"),
    # ---- conv3d / conv3d_grad / conv3d_transpose: the same code over three spatial dims
    OpCase("conv3d", {"Input": rand(1, 2, 3, 4, 3, seed=23), "Filter": rand(2, 2, 2, 2, 2, seed=24)},
           {"strides": [1, 2, 1], "paddings": [1, 0, 0, 1, 1, 0]}, id="conv3d-stride-asym-pad"),
    OpCase("conv3d", {"Input": rand(1, 3, 3, 4, 2, seed=25), "Filter": rand(2, 2, 2, 2, 2, seed=26)},
           {"dilations": [1, 1, 2], "padding_algorithm": "SAME", "data_format": "NDHWC"}, id="conv3d-same-ndhwc"),
    OpCase("conv3d_grad", {"Input": rand(1, 4, 3, 3, 3, seed=27), "Filter": rand(2, 2, 2, 2, 2, seed=28),
                           "DOutput": rand(1, 2, 2, 2, 2, seed=29)}, {"groups": 2}, id="conv3d_grad-groups"),
    OpCase("conv3d_transpose", {"Input": rand(1, 2, 2, 3, 2, seed=30), "Filter": rand(2, 2, 2, 2, 2, seed=31)},
           {"strides": [2, 1, 2], "paddings": [1, 0, 0], "output_padding": [1, 0, 0]}, id="conv3d_transpose-stride"),
    OpCase("conv3d_transpose", {"Input": rand(1, 2, 2, 2, 4, seed=32), "Filter": rand(4, 1, 2, 2, 2, seed=33)},
           {"groups": 2, "data_format": "NDHWC"}, id="conv3d_transpose-groups-ndhwc"),
]
