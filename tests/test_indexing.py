"""x[index] and x[index] = v: values vs NumPy, gradients vs PyTorch, the shape rule vs NumPy, errors."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.ops import get_op
from paddlelite.ops.registry import Meta
from paddlelite.tensor.manipulation import parse_index
from tests.references import torch

X = np.random.default_rng(0).uniform(-1, 1, size=(4, 5, 6))
I = np.array([3, 0, 3])


def idx_tensor(a):
    return paddle.to_tensor(np.asarray(a))


# (paddle index, numpy index); tensors in the paddle index are int/bool Tensors
CASES = [
    (1, 1), (-1, -1),
    (np.int64(2), 2),
    ((1, 2), (1, 2)),
    ((1, 2, 3), (1, 2, 3)),
    (slice(1, 3), slice(1, 3)),
    (slice(None, None, -1), slice(None, None, -1)),
    ((slice(None), slice(4, 0, -2)), (slice(None), slice(4, 0, -2))),
    ((Ellipsis, 1), (Ellipsis, 1)),
    ((None, 1, None, slice(None, 3)), (None, 1, None, slice(None, 3))),
    ((1, Ellipsis, None), (1, Ellipsis, None)),
    ([0, 2, 2], [0, 2, 2]),
    ((slice(None), [4, 0, 4]), (slice(None), [4, 0, 4])),
    ((slice(None), [[1], [2]], [0, 5]), (slice(None), [[1], [2]], [0, 5])),
    (([0, 1], slice(None), [2, 3]), ([0, 1], slice(None), [2, 3])),
    ((1, slice(None), [2, 3]), (1, slice(None), [2, 3])),
    ((slice(None), 1, [2, 3]), (slice(None), 1, [2, 3])),
    ("tensor", I),
    ("tensor2", (slice(None), slice(None), I)),
    ("mask", X[:, :, 0] > 0),
    ("mask-row", (X[:, 0, 0] > 0)),
    ("mask-mixed", (slice(None), X[0, :, 0] > 0, 2)),
    ([True, False, True, True], [True, False, True, True]),
]


def _paddle_index(pidx, nidx):
    if pidx == "tensor":
        return idx_tensor(I)
    if pidx == "tensor2":
        return (slice(None), slice(None), idx_tensor(I))
    if pidx == "mask":
        return idx_tensor(nidx)
    if pidx == "mask-row":
        return idx_tensor(nidx)
    if pidx == "mask-mixed":
        return (slice(None), idx_tensor(nidx[1]), 2)
    return pidx


def _torch_index(nidx):
    items = nidx if isinstance(nidx, tuple) else (nidx,)
    out = []
    for it in items:
        if isinstance(it, (list, np.ndarray)):
            out.append(torch.tensor(np.asarray(it)))
        else:
            out.append(it)
    return tuple(out)


@pytest.mark.parametrize("pidx,nidx", CASES, ids=[str(k) for k in range(len(CASES))])
def test_getitem_values_grads_and_shape_rule(pidx, nidx):
    index = _paddle_index(pidx, nidx)
    x = paddle.to_tensor(X, stop_gradient=False)
    y = x[index]
    expected = X[nidx]
    np.testing.assert_array_equal(y.numpy(), expected)
    assert y.shape == list(np.shape(expected))
    # gradient vs torch (repeated indices accumulate)
    w = np.random.default_rng(1).uniform(size=np.shape(expected))
    (y * paddle.to_tensor(w)).sum().backward()
    tx = torch.tensor(X, requires_grad=True)
    try:
        (tx[_torch_index(nidx)] * torch.tensor(w)).sum().backward()
        ref = tx.grad.numpy()
    except (ValueError, IndexError, TypeError, RuntimeError):  # torch: no negative steps, ints are basic
        ref = np.zeros_like(X)
        np.add.at(ref, nidx, w)
    np.testing.assert_allclose(x.grad.numpy(), ref)
    # the static shape rule agrees with NumPy (bool masks count as unknown, -1)
    entries, tensors = parse_index(index)
    metas = [Meta(tuple(t.shape), t.dtype.np) for t in tensors]
    inferred = get_op("getitem").infer(Meta(X.shape, X.dtype), metas, index=entries).shape
    assert len(inferred) == expected.ndim
    assert all(a == b or a == -1 for a, b in zip(inferred, expected.shape)), (inferred, expected.shape)


def test_getitem_attr_is_plain_data():
    entries, tensors = parse_index((1, slice(None, None, -2), None, Ellipsis, [0, 1], idx_tensor([2])))
    assert entries == [["int", 1], ["slice", None, None, -2], ["none"], ["ellipsis"], ["list", [0, 1]],
                       ["tensor", 0]]
    assert len(tensors) == 1
    assert repr(eval(repr(entries))) == repr(entries)


def test_getitem_errors():
    x = paddle.to_tensor(X)
    with pytest.raises(IndexError, match="out of bounds"):
        x[4]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., 0, ...]
    with pytest.raises(TypeError, match="int or bool"):
        x[paddle.to_tensor(np.array([0.5]))]
    with pytest.raises(TypeError, match="unsupported index"):
        x["a"]
    with pytest.raises(ValueError, match="step cannot be zero"):
        x[::0]
    with pytest.raises(IndexError, match="boolean index"):
        x[paddle.to_tensor(np.ones((3,), dtype=bool))]


def test_getitem_double_backward():
    x = paddle.to_tensor(X[:, 0, :2], stop_gradient=False)  # (4, 2)
    y = (x[[0, 0, 3]] ** 2).sum()
    (g,) = paddle.grad(y, [x], create_graph=True)
    np.testing.assert_allclose(g.numpy()[0], 4 * X[0, 0, :2])
    (gg,) = paddle.grad(g.sum(), [x])
    np.testing.assert_allclose(gg.numpy()[:, 0], [4, 0, 0, 2])


SET_CASES = [
    (1, 5.0),
    ((slice(None), 0), np.arange(6.0)),
    ((Ellipsis, slice(1, None, 2)), np.ones((1, 3))),
    (([0, 2], 1), np.zeros((2, 6))),
    ((None, 1, slice(1, 3)), np.full((1, 1, 2, 6), 2.0)),
]


@pytest.mark.parametrize("index,value", SET_CASES, ids=[str(k) for k in range(len(SET_CASES))])
def test_setitem_values_and_grads_vs_torch(index, value):
    base = paddle.to_tensor(X, stop_gradient=False)
    v = paddle.to_tensor(np.asarray(value, dtype=np.float64), stop_gradient=False)
    x = base * 1.0
    x[index] = v
    ref = X.copy()
    ref[index] = value
    np.testing.assert_array_equal(x.numpy(), ref)
    assert x.inplace_version == 1 and not x.is_leaf
    w = np.random.default_rng(2).uniform(size=X.shape)
    (x * paddle.to_tensor(w)).sum().backward()
    tb = torch.tensor(X, requires_grad=True)
    tv = torch.tensor(np.asarray(value, dtype=np.float64), requires_grad=True)
    tx = tb * 1.0
    tidx = tuple(torch.tensor(i) if isinstance(i, list) else i for i in (index if isinstance(index, tuple) else (index,)))
    tx[tidx] = tv if tv.ndim <= tx[tidx].ndim else tv.reshape(tx[tidx].shape)
    (tx * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(base.grad.numpy(), tb.grad.numpy())
    np.testing.assert_allclose(v.grad.numpy(), tv.grad.numpy())


def test_setitem_scalars_masks_tensors_and_dtypes():
    x = paddle.to_tensor(np.arange(6).reshape(2, 3))
    x[0, 1] = 10
    x[x > 3] = -1
    x[:, paddle.to_tensor(np.array([0]))] = paddle.to_tensor(np.array([7.9]))  # cast to x's int64, as Paddle
    np.testing.assert_array_equal(x.numpy(), [[7, -1, 2], [7, -1, -1]])
    assert x.dtype == paddle.int64
    with pytest.raises(ValueError, match="cannot be assigned"):
        x[0] = paddle.to_tensor(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(TypeError, match="value must be"):
        x[0] = "a"


def test_setitem_on_leaf_that_needs_grad_raises_but_no_grad_allows_it():
    w = paddle.to_tensor(np.zeros(3), stop_gradient=False)
    with pytest.raises(ValueError, match="Leaf Tensor .* can't use inplace"):
        w[0] = 1.0
    with paddle.no_grad():
        w[0] = 1.0
    np.testing.assert_array_equal(w.numpy(), [1, 0, 0])
    assert w.is_leaf and not w.stop_gradient


def test_setitem_makes_a_constant_tensor_part_of_the_graph():
    v = paddle.to_tensor(np.array(2.0), stop_gradient=False)
    x = paddle.zeros([3], dtype="float64")
    x[1] = v
    assert not x.stop_gradient
    (x * x).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), 4.0)
