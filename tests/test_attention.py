"""Fused attention without a GPU: the flash_attn op against the unfused ops (dropout included: the same random
state gives the same mask), paddlelite's flash-attention kernels (kernels/attention.cu) on the CPU emulator against
the op's reference, cuDNN's SDPA graphs through tests/cudnn_fake.py, the layers' fused path, and
F.flash_attention against real Paddle's CPU build."""
import shutil

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device import kernels as K
from paddlelite.nn.functional import attention as fattn
from paddlelite.ops.launch import attention as launch
from paddlelite.ops.registry import get_op
from tests.differential import differential, raises

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="the CUDA emulation needs g++")


def arrays(shapes, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def composed_and_fused(q, k, v, mask=None, dropout=0.0, causal=False):
    """(out, dq, dk, dv) of the unfused ops and of the flash_attn op, from the same random state."""
    results = []
    for fused in (False, True):
        paddle.seed(11)
        ts = [paddle.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
        m = None if mask is None else paddle.to_tensor(mask)
        if fused:
            out = fattn.flash(*ts, fattn.additive_mask(m, ts[0].dtype.name), dropout, causal)[0]
        else:
            out = paddle.nn.functional.scaled_dot_product_attention(*ts, attn_mask=m, dropout_p=dropout,
                                                                    is_causal=causal)
        (out * paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape).astype(q.dtype))).sum().backward()
        results.append([out.numpy(), *(t.grad.numpy() for t in ts)])
    return results


@pytest.mark.parametrize("kind", ["plain", "causal", "bool-mask", "float-mask", "gqa", "dropout"])
def test_fused_op_is_the_unfused_ops(kind):
    q, k, v = arrays([(2, 5, 4, 8), (2, 6, 4, 8), (2, 6, 4, 8)], np.float64)
    mask, dropout, causal = None, 0.0, False
    if kind == "causal":
        k, v = k[:, :5], v[:, :5]
        causal = True
    elif kind == "bool-mask":
        mask = np.random.default_rng(1).random((2, 1, 5, 6)) > 0.3
    elif kind == "float-mask":
        mask = np.random.default_rng(2).standard_normal((5, 6))
    elif kind == "gqa":
        k, v = k[:, :, :2], v[:, :, :2]
    elif kind == "dropout":
        dropout = 0.35
    composed, fused = composed_and_fused(q, k, v, mask, dropout, causal)
    for a, b in zip(composed, fused):
        np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)


def test_fused_dropout_takes_the_streams_next_state():
    """The op draws where the dropout op would: the next call gets a fresh mask, and a reseed repeats it."""
    q, k, v = (paddle.to_tensor(a) for a in arrays([(1, 6, 2, 4)] * 3))
    paddle.seed(5)
    first, second = (fattn.flash(q, k, v, None, 0.5)[0].numpy() for _ in range(2))
    paddle.seed(5)
    again = fattn.flash(q, k, v, None, 0.5)[0].numpy()
    assert not np.array_equal(first, second) and np.array_equal(first, again)
    eval_out = fattn.flash(q, k, v, None, 0.5, training=False)[0].numpy()
    np.testing.assert_allclose(eval_out, fattn.flash(q, k, v)[0].numpy())


def test_fused_op_rejects_bad_input():
    q = paddle.ones([1, 2, 3, 4])
    with pytest.raises(ValueError, match="multiple of"):
        fattn.flash(q, paddle.ones([1, 2, 2, 4]), paddle.ones([1, 2, 2, 4]))
    with pytest.raises(ValueError, match="head_dim"):
        fattn.flash(q, paddle.ones([1, 2, 3, 5]), paddle.ones([1, 2, 3, 5]))
    with pytest.raises(TypeError, match="one dtype"):
        fattn.flash(q, paddle.ones([1, 2, 3, 4], "float64"), paddle.ones([1, 2, 3, 4]))
    with pytest.raises(ValueError, match="dropout"):
        fattn.flash(q, q, q, None, 1.0)


# ---- kernels/attention.cu on the CPU emulator -------------------------------------------------------------
@pytest.fixture(scope="module")
def emu():
    from tests.cuda_emu.emu import EmuModules
    with K.use_backend(EmuModules()) as modules:
        yield modules


TOL = {np.float32: 2e-5, np.float16: 2e-2, "bfloat16": 6e-2}

KERNEL_CASES = [  # B, Sq, Sk, H, Hk, D, mask shape, causal, dropout
    (2, 5, 7, 4, 2, 12, None, False, 0.0),
    (1, 9, 9, 2, 2, 8, None, True, 0.0),
    (2, 6, 37, 3, 3, 16, (2, 1, 1, 37), False, 0.0),    # a key-padding mask, two key tiles
    (1, 7, 40, 2, 1, 70, (7, 40), True, 0.25),          # the 128-wide variant, dropout
    (1, 3, 5, 2, 2, 64, (1, 2, 3, 5), False, 0.5),
]


def _dtype(name):
    if name == "bfloat16":
        return np.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    return np.dtype(name)


@needs_gxx
@pytest.mark.parametrize("dtype", [np.float32, np.float16, "bfloat16"])
@pytest.mark.parametrize("case", KERNEL_CASES, ids=[f"case{i}" for i in range(len(KERNEL_CASES))])
def test_kernels_on_the_emulator(emu, case, dtype):
    b, sq, sk, h, hk, d, mask_shape, causal, dropout = case
    dt = _dtype(dtype)
    q, k, v, dout = (a.astype(dt) for a in arrays([(b, sq, h, d), (b, sk, hk, d), (b, sk, hk, d), (b, sq, h, d)]))
    k_strided = np.ascontiguousarray(k.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)  # [B, Hk, S, D] memory
    mask = None if mask_shape is None else arrays([mask_shape], seed=3)[0].astype(dt)
    so = np.array([77, 5], np.int64)
    op, grad = get_op("flash_attn"), get_op("flash_attn_grad")
    ref_out, _, ref_lse, _ = op.forward(np, q, k, v, so, mask, **op.fill_attrs({"dropout": dropout, "causal": causal}))
    out, lse = launch.attention_forward(np, q, k_strided, v, mask, so, dropout, causal)
    tol = TOL[dtype if isinstance(dtype, str) else dtype]
    np.testing.assert_allclose(out.astype(np.float32), ref_out.astype(np.float32), rtol=tol, atol=tol)
    np.testing.assert_allclose(lse, ref_lse, rtol=1e-5, atol=1e-5)
    ref = grad.forward(np, q, k, v, ref_out, ref_lse, so, mask, dout, dropout=dropout, causal=causal)
    got = launch.attention_backward(np, q, k_strided, v, ref_out, ref_lse, so, mask, dout, dropout, causal)
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype and g.shape == r.shape
        scale = max(1.0, float(np.abs(r.astype(np.float32)).max()))
        np.testing.assert_allclose(g.astype(np.float32), r.astype(np.float32), rtol=tol, atol=tol * scale)


@needs_gxx
def test_kernels_decline_what_they_do_not_cover(emu):
    q, k, v = arrays([(1, 2, 2, 136)] * 3)
    so = np.zeros(2, np.int64)
    assert launch.attention_forward(np, q, k, v, None, so, 0.0, False) is None        # head_dim > 128
    assert launch.attention_forward(np, q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), None, so,
                                    0.0, False) is None


@needs_gxx
def test_gpu_binding_keeps_one_random_state(emu, monkeypatch):
    """The binding draws once, whichever path runs: the kernels here, the reference for return_softmax."""
    from paddlelite.framework import random as prandom
    q, k, v = arrays([(1, 4, 2, 8)] * 3)
    taken = []
    real = prandom.next_seed_offset
    monkeypatch.setattr("paddlelite.ops.attention.next_seed_offset", lambda xp: taken.append(1) or real(xp))
    impl = get_op("flash_attn").impls["gpu"]
    for return_softmax in (False, True):
        impl(np, q, k, v, None, None, **get_op("flash_attn").fill_attrs({"dropout": 0.3,
                                                                          "return_softmax": return_softmax}))
    assert len(taken) == 2


# ---- cuDNN's SDPA graphs through the fake executor ---------------------------------------------------------
@pytest.fixture
def fake(monkeypatch):
    from tests import cudnn_fake
    with cudnn_fake.installed(monkeypatch) as f:
        yield f


@pytest.mark.parametrize("mask_shape,causal,hk", [(None, False, 4), (None, True, 2), ((1, 4, 6, 6), False, 4),
                                                  ((2, 1, 1, 6), False, 1)])
def test_cudnn_sdpa_graphs(fake, mask_shape, causal, hk):
    from paddlelite.ops.cudnn import attention as cattn
    q, k, v, dout = (a.astype(np.float16) for a in arrays([(2, 6, 4, 16), (2, 6, hk, 16), (2, 6, hk, 16),
                                                           (2, 6, 4, 16)]))
    q = np.ascontiguousarray(q.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)  # strided: [B, H, S, D] memory
    mask = None if mask_shape is None else arrays([mask_shape], seed=4)[0].astype(np.float16)
    so = np.zeros(2, np.int64)
    op, grad = get_op("flash_attn"), get_op("flash_attn_grad")
    ref_out, _, ref_lse, _ = op.forward(np, q, k, v, so, mask, **op.fill_attrs({"causal": causal}))
    out, lse = cattn.sdpa_forward(np, q, k, v, mask, so, 0.0, causal)
    np.testing.assert_allclose(out.astype(np.float32), ref_out.astype(np.float32), atol=2e-3)
    np.testing.assert_allclose(lse, ref_lse, atol=1e-3)
    ref = grad.forward(np, q, k, v, ref_out, ref_lse, so, mask, dout, dropout=0.0, causal=causal)
    got = cattn.sdpa_backward(np, q, k, v, ref_out, ref_lse, so, mask, dout, 0.0, causal)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g.astype(np.float32), r.astype(np.float32), atol=1e-2)


def test_cudnn_sdpa_with_dropout_runs_both_passes_or_neither(fake):
    from paddlelite.ops.cudnn import attention as cattn
    q, k, v = (a.astype(np.float16) for a in arrays([(1, 4, 2, 8)] * 3))
    so = np.array([3, 1], np.int64)
    fake.decline = ("SDPA_BWD",)
    assert cattn.sdpa_forward(np, q, k, v, None, so, 0.2, False) is None  # the kernels take both passes
    assert cattn.sdpa_forward(np, q, k, v, None, so, 0.0, False) is not None  # without dropout the forward is free


def test_cudnn_sdpa_declines_float32_and_odd_head_dims(fake):
    from paddlelite.ops.cudnn import attention as cattn
    so = np.zeros(2, np.int64)
    q32 = arrays([(1, 4, 2, 8)])[0]
    assert cattn.sdpa_forward(np, q32, q32, q32, None, so, 0.0, False) is None
    q12 = arrays([(1, 4, 2, 12)])[0].astype(np.float16)
    assert cattn.sdpa_forward(np, q12, q12, q12, None, so, 0.0, False) is None
    assert not fake.steps


# ---- where the fused op is used -----------------------------------------------------------------------------
def test_cpu_attention_is_paddles_math_composition():
    """On the CPU, F.scaled_dot_product_attention builds Paddle's math ops (its CPU build and static programs)."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            q = paddle.static.data("q", [2, 4, 2, 8], "float32")
            paddle.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.1)
        types = [op.type for op in main.global_block().ops]
    finally:
        paddle.disable_static()
    assert "flash_attn" not in types and "softmax" in types and "dropout" in types


@pytest.mark.parametrize("with_mask", [False, True])
def test_multi_head_attention_fused_path(monkeypatch, with_mask):
    """MultiHeadAttention through the fused op (as on a GPU) computes what its unfused ops compute, gradients and
    dropout included; with need_weights it stays unfused (the weights are an output)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 16))
    mask = rng.random((2, 1, 5, 5)) > 0.3 if with_mask else None
    results = []
    for fused in (False, True):
        monkeypatch.setattr(fattn, "fused_applies", lambda query, attn_mask=None, fused=fused: fused)
        paddle.seed(3)
        mha = paddle.nn.MultiHeadAttention(16, 4, dropout=0.2)
        mha.to(dtype="float64")
        xs = paddle.to_tensor(x, stop_gradient=False)
        out = mha(xs, attn_mask=None if mask is None else paddle.to_tensor(mask))
        out.sum().backward()
        results.append([out.numpy(), xs.grad.numpy(), mha.q_proj.weight.grad.numpy()])
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, rtol=1e-9, atol=1e-10)


@differential(rtol=1e-9, atol=1e-9)
def test_flash_attention_vs_paddle(paddle):
    data = np.random.default_rng(4).standard_normal((3, 2, 5, 2, 4))
    q, k, v = (paddle.to_tensor(d, stop_gradient=False) for d in data)
    out, softmax = paddle.nn.functional.flash_attention.flash_attention(q, k, v, causal=True)
    (out * paddle.to_tensor(np.linspace(-1, 1, out.size).reshape(out.shape))).sum().backward()
    return {"out": out, "softmax": softmax, "dq": q.grad, "dk": k.grad, "dv": v.grad}


@pytest.mark.parametrize("mask_dtype", ["bool", "int64", "float32"])
def test_multi_head_attention_masks_vs_paddle(mask_dtype):
    """MultiHeadAttention's masks as Paddle reads them: bool and integer masks keep their True / 1 positions, float
    masks are added (on a GPU the fused op gets the same additive mask)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    keep = rng.random((2, 1, 4, 4)) > 0.3
    mask = keep.astype(mask_dtype) if mask_dtype != "float32" else np.where(keep, 0.0, -1e9).astype(np.float32)
    weights = [rng.standard_normal(s).astype(np.float32) * 0.3 for s in ((8, 8), (8,)) * 4]

    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        mha = paddle.nn.MultiHeadAttention(8, 2)
        for p, w in zip(mha.parameters(), weights):
            p.set_value(w)
        return {"out": mha(paddle.to_tensor(x), attn_mask=paddle.to_tensor(mask))}


# ---- variable-length sequences (flash_attn_unpadded) -----------------------------------------------------------
@pytest.mark.parametrize("kind", ["plain", "causal", "gqa", "scale"])
def test_flash_attn_unpadded_is_attention_per_sequence(monkeypatch, kind):
    """Packed sequences through the fused op (as on a GPU) give each sequence's own attention, gradients
    included: the keys past a sequence's end are masked, its padded query rows dropped."""
    monkeypatch.setattr(fattn, "fused_applies", lambda query, attn_mask=None: True)
    lens_q = [3, 1, 5]
    lens_k = lens_q if kind == "causal" else [4, 2, 1]
    hk = 1 if kind == "gqa" else 2
    scale = 0.3 if kind == "scale" else 8 ** -0.5
    q, k, v = arrays([(sum(lens_q), 2, 8), (sum(lens_k), hk, 8), (sum(lens_k), hk, 8)], np.float64, seed=6)
    cu_q, cu_k = (np.concatenate([[0], np.cumsum(n)]).astype(np.int32) for n in (lens_q, lens_k))
    weight = np.linspace(-1, 1, q.size).reshape(q.shape)
    results = []
    for packed in (True, False):
        ts = [paddle.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
        if packed:
            out, softmax = paddle.nn.functional.flash_attention.flash_attn_unpadded(
                *ts, paddle.to_tensor(cu_q), paddle.to_tensor(cu_k), max(lens_q), max(lens_k), scale,
                causal=kind == "causal")
            assert softmax is None
        else:
            outs = []
            for i in range(len(lens_q)):
                qi = ts[0][int(cu_q[i]):int(cu_q[i + 1])]
                ki, vi = (t[int(cu_k[i]):int(cu_k[i + 1])] for t in ts[1:])
                ki, vi = (paddle.repeat_interleave(t, 2 // hk, axis=1) for t in (ki, vi))
                outs.append(paddle.nn.functional.scaled_dot_product_attention(
                    qi.unsqueeze(0), ki.unsqueeze(0), vi.unsqueeze(0), is_causal=kind == "causal", scale=scale)[0])
            out = paddle.concat(outs)
        (out * paddle.to_tensor(weight)).sum().backward()
        results.append([out.numpy(), *(t.grad.numpy() for t in ts)])
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_flash_attn_unpadded_rejects_bad_input():
    q = paddle.ones([4, 2, 8])
    cu = paddle.to_tensor(np.array([0, 4], np.int32))
    F = paddle.nn.functional.flash_attention
    with pytest.raises(ValueError, match="flash_attn_unpadded: query must be 3-D"):
        F.flash_attn_unpadded(paddle.ones([1, 4, 2, 8]), q, q, cu, cu, 4, 4, 0.3)
    with pytest.raises(ValueError, match="cu_seqlens_k must be a 1-D int32 tensor"):
        F.flash_attn_unpadded(q, q, q, cu, paddle.to_tensor([0.0, 4.0]), 4, 4, 0.3)
    with pytest.raises(ValueError, match="must describe one batch"):
        F.flash_attn_unpadded(q, q, q, cu, paddle.to_tensor(np.array([0, 2, 4], np.int32)), 4, 4, 0.3)


@differential(expected=raises(RuntimeError))
def test_flash_attn_unpadded_on_the_cpu_raises_as_paddle(paddle):
    q = paddle.to_tensor(np.ones((6, 2, 8), np.float32))
    cu = paddle.to_tensor(np.array([0, 2, 6], np.int32))
    paddle.nn.functional.flash_attention.flash_attn_unpadded(q, q, q, cu, cu, 4, 4, 0.3)


def test_calc_reduced_attention_scores_sums_the_weights(monkeypatch):
    """From the fused op's softmax_lse (as on a GPU): the attention weights summed over the queries."""
    monkeypatch.setattr(fattn, "fused_applies", lambda query, attn_mask=None: True)
    q, k = (paddle.to_tensor(a) for a in arrays([(2, 5, 3, 8), (2, 7, 3, 8)], seed=8))
    op = get_op("flash_attn")
    _, weights, lse, _ = op.forward(np, q.numpy(), k.numpy(), k.numpy(), None, None,
                                    **op.fill_attrs({"return_softmax": True}))
    got = paddle.nn.functional.flash_attention.calc_reduced_attention_scores(q, k, paddle.to_tensor(lse))
    assert got.shape == [2, 3, 1, 7] and got.dtype.name == "float32"
    np.testing.assert_allclose(got.numpy(), weights.sum(axis=2, keepdims=True), rtol=1e-5)
    with pytest.raises(ValueError, match="softmax_lse must be float32"):
        paddle.nn.functional.flash_attention.calc_reduced_attention_scores(q, k, paddle.to_tensor(lse[:, :, :4]))


@differential(expected=raises(RuntimeError))
def test_calc_reduced_attention_scores_on_the_cpu_raises_as_paddle(paddle):
    q = paddle.to_tensor(np.ones((1, 4, 2, 8), np.float32))
    paddle.nn.functional.flash_attention.calc_reduced_attention_scores(q, q, paddle.to_tensor(np.zeros((1, 2, 4),
                                                                                                       np.float32)))
