"""Training steps of device-bound models against PyTorch eager on the same GPU (issue 25; GPU only): ResNet-50
(batch 64, 224x224, AMP bfloat16 and float32) and a GPT-2-small-shaped decoder (12 layers, d 768, 12 heads, seq
1024, batch 8, vocabulary 50257, AMP bfloat16), one AdamW step each.

Each side runs a few warm-up steps, then `STEPS` steps between CUDA events (the host queues ahead, as a training
loop does); the memory peak is each allocator's own. Reported: seconds per step, images/s or tokens/s, the share of
the GPU's dense bfloat16 matrix rate the step's model FLOPs reach (ResNet-50: 3 x 4.1 GMAC x 2 per image; GPT: 6 x
parameters x tokens + 12 x layers x d x seq per token), the memory peaks, and paddlelite / PyTorch time (the goal:
<= 1.1). Shapes and step counts shrink with BENCH_MODELS_SMALL=1 (a quick check of the script itself).
"""
import os

import numpy as np
import pytest

from paddlelite.device import cuda as _cuda

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]

SMALL = os.environ.get("BENCH_MODELS_SMALL") == "1"
STEPS, WARMUP = (2, 1) if SMALL else (5, 3)
# dense bfloat16 tensor-core rates (FLOP/s) by device name: the yardstick of "fraction of the matrix rate"
PEAK_BF16 = {"H200": 989e12, "H100": 989e12, "A100": 312e12, "L40S": 362e12, "A10": 125e12}


def _peak(name):
    return next((v for k, v in PEAK_BF16.items() if k in name), None)


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def torch():
    t = pytest.importorskip("torch")
    if not t.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    return t


def _timed(cp, step):
    """Seconds per step over STEPS steps between two CUDA events, after WARMUP steps."""
    for _ in range(WARMUP):
        step()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(STEPS):
        step()
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end) / 1e3 / STEPS


def _record(benchmark, cp, name, ours, theirs, per_step, unit, flops, mem_ours, mem_theirs):
    device = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    peak = _peak(device)
    info = {"paddlelite step s": ours, "torch step s": theirs, "paddlelite / torch time": ours / theirs,
            f"paddlelite {unit}": per_step / ours, f"torch {unit}": per_step / theirs,
            "paddlelite peak GB": mem_ours / 1e9, "torch peak GB": mem_theirs / 1e9, "model TFLOP per step": flops / 1e12}
    if peak:
        info["paddlelite fraction of bf16 matrix rate"] = flops / ours / peak
        info["torch fraction of bf16 matrix rate"] = flops / theirs / peak
    benchmark.extra_info.update(info)
    benchmark.extra_info["device"] = device
    print(f"\n{name} on {device}: " + ", ".join(f"{k}={v:.4g}" for k, v in info.items()))


# ---- ResNet-50 ------------------------------------------------------------------------------------------------
def _resnet_ours(paddle, batch, size, amp):
    model = paddle.vision.models.resnet50()
    opt = paddle.optimizer.AdamW(learning_rate=1e-4, parameters=model.parameters())
    x = paddle.randn([batch, 3, size, size])
    y = paddle.randint(0, 1000, [batch])

    def step():
        with paddle.amp.auto_cast(enable=amp, dtype="bfloat16"):
            loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return step


def _resnet_theirs(torch, batch, size, amp):
    import torchvision  # noqa: F401  (skips below without it)
    model = torchvision.models.resnet50().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(batch, 3, size, size, device="cuda")
    y = torch.randint(0, 1000, (batch,), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


@pytest.mark.parametrize("amp", [True, False], ids=["bf16", "fp32"])
def test_bench_resnet50_step(cp, torch, benchmark, amp):
    pytest.importorskip("torchvision")
    import paddlelite as paddle
    from paddlelite.device import memory
    paddle.set_device("gpu")
    batch, size = (8, 64) if SMALL else (64, 224)
    memory.reset_max_memory_allocated()
    ours = _timed(cp, _resnet_ours(paddle, batch, size, amp))
    mem_ours = memory.max_memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    theirs = _timed(cp, _resnet_theirs(torch, batch, size, amp))
    mem_theirs = torch.cuda.max_memory_allocated()
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    flops = 3 * 4.1e9 * 2 * batch * (size / 224) ** 2
    _record(benchmark, cp, f"resnet50 {'bf16' if amp else 'fp32'} batch {batch}", ours, theirs, batch, "images/s",
            flops, mem_ours, mem_theirs)


# ---- GPT-2 small ----------------------------------------------------------------------------------------------
def _gpt_ours(paddle, layers, d, heads, seq, batch, vocab):
    nn, F = paddle.nn, paddle.nn.functional

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            b, s, _ = x.shape
            q, k, v = paddle.split(paddle.reshape(self.qkv(self.ln1(x)), [b, s, 3, heads, d // heads]), 3, axis=2)
            a = F.scaled_dot_product_attention(q.squeeze(2), k.squeeze(2), v.squeeze(2), is_causal=True)
            x = x + self.proj(paddle.reshape(a, [b, s, d]))
            return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate=True))

    class GPT(nn.Layer):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
            self.blocks = nn.LayerList([Block() for _ in range(layers)])
            self.ln = nn.LayerNorm(d)

        def forward(self, ids):
            x = self.tok(ids) + self.pos(paddle.arange(ids.shape[1]))
            for blk in self.blocks:
                x = blk(x)
            return paddle.matmul(self.ln(x), self.tok.weight, transpose_y=True)  # tied LM head

    model = GPT()
    opt = paddle.optimizer.AdamW(learning_rate=1e-4, parameters=model.parameters())
    ids = paddle.randint(0, vocab, [batch, seq])
    labels = paddle.randint(0, vocab, [batch, seq])

    def step():
        with paddle.amp.auto_cast(dtype="bfloat16"):
            logits = model(ids)
        loss = F.cross_entropy(logits.astype("float32").reshape([-1, vocab]), labels.reshape([-1]))
        loss.backward()
        opt.step()
        opt.clear_grad()
    return step, sum(int(np.prod(p.shape)) for p in model.parameters())


def _gpt_theirs(torch, layers, d, heads, seq, batch, vocab):
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            b, s, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, heads, d // heads).transpose(1, 3).unbind(2)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, s, d)
            x = x + self.proj(a)
            return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
            self.blocks = nn.ModuleList([Block() for _ in range(layers)])
            self.ln = nn.LayerNorm(d)

        def forward(self, ids):
            x = self.tok(ids) + self.pos(torch.arange(ids.shape[1], device=ids.device))
            for blk in self.blocks:
                x = blk(x)
            return self.ln(x) @ self.tok.weight.t()

    model = GPT().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, vocab, (batch, seq), device="cuda")
    labels = torch.randint(0, vocab, (batch, seq), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(ids)
        loss = F.cross_entropy(logits.float().view(-1, vocab), labels.view(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def test_bench_gpt2_small_step(cp, torch, benchmark):
    import paddlelite as paddle
    from paddlelite.device import memory
    paddle.set_device("gpu")
    shape = dict(layers=2, d=256, heads=4, seq=256, batch=2, vocab=1000) if SMALL else \
        dict(layers=12, d=768, heads=12, seq=1024, batch=8, vocab=50257)
    memory.reset_max_memory_allocated()
    step, params = _gpt_ours(paddle, **shape)
    ours = _timed(cp, step)
    mem_ours = memory.max_memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    theirs = _timed(cp, _gpt_theirs(torch, **shape))
    mem_theirs = torch.cuda.max_memory_allocated()
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    tokens = shape["batch"] * shape["seq"]
    flops = 6 * params * tokens + 12 * shape["layers"] * shape["d"] * shape["seq"] * tokens
    _record(benchmark, cp, f"gpt2-small bf16 batch {shape['batch']} seq {shape['seq']}", ours, theirs, tokens,
            "tokens/s", flops, mem_ours, mem_theirs)
