"""paddle.incubate.nn.functional's float8 names and training backward steps against NumPy references written from
Paddle's kernels and tests (paddle/phi/kernels/legacy/gpu/fp8_quant_blockwise_kernel.cu, fusion/gpu/quant_utils.h,
fused_stack_transpose_quant_kernel.cu, fused_transpose_split_quant_kernel.cu,
fused_weighted_swiglu_act_quant_kernel.cu, cross_entropy_bwd_w_downcast.cu; the block-loop GEMM references of
test/legacy_test/test_fp8_gemm_blockwise.py -- PaddlePaddle, Apache-2.0). float8 comes from ml_dtypes."""
import ml_dtypes
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.incubate.nn import functional as F

E4M3 = ml_dtypes.float8_e4m3fn


def _scale(amax, pow2, eps=0.0):
    """Paddle's ScaleWrapper / ComputeScale for one block (float32 arithmetic)."""
    amax = np.float32(max(amax, eps))
    if amax == 0:
        return np.float32(1)
    with np.errstate(divide="ignore"):
        scale = np.float32(448.0) / amax
    if np.isinf(scale):
        return np.float32(2.0 ** 127) if pow2 else np.float32(np.ldexp(np.float64(0x1FE), 119))
    if pow2:
        scale = np.float32(2.0 ** np.floor(np.log2(np.float64(scale))))
    return scale


def _quant_reference(x, block_rows, pow2):
    """x [M, N] float32 in block_rows x 128 blocks, block by block: (e4m3 [M, N], decode [M / block_rows, B])."""
    rows, cols = x.shape
    q = np.zeros((rows, cols), E4M3)
    decode = np.zeros((-(-rows // block_rows), -(-cols // 128)), np.float32)
    for bi in range(decode.shape[0]):
        for bj in range(decode.shape[1]):
            block = x[bi * block_rows:(bi + 1) * block_rows, bj * 128:(bj + 1) * 128]
            s = _scale(np.abs(block).max(), pow2)
            q[bi * block_rows:(bi + 1) * block_rows, bj * 128:(bj + 1) * 128] = \
                np.clip(block * s, -448, 448).astype(E4M3)
            decode[bi, bj] = np.float32(1) / s
    return q, decode


def _bf16(shape, seed, scale=3.0):
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * scale
    return values.astype(ml_dtypes.bfloat16).astype(np.float32)


def _tensor_bf16(values):
    return paddle.to_tensor(values).astype("bfloat16")


def _bits(t):
    return t.numpy().view(np.uint8)


@pytest.mark.parametrize("method,block_rows", [("1x128", 1), ("128x128", 128)])
@pytest.mark.parametrize("pow2", [True, False])
@pytest.mark.parametrize("transpose_scale", [True, False])
def test_fp8_quant_blockwise_matches_the_block_reference(method, block_rows, pow2, transpose_scale):
    x = _bf16((256, 384), 0)
    x[:128, 128:256] = 0  # an all-zero block takes scale 1
    q, scale = F.fp8_quant_blockwise(_tensor_bf16(x), quant_method=method, using_pow2_scale=pow2,
                                     output_scale_transpose=transpose_scale)
    want_q, want_decode = _quant_reference(x, block_rows, pow2)
    assert q.dtype.name == "float8_e4m3fn" and scale.dtype.name == "float32"
    np.testing.assert_array_equal(_bits(q), want_q.view(np.uint8))
    np.testing.assert_array_equal(scale.numpy(), want_decode.T if transpose_scale else want_decode)


def test_fp8_quant_blockwise_input_transpose_quantizes_the_columns_too():
    x = _bf16((128, 256), 1)
    q, scale, q_t, scale_t = F.fp8_quant_blockwise(_tensor_bf16(x), input_transpose=True,
                                                   output_scale_transpose=False, using_pow2_scale=False)
    want_q_t, want_decode_t = _quant_reference(np.ascontiguousarray(x.T), 1, False)
    np.testing.assert_array_equal(_bits(q_t), want_q_t.view(np.uint8))
    np.testing.assert_array_equal(scale_t.numpy(), want_decode_t)
    only = F.fp8_quant_blockwise(_tensor_bf16(x), input_transpose=True, return_transpose_only=True,
                                 output_scale_transpose=False, using_pow2_scale=False)
    assert len(only) == 2
    np.testing.assert_array_equal(_bits(only[0]), _bits(q_t))


def test_fp8_quant_blockwise_ue8m0_packs_four_exponents_per_int32():
    x = _bf16((4, 640), 2)  # 5 blocks per row: two int32 words, the second with one live byte
    _, scale = F.fp8_quant_blockwise(_tensor_bf16(x), using_ue8m0_scale=True, output_scale_transpose=False)
    _, decode = _quant_reference(x, 1, True)
    assert scale.dtype.name == "int32" and scale.shape == [4, 2]
    exponents = scale.numpy().view(np.uint8).reshape(4, 8)
    np.testing.assert_array_equal(exponents[:, :5], (decode.view(np.uint32) >> 23).astype(np.uint8))
    np.testing.assert_array_equal(exponents[:, 5:], 0)


def test_fp8_quant_blockwise_partial_last_block_and_errors():
    x = _bf16((3, 200), 3)
    q, scale = F.fp8_quant_blockwise(_tensor_bf16(x), output_scale_transpose=False, using_pow2_scale=False)
    want_q, want_decode = _quant_reference(x, 1, False)
    np.testing.assert_array_equal(_bits(q), want_q.view(np.uint8))
    np.testing.assert_array_equal(scale.numpy(), want_decode)
    with pytest.raises(ValueError, match="multiples of 128"):
        F.fp8_quant_blockwise(_tensor_bf16(x), quant_method="128x128")
    with pytest.raises(ValueError, match="Unsupported quantization method"):
        F.fp8_quant_blockwise(_tensor_bf16(x), quant_method="1x64")
    with pytest.raises(TypeError, match="bfloat16 or float16"):
        F.fp8_quant_blockwise(paddle.to_tensor(x))


def test_fused_act_dequant_undoes_the_quantization():
    x = _bf16((5, 300), 4)
    q, scale = F.fp8_quant_blockwise(_tensor_bf16(x), output_scale_transpose=False)
    out = F.fused_act_dequant(q, scale)
    assert out.dtype.name == "bfloat16"
    want = q.numpy().astype(np.float32) * np.repeat(scale.numpy(), 128, axis=1)[:, :300]
    np.testing.assert_array_equal(out.astype("float32").numpy(), want.astype(ml_dtypes.bfloat16).astype(np.float32))
    _, packed = F.fp8_quant_blockwise(_tensor_bf16(x), output_scale_transpose=False, using_ue8m0_scale=True)
    np.testing.assert_array_equal(F.fused_act_dequant(q, packed).numpy(), out.numpy())


def _gemm_reference(a, b, a_decode, b_decode, a_1d, b_1d):
    """Paddle's test loop: out += (a_blk @ b_blk.T) * a_scale * b_scale over 128-wide k blocks."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    out = np.zeros((a.shape[0], b.shape[0]), np.float32)
    for k in range(0, a.shape[1], 128):
        sa = a_decode[k // 128][:, None] if a_1d else np.repeat(a_decode[:, k // 128], 128)[:, None]
        sb = b_decode[k // 128][None, :] if b_1d else np.repeat(b_decode[:, k // 128], 128)[None, :]
        out += (a[:, k:k + 128] @ b[:, k:k + 128].T) * sa * sb
    return out


@pytest.mark.parametrize("a_1d,b_1d", [(True, False), (False, True), (True, True)])
def test_fp8_gemm_blockwise_matches_paddles_block_loop(a_1d, b_1d):
    a, b = _bf16((256, 384), 5, 1.0), _bf16((128, 384), 6, 1.0)
    qa, sa = F.fp8_quant_blockwise(_tensor_bf16(a), quant_method="1x128" if a_1d else "128x128",
                                   output_scale_transpose=a_1d, using_pow2_scale=False)
    qb, sb = F.fp8_quant_blockwise(_tensor_bf16(b), quant_method="1x128" if b_1d else "128x128",
                                   output_scale_transpose=b_1d, using_pow2_scale=False)
    want = _gemm_reference(qa.numpy(), qb.numpy(), sa.numpy(), sb.numpy(), a_1d, b_1d)
    out = F.fp8_gemm_blockwise(qa, sa, qb, sb, "float32", is_a_1d_scaled=a_1d, is_b_1d_scaled=b_1d)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-4)
    gold = a @ b.T  # the product of the values quantized: float8's 3 mantissa bits keep within a few percent
    assert np.sqrt(((want - gold) ** 2).mean()) < 0.06 * np.sqrt((gold ** 2).mean())
    c = paddle.ones([256, 128], "bfloat16")
    got = F.fp8_gemm_blockwise(qa, sa, qb, sb, "bfloat16", c, accumulate=True, is_a_1d_scaled=a_1d,
                               is_b_1d_scaled=b_1d)
    assert got is c and c.dtype.name == "bfloat16"
    np.testing.assert_allclose(c.astype("float32").numpy(), want + 1, rtol=1e-2, atol=1e-2)
    with pytest.raises(AssertionError, match="Bias is not supported"):
        F.fp8_gemm_blockwise(qa, sa, qb, sb, "float32", bias=c)


def test_fused_stack_transpose_quant_is_128x128_quantization_of_the_stack():
    xs = [_bf16((256, 128), 7 + i) for i in range(2)]
    out, scale = F.fused_stack_transpose_quant([_tensor_bf16(x) for x in xs], transpose=True)
    assert out.shape == [256, 256] and scale.shape == [2, 2]
    want_q, want_decode = _quant_reference(np.concatenate([x.T for x in xs]), 128, False)
    np.testing.assert_array_equal(_bits(out), want_q.view(np.uint8))
    np.testing.assert_array_equal(scale.numpy(), want_decode)
    out, scale = F.fused_stack_transpose_quant([_tensor_bf16(x) for x in xs], transpose=False)
    want_q, want_decode = _quant_reference(np.concatenate(xs), 128, False)
    assert out.shape == [512, 128] and scale.shape == [4, 1]
    np.testing.assert_array_equal(_bits(out), want_q.view(np.uint8))


@pytest.mark.parametrize("pow2", [True, False])
def test_fused_transpose_split_quant_quantizes_each_experts_tokens(pow2):
    x = _bf16((384, 256), 9)
    outs, scales = F.fused_transpose_split_quant(_tensor_bf16(x), None, [128, 0, 256], pow_2_scales=pow2)
    assert [o.shape for o in outs] == [[256, 128], [256, 0], [256, 256]]
    assert [s.shape for s in scales] == [[1, 256], [0, 256], [2, 256]]
    for out, scale, rows in zip(outs, scales, (slice(0, 128), slice(128, 128), slice(128, 384))):
        if out.shape[1]:
            want_q, want_decode = _quant_reference(np.ascontiguousarray(x[rows].T), 1, pow2)
            np.testing.assert_array_equal(_bits(out), want_q.view(np.uint8))
            np.testing.assert_array_equal(scale.numpy(), want_decode.T)
    q, s = F.fp8_quant_blockwise(_tensor_bf16(x), output_scale_transpose=False, using_pow2_scale=False)
    from_fp8, _ = F.fused_transpose_split_quant(q, s, [384], pow_2_scales=pow2)
    dequant = F.fused_act_dequant(q, s).astype("float32").numpy()
    np.testing.assert_array_equal(_bits(from_fp8[0]), _quant_reference(dequant.T.copy(), 1, pow2)[0].view(np.uint8))
    assert F.fused_transpose_split_quant(_tensor_bf16(np.zeros((0, 4), np.float32)), None, []) == ([], [])


def test_fused_transpose_wlch_split_quant_reads_rows_in_lwc_order():
    x = _bf16((2, 3, 64, 32), 17)  # W, L, C, H: 384 rows in [L, W, C] order
    outs, scales = F.fused_transpose_wlch_split_quant(_tensor_bf16(x), [256, 128], pow_2_scales=True)
    rows = x.transpose(1, 0, 2, 3).reshape(384, 32)
    for out, scale, part in zip(outs, scales, (rows[:256], rows[256:])):
        want_q, want_decode = _quant_reference(np.ascontiguousarray(part.T), 1, True)
        np.testing.assert_array_equal(_bits(out), want_q.view(np.uint8))
        np.testing.assert_array_equal(scale.numpy(), want_decode.T)
    assert [o.shape for o in outs] == [[32, 256], [32, 128]]


@pytest.mark.parametrize("with_prob", [True, False])
def test_fused_weighted_swiglu_act_quant(with_prob):
    x = _bf16((2, 3, 320), 10, 1.0)
    prob = np.random.default_rng(11).random(6).astype(np.float32)
    out, scale = F.fused_weighted_swiglu_act_quant(_tensor_bf16(x), paddle.to_tensor(prob) if with_prob else None,
                                                   using_pow2_scaling=True)
    rows = x.reshape(6, 320)
    gate, up = rows[:, :160], rows[:, 160:]
    act = gate / (1 + np.exp(-gate)) * up * (prob[:, None] if with_prob else 1)
    want_q, want_decode = _quant_reference(act.astype(np.float32), 1, True)
    assert out.shape == [6, 160] and scale.shape == [6, 2]
    mismatch = (_bits(out) != want_q.view(np.uint8)).mean()
    assert mismatch < 0.01  # exp's last-bit differences can move a value across a rounding boundary
    np.testing.assert_array_equal(scale.numpy(), want_decode)


def test_fused_swiglu_weighted_bwd_is_the_registrys_gradient():
    g = np.random.default_rng(12)
    o1, do2, prob = (g.standard_normal((4, 2, 8)).astype(np.float32), g.standard_normal((4, 2, 4)).astype(np.float32),
                     g.random((4, 2, 1)).astype(np.float32))
    do1, probs_grad, o2_s = F.fused_swiglu_weighted_bwd(paddle.to_tensor(o1), paddle.to_tensor(do2),
                                                        paddle.to_tensor(prob))
    x, p = paddle.to_tensor(o1, stop_gradient=False), paddle.to_tensor(prob, stop_gradient=False)
    out = F.swiglu(x) * p
    (out * paddle.to_tensor(do2)).sum().backward()
    np.testing.assert_allclose(o2_s.numpy(), out.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(do1.numpy(), x.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(probs_grad.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert probs_grad.dtype.name == "float32" and probs_grad.shape == [4, 2, 1]


def test_cross_entropy_with_softmax_bwd_w_downcast():
    g = np.random.default_rng(13)
    logits = g.standard_normal((5, 7)).astype(np.float32)
    softmax = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    label = np.array([[1], [6], [-100], [0], [3]], np.int64)
    loss_grad = g.random((5, 1)).astype(np.float32)
    got = F.cross_entropy_with_softmax_bwd_w_downcast(paddle.to_tensor(label), paddle.to_tensor(softmax),
                                                      paddle.to_tensor(loss_grad))
    onehot = np.eye(7, dtype=np.float32)[np.where(label[:, 0] < 0, 0, label[:, 0])]
    want = np.where(label != -100, (softmax - onehot) * loss_grad, 0).astype(ml_dtypes.bfloat16)
    assert got.dtype.name == "bfloat16"
    np.testing.assert_array_equal(got.astype("float32").numpy(), want.astype(np.float32))


def test_embedding_grad_add_to_accumulates_in_place():
    g = np.random.default_rng(14)
    main = g.standard_normal((6, 3)).astype(np.float32)
    ids = np.array([[0, 5, 0], [2, 2, 1]], np.int64)
    dout = g.standard_normal((2, 3, 3)).astype(np.float32)
    main_t = paddle.to_tensor(main)
    back = F.embedding_grad_add_to_(paddle.to_tensor(ids), main_t, paddle.to_tensor(dout).astype("bfloat16"))
    assert back is main_t
    want = main.copy()
    np.add.at(want, ids.ravel(), dout.reshape(-1, 3).astype(ml_dtypes.bfloat16).astype(np.float32))
    np.testing.assert_allclose(main_t.numpy(), want, rtol=1e-6)


def test_moe_gate_dispatch_and_quant_quantizes_the_dispatched_rows():
    g = np.random.default_rng(15)
    x = _tensor_bf16(g.standard_normal((6, 256)).astype(np.float32))
    gate = paddle.to_tensor(g.random((6, 4)).astype(np.float32))
    y_fp8, scale, *routing = F.moe_gate_dispatch_and_quant(x, gate, None, 2, 3, True, True)
    y, *want_routing = F.moe_gate_dispatch(x, gate, None, 2, 3, True)
    q, s = F.fp8_quant_blockwise(y, output_scale_transpose=False)
    np.testing.assert_array_equal(_bits(y_fp8), _bits(q))
    np.testing.assert_array_equal(scale.numpy(), s.numpy())
    for ours, ref in zip(routing, want_routing):
        np.testing.assert_array_equal(ours.numpy(), ref.numpy())


def test_fp8_quant_blockwise_in_a_static_program():
    x = _bf16((128, 256), 16)
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            xv = paddle.static.data("x", [128, 256], "bfloat16")
            q, scale = F.fp8_quant_blockwise(xv, output_scale_transpose=False)
            assert list(q.shape) == [128, 256] and list(scale.shape) == [128, 2]
        got_q, got_s = paddle.static.Executor(paddle.CPUPlace()).run(
            main, feed={"x": x.astype(ml_dtypes.bfloat16)}, fetch_list=[q, scale])
    finally:
        paddle.disable_static()
    want_q, want_decode = _quant_reference(x, 1, True)
    np.testing.assert_array_equal(np.asarray(got_q).view(np.uint8), want_q.view(np.uint8))
    np.testing.assert_array_equal(got_s, want_decode)


@pytest.mark.gpu
def test_quantization_on_the_gpu_matches_the_cpu():
    x = _bf16((256, 384), 18)
    w = _bf16((128, 384), 19, 1.0)
    results = {}
    for device in ("cpu", "gpu"):
        paddle.set_device(device)
        try:
            q, s = F.fp8_quant_blockwise(_tensor_bf16(x), using_pow2_scale=False)
            qw, sw = F.fp8_quant_blockwise(_tensor_bf16(w), quant_method="128x128", output_scale_transpose=False)
            out = F.fp8_gemm_blockwise(q, s, qw, sw, "float32", is_b_1d_scaled=False)
            outs, scales = F.fused_transpose_split_quant(_tensor_bf16(x), None, [128, 128], pow_2_scales=True)
            act, act_scale = F.fused_weighted_swiglu_act_quant(_tensor_bf16(x))
            results[device] = [_bits(q), s.numpy(), out.numpy(), *[_bits(o) for o in outs],
                               *[t.numpy() for t in scales], act_scale.numpy()]
        finally:
            paddle.set_device("cpu")
    for ours, ref in zip(results["gpu"], results["cpu"]):
        np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-5)
