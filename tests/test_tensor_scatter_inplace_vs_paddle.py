"""Paddle's scatter/take APIs, in-place variants and Tensor-only methods against real Paddle 3.3.1."""
import numpy as np
import pytest

from tests.differential import assert_same, differential, run_both
from tests.test_tensor_api_vs_paddle import _grads, _ints, _rand, _values


def _index(values):
    return np.array(values, dtype="int64")


def _inplace(fn, *arrays):
    """x.<op>_(...): the result and x after it."""
    def body(paddle):
        ts = [paddle.to_tensor(a) for a in arrays]
        out = fn(paddle, *ts)
        return {"out": out, "x": ts[0]}
    return body


CASES = {
    "index_add": _grads(lambda p, x, v: p.index_add(x, p.to_tensor(_index([0, 2, 0])), 1, v, alpha=2.0),
                        _rand(2, 3), _rand(2, 3, seed=1)),
    "index_add-axis0": _values(lambda p, x, v: x.index_add(p.to_tensor(_index([1])), -2, v), _ints(3, 2), _ints(1, 2)),
    "index_fill": _grads(lambda p, x: p.index_fill(x, p.to_tensor(_index([1, 1])), 1, -1.5) * 2.0, _rand(2, 3)),
    "index_fill-int": _values(lambda p, x: x.index_fill(p.to_tensor(_index([0, 2])), 0, 7), _ints(3, 2)),
    "scatter_add": _grads(lambda p, x, s: p.scatter_add(x, 1, p.to_tensor(_index([[0, 0], [2, 1]])), s),
                          _rand(2, 3), _rand(2, 2, seed=1)),
    # src larger than index: only index's part is read (Paddle 3.3.1 then gives src a gradient of index's shape)
    "scatter_add-larger-src": _values(lambda p, x, s: p.scatter_add(x, 0, p.to_tensor(_index([[1, 0]])), s),
                                      _rand(2, 3), _rand(2, 3, seed=1)),
    "scatter_nd": _grads(lambda p, u: p.scatter_nd(p.to_tensor(_index([[1], [1], [0]])), u, [3, 2]), _rand(3, 2)),
    "scatter_nd_add": _grads(lambda p, x, u: p.scatter_nd_add(x, p.to_tensor(_index([[1, 1], [0, 2], [1, 1]])), u),
                             _rand(2, 3), _rand(3, seed=1)),
    "take": _grads(lambda p, x: p.take(x, p.to_tensor(_index([[0, -1], [5, 2]]))), _rand(2, 3)),
    "take-modes": _values(lambda p, x: [p.take(x, p.to_tensor(_index([7, -8, 3])), mode=m) for m in ("wrap", "clip")]
                          + [x.take(p.to_tensor(_index([1])))], _ints(2, 3)),
    "take-out-of-range": _values(lambda p, x: p.take(x, p.to_tensor(_index([6]))), _rand(2, 3)),
    "take_along_dim": _grads(lambda p, x: p.take_along_dim(x, p.to_tensor(_index([[0], [2]])), 1), _rand(2, 3)),
    "slice_scatter": _grads(lambda p, x, v: p.slice_scatter(x, v, [1], [0], [4], [2]) * 2.0, _rand(3, 4),
                            _rand(3, 2, seed=1)),
    "slice_scatter-2axes": _values(lambda p, x, v: x.slice_scatter(v, [0, 1], [1, 0], [3, 3], [1, 1]), _ints(3, 4),
                                   _ints(2, 3, seed=1)),
    "select_scatter": _grads(lambda p, x, v: p.select_scatter(x, v, -1, 2) * 2.0, _rand(2, 3, 4), _rand(2, 3, seed=1)),
    # (Paddle 3.3.1 gives y no gradient; ours is the diagonal of x's gradient: test_diagonal_scatter_grad)
    "diagonal_scatter": _values(lambda p, x, y: p.diagonal_scatter(x, y, 1) * 2.0, _rand(3, 4), _rand(3, seed=1)),
    "diagonal_scatter-3d": _values(lambda p, x, y: x.diagonal_scatter(y, -1, 2, 0), _rand(4, 2, 3),
                                   _rand(2, 2, seed=1)),
    "masked_scatter": _grads(lambda p, x, v: p.masked_scatter(x, p.to_tensor(np.array([True, False, True])), v),
                             _rand(2, 3), _rand(5, seed=1)),
    "masked_scatter-int": _values(lambda p, x, m, v: x.masked_scatter(m, v), _ints(2, 3),
                                  np.array([[True, False, True], [False, False, True]]), _ints(2, 3, seed=1)),
    "conversions": _values(lambda p, x: [getattr(x, n)() for n in (
        "float", "double", "half", "int", "long", "bool", "byte", "char", "short", "cfloat", "cdouble", "float16",
        "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64", "complex128")],
        _rand(4, low=0, high=5)),
    "tensor-extras": _values(lambda p, x, y: [x.type_as(y), x.new_zeros([2]), x.new_ones([1, 2], dtype="int32"),
                                              x.new_full([2], 3.5), list(x.new_empty([3, 1]).shape), x.element_size(),
                                              x.itemsize, x.is_same_shape(y), x.is_same_shape(x), x.repeat(2, 1),
                                              x.repeat([1, 2, 1]), x.split_with_sizes([1, 1], 0),
                                              p.concat([x, x]),
                                              x.slice([1], [0], [2])],
                              _rand(2, 3), _ints(2, 3)),
}
for name, fn, arrays in [
    ("bitwise_and_", lambda p, x, y: x.bitwise_and_(y), (_ints(4), _ints(4, seed=1))),
    ("bitwise_left_shift_", lambda p, x, y: p.bitwise_left_shift_(x, y), (_ints(4), _ints(4, seed=1, low=0, high=4))),
    ("bitwise_invert_", lambda p, x: p.bitwise_invert_(x), (_ints(4),)),
    ("copysign_", lambda p, x, y: p.copysign_(x, y), (_rand(4), _rand(4, seed=1))),
    ("div_", lambda p, x, y: p.div_(x, y), (_rand(4), _rand(4, seed=1) + 4.0)),
    ("sub_", lambda p, x, y: x.sub_(y), (_rand(4), _rand(4, seed=1))),
    ("mul_", lambda p, x, y: x.mul_(y), (_rand(4), _rand(4, seed=1))),
    ("clamp_", lambda p, x: x.clamp_(-1.0, 1.0), (_rand(4),)),
    ("erf_expm1_frac_", lambda p, x: p.frac_(p.expm1_(p.erf_(x))), (_rand(4),)),
    ("gcd_lcm_", lambda p, x, y: p.lcm_(p.gcd_(x, y), y), (_ints(4, low=1), _ints(4, seed=1, low=1))),
    ("hypot_lerp_", lambda p, x, y: x.lerp_(y, 0.25).hypot_(y), (_rand(4), _rand(4, seed=1))),
    ("logit_sinc_nan_to_num_", lambda p, x: p.nan_to_num_(p.sinc_(p.logit_(x, 0.1))), (_rand(4, low=0, high=1),)),
    ("addmm_", lambda p, i, x, y: p.addmm_(i, x, y, beta=0.5), (_rand(2, 2), _rand(2, 3), _rand(3, 2))),
    ("baddbmm_", lambda p, i, x, y: p.baddbmm_(i, x, y, alpha=2.0), (_rand(2, 2, 2), _rand(2, 2, 3), _rand(2, 3, 2))),
    ("index_add_", lambda p, x, v: p.index_add_(x, p.to_tensor(_index([1, 1])), 0, v), (_rand(3, 2), _rand(2, 2))),
    ("index_fill_", lambda p, x: p.index_fill_(x, p.to_tensor(_index([0])), 1, 2.0), (_rand(3, 2),)),
    ("scatter_add_", lambda p, x, s: p.scatter_add_(x, 0, p.to_tensor(_index([[1, 0]])), s), (_rand(2, 2), _rand(1, 2))),
    ("asinh_atanh_", lambda p, x: x.asinh_().atanh_(),
     (_rand(4, low=-0.5, high=0.5),)),
    ("acosh_", lambda p, x: x.acosh_(), (_rand(4, low=1.5, high=3),)),
    ("where_", lambda p, x, y: p.where_(x > 0, x, y), (_rand(4), _rand(4, seed=1))),
    ("equal_", lambda p, x, y: p.equal_(x, y), (_ints(5, low=0, high=2), _ints(5, seed=1, low=0, high=2))),
    ("less_", lambda p, x, y: p.less_(x, y), (_rand(4), _rand(4, seed=1))),
    ("greater_than_", lambda p, x, y: x.greater_than_(y), (_rand(4), _rand(4, seed=1))),
    ("logical_and_", lambda p, x, y: p.logical_and_(x, y), (_ints(4, low=0, high=2), _ints(4, seed=1, low=0, high=2))),
    ("logical_not_", lambda p, x: p.logical_not_(x), (_ints(4, low=0, high=2),)),
]:
    CASES[f"inplace-{name}"] = _inplace(fn, *arrays)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    pytest.importorskip("paddle")
    ours, theirs = run_both(CASES[name])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_masked_scatter_needs_enough_values():  # (real Paddle 3.3.1 crashes on this input)
    import paddlelite as paddle
    x = paddle.to_tensor([1.0, -1.0, 2.0])
    with pytest.raises(ValueError, match="masked_scatter"):
        paddle.masked_scatter(x, x > 0, paddle.to_tensor([5.0]))


def test_diagonal_scatter_grad():
    import paddlelite as paddle
    x = paddle.to_tensor(_rand(3, 4), stop_gradient=False)
    y = paddle.to_tensor(_rand(3, seed=1), stop_gradient=False)
    w = _rand(3, 4, seed=2)
    (paddle.diagonal_scatter(x, y, 1) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), np.diagonal(w, 1))
    expected = w.copy()
    expected[np.arange(3), np.arange(3) + 1] = 0
    np.testing.assert_allclose(x.grad.numpy(), expected)


@differential(expected={"fill": [[0.0, 0.0], [0.0, 0.0], False], "normal": [0.0, 0.0], "cauchy": [0.0, 0.0],
                        "uniform": [0.0, 0.0]})
def test_fills_and_draws_in_place_give_the_overwritten_values_a_zero_gradient(paddle):
    def through(method, *args):
        t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        y = t * 2
        y.retain_grads()
        getattr(y, method)(*args)
        (y * 3).sum().backward()
        return t.grad, y.grad, y.stop_gradient
    t_grad, y_grad, stop = through("fill_", 1.0)
    return {"fill": [t_grad, y_grad, stop], "normal": through("normal_")[0], "cauchy": through("cauchy_")[0],
            "uniform": through("uniform_")[0]}
