"""Reductions (max/min/amax/amin/prod/logsumexp/all/any/argmax/argmin/var/std/norm/cumsum) vs NumPy/PyTorch."""
import numpy as np
import pytest

import paddlelite as paddle
from tests.references import torch

RNG = np.random.default_rng(2)
A = RNG.uniform(-2, 2, size=(2, 3, 4))
AXES = [None, 0, -1, [0, 2], (1,)]


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_values_and_shapes_match_numpy(axis, keepdim):
    x = paddle.to_tensor(A)
    ax = _np_axis(axis)
    for name, ref in (("max", np.max), ("min", np.min), ("amax", np.max), ("amin", np.min), ("prod", np.prod),
                      ("sum", np.sum), ("mean", np.mean)):
        out = getattr(paddle, name)(x, axis=axis, keepdim=keepdim)
        np.testing.assert_allclose(out.numpy(), ref(A, axis=ax, keepdims=keepdim), rtol=1e-12, err_msg=name)
        assert out.shape == list(np.shape(ref(A, axis=ax, keepdims=keepdim))), name
    tx = torch.tensor(A)
    dims = tuple(range(3)) if axis is None else (axis if isinstance(axis, int) else tuple(axis))
    np.testing.assert_allclose(paddle.logsumexp(x, axis, keepdim).numpy(),
                               torch.logsumexp(tx, dims, keepdim).numpy(), rtol=1e-12)
    for unbiased in (True, False):
        np.testing.assert_allclose(paddle.var(x, axis, unbiased, keepdim).numpy(),
                                   np.var(A, axis=ax, ddof=int(unbiased), keepdims=keepdim), rtol=1e-12)
        np.testing.assert_allclose(x.std(axis, unbiased, keepdim).numpy(),
                                   np.std(A, axis=ax, ddof=int(unbiased), keepdims=keepdim), rtol=1e-12)


def test_max_min_split_the_gradient_among_tied_positions():  # Paddle's rule (checked in tests/test_numerical_edges.py)
    v = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]])
    x = paddle.to_tensor(v, stop_gradient=False)
    x.max(axis=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0.5, 0.5], [0.5, 0.5, 0]])
    x.clear_gradient(False)
    paddle.min(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0, 0], [0, 0, 1]])


def test_amax_amin_share_the_gradient_among_ties_like_torch():
    v = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    for name in ("amax", "amin"):
        x = paddle.to_tensor(v, stop_gradient=False)
        t = torch.tensor(v, requires_grad=True)
        getattr(paddle, name)(x, axis=1).sum().backward()
        getattr(torch, name)(t, dim=1).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("v", [np.array([[0.5, 0.0, 1.5], [0.7, -1.2, 0.9]]),
                               np.array([[0.0, 0.0, 1.5], [0.7, -1.2, 0.9]]),
                               RNG.uniform(-1, 1, (2, 3))], ids=["one-zero", "two-zeros", "no-zero"])
def test_prod_grads_are_exact_with_zeros(v):
    for axis in (None, 0, 1):
        x = paddle.to_tensor(v, stop_gradient=False)
        (gx,) = paddle.grad(paddle.prod(x, axis).sum(), [x], create_graph=True)
        (ggx,) = paddle.grad((gx * gx).sum(), [x])
        t = torch.tensor(v, requires_grad=True)
        ref = torch.prod(t) if axis is None else torch.prod(t, axis)
        (gt,) = torch.autograd.grad(ref.sum(), [t], create_graph=True)
        (ggt,) = torch.autograd.grad((gt * gt).sum(), [t])
        assert np.isfinite(gx.numpy()).all()
        np.testing.assert_allclose(gx.numpy(), gt.detach().numpy(), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(ggx.numpy(), ggt.numpy(), rtol=1e-12, atol=1e-15)


def test_prod_of_integers_keeps_the_dtype():
    out = paddle.prod(paddle.to_tensor([[1, 2], [3, 4]], dtype="int32"), axis=0)
    assert out.dtype == paddle.int32 and out.numpy().tolist() == [3, 8]
    assert paddle.prod(paddle.to_tensor([1, 2]), dtype="float64").dtype == paddle.float64


def test_logsumexp_is_stable_and_its_grad_is_softmax():
    x = paddle.to_tensor(np.array([1000.0, 1000.0, -np.inf]), stop_gradient=False)
    out = paddle.logsumexp(x)
    np.testing.assert_allclose(out.numpy(), 1000.0 + np.log(2.0))
    out.backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.5, 0.5, 0.0])


def test_var_std_grads_match_torch():
    for unbiased in (True, False):
        x = paddle.to_tensor(A, stop_gradient=False)
        t = torch.tensor(A, requires_grad=True)
        (paddle.var(x, axis=1, unbiased=unbiased) + paddle.std(x, axis=1, unbiased=unbiased)).sum().backward()
        (torch.var(t, 1, unbiased=unbiased) + torch.std(t, 1, unbiased=unbiased)).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-10)


def test_all_any():
    v = np.array([[True, False, True], [True, True, True]])
    x = paddle.to_tensor(v)
    assert paddle.all(x).numpy() == v.all() and paddle.any(x).numpy() == v.any()
    assert x.all(axis=1).numpy().tolist() == [False, True]
    assert paddle.any(x, axis=0, keepdim=True).shape == [1, 3]
    assert paddle.all(paddle.to_tensor([1.0, 0.0])).numpy() == np.bool_(False)
    assert paddle.all(x).dtype == paddle.bool


def test_argmax_argmin():
    x = paddle.to_tensor(A)
    assert paddle.argmax(x).numpy() == np.argmax(A)
    assert paddle.argmax(x).dtype == paddle.int64 and paddle.argmax(x).shape == []
    np.testing.assert_array_equal(x.argmax(axis=1).numpy(), np.argmax(A, axis=1))
    np.testing.assert_array_equal(x.argmin(axis=-1, keepdim=True).numpy(), np.argmin(A, axis=-1)[..., None])
    assert paddle.argmin(x, axis=0, dtype="int32").dtype == paddle.int32
    assert paddle.argmax(x, keepdim=True).shape == [1, 1, 1]
    y = paddle.to_tensor(A, stop_gradient=False)
    assert y.argmax().stop_gradient
    with pytest.raises(TypeError, match="argmax: axis must be None or an int, received list"):
        paddle.argmax(x, axis=[0, 1])
    with pytest.raises(TypeError, match="argmin: dtype must be int32 or int64, received float32"):
        paddle.argmin(x, dtype="float32")


@pytest.mark.parametrize("p", ["fro", 2, 1, np.inf, -np.inf, 0, 3.0])
def test_norm_matches_numpy(p):
    v = A.reshape(-1)
    x = paddle.to_tensor(A)
    ref = np.linalg.norm(v, ord=p if p != "fro" else 2)
    np.testing.assert_allclose(paddle.norm(x, p=p).numpy(), ref, rtol=1e-12)
    axis_ref = np.linalg.norm(A, ord=p if p != "fro" else 2, axis=2, keepdims=True)
    np.testing.assert_allclose(x.norm(p=p, axis=-1, keepdim=True).numpy(), axis_ref, rtol=1e-12)


def test_norm_grad_matches_torch():
    x = paddle.to_tensor(A, stop_gradient=False)
    t = torch.tensor(A, requires_grad=True)
    (paddle.norm(x) + paddle.norm(x, p=1, axis=1).sum() + paddle.linalg.vector_norm(x, p=3.0, axis=[0, 2]).sum()).backward()
    (torch.linalg.vector_norm(t) + torch.linalg.vector_norm(t, 1, dim=1).sum()
     + torch.linalg.vector_norm(t, 3, dim=(0, 2)).sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-10)
    with pytest.raises(ValueError, match="norm: except axis type int or list"):
        paddle.norm(x, p="nuc")  # a 3-D x: the nuclear norm needs 2 axes
    with pytest.raises(ValueError, match="matrix_norm: p must be"):
        paddle.norm(x, p=3.0, axis=[0, 2])  # 2 axes make a matrix norm, as in Paddle


def test_cumsum_values_and_grad():
    x = paddle.to_tensor(A, stop_gradient=False)
    np.testing.assert_allclose(paddle.cumsum(x, axis=1).numpy(), np.cumsum(A, axis=1))
    np.testing.assert_allclose(x.cumsum().numpy(), np.cumsum(A))
    w = RNG.uniform(-1, 1, A.shape)
    (paddle.cumsum(x, -1) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.flip(np.cumsum(np.flip(w, -1), -1), -1))
    out = paddle.cumsum(paddle.to_tensor([1, 2, 3]), dtype="float64")
    assert out.dtype == paddle.float64 and out.numpy().tolist() == [1.0, 3.0, 6.0]
    assert paddle.cumsum(paddle.to_tensor([1, 2, 3], dtype="int32")).dtype == paddle.int64  # as Paddle


def test_zero_d_tensors_accept_axis_0():
    x = paddle.to_tensor(2.5)
    assert paddle.max(x, axis=0).numpy() == 2.5
    assert paddle.sum(x, axis=-1).numpy() == 2.5
    assert paddle.argmax(x).numpy() == 0


def test_axis_and_argument_errors_name_the_api():
    x = paddle.to_tensor(A)
    with pytest.raises(ValueError, match="max: axis 3 is out of range for a 3-D tensor"):
        paddle.max(x, axis=3)
    with pytest.raises(ValueError, match=r"prod: axis \[0, -3\] repeats an axis"):
        paddle.prod(x, axis=[0, -3])
    with pytest.raises(TypeError, match="logsumexp: axis must be None, an int or a list of ints, received float"):
        paddle.logsumexp(x, axis=1.0)
    with pytest.raises(TypeError, match=r"min: axis\[1\] must be an int, received str"):
        paddle.min(x, axis=[0, "1"])
    with pytest.raises(ValueError, match="amax: x must be a Tensor, received ndarray"):
        paddle.amax(A)
    with pytest.raises(TypeError, match="'logsumexp'.*floating-point"):
        paddle.logsumexp(paddle.to_tensor([True, False]))
    with pytest.raises(TypeError, match="'var'.*floating-point"):
        paddle.var(paddle.to_tensor([True, False]))
    with pytest.raises(ValueError, match="'max'.*empty"):
        paddle.max(paddle.to_tensor(np.zeros((0, 3))))


def test_float32_stays_float32():
    x = paddle.to_tensor(A.astype("float32"))
    for name in ("max", "min", "amax", "prod", "logsumexp", "var", "std", "norm", "cumsum", "sum", "mean"):
        assert getattr(paddle, name)(x).dtype == paddle.float32, name
