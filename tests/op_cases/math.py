from . import OpCase, positive, rand

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
    OpCase("exp", {"X": rand(2, 3)}, id="exp"),
    OpCase("log", {"X": positive(2, 3)}, id="log"),
]
