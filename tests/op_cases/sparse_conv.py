"""Gradient cases of the sparse convolution and max pooling (ops/sparse_conv.py): point clouds [N, *spatial, C]."""
import numpy as np

from paddlelite.framework.sparse import SparseCoo

from . import OpCase, distinct, rand

# two samples of a 4x4x4 grid, 2 channels: 6 active sites
_SITES = np.array([[0, 0, 0, 1, 1, 1], [0, 1, 1, 3, 2, 0], [1, 1, 2, 0, 3, 0], [2, 1, 1, 3, 3, 0]])
CLOUD = SparseCoo(_SITES, rand(6, 2, seed=1), (2, 4, 4, 4, 2))
PLANE = SparseCoo(np.array([[0, 0, 1, 1], [0, 1, 2, 2], [1, 1, 0, 3]]), rand(4, 3, seed=2), (2, 3, 4, 3))
POOLED = SparseCoo(_SITES, distinct(6, 2, seed=3), (2, 4, 4, 4, 2))  # no ties in a window


def _case(op, inputs, attrs, **kw):
    return OpCase(op, inputs, attrs, eager_only=True, **kw)


CASES = [
    _case("sparse_conv", {"X": CLOUD, "Filter": rand(3, 3, 3, 2, 3, seed=4)},
          {"strides": [1, 1, 1], "paddings": [1, 1, 1], "dilations": [1, 1, 1], "subm": True}, id="subm_conv3d"),
    _case("sparse_conv", {"X": CLOUD, "Filter": rand(2, 2, 2, 2, 3, seed=5)},
          {"strides": [2, 2, 2], "paddings": [0, 0, 0], "dilations": [1, 1, 1], "subm": False}, id="conv3d-strided"),
    _case("sparse_conv", {"X": CLOUD, "Filter": rand(3, 1, 3, 2, 2, seed=6)},
          {"strides": [1, 1, 1], "paddings": [1, 0, 2], "dilations": [1, 1, 2], "subm": False}, id="conv3d-dilated"),
    _case("sparse_conv", {"X": PLANE, "Filter": rand(3, 3, 3, 2, seed=7)},
          {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "subm": True}, id="subm_conv2d"),
    _case("sparse_max_pool", {"X": POOLED}, {"ksize": [2, 2, 2], "strides": [2, 2, 2], "paddings": [0, 0, 0]}),
    _case("sparse_max_pool", {"X": POOLED}, {"ksize": [3, 3, 3], "strides": [1, 1, 1], "paddings": [1, 1, 1]},
          id="sparse_max_pool-overlapping"),
]
