import numpy as np

from . import OpCase, away_from_zero, rand

X = away_from_zero(2, 3)
WIDE = np.array([[-4.5, -2.2, -0.7, -0.1], [0.2, 1.3, 2.8, 7.1]])  # crosses every kink of relu6/hard*
CASES = [
    OpCase("swiglu", {"X": rand(2, 3, 6, seed=71), "Y": None}, id="swiglu-halves"),
    OpCase("swiglu", {"X": rand(3, 5, seed=72), "Y": rand(3, 5, seed=73)}, id="swiglu-xy"),
    OpCase("relu", {"X": X}, id="relu"),
    OpCase("relu_grad", {"Out": np.maximum(X, 0), "DOut": rand(2, 3, seed=2)}, id="relu_grad"),
    OpCase("relu6", {"X": WIDE}, id="relu6"),
    OpCase("relu6_grad", {"Out": np.clip(WIDE, 0, 6), "DOut": rand(2, 4, seed=2)}, id="relu6_grad"),
    OpCase("leaky_relu", {"X": X}, {"alpha": 0.2}, id="leaky_relu"),
    OpCase("leaky_relu_grad", {"X": X, "DOut": rand(2, 3, seed=2)}, {"alpha": 0.2}, id="leaky_relu_grad"),
    OpCase("elu", {"X": X}, {"alpha": 1.5}, id="elu"),
    OpCase("elu_grad", {"X": X, "DOut": rand(2, 3, seed=2)}, {"alpha": 1.5}, id="elu_grad"),
    OpCase("sigmoid", {"X": rand(2, 3, low=-3, high=3)}, id="sigmoid"),
    OpCase("sigmoid_grad", {"Out": rand(2, 3, low=0.1, high=0.9), "DOut": rand(2, 3, seed=2)}, id="sigmoid_grad"),
    OpCase("tanh", {"X": rand(2, 3, low=-2, high=2)}, id="tanh"),
    OpCase("tanh_grad", {"Out": rand(2, 3, low=-0.9, high=0.9), "DOut": rand(2, 3, seed=2)}, id="tanh_grad"),
    OpCase("gelu", {"X": rand(2, 4, low=-3, high=3)}, id="gelu"),
    OpCase("gelu", {"X": rand(2, 4, low=-3, high=3)}, {"approximate": True}, id="gelu-tanh"),
    OpCase("gelu_grad", {"X": rand(2, 3, low=-3, high=3), "DOut": rand(2, 3, seed=2)}, id="gelu_grad"),
    OpCase("gelu_grad", {"X": rand(2, 3, low=-3, high=3), "DOut": rand(2, 3, seed=2)}, {"approximate": True},
           id="gelu_grad-tanh"),
    OpCase("silu", {"X": rand(2, 3, low=-3, high=3)}, id="silu"),
    OpCase("silu_grad", {"X": rand(2, 3, low=-3, high=3), "DOut": rand(2, 3, seed=2)}, id="silu_grad"),
    OpCase("softplus", {"X": rand(2, 3, low=-3, high=3)}, id="softplus"),
    OpCase("softplus", {"X": np.array([-3.0, -0.5, 0.4, 1.7, 6.5])}, {"beta": 2.0, "threshold": 4.0},
           id="softplus-beta-threshold"),
    OpCase("hardsigmoid", {"X": WIDE}, id="hardsigmoid"),
    OpCase("hardsigmoid", {"X": WIDE}, {"slope": 0.2, "offset": 0.4}, id="hardsigmoid-slope"),
    OpCase("hardswish", {"X": WIDE}, id="hardswish"),
    OpCase("mish", {"X": rand(2, 3, low=-3, high=3)}, id="mish"),
    OpCase("softmax", {"X": rand(2, 4)}, id="softmax"),
    OpCase("softmax", {"X": rand(3, 2, 2)}, {"axis": 0}, id="softmax-axis0"),
    OpCase("softmax_grad", {"Out": rand(2, 4, low=0.1, high=0.5), "DOut": rand(2, 4, seed=2)}, id="softmax_grad"),
    OpCase("softmax_grad", {"Out": rand(3, 2, low=0.1, high=0.5), "DOut": rand(3, 2, seed=2)}, {"axis": 0},
           id="softmax_grad-axis0"),
    # fixed seed: the same noise on every forward; temperature 1, where Paddle's rule is the exact gradient
    OpCase("gumbel_softmax", {"X": rand(2, 4)}, {"seed": 5}, id="gumbel_softmax"),
    OpCase("gumbel_softmax", {"X": rand(3, 2, 2)}, {"seed": 5, "axis": 1}, id="gumbel_softmax-axis1"),
    OpCase("gumbel_softmax", {"X": rand(2, 4)}, {"seed": 5, "hard": True}, id="gumbel_softmax-hard"),
    OpCase("log_softmax", {"X": rand(2, 4)}, id="log_softmax"),
    OpCase("log_softmax", {"X": rand(3, 2, 2)}, {"axis": 1}, id="log_softmax-axis1"),
    OpCase("log_softmax_grad", {"Out": rand(2, 4, low=-2, high=-0.5), "DOut": rand(2, 4, seed=2)},
           id="log_softmax_grad"),
]
