"""paddle.incubate against real Paddle 3.3.1: incubate.autograd (vjp, jvp, Jacobian, Hessian, the prim switches,
static grad / forward_grad), the graph and segment operators' older names, softmax_mask_fuse*, identity_loss and
LookAhead."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

X = [[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]]


def _x(paddle):
    return paddle.to_tensor(X, dtype="float64")


@differential()
def test_vjp_and_jvp(paddle):
    ag = paddle.incubate.autograd
    x, y = _x(paddle), paddle.to_tensor([[2.0, 1.0, 0.5], [1.0, 1.0, 1.0]], dtype="float64")
    f = lambda a, b: (paddle.tanh(a) * b, paddle.sum(a * a * b))  # noqa: E731
    ys, vjp_one = ag.vjp(lambda a: paddle.tanh(a) * a, x)
    _, vjp_two = ag.vjp(f, [x, y], [paddle.ones([2, 3], "float64"), paddle.to_tensor(2.0, "float64")])
    _, jvp_one = ag.jvp(lambda a: paddle.tanh(a) * a, x, paddle.full([2, 3], 0.5, "float64"))
    _, jvp_two = ag.jvp(f, [x, y])
    return {"ys": ys, "vjp_one": vjp_one, "vjp_two": vjp_two, "jvp_one": jvp_one, "jvp_two": jvp_two}


@differential()
def test_jacobian_and_hessian(paddle):
    ag = paddle.incubate.autograd
    x, y = _x(paddle), paddle.to_tensor([2.0, 1.0], dtype="float64")
    jac = ag.Jacobian(lambda a, b: (a * a, paddle.sum(a, axis=1) * b), [x, y])
    batched = ag.Jacobian(lambda a: a[:, :2] * paddle.sin(a[:, 1:]), x, is_batched=True)
    hess = ag.Hessian(lambda a: paddle.sum(a * a * a), x)
    hess_b = ag.Hessian(lambda a: paddle.sum(a * a, axis=1, keepdim=True), x, is_batched=True)
    return {"shape": list(jac.shape), "all": jac[:], "row": jac[3], "block": jac[2:6, ::2], "neg": jac[-1, -2],
            "batched": batched[:], "b_shape": list(batched.shape), "b_row": batched[:, 1, :],
            "hess": hess[:], "hess_row": hess[1], "hess_b": hess_b[:]}


@differential(expected=raises(AssertionError))
def test_prim_switches_are_static_only(paddle):
    paddle.incubate.autograd.enable_prim()


@differential()
def test_static_grad(paddle):
    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        return [paddle.incubate.autograd.grad(x * x * x, x)]  # Paddle's legacy-IR tanh/sum take PIR values only
    return run_static(paddle, build, {"x": np.array(X, "float32")})


def test_static_forward_grad_needs_prim():
    # Paddle 3.3.1's prim transform fails on the legacy IR ("elementwise_mul_grad" has not been registered): checked
    # against the derivative
    import paddlelite as paddle
    ag = paddle.incubate.autograd

    def build():
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = x * x * x
        with pytest.raises(RuntimeError, match="enable_prim"):
            ag.forward_grad(y, x)
        ag.enable_prim()
        try:
            assert ag.prim_enabled()
            return [ag.forward_grad(y, x), ag.forward_grad([y], [x], [paddle.full([2, 3], 2.0)])[0]]
        finally:
            ag.disable_prim()
    once, twice = run_static(paddle, build, {"x": np.array(X, "float32")})
    np.testing.assert_allclose(once, 3 * np.array(X) ** 2, rtol=1e-6)
    np.testing.assert_allclose(twice, 6 * np.array(X) ** 2, rtol=1e-6)


@differential()
def test_graph_and_segment_names(paddle):
    x = paddle.to_tensor(X)
    src, dst = paddle.to_tensor([0, 1, 1]), paddle.to_tensor([1, 0, 1])
    row, colptr = paddle.to_tensor([1, 0, 2, 0]), paddle.to_tensor([0, 1, 3, 4])
    nodes = paddle.to_tensor([0, 1, 2])
    inc = paddle.incubate
    return {"send": inc.graph_send_recv(x, src, dst, "max"),
            "mean": inc.graph_send_recv(x, src, dst, "mean", out_size=3),
            "sample": inc.graph_sample_neighbors(row, colptr, nodes, sample_size=2),  # -1 aborts Paddle
            "eids": inc.graph_sample_neighbors(row, colptr, nodes, eids=paddle.arange(4), sample_size=5, return_eids=True),
            "reindex": inc.graph_reindex(nodes, paddle.to_tensor([5, 1, 7]), paddle.to_tensor([1, 0, 2], "int32")),
            "segment": [inc.segment_sum(x, paddle.to_tensor([0, 0])), inc.segment_mean(x, paddle.to_tensor([0, 1])),
                        inc.segment_max(x, paddle.to_tensor([0, 0])), inc.segment_min(x, paddle.to_tensor([1, 1]))]}


@differential(rtol=1e-5, atol=1e-6)
def test_softmax_mask_fuse_and_identity_loss(paddle):
    x = paddle.to_tensor(np.linspace(-2, 2, 2 * 3 * 4 * 4).reshape(2, 3, 4, 4).astype("float32"), stop_gradient=False)
    mask = paddle.to_tensor(np.where(np.arange(32).reshape(2, 1, 4, 4) % 3 == 0, -1e4, 0).astype("float32"))
    out = paddle.incubate.softmax_mask_fuse(x, mask)
    (grad,) = paddle.grad((out * out).sum(), x)
    loss = paddle.incubate.identity_loss
    return {"out": out, "grad": grad, "sum": loss(x, "sum"), "mean": loss(x, 1), "none": loss(x, 2)}


def test_softmax_mask_fuse_upper_triangle():
    # Paddle's kernel is GPU-only (NotImplementedError on its CPU build): checked against NumPy
    import paddlelite as paddle
    x = np.random.default_rng(0).uniform(-1, 1, (1, 2, 3, 3)).astype("float32")
    out = paddle.incubate.softmax_mask_fuse_upper_triangle(paddle.to_tensor(x)).numpy()
    e = np.exp(np.where(np.triu(np.ones((3, 3)), 1) > 0, -np.inf, x))
    np.testing.assert_allclose(out, e / e.sum(-1, keepdims=True), rtol=1e-6, atol=1e-20)  # softmax floors at e^-64


@differential(rtol=1e-5, atol=1e-6)
def test_lookahead_trains_like_paddle(paddle):
    paddle.seed(1)
    layer = paddle.nn.Linear(3, 2)
    layer.weight.set_value(paddle.to_tensor(np.arange(6, dtype="float32").reshape(3, 2) / 10))
    layer.bias.set_value(paddle.zeros([2]))
    inner = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
    opt = paddle.incubate.LookAhead(inner, alpha=0.3, k=2)
    x = paddle.to_tensor(X, dtype="float32")
    trace = []
    for _ in range(5):
        loss = paddle.mean(layer(x) ** 2)
        loss.backward()
        opt.step()
        opt.clear_grad()
        trace.append(layer.weight.numpy().copy())
    return trace


@pytest.mark.parametrize("alpha, k", [(1.5, 5), (0.5, 0)])
def test_lookahead_arguments(alpha, k):
    @differential(expected=raises(AssertionError))
    def body(paddle):
        paddle.incubate.LookAhead(paddle.optimizer.SGD(0.1, parameters=[]), alpha=alpha, k=k)
    body()


@pytest.mark.parametrize("window", [dict(min_average_window=2, max_average_window=3),
                                    dict(min_average_window=1, max_average_window=10)])
def test_model_average_like_paddle(window):
    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        layer = paddle.nn.Linear(3, 2)
        layer.weight.set_value(paddle.to_tensor(np.arange(6, dtype="float32").reshape(3, 2) / 10))
        layer.bias.set_value(paddle.zeros([2]))
        sgd = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
        average = paddle.incubate.ModelAverage(0.5, parameters=layer.parameters(), **window)
        x = paddle.to_tensor(X, dtype="float32")
        seen = []
        for _ in range(6):
            paddle.mean(layer(x) ** 2).backward()
            sgd.step()
            average.step()
            sgd.clear_grad()
            with average.apply():
                seen.append(layer.weight.numpy().copy())
            seen.append(layer.weight.numpy().copy())
        with average.apply(need_restore=False):
            pass
        kept = layer.weight.numpy().copy()
        average.restore()
        return seen + [kept, layer.weight.numpy()]
    body()
