"""Paddle's shaping, product and attribute APIs against real Paddle 3.3.1: values, dtypes, shapes, grads."""
import numpy as np
import pytest

from tests.differential import assert_same, run_both
from tests.test_tensor_api_vs_paddle import _grads, _ints, _rand, _values

CASES = {
    "moveaxis": _grads(lambda p, x: p.moveaxis(x, [0, -1], [2, 0]) * 2.0, _rand(2, 3, 4)),
    "moveaxis-int": _values(lambda p, x: [p.moveaxis(x, 0, -1), x.moveaxis(-1, 1)], _ints(2, 3, 4)),
    "narrow": _grads(lambda p, x: p.narrow(x, -1, -3, 2) * 2.0, _rand(2, 5)),
    "narrow-empty": _values(lambda p, x: p.narrow(x, 0, 1, 0), _rand(3, 2)),
    "atleast": _values(lambda p, s, v, m, x: [p.atleast_1d(s), p.atleast_1d(s, v), p.atleast_2d(s), p.atleast_2d(v),
                                             p.atleast_3d(s), p.atleast_3d(v), p.atleast_3d(m), p.atleast_3d(x)],
                       np.float32(2.0), _rand(4), _rand(2, 3), _rand(2, 3, 4)),
    "stacks-1d": _grads(lambda p, x, y: p.hstack([x, y]).sum() + p.vstack([x, y]).sum() + p.dstack([x, y]).sum()
                        + p.column_stack([x, y]).sum() + p.row_stack([x, y]).sum(), _rand(4), _rand(4, seed=1)),
    "stacks-2d": _values(lambda p, x, y: [p.hstack([x, y]), p.vstack([x, y]), p.dstack([x, y]),
                                         p.column_stack([x, y])], _ints(3, 3), _ints(3, 3, seed=1)),
    "tensor_split": _values(lambda p, x: [p.tensor_split(x, 3), p.tensor_split(x, [1, 3]), p.tensor_split(x, [-2, 9]),
                                         p.tensor_split(x, 4, axis=-1), x.tensor_split(2, 1)], _rand(7, 3)),
    "tensor_split-grad": _grads(lambda p, x: p.tensor_split(x, 3)[1] * 2.0, _rand(5, 2)),
    "hvdsplit": _values(lambda p, x, v: [p.hsplit(x, 2), p.vsplit(x, [1]), p.dsplit(x, [1, 3]), p.hsplit(v, 2)],
                        _rand(2, 3, 4), _rand(6)),
    "rot90": _values(lambda p, x: [p.rot90(x, k) for k in range(-5, 6)] + [p.rot90(x, 1, [2, 0]), x.rot90(3, [-1, 1])],
                     _rand(2, 3, 4)),
    "rot90-grad": _grads(lambda p, x: p.rot90(x) * p.to_tensor(_rand(3, 2, seed=3)), _rand(2, 3)),
    "meshgrid": _values(lambda p, x, y, s: [p.meshgrid(x, y), p.meshgrid([x, y, s])], _rand(3), _rand(2, seed=1),
                        np.float32(1.5)),
    "broadcast_tensors": _grads(lambda p, x, y: p.add_n(p.broadcast_tensors([x, y])) * 1.5, _rand(2, 1, 3),
                                _rand(4, 1, seed=1)),
    "broadcast_shape": lambda p: [p.broadcast_shape([2, 1, 3], [4, 1]), p.broadcast_shapes([1], [3, 1], [2, 1, 1]),
                                  p.broadcast_shape([], [3])],
    "addmm": _grads(lambda p, i, x, y: p.addmm(i, x, y, beta=0.5, alpha=2.0), _rand(3), _rand(2, 4), _rand(4, 3)),
    "addmm-default": _grads(lambda p, i, x, y: p.addmm(i, x, y), _rand(2, 3), _rand(2, 4), _rand(4, 3)),
    "baddbmm": _grads(lambda p, i, x, y: p.baddbmm(i, x, y, beta=2.0, alpha=-1.0), _rand(2, 3, 5), _rand(2, 3, 4),
                      _rand(2, 4, 5)),
    "mv": _grads(lambda p, x, v: p.mv(x, v), _rand(3, 4), _rand(4)),
    "outer": _grads(lambda p, x, y: p.outer(x, y), _rand(2, 3), _rand(4)),
    "outer-int": _values(lambda p, x, y: [p.outer(x, y), p.ger(x, y), x.outer(y)], _ints(3), _ints(2, seed=1)),
    "outer-0d": _values(lambda p, x, y: p.outer(x, y), np.float32(2.0), _rand(3)),
    "inner": _grads(lambda p, x, y: p.inner(x, y), _rand(2, 3, 4), _rand(5, 4)),
    "inner-1d": _grads(lambda p, x, y: p.inner(x, y), _rand(4), _rand(4, seed=1)),
    "inner-int": _values(lambda p, x, y: p.inner(x, y), _ints(2, 3), _ints(3, seed=1)),
    "tensordot": _grads(lambda p, x, y: p.tensordot(x, y, axes=[[1, 2], [0, 1]]), _rand(2, 3, 4), _rand(3, 4, 5)),
    "tensordot-int-axes": _values(lambda p, x, y: [p.tensordot(x, y, 0), p.tensordot(x, y, 1),
                                                   p.tensordot(x, y.transpose([2, 0, 1]), 2)],
                                  _rand(2, 3, 4), _rand(4, 2, 3)),
    "tensordot-same-axes": _values(lambda p, x, y: p.tensordot(x, y, axes=[1, 2]), _rand(2, 3, 4), _rand(5, 3, 4)),
    "attributes": _values(lambda p, x, i, e: [p.rank(x), p.rank(e), p.is_empty(x), p.is_empty(e),
                                             p.is_floating_point(x), p.is_floating_point(i), p.is_integer(i),
                                             p.is_integer(x), p.is_complex(x), x.is_floating_point(), i.is_integer()],
                          _rand(2, 3), _ints(2), _rand(0, 3)),
    "finfo": lambda p: [str(p.finfo(d)) for d in ("float16", "float32", "float64", p.float32, p.complex128)],
    "finfo-fields": lambda p: [[getattr(p.finfo(d), f) for f in ("min", "max", "eps", "resolution", "smallest_normal",
                                                                   "tiny", "bits", "dtype")]
                               for d in ("float16", "float32", "float64", "bfloat16")],
    "iinfo": lambda p: [str(p.iinfo(d)) for d in ("int8", "uint8", "int16", "int32", "int64", p.int32)],
    "iinfo-float": lambda p: p.iinfo("float32"),
    "finfo-int": lambda p: p.finfo(p.int32),
    "constants": lambda p: [p.pi, p.e, p.inf, str(p.nan), p.newaxis],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    pytest.importorskip("paddle")
    ours, theirs = run_both(CASES[name])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)
