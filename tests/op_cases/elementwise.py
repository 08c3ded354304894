import numpy as np

from . import OpCase, away_from_zero, crand, distinct, positive, rand

CASES = []
for op in ("add", "subtract", "multiply", "divide"):
    y = positive if op == "divide" else rand
    CASES += [
        OpCase(op, {"X": rand(2, 3), "Y": y(2, 3, seed=1)}, id=f"{op}-same"),
        OpCase(op, {"X": rand(2, 3), "Y": y(3, seed=2)}, id=f"{op}-bcast-row"),
        OpCase(op, {"X": rand(2, 1, 3), "Y": y(4, 1, seed=3)}, id=f"{op}-bcast-both"),
        OpCase(op, {"X": rand(), "Y": y(2, 2, seed=4)}, id=f"{op}-scalar-x"),
        # Paddle's axis: Y's dims line up with X's from dim 1 on (a bias over the channels of NCHW)
        OpCase(op, {"X": rand(2, 3, 2, 2), "Y": y(3, seed=5)}, {"axis": 1}, id=f"{op}-axis"),
        OpCase(op, {"X": rand(3, 4), "Y": y(2, 3, 4, 2, seed=6)}, {"axis": -2}, id=f"{op}-axis-x-lower"),
    ]
CASES += [
    # a 0.05 shift keeps X and Y from tying (a kink finite differences cannot see through)
    OpCase("maximum", {"X": distinct(2, 3), "Y": distinct(2, 3, seed=5) + 0.05}, id="maximum"),
    OpCase("maximum", {"X": distinct(2, 3), "Y": distinct(3, seed=5) + 0.05}, id="maximum-bcast"),
    OpCase("minimum", {"X": distinct(2, 3), "Y": distinct(2, 3, seed=6) + 0.05}, id="minimum"),
    OpCase("elementwise_pow", {"X": positive(2, 3), "Y": rand(2, 3, seed=8)}, id="elementwise_pow"),
    OpCase("elementwise_pow", {"X": positive(2, 3), "Y": rand(3, seed=9)}, id="elementwise_pow-bcast"),
    OpCase("maximum", {"X": distinct(2, 3, 2), "Y": distinct(3, seed=5) + 0.05}, {"axis": 1}, id="maximum-axis"),
    OpCase("elementwise_pow", {"X": positive(2, 3, 2), "Y": rand(2, 3, seed=9)}, {"axis": 0},
           id="elementwise_pow-axis"),
]
CASES += [
    OpCase("copysign", {"X": away_from_zero(2, 3), "Y": away_from_zero(3, seed=1)}, id="copysign-bcast"),
    # X holds exact zeros (where Y is taken): only Y is differentiated, X's jump defeats finite differences
    OpCase("heaviside", {"X": np.array([[-1.0, 0.0, 2.0], [0.0, 3.0, -0.5]]), "Y": rand(3, seed=2)},
           grad_inputs=("Y",), id="heaviside-bcast"),
    OpCase("heaviside", {"X": away_from_zero(2, 3), "Y": rand(2, 3, seed=2)}, id="heaviside"),
    OpCase("fmax", {"X": distinct(2, 3), "Y": distinct(3, seed=5) + 0.05}, id="fmax-bcast"),
    OpCase("fmin", {"X": distinct(2, 3), "Y": distinct(2, 3, seed=6) + 0.05}, id="fmin"),
    OpCase("atan2", {"X": rand(2, 3), "Y": away_from_zero(3, seed=1)}, id="atan2-bcast"),
]

# complex operands: gradients in Paddle's conjugate convention
CASES += [
    OpCase("multiply", {"X": crand(2, 3), "Y": crand(3, seed=1)}, id="multiply-complex"),
    OpCase("divide", {"X": crand(2, 3), "Y": crand(2, 3, seed=1) + 2.0}, id="divide-complex"),
    OpCase("add", {"X": crand(2, 3), "Y": crand(2, 3, seed=1)}, id="add-complex"),
]
CASES += [OpCase("elementwise_pow", {"X": crand(2, 3) + 2.0, "Y": crand(2, 3, seed=1)}, id="elementwise_pow-complex")]
