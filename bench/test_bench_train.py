"""One training step (forward, backward, optimizer update, clear grads), single-threaded on the CPU:
paddlelite eager, paddlelite.jit.to_static, paddlelite static, PyTorch, and hand-written NumPy, in the same run.
With BENCH_DEVICE=gpu: paddlelite on the GPU against PyTorch on the same GPU, each step synchronised (no NumPy).

* MLP 784-256-128-10, batch 128, cross-entropy, SGD(lr=0.01)
* a small CNN: conv(1->8, 3x3) relu maxpool conv(8->16, 3x3) relu maxpool linear(16*7*7 -> 10), batch 32
* a transformer encoder: 2 layers, d_model 256, 4 heads, ffn 512, seq 64, batch 16, mean-pooled to 10 classes

Run: pytest bench/test_bench_train.py --benchmark-only --benchmark-group-by=group
Aim: eager <= 1.0x PyTorch, static and to_static <= 0.9x.
"""
import functools
import os

import numpy as np
import pytest

import paddlelite as paddle
from bench.torch_step_models import TORCH_MODELS
from paddlelite import nn
from paddlelite.utils import unique_name
from tests.step_models import MODELS

torch = pytest.importorskip("torch")
torch.set_num_threads(1)
GPU = os.environ.get("BENCH_DEVICE", "cpu") == "gpu"
TORCH_DEVICE = "cuda" if GPU else "cpu"


@pytest.fixture(scope="module", autouse=True)  # before the module's data fixtures
def _device():
    if GPU and not (paddle.device.cuda.device_count() and torch.cuda.is_available()):
        pytest.skip("BENCH_DEVICE=gpu needs a GPU for both paddlelite and PyTorch")
    paddle.set_device("gpu" if GPU else "cpu")
    yield
    paddle.set_device("cpu")


def _synchronised(step, sync):
    """On a GPU a step is timed until its kernels have finished."""
    if not GPU:
        return step

    def step_and_wait():
        out = step()
        sync()
        return out
    return step_and_wait

B, LR = 128, 0.01


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    return rng.random((B, 784), dtype=np.float32), rng.integers(0, 10, B), \
        rng.random((32, 1, 28, 28), dtype=np.float32), rng.integers(0, 10, 32), \
        rng.standard_normal((16, 64, 256), dtype=np.float32), rng.integers(0, 10, 16)


# The launch budgets' models (tests/step_models.py) and their PyTorch twins (bench/torch_step_models.py).
_mlp, _cnn, _Encoder = (functools.partial(MODELS[name].make, paddle) for name in ("mlp", "cnn", "encoder"))
_torch_mlp, _torch_cnn, _TorchEncoder = (functools.partial(TORCH_MODELS[name], torch)
                                         for name in ("mlp", "cnn", "encoder"))


def _eager_step(make, x, y, to_static=False, cuda_graph=False):
    with unique_name.guard():
        model = make()
    if to_static:
        strategy = paddle.static.BuildStrategy()
        strategy.allow_cuda_graph_capture = cuda_graph  # forward and backward replayed from CUDA graphs
        model = paddle.jit.to_static(model, build_strategy=strategy)
    opt = paddle.optimizer.SGD(LR, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)

    def step():
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return _synchronised(step, paddle.device.synchronize)


def _eager_graph_step(make, x, y):
    """The eager step captured whole (forward, backward, SGD) by paddle.device.cuda.graphs.CUDAGraph and replayed."""
    from paddlelite.device.cuda.graphs import CUDAGraph
    with unique_name.guard():
        model = make()
    opt = paddle.optimizer.SGD(LR, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)

    def run():
        loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()
        opt.clear_grad(set_to_zero=False)
        return loss
    for _ in range(2):  # warm-up: kernels compile, cuBLAS's workspace for the capture stream
        run()
    graph = CUDAGraph()
    graph.capture_begin()
    loss = run()
    graph.capture_end()

    def step():
        graph.replay()
        return loss
    return _synchronised(step, paddle.device.synchronize)


def _torch_graph_step(make, x, y):
    """PyTorch's whole-network capture (torch.cuda.CUDAGraph), as its docs show it."""
    model = make().to(TORCH_DEVICE)
    opt = torch.optim.SGD(model.parameters(), LR)
    xt, yt = torch.from_numpy(x).to(TORCH_DEVICE), torch.from_numpy(y).to(TORCH_DEVICE)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            torch.nn.functional.cross_entropy(model(xt), yt).backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        loss = torch.nn.functional.cross_entropy(model(xt), yt)
        loss.backward()
        opt.step()

    def step():
        graph.replay()
        return loss
    return _synchronised(step, torch.cuda.synchronize)


def _static_step(make, x, y, cuda_graph=False):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            xv = paddle.static.data("x", [None] + list(x.shape[1:]), "float32")
            yv = paddle.static.data("y", [None], "int64")
            loss = nn.CrossEntropyLoss()(make()(xv), yv)
            paddle.optimizer.SGD(LR).minimize(loss)
    finally:
        paddle.disable_static()
    exe = paddle.static.Executor("gpu" if GPU else "cpu")
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
    feed = {"x": x, "y": y}
    if cuda_graph:  # the whole step (forward, backward, SGD) replayed from one CUDA graph
        strategy = paddle.static.BuildStrategy()
        strategy.allow_cuda_graph_capture = True
        main = paddle.static.CompiledProgram(main, build_strategy=strategy)

    def step():
        with paddle.static.scope_guard(scope):
            return exe.run(main, feed=feed, fetch_list=[loss])
    return _synchronised(step, paddle.device.synchronize)


def _torch_step(make, x, y):
    model = make().to(TORCH_DEVICE)
    opt = torch.optim.SGD(model.parameters(), LR)
    xt, yt = torch.from_numpy(x).to(TORCH_DEVICE), torch.from_numpy(y).to(TORCH_DEVICE)

    def step():
        loss = torch.nn.functional.cross_entropy(model(xt), yt)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss
    return _synchronised(step, torch.cuda.synchronize)


def _numpy_mlp_step(x, y):
    """The same MLP step written by hand in NumPy (the floor for any NumPy-based framework)."""
    rng = np.random.default_rng(0)
    dims = [784, 256, 128, 10]
    Ws = [rng.uniform(-0.05, 0.05, (a, b)).astype(np.float32) for a, b in zip(dims, dims[1:])]
    bs = [np.zeros(b, np.float32) for b in dims[1:]]
    onehot = np.eye(10, dtype=np.float32)[y]

    def step():
        acts = [x]
        h = x
        for i in range(3):
            h = h @ Ws[i] + bs[i]
            if i < 2:
                h = np.maximum(h, 0)
            acts.append(h)
        z = h - h.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        loss = -np.log(p[np.arange(len(y)), y]).mean()
        g = (p - onehot) / len(y)
        for i in (2, 1, 0):
            gW, gb = acts[i].T @ g, g.sum(0)
            if i:
                g = (g @ Ws[i].T) * (acts[i] > 0)
            Ws[i] = Ws[i] - LR * gW
            bs[i] = bs[i] - LR * gb
        return loss
    return step


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_eager(benchmark, data):
    benchmark(_eager_step(_mlp, data[0], data[1]))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_to_static(benchmark, data):
    benchmark(_eager_step(_mlp, data[0], data[1], to_static=True))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_to_static_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_step(_mlp, data[0], data[1], to_static=True, cuda_graph=True))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_static(benchmark, data):
    benchmark(_static_step(_mlp, data[0], data[1]))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_static_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_static_step(_mlp, data[0], data[1], cuda_graph=True))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_paddlelite_eager_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_graph_step(_mlp, data[0], data[1]))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_torch_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_torch_graph_step(_torch_mlp, data[0], data[1]))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_torch(benchmark, data):
    benchmark(_torch_step(_torch_mlp, data[0], data[1]))


@pytest.mark.benchmark(group="train step: MLP 784-256-128-10, batch 128, SGD")
def test_mlp_numpy(benchmark, data):
    if GPU:
        pytest.skip("the NumPy floor is a CPU figure")
    benchmark(_numpy_mlp_step(data[0], data[1]))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_eager(benchmark, data):
    benchmark(_eager_step(_cnn, data[2], data[3]))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_to_static(benchmark, data):
    benchmark(_eager_step(_cnn, data[2], data[3], to_static=True))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_to_static_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_step(_cnn, data[2], data[3], to_static=True, cuda_graph=True))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_static(benchmark, data):
    benchmark(_static_step(_cnn, data[2], data[3]))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_static_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_static_step(_cnn, data[2], data[3], cuda_graph=True))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_paddlelite_eager_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_graph_step(_cnn, data[2], data[3]))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_torch_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_torch_graph_step(_torch_cnn, data[2], data[3]))


@pytest.mark.benchmark(group="train step: small CNN, batch 32, SGD")
def test_cnn_torch(benchmark, data):
    benchmark(_torch_step(_torch_cnn, data[2], data[3]))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_paddlelite_eager(benchmark, data):
    benchmark(_eager_step(_Encoder, data[4], data[5]))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_paddlelite_to_static(benchmark, data):
    benchmark(_eager_step(_Encoder, data[4], data[5], to_static=True))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_paddlelite_to_static_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_step(_Encoder, data[4], data[5], to_static=True, cuda_graph=True))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_paddlelite_eager_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_eager_graph_step(_Encoder, data[4], data[5]))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_torch_cuda_graph(benchmark, data):
    if not GPU:
        pytest.skip("CUDA graphs replay on a GPU")
    benchmark(_torch_graph_step(_TorchEncoder, data[4], data[5]))


@pytest.mark.benchmark(group="train step: transformer encoder d256 h4 seq64, batch 16, SGD")
def test_encoder_torch(benchmark, data):
    benchmark(_torch_step(_TorchEncoder, data[4], data[5]))


@pytest.fixture
def _full_float32():
    """float32 GEMMs without TF32 (Paddle's default on a GPU), so losses compare at float32 precision."""
    saved = paddle.base.core.get_cublas_switch()
    paddle.base.core.set_cublas_switch(False)
    yield
    paddle.base.core.set_cublas_switch(saved)


def test_steps_agree_with_torch(data, _full_float32):
    """The benchmarked steps compute the same thing: equal weights give equal losses."""
    x, y = data[0], data[1]
    with unique_name.guard():
        model = _mlp()
    tm = _torch_mlp()
    with torch.no_grad():
        lins = [m for m in tm if isinstance(m, torch.nn.Linear)]
        ours = [m for m in model if isinstance(m, nn.Linear)]
        for a, b in zip(ours, lins):
            b.weight.copy_(torch.from_numpy(a.weight.numpy().T))
            b.bias.copy_(torch.from_numpy(a.bias.numpy()))
    opt = paddle.optimizer.SGD(LR, parameters=model.parameters())
    topt = torch.optim.SGD(tm.parameters(), LR)
    for _ in range(3):
        loss = nn.CrossEntropyLoss()(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        tl = torch.nn.functional.cross_entropy(tm(torch.from_numpy(x)), torch.from_numpy(y))
        tl.backward()
        topt.step()
        topt.zero_grad()
        np.testing.assert_allclose(float(loss), tl.item(), rtol=1e-5)
