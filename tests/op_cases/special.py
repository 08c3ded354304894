import numpy as np

from . import OpCase, positive, rand

CASES = [
    OpCase("lgamma", {"X": np.array([[-2.5, -0.7, 0.3], [1.5, 3.2, 7.0]])}, id="lgamma"),
    OpCase("digamma", {"X": np.array([[-2.5, -0.7, 0.3], [1.5, 3.2, 12.0]])}, id="digamma"),
    OpCase("polygamma", {"X": positive(2, 3)}, {"n": 1}, id="polygamma-1"),
    OpCase("polygamma", {"X": np.array([-1.5, 0.4, 2.0, 15.0])}, {"n": 3}, rtol=1e-4, id="polygamma-3"),
    OpCase("i0", {"X": rand(2, 3, low=-3, high=3)}, id="i0"),
    OpCase("i0", {"X": np.array([-35.0, 31.0])}, id="i0-asymptotic"),
    OpCase("i0e", {"X": np.array([[-35.0, -2.0, -0.3], [0.4, 3.0, 31.0]])}, id="i0e"),
    OpCase("i1", {"X": np.array([[-3.0, -0.5, 0.0], [0.2, 1.5, 4.0]])}, id="i1"),
    OpCase("i1e", {"X": np.array([[-35.0, -2.0, 0.0], [0.4, 3.0, 31.0]])}, id="i1e"),
    OpCase("erfinv", {"X": rand(2, 3, low=-0.9, high=0.9)}, id="erfinv"),
    OpCase("gammainc", {"X": positive(2, 3, seed=1), "Y": positive(2, 3, seed=2)}, grad_inputs=("Y",),
           id="gammainc"),
    OpCase("gammaincc", {"X": positive(2, 3, low=1.0, high=4.0, seed=3), "Y": positive(3, low=2.0, high=6.0, seed=4)},
           grad_inputs=("Y",), id="gammaincc-bcast"),
    OpCase("gammaincinv", {"X": positive(2, 3, low=0.3, high=6.0, seed=5), "U": rand(2, 3, low=0.05, high=0.95, seed=6)},
           id="gammaincinv"),
    OpCase("gammaincinv", {"X": positive(3, low=0.5, high=3.0, seed=7), "U": rand(2, 3, low=0.1, high=0.9, seed=8)},
           id="gammaincinv-bcast"),
    OpCase("kron", {"X": rand(2, 3), "Y": rand(3, 2, seed=1)}, id="kron"),
    OpCase("kron", {"X": rand(2), "Y": rand(2, 3, 2, seed=1)}, id="kron-ranks"),
    OpCase("trace", {"X": rand(3, 4)}, id="trace"),
    OpCase("trace", {"X": rand(2, 3, 4)}, {"offset": -1, "axis1": 2, "axis2": 1}, id="trace-batched-offset"),
    OpCase("trace_grad", {"X": rand(3, 4), "DOut": np.array(1.5)}, {"offset": 1}, id="trace_grad"),
]
