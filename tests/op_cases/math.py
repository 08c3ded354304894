import numpy as np

from . import OpCase, away_from_zero, crand, positive, rand

CASES = [
    OpCase("scale", {"X": rand(2, 3)}, {"scale": 2.5, "bias": 0.5}, id="scale"),
    OpCase("scale", {"X": rand(2, 3)}, {"scale": -1.5, "bias": 1.0, "bias_after_scale": False}, id="scale-bias-first"),
    OpCase("matmul", {"X": rand(2, 3), "Y": rand(3, 4, seed=1)}, id="matmul-2d"),
    OpCase("matmul", {"X": rand(3, 2), "Y": rand(3, 4, seed=1)}, {"transpose_x": True}, id="matmul-tx"),
    OpCase("matmul", {"X": rand(2, 3), "Y": rand(4, 3, seed=1)}, {"transpose_y": True}, id="matmul-ty"),
    OpCase("matmul", {"X": rand(3, 2), "Y": rand(4, 3, seed=1)}, {"transpose_x": True, "transpose_y": True},
           id="matmul-txty"),
    OpCase("matmul", {"X": rand(2, 2, 3), "Y": rand(2, 3, 2, seed=1)}, id="matmul-batched"),
    OpCase("matmul", {"X": rand(2, 2, 3), "Y": rand(3, 2, seed=1)}, id="matmul-bcast"),
    OpCase("matmul", {"X": rand(3), "Y": rand(3, 2, seed=1)}, id="matmul-vec-mat"),
    OpCase("matmul", {"X": rand(2, 3), "Y": rand(3, seed=1)}, id="matmul-mat-vec"),
    OpCase("matmul", {"X": rand(3), "Y": rand(3, seed=1)}, id="matmul-dot"),
    OpCase("mul", {"X": rand(4, 3), "Y": rand(3, 2, seed=1)}, id="mul"),
    OpCase("mul", {"X": rand(2, 3, 4), "Y": rand(12, 2, seed=1)}, id="mul-flatten-x"),
    OpCase("mul", {"X": rand(2, 3, 4), "Y": rand(4, 2, 3, seed=1)}, {"x_num_col_dims": 2}, id="mul-x2-y1"),
    OpCase("linear", {"X": rand(4, 3), "W": rand(3, 2, seed=1), "Bias": rand(2, seed=2)}, id="linear"),
    OpCase("linear", {"X": rand(2, 4, 3), "W": rand(3, 2, seed=1), "Bias": rand(2, seed=2)}, id="linear-batched"),
    OpCase("linear", {"X": rand(3), "W": rand(3, 2, seed=1), "Bias": None}, id="linear-vector-nobias"),
    OpCase("exp", {"X": rand(2, 3)}, id="exp"),
    OpCase("log", {"X": positive(2, 3)}, id="log"),
    # unary math
    OpCase("pow", {"X": positive(2, 3)}, {"factor": 3.0}, id="pow-cube"),
    OpCase("pow", {"X": positive(2, 3)}, {"factor": -1.5}, id="pow-negative-fraction"),
    OpCase("pow", {"X": rand(4)}, {"factor": 2.0}, id="pow-square"),
    OpCase("sqrt", {"X": positive(2, 3)}, id="sqrt"),
    OpCase("rsqrt", {"X": positive(2, 3)}, id="rsqrt"),
    OpCase("abs", {"X": away_from_zero(2, 3)}, id="abs"),
    OpCase("sign", {"X": away_from_zero(2, 3)}, id="sign"),
    OpCase("square", {"X": rand(2, 3)}, id="square"),
    OpCase("sin", {"X": rand(2, 3, low=-3, high=3)}, id="sin"),
    OpCase("cos", {"X": rand(2, 3, low=-3, high=3)}, id="cos"),
    OpCase("tan", {"X": rand(2, 3)}, id="tan"),
    OpCase("asin", {"X": rand(2, 3, low=-0.8, high=0.8)}, id="asin"),
    OpCase("acos", {"X": rand(2, 3, low=-0.8, high=0.8)}, id="acos"),
    OpCase("atan", {"X": rand(2, 3, low=-2, high=2)}, id="atan"),
    OpCase("sinh", {"X": rand(2, 3)}, id="sinh"),
    OpCase("cosh", {"X": rand(2, 3)}, id="cosh"),
    OpCase("acosh", {"X": rand(2, 3, low=1.2, high=3)}, id="acosh"),
    OpCase("asinh", {"X": rand(2, 3)}, id="asinh"),
    OpCase("atanh", {"X": rand(2, 3, low=-0.8, high=0.8)}, id="atanh"),
    OpCase("reciprocal", {"X": away_from_zero(2, 3, margin=0.4)}, id="reciprocal"),
    OpCase("log1p", {"X": rand(2, 3, low=-0.5, high=2)}, id="log1p"),
    OpCase("log2", {"X": positive(2, 3)}, id="log2"),
    OpCase("log10", {"X": positive(2, 3)}, id="log10"),
    OpCase("expm1", {"X": rand(2, 3)}, id="expm1"),
    OpCase("erf", {"X": rand(2, 3, low=-3, high=3)}, id="erf"),
    OpCase("erf", {"X": np.array([-4.0, -2.6, -2.4, 0.0, 2.45, 2.55, 5.0])}, id="erf-branches"),
    # piecewise constant: zero gradients (values kept away from the jumps)
    OpCase("floor", {"X": rand(2, 3, low=-2, high=2).round(0) + 0.4}, id="floor"),
    OpCase("ceil", {"X": rand(2, 3, low=-2, high=2).round(0) + 0.4}, id="ceil"),
    OpCase("round", {"X": rand(2, 3, low=-2, high=2).round(0) + 0.3}, id="round"),
    OpCase("trunc", {"X": rand(2, 3, low=-2, high=2).round(0) + 0.4}, id="trunc"),
    OpCase("nan_to_num", {"X": np.array([[0.5, np.nan, -1.5], [np.inf, 2.0, -np.inf]])},
           {"nan": 1.0, "posinf": 9.0, "neginf": -9.0}, id="nan_to_num"),
    # clip: values kept away from the bounds
    OpCase("clip", {"X": np.array([[-0.9, -0.3, 0.1], [0.45, 0.7, 0.95]])}, {"min": -0.5, "max": 0.6}, id="clip"),
    OpCase("clip", {"X": np.array([-2.0, -0.3, 0.1, 3.0])}, {"min": -1.0}, id="clip-min-only"),
    OpCase("clip_grad", {"X": np.array([[-0.9, -0.3, 0.1], [0.45, 0.7, 0.95]]), "DOut": rand(2, 3, seed=3)},
           {"min": -0.5, "max": 0.6}, id="clip_grad"),
    # where: condition broadcast against X and Y, X and Y broadcast against each other
    OpCase("where", {"Condition": rand(2, 3, seed=5) > 0, "X": rand(2, 3), "Y": rand(2, 3, seed=1)}, id="where"),
    OpCase("where", {"Condition": rand(3, seed=5) > 0, "X": rand(2, 3), "Y": rand(1, seed=1)}, id="where-bcast"),
    OpCase("where", {"Condition": rand(2, 1, seed=6) > 0, "X": rand(3), "Y": rand(2, 3, seed=1)},
           id="where-bcast-cond"),
]

CASES += [
    OpCase("matmul", {"X": crand(2, 3), "Y": crand(3, 4, seed=1)}, id="matmul-complex"),
    OpCase("matmul", {"X": crand(3), "Y": crand(2, 3, 4, seed=1)}, {"transpose_y": False}, id="matmul-complex-vec"),
    OpCase("abs", {"X": crand(2, 3) + 1.5}, id="abs-complex"),
]
CASES += [
    OpCase("pow", {"X": crand(2, 3)}, {"factor": 3.0}, id="pow-complex"),
    OpCase("exp", {"X": crand(2, 3)}, id="exp-complex"),
    OpCase("square", {"X": crand(2, 3)}, id="square-complex"),
]
CASES += [OpCase("abs", {"X": np.array([0j, 1 - 2j, -0.5 + 0.3j])}, id="abs-complex-zero", double=False,
                 noncontiguous=False)]
