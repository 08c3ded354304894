"""Numerical edge cases as a table: every reduction and comparison-based op (and its gradient) over ties, NaN,
+-inf, empty and 0-D inputs and int dtypes, each cell run under paddlelite and real Paddle 3.3.1 (skipped
without it) and compared.

Only what Paddle promises is compared: where an op may pick any of several tied elements (Paddle's sort is not
stable, so neither are topk, kthvalue, mode), indices are compared through the values they pick and gradients
through the total each distinct input value receives. A cell where Paddle's CPU build has no kernel for the dtype
(RuntimeError "not registered") says nothing about semantics: paddlelite's answer is then only required to be a
value or a clear TypeError/ValueError.

`DIFFERENCES` is the one list of where paddlelite deliberately answers otherwise, with the reason for each; the
README's "Numerical edge cases" section summarises it (a test keeps the two in step).
"""
import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pytest

import paddlelite
from tests.differential import Raised, _run, assert_same, differential, raises, reference_paddle, run_static

NAN, INF = float("nan"), float("inf")


@dataclasses.dataclass(frozen=True)
class Input:
    x: object
    y: object  # the second operand of binary ops
    dtype: str


INPUTS = {
    "ties": Input([[1.0, 3.0, 3.0, -2.0], [2.0, 2.0, 0.0, 2.0]], [[1.0, 0.0, 3.0, 5.0], [2.0, -1.0, 0.0, 3.0]],
                  "float32"),
    "nan": Input([[1.0, NAN, 3.0, 2.0], [0.0, 1.0, 2.0, 3.0]], [[NAN, 0.0, 3.0, 2.0], [1.0, NAN, 2.0, NAN]],
                 "float32"),
    "inf": Input([[-INF, 1.0, INF, INF], [-INF, -INF, 0.0, 1.0]], [[-INF, INF, 1.0, INF], [0.0, -INF, -INF, 1.0]],
                 "float32"),
    "float64": Input([[0.5, -1.25, 2.0, 0.75], [3.0, 1.0, -1.0, 0.25]], [[0.5, 1.0, -2.0, 1.0], [3.0, 0.0, 1.0, 0.5]],
                     "float64"),
    "empty-batch": Input(np.zeros([0, 3]), np.zeros([0, 3]), "float32"),  # the reduced axis is not the empty one
    "empty-axis": Input(np.zeros([3, 0]), np.zeros([3, 0]), "float32"),   # the reduced axis is empty
    "0-d": Input(2.5, 2.5, "float32"),
    "int32": Input([[3, 1, 3, -2], [0, 0, 7, -9]], [[3, 5, 1, -2], [1, 0, 2, -9]], "int32"),
    "int64": Input([[3, 1, 3, -2], [0, 0, 7, -9]], [[3, 5, 1, -2], [1, 0, 2, -9]], "int64"),
    "bool": Input([[True, False, True, True], [False, False, False, True]],
                  [[True, True, False, True], [False, True, False, False]], "bool"),
}


@dataclasses.dataclass(frozen=True)
class Op:
    fn: object                 # fn(paddle, x) or fn(paddle, x, y) -> a Tensor or a tuple of them
    arity: int = 1
    axis: object = -1          # the axis it reduces/sorts along (None: the flattened tensor)
    tie_unordered: bool = False  # which of tied elements it picks is unspecified


def _unique(p, x):
    return p.unique(x, return_index=False, return_inverse=True, return_counts=True)


OPS = {
    # reductions
    "sum": Op(lambda p, x: p.sum(x, axis=-1)),
    "sum-all": Op(lambda p, x: p.sum(x), axis=None),
    "mean": Op(lambda p, x: p.mean(x, axis=-1)),
    "prod": Op(lambda p, x: p.prod(x, axis=-1)),
    "prod-all": Op(lambda p, x: p.prod(x), axis=None),
    "max": Op(lambda p, x: p.max(x, axis=-1)),
    "max-all": Op(lambda p, x: p.max(x), axis=None),
    "min": Op(lambda p, x: p.min(x, axis=-1, keepdim=True)),
    "amax": Op(lambda p, x: p.amax(x, axis=-1)),
    "amin": Op(lambda p, x: p.amin(x, axis=-1)),
    "logsumexp": Op(lambda p, x: p.logsumexp(x, axis=-1)),
    "all": Op(lambda p, x: p.all(x, axis=-1)),
    "any": Op(lambda p, x: p.any(x, axis=-1)),
    "std": Op(lambda p, x: p.std(x, axis=-1)),
    "var": Op(lambda p, x: p.var(x, axis=-1, unbiased=False)),
    "median": Op(lambda p, x: p.median(x, axis=-1), tie_unordered=True),
    "median-min": Op(lambda p, x: p.median(x, axis=-1, mode="min"), tie_unordered=True),
    "nanmedian": Op(lambda p, x: p.nanmedian(x, axis=-1), tie_unordered=True),
    "nansum": Op(lambda p, x: p.nansum(x, axis=-1)),
    "nanmean": Op(lambda p, x: p.nanmean(x, axis=-1)),
    "norm-2": Op(lambda p, x: p.linalg.norm(x, p=2, axis=-1)),
    "norm-inf": Op(lambda p, x: p.linalg.norm(x, p=INF, axis=-1)),
    "norm-1": Op(lambda p, x: p.linalg.norm(x, p=1, axis=-1)),
    "count_nonzero": Op(lambda p, x: p.count_nonzero(x, axis=-1)),
    "cumsum": Op(lambda p, x: p.cumsum(x, axis=-1)),
    "cumsum-flat": Op(lambda p, x: p.cumsum(x), axis=None),
    "cumprod": Op(lambda p, x: p.cumprod(x, dim=-1)),
    "cummax": Op(lambda p, x: p.cummax(x, axis=-1)),
    "cummin": Op(lambda p, x: p.cummin(x, axis=-1)),
    "logcumsumexp": Op(lambda p, x: p.logcumsumexp(x, axis=-1)),
    # comparison-based
    "maximum": Op(lambda p, x, y: p.maximum(x, y), arity=2),
    "minimum": Op(lambda p, x, y: p.minimum(x, y), arity=2),
    "fmax": Op(lambda p, x, y: p.fmax(x, y), arity=2),
    "fmin": Op(lambda p, x, y: p.fmin(x, y), arity=2),
    "topk": Op(lambda p, x: p.topk(x, 2, axis=-1), tie_unordered=True),
    "topk-smallest": Op(lambda p, x: p.topk(x, 2, axis=-1, largest=False), tie_unordered=True),
    "sort": Op(lambda p, x: p.sort(x, axis=-1)),
    "sort-descending": Op(lambda p, x: p.sort(x, axis=-1, descending=True)),
    "argsort": Op(lambda p, x: p.argsort(x, axis=-1), tie_unordered=True),
    "argsort-descending": Op(lambda p, x: p.argsort(x, axis=-1, descending=True), tie_unordered=True),
    "argsort-stable": Op(lambda p, x: p.argsort(x, axis=-1, stable=True)),
    "argsort-stable-descending": Op(lambda p, x: p.argsort(x, axis=-1, descending=True, stable=True)),
    "argmax": Op(lambda p, x: p.argmax(x, axis=-1)),
    "argmax-all": Op(lambda p, x: p.argmax(x), axis=None),
    "argmin": Op(lambda p, x: p.argmin(x, axis=-1)),
    "kthvalue": Op(lambda p, x: p.kthvalue(x, 2, axis=-1), tie_unordered=True),
    "mode": Op(lambda p, x: p.mode(x, axis=-1), tie_unordered=True),
    "clip": Op(lambda p, x: p.clip(x, -1, 2)),
    "unique": Op(_unique, axis=None),
    "equal": Op(lambda p, x, y: p.equal(x, y), arity=2),
    "less_than": Op(lambda p, x, y: p.less_than(x, y), arity=2),
    "isclose": Op(lambda p, x, y: p.isclose(x, y), arity=2),
    "allclose": Op(lambda p, x, y: p.allclose(x, y), arity=2),
}

# Where paddlelite deliberately answers otherwise than Paddle 3.3.1: (op, input) -> (paddlelite's answer, why).
# The answers are snapshots as the cells return them (values of outputs out<k> and gradients grad<k>).
CRASHES = "Paddle 3.3.1 kills the process (SIGSEGV/SIGABRT)"
NO_EXTREME = "an empty axis has no extreme: ValueError (Paddle 3.3.1 returns uninitialised memory)"
NAN_IS_EXTREME = ("NaN is the extreme, as max/min/topk say (and NumPy, PyTorch); Paddle's argmax/argmin skip NaN while "
                  "its max returns it")
BOOL_MEAN = "the mean of bools is no bool: TypeError (Paddle 3.3.1 returns a bool tensor)"
EXACT_PROD_GRAD = ("the gradient is the product of the other elements, exact at zeros, NaN and inf (Paddle divides the "
                   "product by x: NaN at a zero)")
NORM_INF_LIKE_MAX = ("like max: the gradient is shared evenly among tied largest magnitudes, and a NaN shows (Paddle "
                     "gives the whole gradient to each tie and skips NaN)")
MEDIAN_OF_INF = ("the two middle elements get half the gradient each, one infinite or not (Paddle sends it to the "
                 "elements equal to the median)")
RUNNING_LOGADDEXP = ("a running logaddexp keeps -inf, inf and NaN (Paddle turns -inf into the lowest float, inf + inf "
                     "into NaN, and skips NaN)")
UNIQUE_FLATTENS = "unique flattens: an empty input gives shape [0] (Paddle returns the input's shape)"
DIFFERENCES = {
    **{(norm, "0-d"): ({"out0": 2.5, "grad0": 1.0}, f"{CRASHES}; the norm of one number is its magnitude")
       for norm in ("norm-1", "norm-2", "norm-inf")},
    **{(op, "0-d"): ({"out0": 2.5, "out1": 0, "grad0": 1.0}, f"{CRASHES} (in the backward)")
       for op in ("cummax", "cummin")},
    **{(op, inp): (raises(ValueError), NO_EXTREME)
       for op, inp in [("amax", "empty-axis"), ("amin", "empty-axis"), ("argmax", "empty-axis"),
                       ("argmin", "empty-axis"), ("argmax-all", "empty-axis"), ("argmax-all", "empty-batch")]},
    ("argmax", "nan"): ({"out0": [1, 3]}, NAN_IS_EXTREME),
    ("argmax-all", "nan"): ({"out0": 1}, NAN_IS_EXTREME),
    ("argmin", "nan"): ({"out0": [1, 0]}, NAN_IS_EXTREME),
    ("mean", "bool"): (raises(TypeError), BOOL_MEAN),
    ("nanmean", "int32"): ({"out0": [1.25, -0.5]}, "computed in float32 as for int64 (Paddle 3.3.1's int32 path fails "
                                                    "its own type promotion: TypeError)"),
    ("cumprod", "0-d"): ({"out0": 2.5, "grad0": 1.0},
                         "a 0-D tensor's one axis is 0 or -1, as Paddle's cumsum accepts (its cumprod raises ValueError)"),
    ("cumprod", "inf"): ({"out0": [[-INF, -INF, -INF, -INF], [-INF, INF, NAN, NAN]],
                          "grad0": [[INF, -INF, -INF, -INF], [-INF, -INF, INF, NAN]]},
                         "the gradient is summed Horner-style, exact at zeros; with an infinite factor it is +-inf "
                         "where Paddle's expanded products give NaN (inf * 0)"),
    ("logcumsumexp", "inf"): ({"out0": [[-INF, 1.0, INF, INF], [-INF, -INF, 0.0, 1.3132617]],
                               "grad0": [[0.0, 1.0, NAN, NAN], [0.0, 0.0, 1.2689414, 0.7310585]]}, RUNNING_LOGADDEXP),
    ("logcumsumexp", "nan"): ({"out0": [[1.0, NAN, NAN, NAN], [0.0, 1.3132617, 2.4076061, 3.4401898]],
                               "grad0": [[NAN, NAN, NAN, NAN], [1.3910306, 1.0629313, 0.9021236, 0.6439142]]},
                              RUNNING_LOGADDEXP),
    ("logsumexp", "inf"): ({"out0": [INF, 1.3132616], "grad0": [[0.0, 0.0, NAN, NAN], [0.0, 0.0, 0.2689414, 0.7310586]]},
                           "the log of a sum holding exp(inf) is inf (Paddle's max shift computes inf - inf = NaN)"),
    **{(op, "inf"): ({"out0": [INF, -INF], "grad0": [[(-INF, 0.0), (1.0, 0.5), (INF, 0.5)],
                                                     [(-INF, 0.5), (0.0, 0.5), (1.0, 0.0)]]}, MEDIAN_OF_INF)
       for op in ("median", "nanmedian")},
    ("norm-inf", "ties"): ({"out0": [3.0, 2.0], "grad0": [[0.0, 0.5, 0.5, 0.0], [1 / 3, 1 / 3, 0.0, 1 / 3]]},
                           NORM_INF_LIKE_MAX),
    ("norm-inf", "inf"): ({"out0": [INF, INF], "grad0": [[-1 / 3, 0.0, 1 / 3, 1 / 3], [-0.5, -0.5, 0.0, 0.0]]},
                          NORM_INF_LIKE_MAX),
    ("norm-inf", "nan"): ({"out0": [NAN, 3.0], "grad0": [[NAN, NAN, NAN, NAN], [0.0, 0.0, 0.0, 1.0]]},
                          NORM_INF_LIKE_MAX),
    ("prod", "ties"): ({"out0": [-18.0, 0.0], "grad0": [[-18.0, -6.0, -6.0, 9.0], [0.0, 0.0, 8.0, 0.0]]},
                       EXACT_PROD_GRAD),
    ("prod", "nan"): ({"out0": [NAN, 0.0], "grad0": [[NAN, 6.0, NAN, NAN], [6.0, 0.0, 0.0, 0.0]]}, EXACT_PROD_GRAD),
    ("prod", "inf"): ({"out0": [-INF, NAN], "grad0": [[INF, -INF, -INF, -INF], [NAN, NAN, INF, NAN]]},
                      EXACT_PROD_GRAD),
    ("prod-all", "ties"): ({"out0": 0.0, "grad0": [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, -144.0, 0.0]]}, EXACT_PROD_GRAD),
    ("prod-all", "nan"): ({"out0": NAN, "grad0": [[NAN, 0.0, NAN, NAN], [NAN, NAN, NAN, NAN]]}, EXACT_PROD_GRAD),
    ("prod-all", "inf"): ({"out0": NAN, "grad0": [[NAN, NAN, NAN, NAN], [NAN, NAN, -INF, NAN]]}, EXACT_PROD_GRAD),
    **{(op, "0-d"): (raises(ValueError), "k=2 exceeds the one element of a 0-D input: ValueError (Paddle returns it)")
       for op in ("topk", "topk-smallest")},
    ("unique", "empty-axis"): ({"out0": [], "out1": [], "out2": []}, UNIQUE_FLATTENS),
    ("unique", "empty-batch"): ({"out0": [], "out1": [], "out2": []}, UNIQUE_FLATTENS),
    ("unique", "nan"): ({"out0": [0.0, 1.0, 2.0, 3.0, NAN], "out1": [1, 4, 3, 2, 0, 1, 2, 3], "out2": [1, 2, 2, 2, 1]},
                        "a NaN gets its own entry, index and count (Paddle counts it 0 and maps it to entry 0)"),
    ("var", "0-d"): ({"out0": 0.0, "grad0": 0.0},
                     "the variance of one number is 0, with gradient 0 (Paddle cuts it from the graph: no gradient)"),
    ("var", "inf"): ({"out0": [NAN, NAN], "grad0": [[NAN, NAN, NAN, NAN], [NAN, NAN, INF, INF]]},
                     "PyTorch's formula 2 (x - mean) / n: inf where x is finite and the mean infinite (Paddle: NaN)"),
}

_MISSING_KERNEL = re.compile(r"kernel with key .* is not registered|not registered|NotFound", re.S)


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _by_value(x, g, axis):
    """What each distinct value of x receives (the gradients summed over its copies), per slice along `axis`:
    what a gradient promises when the op may pick any of tied elements."""
    if axis is None or x.ndim == 0:
        x, g = x.reshape(1, -1), g.reshape(1, -1)
    else:
        x, g = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis]), np.moveaxis(g, axis, -1).reshape(-1, x.shape[axis])
    rows = []
    for xs, gs in zip(x, g):
        totals = {}
        for v, d in zip(xs.tolist(), gs.tolist()):
            key = "nan" if isinstance(v, float) and math.isnan(v) else v
            totals[key] = totals.get(key, 0.0) + d
        rows.append(sorted(totals.items(), key=lambda kv: str(kv[0])))
    return rows


def _picked(x, index, axis):
    """The values an index output points at (what an index promises when ties may be picked in any order)."""
    if axis is None:
        return x.reshape(-1)[index]
    return np.take_along_axis(x, index, axis) if x.ndim else x


def FLOATS(paddle):  # noqa: N802 (the float dtypes of either library)
    return (paddle.float16, paddle.float32, paddle.float64)


def _body(op, inp):
    def body(paddle):
        xs = [paddle.to_tensor(np.asarray(v), dtype=inp.dtype) for v in (inp.x, inp.y)[:op.arity]]
        differentiable = inp.dtype.startswith("float")
        for t in xs:
            t.stop_gradient = not differentiable
        outs = _as_list(op.fn(paddle, *xs))
        x_np = xs[0].numpy()
        result = {}
        for k, out in enumerate(outs):
            if not hasattr(out, "numpy"):
                result[f"out{k}"] = out  # a Python value (allclose returns a bool tensor; unique a tuple)
            elif op.tie_unordered and out.dtype == paddle.int64 and x_np.size:
                result[f"out{k}"] = _picked(x_np, out.numpy(), op.axis)
            else:
                result[f"out{k}"] = out
        wrt = [o for o in outs if hasattr(o, "stop_gradient") and not o.stop_gradient and o.dtype in FLOATS(paddle)]
        if differentiable and wrt:
            grads = paddle.grad(wrt, xs, allow_unused=True)
            for k, (t, g) in enumerate(zip(xs, grads)):
                if g is None:
                    result[f"grad{k}"] = None
                elif op.tie_unordered:
                    result[f"grad{k}"] = _by_value(t.numpy(), g.numpy(), op.axis)
                else:
                    result[f"grad{k}"] = g
        return result
    return body


CELLS = [(o, i) for o in sorted(OPS) for i in sorted(INPUTS)]


def _missing_kernel(outcome):
    return isinstance(outcome, Raised) and outcome.cls.__name__ == "RuntimeError" and \
        _MISSING_KERNEL.search(outcome.message) is not None


@pytest.mark.parametrize("op,inp", CELLS, ids=[f"{o}-{i}" for o, i in CELLS])
def test_edge_case_matches_paddle(op, inp):
    body = _body(OPS[op], INPUTS[inp])
    ours = _run(body, paddlelite)
    if (op, inp) in DIFFERENCES:
        expected, _why = DIFFERENCES[op, inp]
        assert_same(ours, expected, path=f"paddlelite {op}({inp}) vs its documented answer")
        return
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    theirs = _run(body, ref)
    if _missing_kernel(theirs):  # Paddle's CPU build lacks the kernel: no semantics to compare
        if isinstance(ours, Raised):
            assert issubclass(ours.cls, (TypeError, ValueError)), ours
        return
    assert_same(ours, theirs, path=f"{op}({inp}): paddlelite vs Paddle")


@pytest.mark.parametrize("cell", sorted(DIFFERENCES), ids=["-".join(c) for c in sorted(DIFFERENCES)])
def test_each_listed_difference_is_real(cell):
    """An entry of DIFFERENCES that Paddle agrees with is stale."""
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    op, inp = cell
    if DIFFERENCES[cell][1].startswith(CRASHES):
        pytest.skip("running it would kill the test process")
    theirs = _run(_body(OPS[op], INPUTS[inp]), ref)
    with pytest.raises(pytest.fail.Exception):
        assert_same(_run(_body(OPS[op], INPUTS[inp]), paddlelite), theirs)


def test_the_readme_lists_every_difference():
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text[text.index("### Numerical edge cases"):]
    section = section[:section.index("\n## ")]
    missing = sorted({op for op, _ in DIFFERENCES if f"`{op.split('-')[0]}`" not in section})
    assert not missing, f"README's 'Numerical edge cases' does not mention {missing}"




# ---- the landmarks, recorded (checked without Paddle too) ------------------------------------------------------
@differential(expected={"max": [0.0, 0.5, 0.5, 0.0], "min": [0.5, 0.5, 0.0, 0.0], "max_nan": [NAN, NAN, NAN, NAN],
                        "static_reduce_max": [0.0, 0.5, 0.5, 0.0]})
def test_max_min_split_ties_and_show_a_nan(paddle):
    def grad(fn, values):
        x = paddle.to_tensor(values, stop_gradient=False)
        fn(x).backward()
        return x.grad
    ties = [1.0, 3.0, 3.0, 2.0]
    out = {"max": grad(paddle.max, ties), "min": grad(paddle.min, [1.0, 1.0, 3.0, 2.0]),
           "max_nan": grad(paddle.max, [1.0, NAN, 3.0, 2.0])}

    def build():
        x = paddle.static.data("x", [4], "float32")
        x.stop_gradient = False
        return paddle.static.gradients([paddle.max(x)], [x])
    out["static_reduce_max"] = run_static(paddle, build, {"x": np.array(ties, "float32")})[0]
    return out


@differential(expected={"dx": [0.5, 0.0, 0.5, 0.0], "dy": [0.5, 1.0, 0.5, 0.0], "min_dx": [0.5, 1.0, 0.5, 0.0]})
def test_maximum_minimum_split_the_gradient_at_ties(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0, NAN], stop_gradient=False)
    y = paddle.to_tensor([1.0, 3.0, 3.0, 1.0], stop_gradient=False)
    paddle.maximum(x, y).sum().backward()
    out = {"dx": x.grad.numpy(), "dy": y.grad.numpy()}  # copies: the next backward accumulates into .grad
    x.clear_gradient(False)
    paddle.minimum(x, y).sum().backward()
    out["min_dx"] = x.grad
    return out


@differential(expected={"topk": [NAN, 3.0], "topk_index": [1, 2], "sort": [NAN, 3.0, 2.0, 1.0],
                        "argsort": [1, 2, 3, 0], "ascending": [1.0, 2.0, 3.0, NAN]})
def test_nan_sorts_as_the_largest_value(paddle):
    x = paddle.to_tensor([1.0, NAN, 3.0, 2.0])
    values, index = paddle.topk(x, 2)
    return {"topk": values, "topk_index": index, "sort": paddle.sort(x, descending=True),
            "argsort": paddle.argsort(x, descending=True), "ascending": paddle.sort(x)}


@differential(expected={"x**0": [0.0, 0.0], "dx": [0.0, 1.0, 0.0, -INF], "dy": [0.0, 0.0, 0.0, -INF]})
def test_pow_gradients_at_zero(paddle):
    x = paddle.to_tensor([0.0, 2.0], stop_gradient=False)
    (x ** 0).sum().backward()
    out = {"x**0": x.grad.numpy()}
    base = paddle.to_tensor([0.0, 0.0, 0.0, 0.0], stop_gradient=False)
    exponent = paddle.to_tensor([0.0, 1.0, 2.0, -1.0], stop_gradient=False)
    paddle.pow(base, exponent).sum().backward()
    return {**out, "dx": base.grad, "dy": exponent.grad}


@differential(expected=raises(ValueError))
def test_to_tensor_refuses_an_int_beyond_int64(paddle):
    paddle.to_tensor(2 ** 63)


@differential(expected={"sum": 3221225472, "sum_dtype": "int64", "cumsum": [1073741824, 2147483648, 3221225472],
                        "cumsum_dtype": "int64", "bool_sum": "int64", "int16_sum": "int16", "int8_cumsum": "int64",
                        "requested": "int32"})
def test_small_int_sums_are_int64(paddle):
    x = paddle.to_tensor(np.full([3], 2 ** 30, "int32"))
    return {"sum": paddle.sum(x), "sum_dtype": paddle.sum(x).dtype, "cumsum": paddle.cumsum(x),
            "cumsum_dtype": paddle.cumsum(x).dtype, "bool_sum": paddle.sum(paddle.to_tensor([True, True])).dtype,
            "int16_sum": paddle.sum(paddle.to_tensor([1, 2], dtype="int16")).dtype,
            "int8_cumsum": paddle.cumsum(paddle.to_tensor([1, 2], dtype="int8")).dtype,
            "requested": paddle.sum(x, dtype="int32").dtype}


@differential(expected={"max": [], "sum": [], "argmax": [], "prod": [1.0, 1.0, 1.0], "logsumexp": [-INF, -INF, -INF],
                        "mean": [NAN, NAN, NAN], "median": [NAN, NAN, NAN], "max_grad": np.zeros([0, 3], "float32")})
def test_reductions_of_empty_tensors(paddle):
    batch, empty_axis = paddle.zeros([0, 3]), paddle.zeros([3, 0])
    batch.stop_gradient = False
    biggest = paddle.max(batch, axis=1)
    (grad,) = paddle.grad([biggest], [batch])
    return {"max": biggest, "sum": paddle.sum(batch, axis=1), "argmax": paddle.argmax(batch, axis=1),
            "prod": paddle.prod(empty_axis, axis=1), "logsumexp": paddle.logsumexp(empty_axis, axis=1),
            "mean": paddle.mean(empty_axis, axis=1), "median": paddle.median(empty_axis, axis=1), "max_grad": grad}


@differential(expected=raises(ValueError))
def test_max_over_an_empty_axis_raises(paddle):
    paddle.max(paddle.zeros([3, 0]), axis=1)


@differential(expected={"cast": [1.0, 2.0], "cast_is_x": False, "astype_is_x": True, "dropout": [1.0, 2.0],
                        "dropout_is_x": False, "p0_is_x": True})
def test_cast_and_inference_dropout_return_new_tensors(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.cast(x, x.dtype)
    y.add_(paddle.to_tensor([10.0, 10.0]))  # must not reach x
    d = paddle.nn.functional.dropout(x, 0.5, training=False)
    d.add_(paddle.to_tensor([10.0, 10.0]))
    return {"cast": x, "cast_is_x": y is x, "astype_is_x": x.astype("float32") is x, "dropout": x,
            "dropout_is_x": d is x, "p0_is_x": paddle.nn.functional.dropout(x, 0.0) is x}


@differential(expected={"x": [[100.0, 2.0], [3.0, 14.0]], "grad": [[2.0, 0.0], [0.0, 2.0]]})
def test_diagonal_is_a_view(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    d = paddle.diagonal(x)
    d[0] = 100.0
    d[1:].add_(paddle.to_tensor([10.0]))
    w = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    (paddle.diagonal(w) * 2).sum().backward()
    return {"x": x, "grad": w.grad}


@differential(expected=raises(RuntimeError))
def test_a_hook_may_not_change_the_gradients_dtype(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.register_hook(lambda g: g.astype("float64"))
    y.sum().backward()


@differential(expected={"out": [-1000.0, 0.0, 0.0], "grad": [1.0, 2.0, 0.0]})
def test_logcumsumexp_keeps_values_far_below_the_maximum(paddle):
    x = paddle.to_tensor([-1000.0, 0.0, -2000.0], stop_gradient=False)
    out = paddle.logcumsumexp(x)
    out.sum().backward()
    return {"out": out, "grad": x.grad}
