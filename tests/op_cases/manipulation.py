"""Gradient cases for the shape and layout ops (ops/manipulation.py)."""
import numpy as np

from . import OpCase, rand

CASES = [
    OpCase("cast", {"X": rand(2, 3)}, {"dtype": "float64"}, id="cast"),
    OpCase("reshape", {"X": rand(2, 3, 4)}, {"shape": [6, -1]}, id="reshape"),
    OpCase("reshape", {"X": rand(2, 3)}, {"shape": [0, 3, 1]}, id="reshape-zero"),
    OpCase("reshape_as", {"X": rand(2, 3), "Target": rand(3, 2)}, id="reshape_as"),
    OpCase("transpose", {"X": rand(2, 3, 4)}, {"perm": [2, 0, 1]}, id="transpose"),
    OpCase("unsqueeze", {"X": rand(2, 3)}, {"axis": [0, -1]}, id="unsqueeze"),
    # shape ops
    OpCase("squeeze", {"X": rand(2, 1, 3, 1)}, {"axis": []}, id="squeeze-all"),
    OpCase("squeeze", {"X": rand(2, 1, 3, 1)}, {"axis": [-1, 0]}, id="squeeze-neg-axis-ignores-non1"),
    OpCase("flatten", {"X": rand(2, 3, 4, 2)}, {"start_axis": 1, "stop_axis": -2}, id="flatten-middle"),
    OpCase("flatten", {"X": rand(2, 3)}, {"start_axis": 0, "stop_axis": -1}, id="flatten-all"),
    # concat / split / stack
    OpCase("concat", {"X": [rand(2, 3), rand(2, 1, seed=1), rand(2, 2, seed=2)]}, {"axis": -1}, id="concat-neg-axis"),
    OpCase("concat", {"X": [rand(1, 3), rand(2, 3, seed=1)]}, {"axis": 0}, id="concat-axis0"),
    OpCase("concat_grad", {"OutGrad": rand(2, 6), "X": [rand(2, 3), rand(2, 1, seed=1), rand(2, 2, seed=2)]},
           {"axis": 1}, id="concat_grad"),
    OpCase("split", {"X": rand(4, 3)}, {"num": 2, "axis": 0}, id="split-num"),
    OpCase("split", {"X": rand(2, 6)}, {"sections": [1, -1, 2], "axis": -1}, id="split-sections-minus1"),
    OpCase("stack", {"X": [rand(2, 3), rand(2, 3, seed=1), rand(2, 3, seed=2)]}, {"axis": 1}, id="stack-axis1"),
    OpCase("stack", {"X": [rand(2), rand(2, seed=1)]}, {"axis": -1}, id="stack-neg-axis"),
    OpCase("unstack", {"X": rand(3, 2, 2)}, {"axis": -1}, id="unstack-neg-axis"),
    OpCase("unbind", {"X": rand(3, 2, 2)}, {"axis": 1}, id="unbind"),
    OpCase("diagonal", {"Input": rand(2, 3, 4)}, {"offset": 1, "axis1": 1, "axis2": 2}, id="diagonal-offset"),
    OpCase("diagonal", {"Input": rand(3, 2, 4)}, {"offset": -1, "axis1": 2, "axis2": 0}, id="diagonal-below"),
    OpCase("diagonal_grad", {"Input": rand(3, 4), "OutGrad": rand(3, seed=2)}, {"offset": 0, "axis1": 0, "axis2": 1},
           id="diagonal_grad"),
    OpCase("diag", {"X": rand(3)}, {"offset": -1, "padding_value": 2.0}, id="diag-vector"),
    OpCase("diag", {"X": rand(3, 4)}, {"offset": 1}, id="diag-matrix"),
    # as_strided: overlapping windows (an element seen twice gets both gradients)
    OpCase("as_strided", {"X": rand(3, 4)}, {"dims": [3, 3], "stride": [3, 1], "offset": 8},
           noncontiguous=False, id="as_strided-overlap"),
    # slicing
    OpCase("slice", {"Input": rand(4, 5, 3)}, {"axes": [0, 2], "starts": [1, -2], "ends": [3, 100]}, id="slice"),
    OpCase("slice", {"Input": rand(4, 5, 3)}, {"axes": [0, 2], "starts": [1, -1], "ends": [2, 2147483647],
                                               "decrease_axis": [0, 2]}, id="slice-decrease-axis"),
    OpCase("crop_tensor", {"X": rand(3, 4, 5)}, {"shape": [2, -1, 3], "offsets": [1, 2, 0]}, id="crop_tensor"),
    OpCase("crop_tensor", {"X": rand(3, 4), "Shape": np.array([2, 2], "int64"), "Offsets": np.array([1, 1], "int32")},
           {"shape": [], "offsets": [-1, -1]}, id="crop_tensor-tensor-box"),
    OpCase("strided_slice", {"Input": rand(5, 6)}, {"axes": [0, 1], "starts": [4, 0], "ends": [-10, 6],
                                               "strides": [-2, 3]}, id="strided_slice-neg-stride"),
    OpCase("strided_slice_grad", {"X": rand(5, 6), "OutGrad": rand(3, 2)},
           {"axes": [0, 1], "starts": [0, 5], "ends": [5, 0], "strides": [2, -3]}, id="strided_slice_grad"),
    # broadcasting / repetition
    OpCase("expand", {"X": rand(3, 1)}, {"shape": [2, -1, 4]}, id="expand-bcast"),
    OpCase("broadcast_tensors", {"X": [rand(3, 1), rand(4, seed=1), rand(2, 1, 1, seed=2)]}, id="broadcast_tensors"),
    OpCase("broadcast_tensors_grad", {"X": [rand(3, 1), rand(4, seed=1)], "OutGrad": [rand(3, 4, seed=2), rand(3, 4, seed=3)]},
           id="broadcast_tensors_grad"),
    OpCase("tile", {"X": rand(2, 3)}, {"repeat_times": [2, 1, 2]}, id="tile-new-dim"),
    OpCase("tile", {"X": rand(2, 3, 2)}, {"repeat_times": [3]}, id="tile-short-reps"),
    OpCase("tile_grad", {"X": rand(2, 3), "OutGrad": rand(2, 2, 6)}, {"repeat_times": [2, 1, 2]}, id="tile_grad"),
    OpCase("flip", {"X": rand(2, 3, 4)}, {"axis": [0, -1]}, id="flip"),
    OpCase("roll", {"X": rand(3, 4)}, {"shifts": [1, -3], "axis": [0, -1]}, id="roll-axes"),
    OpCase("roll", {"X": rand(3, 4)}, {"shifts": [5], "axis": []}, id="roll-flat"),
    OpCase("repeat_interleave", {"X": rand(2, 3)}, {"repeats": 2, "axis": -1}, id="repeat_interleave-axis"),
    OpCase("repeat_interleave", {"X": rand(2, 3)}, {"repeats": 3, "axis": None}, id="repeat_interleave-flat"),
    OpCase("repeat_interleave_grad", {"X": rand(2, 3), "OutGrad": rand(2, 6)}, {"repeats": 2, "axis": 1},
           id="repeat_interleave_grad"),
    OpCase("pad", {"X": rand(2, 3)}, {"paddings": [1, 0, 2, 1], "pad_value": 0.5}, id="pad"),
    *[OpCase("pad3d", {"X": rand(2, 3, 4, 4, 2, seed=i)}, {"paddings": [2, 1, 0, 3, 1, 2], "mode": mode,
                                                         "value": 0.5, "data_format": fmt}, id=f"pad3d-{mode}")
      for i, (mode, fmt) in enumerate([("constant", "NCDHW"), ("reflect", "NDHWC"), ("replicate", "NCDHW"),
                                       ("circular", "NCDHW")])],
    OpCase("pad3d_grad", {"X": rand(1, 2, 2, 3, 3), "DOut": rand(1, 2, 3, 6, 6, seed=5)},
           {"paddings": [2, 1, 1, 2, 0, 1], "mode": "reflect"}, id="pad3d_grad"),
]
CASES += [
    OpCase("tril_triu", {"X": rand(3, 4)}, {"diagonal": 0, "lower": True}, id="tril"),
    OpCase("tril_triu", {"X": rand(2, 3, 3)}, {"diagonal": 1, "lower": False}, id="triu-batched-diag1"),
]
