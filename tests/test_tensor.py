"""Eager Tensor: construction, dtypes, conversion, repr, autograd state, places."""
import numpy as np
import pytest

import paddlelite as paddle


def test_to_tensor_dtypes_and_defaults():
    assert paddle.to_tensor([1.0, 2.0]).dtype == paddle.float32
    assert paddle.to_tensor([1, 2]).dtype == paddle.int64
    assert paddle.to_tensor([True]).dtype == paddle.bool
    assert paddle.to_tensor(np.zeros(2, np.float64)).dtype == paddle.float64
    assert paddle.to_tensor([1, 2], dtype="float16").dtype == paddle.float16
    assert paddle.to_tensor([1], dtype=paddle.int32).dtype == "int32"
    assert paddle.to_tensor(3.0).shape == []
    for d in ("float16", "float32", "float64", "int32", "int64", "bool"):
        assert paddle.to_tensor([1], dtype=d).dtype == getattr(paddle, d)


def test_dtype_objects_print_like_paddle():
    assert str(paddle.float32) == "paddle.float32"
    assert paddle.float32 == np.float32 and paddle.float32 == "float32"
    with pytest.raises(TypeError, match="dtype"):
        paddle.to_tensor([1], dtype="float128")


def test_to_tensor_copies_and_checks_arguments():
    a = np.array([1.0, 2.0], dtype=np.float32)
    x = paddle.to_tensor(a)
    a[0] = 100
    assert x.numpy()[0] == 1.0
    with pytest.raises(TypeError, match="stop_gradient must be a bool"):
        paddle.to_tensor([1.0], stop_gradient=0)
    with pytest.raises(TypeError):
        paddle.to_tensor(object())


def test_numpy_item_and_conversions():
    x = paddle.to_tensor([[1.5, 2.5]])
    n = x.numpy()
    n[0, 0] = 9
    assert x.numpy()[0, 0] == 1.5  # numpy() is a copy
    assert paddle.to_tensor(2.5).item() == 2.5
    assert x.item(0, 1) == 2.5
    with pytest.raises(ValueError, match="one element"):
        x.item()
    assert float(paddle.to_tensor([3.0])) == 3.0 and int(paddle.to_tensor(4)) == 4
    assert x.tolist() == [[1.5, 2.5]]
    assert np.asarray(x).shape == (1, 2)
    assert len(x) == 1 and x.ndim == 2 and x.size == 2 and x.numel() == 2
    with pytest.raises(ValueError, match="ambiguous"):
        bool(paddle.to_tensor([1, 2]))


@pytest.mark.usefixtures("cpu_device")
def test_repr_matches_paddle_format():
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="float32", stop_gradient=False)
    assert repr(x) == ("Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
                       "       [[1., 2.],\n        [3., 4.]])")
    assert repr(paddle.to_tensor(3, dtype="int64")) == \
        "Tensor(shape=[], dtype=int64, place=Place(cpu), stop_gradient=True,\n       3)"


def test_astype_cast_and_grad_through_cast():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.astype("float64")
    assert y.dtype == paddle.float64
    (y * y).sum().backward()
    assert x.grad.dtype == paddle.float32
    np.testing.assert_allclose(x.grad.numpy(), [2, 4])
    assert paddle.cast(x, paddle.int32).dtype == paddle.int32


def test_detach_and_clone():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    d = x.detach()
    assert d.stop_gradient and d.is_leaf
    c = x.clone()
    assert not c.stop_gradient and not c.is_leaf
    (c * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3, 3])


def test_operators_values():
    a = paddle.to_tensor([1.0, 2.0, 4.0])
    b = paddle.to_tensor([2.0, 2.0, 2.0])
    np.testing.assert_allclose((a + b).numpy(), [3, 4, 6])
    np.testing.assert_allclose((a - b).numpy(), [-1, 0, 2])
    np.testing.assert_allclose((a * b).numpy(), [2, 4, 8])
    np.testing.assert_allclose((a / b).numpy(), [0.5, 1, 2])
    np.testing.assert_allclose((1 - a).numpy(), [0, -1, -3])
    np.testing.assert_allclose((2 / a).numpy(), [2, 1, 0.5])
    np.testing.assert_allclose((a * 2 + 1).numpy(), [3, 5, 9])
    np.testing.assert_allclose((-a).numpy(), [-1, -2, -4])
    np.testing.assert_allclose((a ** 2).numpy(), [1, 4, 16])
    np.testing.assert_allclose((2 ** a).numpy(), [2, 4, 16])
    assert (a < b).numpy().tolist() == [True, False, False]
    assert (a == 2.0).numpy().tolist() == [False, True, False]
    m = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose((m @ m).numpy(), np.array([[1, 2], [3, 4]]) @ np.array([[1, 2], [3, 4]]))
    np.testing.assert_allclose(m.T.numpy(), [[1, 3], [2, 4]])
    assert (a + 1).dtype == paddle.float32  # scalars never promote float32


def test_binary_ops_promote_only_as_paddle_does():
    a = paddle.to_tensor([1.0], dtype="float32")
    b = paddle.to_tensor([1.0], dtype="float64")
    with pytest.warns(UserWarning, match="run type promotion automatically"):
        assert paddle.add(a, b).dtype == paddle.float64
    with pytest.raises(TypeError, match="add: x has dtype float32 and y has int64.*cast"):
        paddle.add(a, paddle.to_tensor([1]))


def test_shape_errors_name_the_op():
    a = paddle.to_tensor(np.ones((2, 3), np.float32))
    b = paddle.to_tensor(np.ones((4, 5), np.float32))
    with pytest.raises(ValueError, match="op 'matmul'.*contracted dims"):
        paddle.matmul(a, b)
    with pytest.raises(ValueError, match="op 'add'.*cannot be broadcast"):
        paddle.add(a, b)
    with pytest.raises(ValueError, match=r"add\(\): argument 'y' \(position 1\) must be Tensor"):  # Paddle's
        paddle.add(a, "x")


def test_unknown_attribute_is_an_error():
    from paddlelite.ops import apply, get_op
    a = paddle.to_tensor([1.0])
    with pytest.raises(TypeError, match="unknown attribute"):
        apply(get_op("scale"), a, scal=2.0)


def test_grad_setter_checks():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match="shape"):
        x.grad = paddle.to_tensor([1.0])
    x.grad = paddle.to_tensor([5.0, 6.0])
    np.testing.assert_allclose(x.grad.numpy(), [5, 6])


@pytest.mark.usefixtures("cpu_device")
def test_cpu_is_identity_on_cpu_and_gpu_needs_device():
    x = paddle.to_tensor([1.0])
    assert x.cpu() is x
    if not paddle.device.cuda.is_available():
        with pytest.raises(ValueError, match="GPU"):  # ValueError, as Paddle's CPU build
            x.cuda()
        with pytest.raises(ValueError, match="GPU"):
            paddle.to_tensor([1.0], place="gpu")


@pytest.mark.gpu
def test_cuda_roundtrip_and_gpu_ops():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    g = x.cuda()
    assert g.place.is_gpu_place() and repr(g.place) == "Place(gpu:0)"
    y = paddle.to_tensor([3.0, 4.0], place="gpu:0", stop_gradient=False)
    z = (g * y).sum()
    z.backward()
    np.testing.assert_allclose(y.grad.numpy(), [1, 2])
    assert y.grad.place.is_gpu_place()
    np.testing.assert_allclose(g.cpu().numpy(), [1, 2])


def test_python_scalars_are_never_truncated_into_int_tensors():
    x = paddle.to_tensor([1, 2])
    np.testing.assert_allclose((x + 0.5).numpy(), [1.5, 2.5])  # operators promote, as Paddle's do
    with pytest.raises(TypeError, match="cannot be represented in the int64 tensor"):
        paddle.where(x > 1, x, 0.5)
    for api in (lambda: paddle.add(x, 0.5), lambda: paddle.maximum(x, 0.5), lambda: paddle.add(x, 3)):
        with pytest.raises(ValueError, match="must be Tensor"):  # the functional forms take tensors, as Paddle's
            api()


def test_argument_checks_survive_python_O():
    import subprocess
    import sys
    code = ("import paddlelite as p\n"
            "try:\n    p.autograd.backward(None)\nexcept AssertionError as e:\n    print('raised', e)\n")
    r = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
    assert "raised autograd.backward: tensors must not be None" in r.stdout, r.stderr
