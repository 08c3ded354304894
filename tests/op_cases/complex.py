from . import OpCase, away_from_zero, crand, rand

CASES = [
    OpCase("real", {"X": crand(2, 3)}, id="real"),
    OpCase("imag", {"X": crand(2, 3)}, id="imag"),
    OpCase("conj", {"X": crand(2, 3)}, id="conj"),
    OpCase("conj", {"X": rand(2, 3)}, id="conj-real"),
    OpCase("angle", {"X": crand(2, 3) + 0.5}, id="angle"),
    OpCase("angle", {"X": away_from_zero(2, 3)}, id="angle-real"),
    OpCase("complex", {"X": rand(2, 3), "Y": rand(2, 3, seed=1)}, id="complex"),
    OpCase("complex", {"X": rand(2, 3), "Y": rand(3, seed=1)}, id="complex-broadcast"),
    OpCase("as_complex", {"X": rand(2, 3, 2)}, id="as_complex"),
    OpCase("as_real", {"X": crand(2, 3)}, id="as_real"),
]
