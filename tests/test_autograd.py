"""Eager autograd: paddle.autograd.backward / grad semantics, hooks, grad mode, PyLayer, memory, dumps."""
import gc
import os
import threading
import weakref

import numpy as np
import pytest

import paddlelite as paddle


def t(values, sg=False, dtype="float32"):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=sg)


# ---- the seed example (shared/seeds/004) ----------------------------------------------------------
@pytest.mark.usefixtures("cpu_device")
def test_seed_backward_example():
    x = t([[1, 2], [3, 4]])
    y = t([[3, 2], [3, 4]], sg=True)
    g1 = t([[1, 2], [2, 3]], sg=True)
    g2 = t([[1, 1], [1, 1]], sg=True)
    z1 = paddle.matmul(x, y)
    z2 = paddle.matmul(x, y)
    paddle.autograd.backward([z1, z2], [g1, g2], True)
    np.testing.assert_array_equal(x.grad.numpy(), [[12, 18], [17, 25]])
    # the seed's docstring omits it, but Paddle 3.3.1 indents the values under the parenthesis
    assert str(x.grad) == ("Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
                           "       [[12., 18.],\n        [17., 25.]])")
    x.clear_grad()
    paddle.autograd.backward([z1, z2], [g1, None], True)
    np.testing.assert_array_equal(x.grad.numpy(), [[12, 18], [17, 25]])
    x.clear_grad()
    assert paddle.autograd.backward([z1, z2]) is None
    np.testing.assert_array_equal(x.grad.numpy(), [[10, 14], [10, 14]])


# ---- argument checks (AssertionError, as Paddle) ---------------------------------------------------
@pytest.mark.parametrize("args, match", [
    ((None,), "must not be None"),
    (([],), "must not be empty"),
    (([1.0],), r"tensors\[0\] must be a Tensor"),
])
def test_backward_rejects_bad_tensors(args, match):
    with pytest.raises(AssertionError, match=match):
        paddle.autograd.backward(*args)


def test_backward_argument_errors():
    x = t([1.0, 2.0])
    y = x * 2
    with pytest.raises(AssertionError, match="same tensor"):
        paddle.autograd.backward([y, y])
    with pytest.raises(AssertionError, match="grad_tensors\\[0\\] must be a Tensor or None"):
        paddle.autograd.backward([y], [[1.0, 1.0]])
    with pytest.raises(AssertionError, match="same length"):
        paddle.autograd.backward([y], [None, None])
    with pytest.raises(AssertionError, match="retain_graph must be a bool"):
        paddle.autograd.backward([y], None, 1)
    with pytest.raises(AssertionError, match="shape"):
        paddle.autograd.backward([y], [t([1.0], sg=True)])
    with pytest.raises(AssertionError, match="shape"):
        y.backward(t([1.0, 2.0, 3.0], sg=True))


def test_second_backward_without_retain_graph_says_how_to_fix():
    x = t([1.0, 2.0])
    y = (paddle.exp(x) * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_retain_graph_allows_second_backward_and_grads_accumulate():
    x = t([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * 2 * np.array([1.0, 2.0]))


def test_non_scalar_outputs_use_ones():
    x = t([1.0, 2.0, 3.0])
    (x * 3).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3, 3, 3])


def test_each_node_runs_once_after_all_consumers():
    # diamond: y feeds two branches; y's node must run once with the summed gradient
    x = t([2.0])
    calls = []
    y = x * x
    y.register_hook(lambda g: calls.append(g.numpy().copy()))
    z = y * 3 + y * 5
    z.backward()
    assert len(calls) == 1
    np.testing.assert_allclose(calls[0], [8.0])
    np.testing.assert_allclose(x.grad.numpy(), [8.0 * 2 * 2])


def test_overlapping_outputs_in_one_backward():
    x = t([1.0, 2.0])
    a = x * 2
    b = a * a  # b depends on a
    paddle.autograd.backward([a, b])
    # d(a)/dx = 2; d(b)/dx = 2a*2 = 8x
    np.testing.assert_allclose(x.grad.numpy(), 2 + 8 * np.array([1.0, 2.0]))


# ---- leaves, stop_gradient, clear_grad ------------------------------------------------------------
def test_stop_gradient_rules_and_is_leaf():
    a = paddle.to_tensor([1.0])
    assert a.stop_gradient and a.is_leaf
    b = t([1.0])
    c = a + b
    assert not c.stop_gradient and not c.is_leaf
    d = a * 2
    assert d.stop_gradient and d.is_leaf
    assert b.grad is None


def test_clear_grad_and_clear_gradient():
    x = t([1.0, 2.0])
    (x * 2).sum().backward()
    x.clear_grad()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0])
    (x * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2, 2])
    x.clear_gradient(False)
    assert x.grad is None


def test_non_leaf_grad_is_none_unless_retained():
    x = t([1.0, 2.0])
    y = x * 3
    z = x * 4
    z.retain_grads()
    (y * z).sum().backward()
    assert y.grad is None
    np.testing.assert_allclose(z.grad.numpy(), 3 * np.array([1.0, 2.0]))


# ---- grad() ---------------------------------------------------------------------------------------
def test_grad_does_not_touch_leaf_grads_and_keeps_graph():
    x = t([1.0, 2.0])
    y = (x * x).sum()
    (dx,) = paddle.grad(y, x)
    np.testing.assert_allclose(dx.numpy(), [2, 4])
    assert dx.stop_gradient
    assert x.grad is None
    (dx2,) = paddle.grad(y, x)  # graph not freed by grad()
    np.testing.assert_allclose(dx2.numpy(), [2, 4])


def test_grad_unused_input():
    x, u = t([1.0]), t([1.0])
    y = x * 2
    with pytest.raises(ValueError, match=r"inputs\[1\].*allow_unused=True"):
        paddle.grad(y, [x, u])
    dx, du = paddle.grad(y, [x, u], allow_unused=True)
    assert du is None
    np.testing.assert_allclose(dx.numpy(), [2])


def test_grad_rejects_duplicates_and_mismatched_grad_outputs():
    x = t([1.0])
    y = x * 2
    with pytest.raises(RuntimeError, match="same tensor"):  # Paddle's classes
        paddle.grad(y, [x, x])
    with pytest.raises(AssertionError, match="grad_outputs"):
        paddle.grad([y], [x], grad_outputs=[None, None])
    with pytest.raises(ValueError, match="shape"):
        paddle.grad([y], [x], grad_outputs=[t([1.0, 2.0], sg=True)])


def test_grad_outputs_weight_the_gradient():
    x = t([1.0, 2.0])
    y = x * x
    (dx,) = paddle.grad(y, x, grad_outputs=t([10.0, 100.0], sg=True))
    np.testing.assert_allclose(dx.numpy(), [20, 400])


def test_grad_no_grad_vars_cut_paths():
    x = t([1.0, 2.0])
    m = x * 2
    n = m * x
    (dx,) = paddle.grad(n.sum(), x, no_grad_vars=[m])
    np.testing.assert_allclose(dx.numpy(), [2, 4])  # only the direct path: d(m*x)/dx with m constant


def test_grad_wrt_intermediate():
    x = t([1.0, 2.0])
    m = x * 3
    y = (m * m).sum()
    (dm,) = paddle.grad(y, m)
    np.testing.assert_allclose(dm.numpy(), 2 * 3 * np.array([1.0, 2.0]))


def test_double_and_triple_backward():
    x = t([1.0, 2.0, 3.0], dtype="float64")
    y = (x * x * x).sum()
    (g1,) = paddle.grad(y, x, create_graph=True)
    assert not g1.stop_gradient
    (g2,) = paddle.grad(g1.sum(), x, create_graph=True)
    (g3,) = paddle.grad(g2.sum(), x)
    np.testing.assert_allclose(g1.numpy(), 3 * x.numpy() ** 2)
    np.testing.assert_allclose(g2.numpy(), 6 * x.numpy())
    np.testing.assert_allclose(g3.numpy(), [6, 6, 6])


def test_create_graph_then_backward_accumulates_second_order():
    x = t([3.0], dtype="float64")
    y = x * x * x
    (g,) = paddle.grad(y, x, create_graph=True)
    g.backward()
    np.testing.assert_allclose(x.grad.numpy(), [18.0])


# ---- hooks ----------------------------------------------------------------------------------------
def test_hook_changes_gradient_upstream_and_handle_remove():
    x = t([1.0, 2.0])
    y = x * 2
    h = y.register_hook(lambda g: g * 10)
    (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * 10 * 2 * 2 * np.array([1.0, 2.0]))
    assert h.remove() is True
    assert h.remove() is False


def test_leaf_hook_sees_total_gradient():
    x = t([1.0])
    seen = []
    x.register_hook(lambda g: seen.append(float(g.numpy()[0])))
    (x * 2 + x * 3).backward()
    assert seen == [5.0]


def test_hook_on_stop_gradient_tensor_raises():
    with pytest.raises(RuntimeError, match="stop_gradient=True"):
        paddle.to_tensor([1.0]).register_hook(lambda g: g)


def test_hook_returning_wrong_shape_is_an_error():
    x = t([1.0, 2.0])
    y = x * 2
    y.register_hook(lambda g: paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match="shape"):
        y.sum().backward()


# ---- grad mode ------------------------------------------------------------------------------------
def test_no_grad_context_and_decorators():
    x = t([1.0])
    with paddle.no_grad():
        y = x * 2
    assert y.stop_gradient

    @paddle.no_grad()
    def f(v):
        return v * 2

    @paddle.no_grad
    def g(v):
        return v * 2

    assert f(x).stop_gradient and g(x).stop_gradient
    assert not (x * 2).stop_gradient
    with paddle.no_grad():
        with paddle.enable_grad():
            assert not (x * 2).stop_gradient
    with paddle.set_grad_enabled(False):
        assert (x * 2).stop_gradient
        assert not paddle.is_grad_enabled()
    assert paddle.is_grad_enabled()


def test_grad_mode_is_thread_local():
    x = t([1.0])
    seen = {}
    ready, release = threading.Event(), threading.Event()

    def worker():
        with paddle.no_grad():
            ready.set()
            release.wait(5)
            seen["worker"] = (x * 2).stop_gradient

    th = threading.Thread(target=worker)
    th.start()
    ready.wait(5)
    seen["main"] = (x * 2).stop_gradient  # main thread still records while the worker is in no_grad
    release.set()
    th.join()
    assert seen == {"worker": True, "main": False}


# ---- PyLayer --------------------------------------------------------------------------------------
class Cube(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * 3 * x * x


def test_pylayer_forward_backward():
    x = t([1.0, 2.0])
    y = Cube.apply(x)
    assert not y.stop_gradient
    (y * 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * 3 * np.array([1.0, 4.0]))


def test_pylayer_wrong_number_of_grads():
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, dy):
            return dy

    a, b = t([1.0]), t([2.0])
    with pytest.raises(ValueError, match="returned 1 gradient"):
        Bad.apply(a, b).backward()


# ---- memory and errors ----------------------------------------------------------------------------
def test_saved_tensors_released_after_backward():
    x = t(np.ones((3, 3)))
    hidden = paddle.exp(x)
    ref = weakref.ref(hidden)
    loss = (hidden * hidden).sum()
    del hidden
    gc.collect()
    assert ref() is not None  # saved by multiply's node
    loss.backward()
    gc.collect()
    assert ref() is None


def test_saved_tensors_kept_with_retain_graph():
    x = t(np.ones((2,)))
    hidden = paddle.exp(x)
    ref = weakref.ref(hidden)
    loss = (hidden * hidden).sum()
    del hidden
    loss.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None


def test_backward_error_names_op_and_user_line():
    x = t([1.0, 2.0])
    y = Cube.apply(x)

    class Broken(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, v):
            return v * 1

        @staticmethod
        def backward(ctx, dy):
            raise ArithmeticError("boom")

    z = Broken.apply(y)
    # OSError, as Paddle reports an error raised in a PyLayer's backward (an External error), naming the original
    with pytest.raises(OSError, match=r"backward of op 'Broken' failed \(created at .*test_autograd.py.*ArithmeticError"):
        z.sum().backward()


def test_mixed_places_error_is_clear():
    if not paddle.device.cuda.is_available():
        pytest.skip("needs a GPU to mix places")
    a = paddle.to_tensor([1.0], place="cpu")
    b = paddle.to_tensor([1.0], place="gpu")
    with pytest.raises(RuntimeError, match="move tensors"):
        paddle.add(a, b)


# ---- dumps ----------------------------------------------------------------------------------------
@pytest.mark.usefixtures("cpu_device")
def test_dump_backward_graph_files(tmp_path):
    x = t([1.0, 2.0])
    x.name = "x"
    y = (paddle.exp(x) * x).sum()
    out = tmp_path / "dump" / "nested"
    paddle.autograd.backward([y], dump_backward_graph_path=str(out))
    files = sorted(os.listdir(out))
    assert len(files) == 3
    assert files[0].endswith("_backward_graph.dot") and files[1].endswith("_call_stack.log")
    assert files[2].endswith("_ref_forward_graph.dot")
    back = (out / files[0]).read_text()
    assert back.startswith("digraph") and "multiply_grad" in back and "exp_grad" in back
    assert "Place(cpu) float32 [2]" in back and "AccumulateGrad x" in back
    log = (out / files[1]).read_text()
    assert "exp_grad: forward op created at" in log and "test_autograd.py" in log
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]) * (1 + np.array([1.0, 2.0])), rtol=1e-6)


def test_dump_path_that_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    x = t([1.0])
    with pytest.raises(NotADirectoryError):
        (x * 2).backward(dump_backward_graph_path=str(f))
