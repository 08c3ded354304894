"""Gradient cases for deformable_conv / deformable_conv_v1 (ops/deform_conv.py). The offsets put no sampling point
on the pixel grid, where bilinear interpolation has kinks."""
from . import OpCase, rand

CASES = [
    OpCase("deformable_conv", {"Input": rand(1, 2, 4, 4, seed=1), "Offset": rand(1, 18, 2, 2, low=-1.4, high=1.4, seed=2),
                               "Filter": rand(3, 2, 3, 3, seed=3), "Mask": rand(1, 9, 2, 2, low=0.2, high=1.0, seed=4)},
           id="deformable_conv-basic"),
    OpCase("deformable_conv", {"Input": rand(2, 4, 5, 5, seed=5), "Offset": rand(2, 16, 3, 3, low=-1.7, high=1.7, seed=6),
                               "Filter": rand(4, 2, 2, 2, seed=7), "Mask": rand(2, 8, 3, 3, seed=8)},
           {"strides": [2, 2], "paddings": [1, 1], "groups": 2, "deformable_groups": 2, "im2col_step": 1},
           id="deformable_conv-groups-stride-pad"),
    OpCase("deformable_conv_v1", {"Input": rand(1, 2, 5, 4, seed=9), "Offset": rand(1, 8, 3, 3, low=-1.3, high=1.3, seed=10),
                                  "Filter": rand(2, 2, 2, 2, seed=11)},
           {"dilations": [2, 1], "paddings": [0, 0]}, id="deformable_conv_v1-dilation"),
]
