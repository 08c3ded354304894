from . import OpCase, rand

CASES = [
    OpCase("cast", {"X": rand(2, 3)}, {"dtype": "float64"}, id="cast"),
    OpCase("reshape", {"X": rand(2, 3, 4)}, {"shape": [6, -1]}, id="reshape"),
    OpCase("reshape", {"X": rand(2, 3)}, {"shape": [0, 3, 1]}, id="reshape-zero"),
    OpCase("reshape_as", {"X": rand(2, 3), "Target": rand(3, 2)}, id="reshape_as"),
    OpCase("transpose", {"X": rand(2, 3, 4)}, {"perm": [2, 0, 1]}, id="transpose"),
    OpCase("unsqueeze", {"X": rand(2, 3)}, {"axis": [0, -1]}, id="unsqueeze"),
]
