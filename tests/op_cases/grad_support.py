from . import OpCase, rand

CASES = [
    OpCase("reduce_as", {"X": rand(2, 3, 4), "Target": rand(3, 1)}, id="reduce_as"),
    OpCase("reduce_as", {"X": rand(2, 3), "Target": rand(2, 3)}, id="reduce_as-same"),
    OpCase("expand_as", {"X": rand(3, 1), "Target": rand(2, 3, 4)}, id="expand_as"),
    OpCase("assign", {"X": rand(2, 3)}, id="assign"),
    OpCase("overwrite", {"X": rand(2, 3), "Value": rand(2, 3, seed=1)}, id="overwrite"),
    OpCase("sum", {"X": [rand(2, 3), rand(2, 3, seed=1), rand(2, 3, seed=2)]}, id="sum-three"),
    OpCase("sum", {"X": [rand(4)]}, id="sum-one"),
]
