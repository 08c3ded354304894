"""GEMM-bound work on the GPU in every precision: paddle.matmul (cuBLAS through device/cublas.py) against
torch.matmul on the same GPU, with TFLOP/s in each row's extra_info; and a wide MLP's training step in float32
(TF32 off and on), AMP O1 float16 and AMP O2 bfloat16 against PyTorch's autocast. GPU only (BENCH_DEVICE=gpu).

Run: BENCH_DEVICE=gpu pytest bench/test_bench_gemm.py --benchmark-only --benchmark-group-by=group
Aim: within 10 % of PyTorch in every row (both call the same cuBLAS).
"""
import contextlib
import os

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(os.environ.get("BENCH_DEVICE") != "gpu", reason="GPU benchmarks: BENCH_DEVICE=gpu")

# name -> (x shape, y shape)
SHAPES = {"4096^3": ((4096, 4096), (4096, 4096)), "attention 96x1024x64x1024": ((96, 1024, 64), (96, 64, 1024))}
PRECISIONS = ["float32", "tf32", "float16", "bfloat16"]  # tf32: float32 tensors, TF32 tensor cores allowed


@pytest.fixture(scope="module", autouse=True)
def _gpu():
    if not (paddle.device.cuda.device_count() and torch.cuda.is_available()):
        pytest.skip("needs a GPU for both paddlelite and PyTorch")
    paddle.set_device("gpu")
    yield
    paddle.set_device("cpu")


@contextlib.contextmanager
def _tf32(on):
    """TF32 for float32 GEMMs in both libraries (Paddle's switch; PyTorch's default is off for matmul)."""
    saved = paddle.base.core.get_cublas_switch(), torch.backends.cuda.matmul.allow_tf32
    paddle.base.core.set_cublas_switch(on)
    torch.backends.cuda.matmul.allow_tf32 = on
    try:
        yield
    finally:
        paddle.base.core.set_cublas_switch(saved[0])
        torch.backends.cuda.matmul.allow_tf32 = saved[1]


def _operands(shape, precision):
    rng = np.random.default_rng(0)
    dtype = "float32" if precision == "tf32" else precision
    return [rng.standard_normal(s).astype(np.float32) for s in SHAPES[shape]], dtype


def _record_tflops(benchmark, shape):
    (xs, ys) = SHAPES[shape]
    flops = 2 * np.prod(xs) * ys[-1]
    benchmark.extra_info["TFLOP/s"] = round(flops / benchmark.stats.stats.median / 1e12, 1)


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_matmul_paddlelite(benchmark, shape, precision):
    benchmark.group = f"matmul {shape} {precision}"
    (x, y), dtype = _operands(shape, precision)
    x, y = paddle.to_tensor(x).astype(dtype), paddle.to_tensor(y).astype(dtype)

    def run():
        out = paddle.matmul(x, y)
        paddle.device.synchronize()
        return out
    with _tf32(precision == "tf32"):
        benchmark(run)
    _record_tflops(benchmark, shape)


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_matmul_torch(benchmark, shape, precision):
    benchmark.group = f"matmul {shape} {precision}"
    (x, y), dtype = _operands(shape, precision)
    x, y = (torch.from_numpy(a).to("cuda", getattr(torch, dtype)) for a in (x, y))

    def run():
        out = torch.matmul(x, y)
        torch.cuda.synchronize()
        return out
    with _tf32(precision == "tf32"):
        benchmark(run)
    _record_tflops(benchmark, shape)


# ---- a GEMM-bound training step: MLP 1024-4096-4096-1024, batch 2048, Adam ------------------------------
MODES = ["float32", "tf32", "O1 float16", "O2 bfloat16"]
WIDTHS, BATCH = (1024, 4096, 4096, 1024), 2048


@pytest.fixture(scope="module")
def batch():
    rng = np.random.default_rng(1)
    return rng.standard_normal((BATCH, WIDTHS[0])).astype(np.float32), rng.integers(0, WIDTHS[-1], BATCH)


def _paddle_step(mode, x, y):
    paddle.seed(0)
    layers = []
    for a, b in zip(WIDTHS, WIDTHS[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    model = nn.Sequential(*layers[:-1])
    opt = paddle.optimizer.Adam(1e-4, parameters=model.parameters())
    level, dtype = (mode.split() + [None])[:2] if mode.startswith("O") else (None, None)
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    scaler = paddle.amp.GradScaler() if dtype == "float16" else None
    xt, yt = paddle.to_tensor(x), paddle.to_tensor(y)

    def step():
        with paddle.amp.auto_cast(enable=level is not None, level=level or "O1", dtype=dtype or "float16"):
            loss = nn.functional.cross_entropy(model(xt), yt)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        opt.clear_grad()
        paddle.device.synchronize()
        return loss
    return step


def _torch_step(mode, x, y):
    torch.manual_seed(0)
    layers = []
    for a, b in zip(WIDTHS, WIDTHS[1:]):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers[:-1]).cuda()
    if mode == "O2 bfloat16":
        model = model.to(torch.bfloat16)
    opt = torch.optim.Adam(model.parameters(), 1e-4)
    scaler = torch.amp.GradScaler("cuda") if mode == "O1 float16" else None
    xt, yt = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
    if mode == "O2 bfloat16":
        xt = xt.to(torch.bfloat16)

    def step():
        with torch.autocast("cuda", torch.float16, enabled=mode == "O1 float16"):
            loss = torch.nn.functional.cross_entropy(model(xt).float(), yt)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        opt.zero_grad()
        torch.cuda.synchronize()
        return loss
    return step


@pytest.mark.parametrize("mode", MODES)
def test_wide_mlp_step_paddlelite(benchmark, mode, batch):
    benchmark.group = f"train step: MLP {'-'.join(map(str, WIDTHS))}, batch {BATCH}, Adam, {mode}"
    with _tf32(mode != "float32"):
        benchmark.pedantic(_paddle_step(mode, *batch), rounds=10, warmup_rounds=2)


@pytest.mark.parametrize("mode", MODES)
def test_wide_mlp_step_torch(benchmark, mode, batch):
    benchmark.group = f"train step: MLP {'-'.join(map(str, WIDTHS))}, batch {BATCH}, Adam, {mode}"
    with _tf32(mode != "float32"):
        benchmark.pedantic(_torch_step(mode, *batch), rounds=10, warmup_rounds=2)
