"""Fused attention on a real GPU (skipped without one): F.scaled_dot_product_attention and MultiHeadAttention
through the flash_attn op -- cuDNN's SDPA for float16/bfloat16 when cuDNN Frontend is installed, paddlelite's
kernels otherwise and for float32 -- against the CPU's unfused ops and PyTorch's SDPA on the same GPU, forward and
backward; the kernels' dropout mask against the CPU's; and memory that does not grow with seq^2."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device import cudnn as dcudnn
from paddlelite.device import memory
from paddlelite.nn.functional import attention as fattn
from tests.references import torch

pytestmark = pytest.mark.gpu

REL = {"float32": 1e-5, "float16": 4e-3, "bfloat16": 3e-2}


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


def rel_err(got, ref):
    got, ref = np.asarray(got, np.float64), np.asarray(ref, np.float64)
    return np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30)


def run(device, dtype, q, k, v, mask=None, causal=False, dropout=0.0, seed=0):
    """(out, dq, dk, dv) of F.scaled_dot_product_attention on `device`, as float64 NumPy arrays."""
    paddle.set_device(device)
    paddle.seed(seed)
    ts = [paddle.to_tensor(a.astype(np.float32)).astype(dtype) for a in (q, k, v)]
    for t in ts:
        t.stop_gradient = False
    m = None if mask is None else paddle.to_tensor(mask)
    out = paddle.nn.functional.scaled_dot_product_attention(*ts, attn_mask=m, dropout_p=dropout, is_causal=causal)
    weights = paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape).astype(np.float32)).astype(dtype)
    (out * weights).sum().backward()
    return [t.astype("float32").numpy().astype(np.float64) for t in (out, *(x.grad for x in ts))]


CASES = [  # B, Sq, Sk, H, Hk, D, mask, causal
    (2, 33, 33, 4, 4, 64, None, False),
    (2, 40, 40, 8, 2, 64, None, True),
    (1, 17, 70, 4, 4, 128, "bool", False),
    (2, 64, 64, 4, 4, 32, "float", False),
]


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
@pytest.mark.parametrize("use_cudnn", [True, False], ids=["cudnn", "kernels"])
def test_sdpa_gpu_vs_cpu(cp, case, dtype, use_cudnn):
    b, sq, sk, h, hk, d, mask_kind, causal = case
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s) for s in ((b, sq, h, d), (b, sk, hk, d), (b, sk, hk, d)))
    mask = None
    if mask_kind == "bool":
        mask = rng.random((b, 1, sq, sk)) > 0.2
    elif mask_kind == "float":
        mask = rng.standard_normal((sq, sk)).astype(np.float32)  # cast to the query's dtype by the API
    ref = run("cpu", "float64", q, k, v, mask, causal)
    with dcudnn.disabled(not use_cudnn):
        got = run("gpu", dtype, q, k, v, mask, causal)
    for g, r in zip(got, ref):
        assert rel_err(g, r) < REL[dtype]


def test_dropout_mask_matches_the_cpu(cp):
    """The kernels draw the dropout op's mask: the GPU's fused attention equals the CPU's unfused ops."""
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal((2, 20, 2, 16)) for _ in range(3))
    got = run("gpu", "float32", q, k, v, dropout=0.3, seed=9)
    ref = run("cpu", "float32", q, k, v, dropout=0.3, seed=9)
    for g, r in zip(got, ref):
        assert rel_err(g, r) < 1e-5


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_sdpa_vs_torch(cp, dtype):
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((4, 128, 8, 64)).astype(np.float32) for _ in range(3))
    got = run("gpu", dtype, q, k, v, causal=True)
    tdt = getattr(torch, dtype)
    ts = [torch.tensor(a, device="cuda").to(tdt).transpose(1, 2).requires_grad_() for a in (q, k, v)]
    out = torch.nn.functional.scaled_dot_product_attention(*ts, is_causal=True)
    w = torch.tensor(np.linspace(-1, 1, out.numel()).reshape(4, 128, 8, 64), device="cuda", dtype=tdt)
    (out.transpose(1, 2) * w).sum().backward()
    ref = [t.transpose(1, 2).float().cpu().detach().numpy() for t in (out, *(x.grad for x in ts))]
    for g, r in zip(got, ref):
        assert rel_err(g, r) < 2 * REL[dtype]


def test_multi_head_attention_gpu_vs_cpu(cp):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 24, 64)).astype(np.float32)
    mask = rng.random((2, 1, 24, 24)) > 0.2
    outs = []
    for device in ("cpu", "gpu"):
        paddle.set_device(device)
        paddle.seed(4)
        mha = paddle.nn.MultiHeadAttention(64, 4)
        xs = paddle.to_tensor(x, stop_gradient=False)
        out = mha(xs, attn_mask=paddle.to_tensor(mask))
        out.sum().backward()
        outs.append([out.numpy(), xs.grad.numpy(), mha.k_proj.weight.grad.numpy()])
    for g, r in zip(outs[1], outs[0]):
        assert rel_err(g, r) < 1e-5


@pytest.mark.parametrize("use_cudnn", [True, False], ids=["cudnn", "kernels"])
def test_no_seq_squared_memory(cp, use_cudnn):
    """Forward and backward at seq 4096 stay far below one [heads, seq, seq] float32 score matrix (256 MB)."""
    paddle.set_device("gpu")
    b, s, h, d = 1, 4096, 4, 64
    ts = [paddle.randn([b, s, h, d]).astype("float16") for _ in range(3)]
    for t in ts:
        t.stop_gradient = False
    with dcudnn.disabled(not use_cudnn):
        cp.cuda.Device().synchronize()
        base = memory.memory_allocated()
        memory.reset_max_memory_allocated()
        out = fattn.flash(*ts, causal=True)[0]
        out.sum().backward()
        cp.cuda.Device().synchronize()
        peak = memory.max_memory_allocated() - base
    assert peak < h * s * s * 4 // 8, f"peak {peak / 2 ** 20:.1f} MB"


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("causal", [False, True])
def test_flash_attn_unpadded_gpu_vs_cpu(cp, dtype, causal):
    """Packed variable-length sequences on the GPU (cuDNN's SDPA for float16, the kernels for float32, a key
    padding mask either way) against the same layout through the CPU's reference op, forward and backward."""
    rng = np.random.default_rng(9)
    lens = [37, 5, 64, 18]
    cu = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    q, k, v = (rng.standard_normal((cu[-1], 4, 64)).astype(np.float32) for _ in range(3))
    results = []
    for device in ("cpu", "gpu"):
        paddle.set_device(device)
        ts = [paddle.to_tensor(a).astype(dtype) for a in (q, k, v)]
        for t in ts:
            t.stop_gradient = False
        c = paddle.to_tensor(cu)
        api = fattn.unpadded if device == "cpu" else paddle.nn.functional.flash_attention.flash_attn_unpadded
        out = api(*ts, c, c, max(lens), max(lens), 0.125, causal=causal)[0]
        (out * paddle.to_tensor(np.linspace(-1, 1, out.size, dtype=np.float32).reshape(out.shape)).astype(dtype)).sum() \
            .backward()
        results.append([t.astype("float32").numpy() for t in (out, *(x.grad for x in ts))])
    for g, r in zip(results[1], results[0]):
        assert rel_err(g, r) < REL[dtype] * 2
