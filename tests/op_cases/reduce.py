import numpy as np

from . import OpCase, distinct, positive, rand

TIES = np.array([[0.5, 0.9, 0.9, -0.2], [-0.7, -0.7, 0.3, 0.1]])  # tied maxima and minima along axis 1
WITH_ZERO = np.array([[0.5, 0.0, 1.5], [0.7, -1.2, 0.9]])
TWO_ZEROS = np.array([[0.0, 0.0, 1.5], [0.7, -1.2, 0.9]])
CASES = [
    OpCase("reduce_sum", {"X": rand(2, 3, 4)}, id="sum-all"),
    OpCase("reduce_sum", {"X": rand(2, 3, 4)}, {"axis": 1}, id="sum-axis"),
    OpCase("reduce_sum", {"X": rand(2, 3, 4)}, {"axis": [0, 2], "keepdim": True}, id="sum-axes-keepdim"),
    OpCase("mean", {"X": rand(2, 3, 4)}, id="mean-all"),
    OpCase("mean", {"X": rand(2, 3, 4)}, {"axis": -1}, id="mean-axis"),
    OpCase("mean", {"X": rand(2, 3)}, {"axis": [0], "keepdim": True}, id="mean-keepdim"),
    OpCase("mean_grad", {"X": rand(2, 3), "Dout": rand(3, seed=3)}, {"axis": 0}, id="mean_grad"),
    OpCase("max", {"X": distinct(2, 3, 4)}, id="max-all"),
    OpCase("max", {"X": distinct(2, 3, 4)}, {"axis": 1}, id="max-axis"),
    OpCase("max", {"X": distinct(2, 3, 4)}, {"axis": [0, 2], "keepdim": True}, id="max-axes-keepdim"),
    OpCase("min", {"X": distinct(2, 3, 4)}, {"axis": -1}, id="min-axis"),
    OpCase("min", {"X": distinct(3, 4)}, id="min-all"),
    OpCase("amax", {"X": distinct(2, 3, 4)}, {"axis": [1, 2]}, id="amax-axes"),
    OpCase("amin", {"X": distinct(3, 4)}, {"axis": 0, "keepdim": True}, id="amin-keepdim"),
    OpCase("logsumexp", {"X": rand(2, 3, 4)}, id="logsumexp-all"),
    OpCase("logsumexp", {"X": rand(2, 3, 4)}, {"axis": [0, 2], "keepdim": True}, id="logsumexp-axes-keepdim"),
    OpCase("logsumexp", {"X": rand(2, 3)}, {"axis": 1}, id="logsumexp-axis"),
    OpCase("prod", {"X": positive(2, 3)}, id="prod-all"),
    OpCase("prod", {"X": rand(2, 3, 2)}, {"axis": 1}, id="prod-axis"),
    OpCase("prod", {"X": rand(2, 3, 2)}, {"axis": [0, 2], "keepdim": True}, id="prod-axes-keepdim"),
    OpCase("prod", {"X": WITH_ZERO}, {"axis": 1}, id="prod-one-zero"),
    OpCase("prod", {"X": TWO_ZEROS}, {"axis": 1}, id="prod-two-zeros"),
    OpCase("prod", {"X": WITH_ZERO}, id="prod-all-with-zero"),
    OpCase("prod_grad", {"X": rand(2, 3), "DOut": rand(2, seed=3)}, {"axis": 1}, id="prod_grad"),
    OpCase("prod_grad", {"X": WITH_ZERO, "DOut": rand(1, 3, seed=3)}, {"axis": 0, "keepdim": True},
           id="prod_grad-zero-keepdim"),
    OpCase("var", {"X": rand(2, 3, 4)}, id="var-all"),
    OpCase("var", {"X": rand(2, 3, 4)}, {"axis": 1, "unbiased": False}, id="var-axis-biased"),
    OpCase("var", {"X": rand(2, 3, 4)}, {"axis": [0, 2], "keepdim": True}, id="var-axes-keepdim"),
    OpCase("cumsum", {"X": rand(2, 3, 4)}, {"axis": 1}, id="cumsum-axis"),
    OpCase("cumsum", {"X": rand(2, 3)}, id="cumsum-flatten"),
    OpCase("cumsum", {"X": rand(2, 3)}, {"axis": -1, "reverse": True}, id="cumsum-reverse"),
    OpCase("cumprod", {"X": rand(2, 4)}, {"dim": 1}, id="cumprod"),
    OpCase("cumprod", {"X": np.array([[2.0, 0.0, 3.0], [1.5, -2.0, 0.0]])}, {"dim": -1}, id="cumprod-zeros"),
    OpCase("cumprod", {"X": rand(2, 3)}, id="cumprod-flat"),
    OpCase("logcumsumexp", {"X": rand(2, 4)}, {"axis": 1}, id="logcumsumexp"),
    OpCase("logcumsumexp", {"X": rand(3, 2)}, {"axis": 0, "reverse": True}, id="logcumsumexp-reverse"),
    OpCase("logcumsumexp", {"X": rand(2, 3)}, {"flatten": True}, id="logcumsumexp-flat"),
]
