"""Gradient test cases for every differentiable registry op, one module per op family.

A case names a registered op, its inputs (NumPy arrays, float64 for differentiable ones), attrs, and
which inputs to differentiate. tests/test_op_grads.py runs each case: float64 central differences
vs the analytic gradient, non-contiguous inputs, double backward where the op declares it, and the
same case on a GPU when one is present. tests/test_static_vs_eager.py runs them in static mode too.

Add cases in the module named like the op's module under paddlelite/ops/ (`ops/conv.py` ->
`op_cases/conv.py`) as `CASES = [OpCase(...), ...]`, and list a new module in FAMILIES.
"""
import importlib
from dataclasses import dataclass, field

import numpy as np

from paddlelite.framework.sparse import is_sparse

# one module per op module of paddlelite/ops/, named alike (tests/test_op_grads.py checks the mirror)
FAMILIES = ["elementwise", "math", "activation", "reduce", "manipulation", "indexing", "nn", "conv", "pooling",
            "norm", "loss", "grad_support", "fused", "search", "run_program", "complex", "linalg", "fft", "rnn",
            "special", "collective", "deform_conv", "nce", "interpolate", "attention", "quant", "geometric", "detection",
            "sparse", "sparse_conv", "moe"]


@dataclass
class OpCase:
    op: str
    inputs: dict                      # slot -> array | list of arrays | None
    attrs: dict = field(default_factory=dict)
    grad_inputs: tuple = None         # slots to differentiate; default: float, differentiable inputs
    double: bool = True               # check double backward when the op declares double_grad
    rtol: float = 1e-5
    atol: float = 1e-6
    eps: float = 1e-6                 # finite-difference step
    noncontiguous: bool = True        # also run with non-contiguous (strided) inputs
    id: str = ""
    family: str = ""                  # the op_cases module it is declared in (set by load_cases)
    context: object = None            # a context manager factory the case runs inside (tests/conftest.py)
    # output slot -> the axis its vectors run along, for outputs that are vectors defined up to sign (eigen- and
    # singular vectors: LAPACK and cuSOLVER pick different signs, as in Paddle): tests see each vector times the
    # sign of its first component, which makes their losses and comparisons independent of the pick
    sign_free: dict = field(default_factory=dict)
    # sparse inputs (framework/sparse.py containers holding float64 values) are differentiated through their values;
    # such cases run in eager mode only: paddlelite's static programs have no sparse variables
    eager_only: bool = False
    # for a gradient defined by convention rather than by the forward (a straight-through estimator):
    # surrogate(np, *inputs, **attrs) -> the outputs (slot order; trailing ones may be left out) of the function whose
    # central differences the gradient must match
    surrogate: object = None

    def __post_init__(self):
        if not self.id:
            self.id = self.op


def rng(seed=0):
    return np.random.default_rng(seed)


def rand(*shape, low=-1.0, high=1.0, seed=None):
    """Uniform float64 values; a seed derived from the shape keeps cases reproducible."""
    g = np.random.default_rng(seed if seed is not None else (hash(shape) & 0xFFFF))
    return g.uniform(low, high, size=shape)


def positive(*shape, low=0.5, high=2.0, seed=None):
    return rand(*shape, low=low, high=high, seed=seed)


def away_from_zero(*shape, margin=0.1, seed=None):
    """Values in [-1, -margin] U [margin, 1]: keeps kinks (relu, abs) out of finite differences."""
    a = rand(*shape, low=margin, high=1.0, seed=seed)
    signs = np.where(rand(*shape, seed=(seed or 0) + 1) > 0, 1.0, -1.0)
    return a * signs


def crand(*shape, seed=None):
    """complex128 values with real and imaginary parts uniform in [-1, 1]."""
    return rand(*shape, seed=seed) + 1j * rand(*shape, seed=(seed or 0) + 100)


def distinct(*shape, seed=None):
    """A permutation of well separated values: no ties for max/min/sort-like ops."""
    n = int(np.prod(shape)) if shape else 1
    g = np.random.default_rng(seed if seed is not None else 7)
    return (g.permutation(n).astype(np.float64) / n - 0.5).reshape(shape) * 2.0


def load_cases():
    """{op type: [OpCase, ...]} over all families whose module exists."""
    out = {}
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"tests.op_cases.{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"tests.op_cases.{fam}":
                raise
            continue
        for case in mod.CASES:
            case.family = fam
            out.setdefault(case.op, []).append(case)
    return out


def grad_slots(op, case):
    """The input slots a case differentiates: its own list, else the float, differentiable inputs."""
    if case.grad_inputs is not None:
        return list(case.grad_inputs)
    return [s for s in op.inputs if s not in op.nondiff_inputs and is_float(case.inputs.get(s))]


def is_float(v):
    if v is None:
        return False
    if is_sparse(v):
        return v.values.dtype.kind in "fc"
    if isinstance(v, list):
        return all(np.asarray(e).dtype.kind in "fc" for e in v)
    return np.asarray(v).dtype.kind in "fc"  # complex counts: its gradient is dL/d(re) + i dL/d(im)


def diff_outputs(op, outs, case=None):
    """The differentiable float outputs of an op's result (arrays, Tensors or Variables), intermediates
    excluded, flattened in slot order; the case's sign-free vectors with their signs fixed."""
    if op.n_out == 1:
        outs = (outs,)
    sign_free = case.sign_free if case is not None else {}
    picked = []
    for slot, o in zip(op.outputs, outs):
        if slot in op.intermediate_outputs:
            continue
        for e in (o if isinstance(o, list) else [o]):
            e = sparse_values(e)
            dt = e.dtype
            if (dt.is_floating_point or dt.is_complex) if hasattr(dt, "is_complex") else np.dtype(dt).kind in "fc":
                picked.append(_fix_signs(e, sign_free[slot]) if slot in sign_free else e)
    return picked


def sparse_values(e):
    """A sparse output as its values (a container's array, a Tensor's differentiable values); others as they are."""
    if is_sparse(e):
        return e.values
    if is_sparse(getattr(e, "_data", None)):
        return e.values()
    return e


def _fix_signs(v, axis):
    """v's vectors (running along `axis`) times the sign of their first component (real vectors)."""
    first = [slice(None)] * len(v.shape)
    first[axis] = slice(0, 1)
    first = v[tuple(first)]
    if isinstance(v, np.ndarray):
        return v * np.sign(first)
    import paddlelite
    return v * paddlelite.sign(first)
