"""The fused CUDA kernels' own source, run on the CPU through tests/cuda_emu (g++ + shim), against the
registry ops' NumPy forwards. The launch code is paddlelite.ops.launch and the ops' own kernel bindings
(NumPy arrays in place of CuPy arrays), so this covers both the kernels and their host side. Shapes are tiny, odd,
and not multiples of the block or of the vector width; inputs are also given non-contiguous.
"""
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from paddlelite.device import kernels as K
from paddlelite.ops.launch import activation as act_launch
from paddlelite.ops.launch import dropout as dropout_launch
from paddlelite.ops.launch import embedding as emb_launch
from paddlelite.ops.launch import layer_norm as ln_launch
from paddlelite.ops.launch import optimizer as opt_launch
from paddlelite.ops.launch import reduce as red_launch
from paddlelite.ops.launch import rnn as rnn_launch
from paddlelite.ops.launch import softmax_ce as sce_launch
from paddlelite.ops.registry import device_impls, get_op

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the CUDA emulation needs g++")

TOL = {np.float32: (2e-5, 2e-5), np.float16: (1e-2, 1e-2)}


@pytest.fixture(scope="module")
def emu():
    """The emulator as the kernel backend: every launch in this module runs the real kernel sources."""
    from tests.cuda_emu.emu import EmuModules
    with K.use_backend(EmuModules()) as modules:
        yield modules


@pytest.fixture(scope="module")
def impls(emu):
    return device_impls("gpu")


def close(got, ref, dtype):
    rtol, atol = TOL[np.dtype(dtype).type]
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=atol)


def check(impls, op, arrays, attrs, dtype):
    got = impls[op](np, *arrays, **attrs)
    ref = get_op(op).forward(np, *arrays, **attrs)
    if isinstance(ref, tuple):
        for g, r in zip(got, ref):
            if isinstance(r, list):
                for gi, ri in zip(g, r):
                    close(gi, ri, dtype)
            else:
                close(g, r, dtype)
    else:
        close(got, ref, dtype)
    return got


def strided(a):
    """The same values in a non-contiguous array."""
    big = np.empty(a.shape[:-1] + (a.shape[-1] * 2,), a.dtype) if a.ndim else np.empty((2,), a.dtype)
    if not a.ndim:
        return a
    big[..., ::2] = a
    return big[..., ::2]


R = np.random.default_rng(0)


def randn(*shape, dtype=np.float32):
    return R.standard_normal(shape).astype(dtype)


DTYPES = [np.float32, np.float16]


# ---- softmax + cross-entropy ----------------------------------------------------------------------
def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((5, 7), -1), ((3, 8), -1), ((2, 5, 3), 1), ((33, 12), 1), ((4, 1), -1), ((70, 12), -1),
                                        ((4, 2100), -1), ((3, 2101), -1)])
@pytest.mark.parametrize("soft", [False, True])
def test_softmax_ce_grad(impls, dtype, shape, axis, soft):
    sm = _softmax(randn(*shape), axis).astype(dtype)
    lshape = list(shape)
    lshape[axis] = 1
    if soft:
        label = R.uniform(0, 1, shape).astype(dtype)  # rows need not sum to 1 (Paddle's grad ignores the sum)
    else:
        label = R.integers(0, shape[axis], lshape).astype(np.int64)
        label.reshape(-1)[::3] = -100  # ignore_index
    dl = randn(*lshape, dtype=dtype)
    attrs = dict(soft_label=soft, ignore_index=-100, axis=axis, numeric_stable_mode=True, use_softmax=True)
    check(impls, "softmax_with_cross_entropy_grad", (label, sm, dl), attrs, dtype)
    check(impls, "softmax_with_cross_entropy_grad", (label, strided(sm), dl), attrs, dtype)


def test_softmax_ce_grad_int32_labels_and_scalar_mean(emu):
    sm = _softmax(randn(6, 9), -1)
    lab = R.integers(0, 9, (6, 1)).astype(np.int32)
    dl = np.full((1,), 0.5, np.float32)  # a broadcast loss gradient (fused mean: scale = 1/N)
    got = sce_launch.softmax_ce_grad(np, lab, sm, dl, False, -100, -1, scale=1 / 6)
    ref = (sm - (np.arange(9) == lab)) * (0.5 / 6)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-7)


ROW_SHAPES = [(5, 7), (1, 1), (3, 33), (2, 3, 64), (70, 12), (4, 1000), (2, 2101)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", ROW_SHAPES)
def test_softmax_rows(impls, dtype, shape):
    x = randn(*shape, dtype=dtype) * 4
    x.reshape(-1)[::5] = -200  # past Paddle's clip at -64 below the maximum
    out = check(impls, "softmax", (x,), {"axis": -1}, dtype)
    check(impls, "softmax", (strided(x),), {"axis": -1}, dtype)
    check(impls, "softmax_grad", (out, randn(*shape, dtype=dtype)), {"axis": -1}, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", ROW_SHAPES)
@pytest.mark.parametrize("label_dtype", [np.int64, np.int32])
def test_softmax_ce_forward_hard_labels(impls, dtype, shape, label_dtype):
    x = randn(*shape, dtype=dtype) * 3
    label = R.integers(0, shape[-1], shape[:-1] + (1,)).astype(label_dtype)
    label.reshape(-1)[::3] = -100  # ignore_index
    attrs = dict(soft_label=False, ignore_index=-100, axis=-1, numeric_stable_mode=True, use_softmax=True)
    check(impls, "softmax_with_cross_entropy", (x, label), attrs, dtype)


def test_softmax_ce_forward_flags_a_label_out_of_range(emu):
    x = randn(3, 4)
    _, loss, bad = sce_launch.softmax_ce_hard(np, x, np.array([[0], [4], [1]]), -100, -1)
    assert bad[0] == 1 and np.isfinite(loss).all()  # the bad row's loss is class 0's, the host raises later
    _, _, bad = sce_launch.softmax_ce_hard(np, x, np.array([[0], [-100], [3]]), -100, -1)
    assert bad[0] == 0


# ---- layer_norm -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((4, 10), 1), ((3, 2, 33), 2), ((2, 3, 5), 1), ((9, 64), 1), ((2, 777), 1),
                                        ((300, 8), 1)])
@pytest.mark.parametrize("affine", ["both", "scale", "bias", "none", "f32 params"])
def test_layer_norm_forward(impls, dtype, shape, axis, affine):
    """One launch of ln_fwd gives Y, Mean and Variance as the reference does (a warp per row; rows more than the
    grid's warps)."""
    x = randn(*shape, dtype=dtype) * 3 + 1
    n = int(np.prod(shape[axis:]))
    pdt = np.float32 if affine == "f32 params" else dtype
    scale = randn(n, dtype=pdt) if affine in ("both", "scale", "f32 params") else None
    bias = randn(n, dtype=pdt) if affine in ("both", "bias", "f32 params") else None
    kern = K.kernel("layer_norm", f"ln_fwd_{ {np.float32: 'f32', np.float16: 'f16'}[dtype] }_"
                                  f"{ {np.float32: 'f32', np.float16: 'f16'}[pdt] }")
    before = kern.launches
    check(impls, "layer_norm", (x, scale, bias), dict(epsilon=1e-5, begin_norm_axis=axis), dtype)
    assert kern.launches == before + 1


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((4, 10), 1), ((3, 2, 33), 2), ((7, 64), 1), ((2, 3, 5), 1), ((2, 300), 1),
                                        ((3, 1000), 1), ((2, 777), 1), ((70, 96), 1), ((3, 2000), 1), ((5, 3000), 1),
                                        ((2, 4100), 1)])
@pytest.mark.parametrize("with_scale", [True, False])
@pytest.mark.parametrize("occupancy", [True, False], ids=["warp4", "warp8"])
def test_layer_norm_grad(impls, dtype, shape, axis, with_scale, occupancy, monkeypatch):
    monkeypatch.setattr(ln_launch, "PREFER_OCCUPANCY", occupancy)  # rows fitting both warp kernels: each one
    x = randn(*shape, dtype=dtype)
    n = int(np.prod(shape[axis:]))
    y, mean, var = get_op("layer_norm").forward(np, x, randn(n, dtype=dtype), None, epsilon=1e-5,
                                                begin_norm_axis=axis)
    scale = randn(n, dtype=dtype) if with_scale else None
    dy = randn(*shape, dtype=dtype)
    check(impls, "layer_norm_grad", (x, scale, mean, var, dy), dict(epsilon=1e-5, begin_norm_axis=axis), dtype)


def test_layer_norm_grad_large_rows_and_f32_scale(emu, monkeypatch):
    """N beyond blockDim * LN_MAXK takes the re-reading path; float16 X with a float32 scale."""
    monkeypatch.setattr(ln_launch, "MAXK", 8)
    x = randn(2, 8300, dtype=np.float16)
    mean = x.astype(np.float32).mean(1)
    var = x.astype(np.float32).var(1)
    scale = randn(8300)
    dy = randn(2, 8300, dtype=np.float16)
    dx, ds, db = ln_launch.layer_norm_grad(np, x, scale, mean, var, dy, 1e-5, 1)
    rdx, rds, rdb = get_op("layer_norm_grad").forward(np, x.astype(np.float32), scale, mean, var,
                                                      dy.astype(np.float32), 1e-5, 1)
    np.testing.assert_allclose(dx.astype(np.float32), rdx, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(ds, rds, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(db, rdb, rtol=1e-3, atol=1e-3)


def test_layer_norm_grad_blocks_fit_the_kernels_thread_limit(emu, monkeypatch):
    """A kernel whose registers allow fewer threads per block (72 on an H100: 896, not 1024) launches with at most
    that many (a bigger block fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES; the emulator refuses it too)."""
    monkeypatch.setattr(K.kernel("layer_norm", "ln_bwd_f32_f32"), "max_threads_per_block", 96)
    x, dy = randn(3, 2001), randn(3, 2001)  # rows for the block kernel (long, odd); 2001 / MAXK wants 256 threads
    _, mean, var = get_op("layer_norm").forward(np, x, None, None, epsilon=1e-5, begin_norm_axis=1)
    check(device_impls("gpu"), "layer_norm_grad", (x, randn(2001), mean, var, dy), dict(epsilon=1e-5, begin_norm_axis=1),
          np.float32)


# ---- the fused norms: rms_norm (kernels/rms_norm.cu) and fused_bias_residual_layernorm (ln_fwd) -------------
FUSED_NORMS = {"rms_norm": ("rms_norm", "rms_fwd", dict(epsilon=1e-5)),
               "fused_bias_residual_layernorm": ("layer_norm", "ln_fwd", dict(epsilon=1e-5, residual_alpha=0.5))}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((4, 10), 1), ((3, 2, 33), 2), ((2, 777), 1), ((300, 8), 1)])
@pytest.mark.parametrize("given", ["all", "residual", "bias", "none", "f32 params"])
@pytest.mark.parametrize("op", sorted(FUSED_NORMS))
def test_fused_norm_forward(impls, op, dtype, shape, axis, given):
    """One launch gives every output as the reference does: h = x + bias (+ alpha) * residual normalised, h as
    ResidualOut (empty without bias and residual), the float32 statistics."""
    x = randn(*shape, dtype=dtype) * 3 + 1
    n = int(np.prod(shape[axis:]))
    pdt = np.float32 if given == "f32 params" else dtype
    bias = randn(n, dtype=dtype) if given in ("all", "bias") else None
    residual = strided(randn(*shape, dtype=dtype)) if given in ("all", "residual", "f32 params") else None
    weight = randn(n, dtype=pdt) if given in ("all", "none", "f32 params") else None
    norm_bias = randn(n, dtype=pdt) if given in ("all", "f32 params") else None
    family, name, attrs = FUSED_NORMS[op]
    kern = K.kernel(family, f"{name}_{ {np.float32: 'f32', np.float16: 'f16'}[dtype] }_"
                            f"{ {np.float32: 'f32', np.float16: 'f16'}[pdt] }")
    before = kern.launches
    check(impls, op, (x, bias, residual, weight, norm_bias), dict(attrs, begin_norm_axis=axis), dtype)
    assert kern.launches == before + 1


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((4, 10), 1), ((3, 2, 33), 2), ((2, 777), 1), ((70, 96), 1)])
@pytest.mark.parametrize("with_weight,with_dres", [(True, True), (True, False), (False, True)])
def test_rms_norm_grad(impls, dtype, shape, axis, with_weight, with_dres):
    """DH and the column sums (DNormWeight, DNormBias, DBias) from one rms_bwd launch and one reduce_mid."""
    n = int(np.prod(shape[axis:]))
    h = randn(*shape, dtype=dtype)
    weight = randn(n, dtype=dtype) if with_weight else None
    _, _, inv = get_op("rms_norm").forward(np, h, None, None, weight, None, epsilon=1e-5, begin_norm_axis=axis)
    dres = randn(*shape, dtype=dtype) if with_dres else None
    check(impls, "rms_norm_grad", (h, weight, inv, strided(randn(*shape, dtype=dtype)), dres),
          dict(begin_norm_axis=axis), dtype)


def test_rms_norm_bf16_with_f32_weight(emu):
    """bfloat16 X (bit patterns) with a float32 weight: the float32 formula on the rounded inputs."""
    x, res, w = to_bf16(randn(6, 70)), to_bf16(randn(6, 70)), randn(70)
    y, h, inv = (np.empty_like(x), np.empty_like(x), np.empty(6, np.float32))
    emu.module("rms_norm").get_function("rms_fwd_bf16_f32")((1,), (64,), (
        x, x, res, w, w, y, h, inv, np.int64(6), np.int64(70), np.float32(1e-5), np.int32(0), np.int32(1), np.int32(1),
        np.int32(0)))
    hf = from_bf16(x) + from_bf16(res)
    ref_inv = 1 / np.sqrt((hf * hf).mean(1) + 1e-5)
    np.testing.assert_allclose(inv, ref_inv, rtol=1e-5)
    np.testing.assert_allclose(from_bf16(h), hf, rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(from_bf16(y), hf * ref_inv[:, None] * w, rtol=1e-2, atol=1e-2)


# ---- swiglu -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 10), (3, 2, 34), (2, 1), (300, 6)])
@pytest.mark.parametrize("with_y", [True, False])
def test_swiglu_forward_and_grad(impls, dtype, shape, with_y):
    """One launch each: silu(a) * b and (da, db), a and b two tensors or the halves of x's rows (columns wrap
    inside a thread's grid-stride steps: rows shorter and longer than the stride)."""
    if not with_y and shape[-1] % 2:
        shape = shape[:-1] + (shape[-1] * 2,)
    x = strided(randn(*shape, dtype=dtype) * 3)
    y = randn(*shape, dtype=dtype) if with_y else None
    out = check(impls, "swiglu", (x, y), {}, dtype)
    fwd, bwd = (K.kernel("activation", f"{k}_{ {np.float32: 'f32', np.float16: 'f16'}[dtype] }")
                for k in ("swiglu", "swiglu_grad"))
    before = fwd.launches, bwd.launches
    check(impls, "swiglu", (x, y), {}, dtype)
    check(impls, "swiglu_grad", (x, y, randn(*out.shape, dtype=dtype)), {}, dtype)
    assert (fwd.launches, bwd.launches) == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("act", ["silu", "gelu"])
@pytest.mark.parametrize("with_bias", [True, False])
def test_fused_glu_with_bias(impls, dtype, act, with_bias):
    """fused_bias_act's swiglu / geglu: the bias added inside swiglu's kernels; the bias gradient dx's column sums."""
    x = strided(randn(5, 3, 10, dtype=dtype))
    bias = randn(10, dtype=dtype) if with_bias else None
    check(impls, "fused_glu", (x, bias), dict(act=act), dtype)
    check(impls, "fused_glu_grad", (x, bias, randn(5, 3, 5, dtype=dtype)), dict(act=act), dtype)


# ---- fused_dropout_add ------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("mode", ["upscale_in_train", "downgrade_in_infer"])
def test_fused_dropout_add(impls, dtype, with_bias, mode):
    """(x + bias) * mask * scale + y and the mask in one launch, the mask the dropout op's from the same draws."""
    x, y = strided(randn(3, 7, 5, dtype=dtype)), randn(3, 7, 5, dtype=dtype)
    bias = randn(5, dtype=dtype) if with_bias else None
    kern = K.kernel("dropout", f"dropout_add_{ {np.float32: 'f32', np.float16: 'f16'}[dtype] }")
    before = kern.launches
    out, mask = check(impls, "fused_dropout_add", (x, bias, y),
                      dict(dropout_prob=0.35, seed=11, dropout_implementation=mode), dtype)
    assert kern.launches == before + 1 and 0 < mask.mean() < 1


def test_fused_dropout_add_reads_a_captured_draws_key_on_the_device(emu):
    """A captured graph's draw has its key in device memory: the kernel reads it there, the same words as from the
    key given as a number."""
    from paddlelite.framework.random import Draws
    x, y = randn(4, 9), randn(4, 9)
    got = [dropout_launch.dropout_add(np, Draws(np, key), x, None, y, 0.5, 2.0)
           for key in (123456789, np.array([123456789], np.uint64))]
    np.testing.assert_array_equal(got[0][1], got[1][1])
    np.testing.assert_array_equal(got[0][1], Draws(np, 123456789).random((4, 9)) >= 0.5)


# ---- fused_rope -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("neox", [True, False])
@pytest.mark.parametrize("time_major", [False, True])
@pytest.mark.parametrize("tables,positions", [(False, False), (False, True), (True, False), (True, True)])
def test_fused_rope(impls, dtype, neox, time_major, tables, positions):
    """q, k (fewer heads) and v rotated in one launch, forward and inverse (the gradient), against the reference."""
    lead = (5, 2) if time_major else (2, 5)
    q, k, v = (strided(randn(*lead, h, 6, dtype=dtype)) for h in (3, 1, 2))
    angles = np.tile(randn(7, 3) * 3, 2) if neox else np.repeat(randn(7, 3) * 3, 2, axis=1)
    sin, cos = (np.sin(angles).astype(dtype), np.cos(angles).astype(dtype)) if tables else (None, None)
    pos = R.integers(0, 7, size=(2, 5)) if positions else None
    kern = K.kernel("rope", f"rope_{ {np.float32: 'f32', np.float16: 'f16'}[dtype] }")
    before = kern.launches
    for inverse in (False, True):
        check(impls, "fused_rope", (q, k, v, sin, cos, pos), dict(use_neox_rotary_style=neox, time_major=time_major,
                                                                  rotary_emb_base=100.0, inverse=inverse), dtype)
    assert kern.launches == before + 2


def test_fused_rope_position_outside_the_tables_gives_nan(emu):
    """A position id past the given tables' rows reads nothing out of bounds: that row's outputs are NaN (the NumPy
    reference's too)."""
    q = randn(1, 2, 1, 4)
    table = np.ones((2, 4), np.float32)
    args = (q, None, None, table, table, np.array([[1, 9]]))
    attrs = dict(use_neox_rotary_style=True, time_major=False, rotary_emb_base=1e4, inverse=False)
    for out in (device_impls("gpu")["fused_rope"](np, *args, **attrs)[0], get_op("fused_rope").forward(np, *args,
                                                                                                          **attrs)[0]):
        assert np.isfinite(out[0, 0]).all() and np.isnan(out[0, 1]).all()


# ---- activation grads, bias + act, dropout --------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,attrs", [("relu_grad", {}), ("sigmoid_grad", {}), ("tanh_grad", {}),
                                      ("gelu_grad", {"approximate": False}), ("gelu_grad", {"approximate": True}),
                                      ("silu_grad", {})])
@pytest.mark.parametrize("shape", [(7,), (3, 37), (2, 4, 8)])
def test_activation_grads(impls, dtype, op, attrs, shape):
    a = randn(*shape, dtype=dtype)
    if op in ("sigmoid_grad",):
        a = (1 / (1 + np.exp(-a.astype(np.float32)))).astype(dtype)
    if op == "tanh_grad":
        a = np.tanh(a)
    d = randn(*shape, dtype=dtype)
    check(impls, op, (a, d), attrs, dtype)
    check(impls, op, (strided(a), strided(d)), attrs, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("act", ["identity", "relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu"])
@pytest.mark.parametrize("shape", [(5, 3), (70, 33), (2, 3, 8), (70, 132)])
def test_fused_bias_act_and_grad(impls, dtype, act, shape):
    x, b, d = randn(*shape, dtype=dtype), randn(shape[-1], dtype=dtype), randn(*shape, dtype=dtype)
    check(impls, "fused_bias_act", (x, b), {"act": act}, dtype)
    dtype_tol = np.float16 if dtype == np.float16 else np.float32
    got = impls["fused_bias_act_grad"](np, x, b, d, act=act)
    ref = get_op("fused_bias_act_grad").forward(np, x, b, d, act=act)
    close(got[0], ref[0], dtype_tol)
    # dbias: a float32-accumulated column sum vs the reference's sum in the input dtype
    np.testing.assert_allclose(got[1].astype(np.float64),
                               ref[0].astype(np.float64).reshape(-1, shape[-1]).sum(0), rtol=2e-3, atol=2e-2)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("attrs", [dict(dropout_prob=0.3, is_test=False, dropout_implementation="upscale_in_train"),
                                   dict(dropout_prob=0.3, is_test=False, dropout_implementation="downgrade_in_infer"),
                                   dict(dropout_prob=0.3, is_test=True, dropout_implementation="downgrade_in_infer"),
                                   dict(dropout_prob=1.0, is_test=False, dropout_implementation="upscale_in_train")])
@pytest.mark.parametrize("shape", [(9,), (4, 33)])
def test_dropout_grad(impls, dtype, attrs, shape):
    mask = (R.uniform(size=shape) > 0.3).astype(np.uint8)
    d = randn(*shape, dtype=dtype)
    check(impls, "dropout_grad", (mask, d), attrs, dtype)
    check(impls, "dropout_grad", (strided(mask), strided(d)), attrs, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("act", ["relu", "gelu", "silu", "tanh"])
def test_fused_dropout_act_grad(impls, dtype, act):
    shape = (6, 21)
    mask = (R.uniform(size=shape) > 0.5).astype(np.uint8)
    a = randn(*shape, dtype=dtype)
    if act == "tanh":
        a = np.tanh(a)
    d = randn(*shape, dtype=dtype)
    attrs = dict(act=act, dropout_prob=0.5, is_test=False, dropout_implementation="upscale_in_train")
    check(impls, "fused_dropout_act_grad", (mask, a, d), attrs, dtype)


# ---- embedding ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("padding_idx", [-1, 2, -3])
@pytest.mark.parametrize("deterministic", [False, True])
def test_embedding_grad(emu, dtype, padding_idx, deterministic):
    V, D = 7, 37
    ids = R.integers(0, V, (5, 9)).astype(np.int64)
    ids[0, :4] = 3  # repeated ids accumulate
    w = randn(V, D, dtype=dtype)
    d = randn(5, 9, D, dtype=dtype)
    from paddlelite.ops.nn import padding_row
    got = emb_launch.embedding_grad(np, ids, w, d, padding_row(padding_idx, V), deterministic=deterministic)
    ref = get_op("embedding_grad").forward(np, ids, w, d.astype(np.float32), padding_idx=padding_idx,
                                           scale_grad_by_freq=False, is_sparse=False)
    close(got.astype(np.float32), ref, dtype)
    assert got.dtype == dtype


def test_embedding_grad_deterministic_is_bitwise_reproducible(emu):
    ids = R.integers(0, 3, (64,)).astype(np.int32)
    d = randn(64, 33)
    runs = [emb_launch.embedding_grad(np, ids, np.empty((3, 33), np.float32), d, None, deterministic=True) for _ in range(2)]
    assert runs[0].tobytes() == runs[1].tobytes()
    order = np.argsort(ids, kind="stable")  # summed in token order: the same float32 sums as a serial loop
    ref = np.zeros((3, 33), np.float32)
    for t in order:
        ref[ids[t]] += d[t]
    assert runs[0].tobytes() == ref.tobytes()


@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
def test_embedding_grad_registry_impl(impls, scale_grad_by_freq):
    ids = np.array([[1, 3, 1], [0, 3, 3]], np.int64)
    check(impls, "embedding_grad", (ids, randn(5, 4), randn(2, 3, 4)),
          {"padding_idx": 0, "scale_grad_by_freq": scale_grad_by_freq, "is_sparse": False}, np.float32)


# ---- reduce_as ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("xshape,tshape", [
    ((6, 37), (37,)), ((6, 37), (6, 1)), ((3, 5, 7), (1, 5, 1)), ((3, 5, 7), (3, 1, 7)), ((2, 3, 4, 5), (3, 1, 5)),
    ((70, 9), (1,)), ((70, 9), ()), ((4, 1, 6), (4, 1, 6)), ((5, 1, 3), (1, 3)), ((2, 3000), (2, 1)),
    ((300, 40), (40,)), ((3, 300, 132), (3, 1, 132)), ((2, 1, 3), (2, 3, 1)[:0] + (2, 1, 3)), ((1, 6), (6,))])
def test_reduce_as(impls, dtype, xshape, tshape):
    x = randn(*xshape, dtype=dtype)
    t = np.empty(tshape, dtype)
    got = impls["reduce_as"](np, x, t)
    ref = get_op("reduce_as").forward(np, x.astype(np.float64), t).astype(dtype)
    rtol = 1e-5 if dtype == np.float32 else 2e-3
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=rtol * 10)
    assert got.shape == ref.shape and got.dtype == dtype
    assert not np.shares_memory(got, x)  # a fresh array even where nothing is summed
    got2 = impls["reduce_as"](np, strided(x), t)
    np.testing.assert_allclose(got2.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=rtol * 10)


def test_reduce_as_many_blocks_uses_partials(emu):
    """Rows split over several blocks (float32 partials + a second pass) give the same sums."""
    # Sums of signed values can cancel: the float32 error is bounded by the sum of magnitudes, not by the sum.
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2000, 3)).astype(np.float32)
    exact, scale = x.astype(np.float64).sum(0, keepdims=True), np.abs(x).sum(0, keepdims=True)
    for grid_y in (None, 5):
        extra = {} if grid_y is None else {"grid_y": grid_y}
        got = red_launch.reduce_mid(np, x, 1, 2000, 3, np.dtype(np.float32), **extra)
        assert np.all(np.abs(got - exact) <= 1e-6 * scale), (got, exact)
    y = rng.standard_normal((2, 20000)).astype(np.float32)
    got = red_launch.reduce_last(np, y, 2, 20000, np.dtype(np.float32))
    assert np.all(np.abs(got - y.astype(np.float64).sum(1)) <= 1e-6 * np.abs(y).sum(1))


# ---- optimizers -----------------------------------------------------------------------------------
def _f1(v):
    return np.array([v], np.float32)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (3, 17), (8, 8)])
def test_sgd_momentum(impls, dtype, shape):
    p, g, v = randn(*shape, dtype=dtype), randn(*shape, dtype=dtype), randn(*shape, dtype=dtype)
    check(impls, "sgd", (p, _f1(0.1), g, None), {"multi_precision": False}, dtype)
    for nesterov in (False, True):
        attrs = dict(mu=0.9, use_nesterov=nesterov, regularization_method="l2_decay", regularization_coeff=0.01,
                     multi_precision=False, rescale_grad=0.5)
        check(impls, "momentum", (p, g, v, _f1(0.1), None), attrs, dtype)


def test_updates_in_place(impls):
    """Inside updating_in_place the kernels write the parameter and its accumulators where they are (Optimizer._run
    takes them there anyway); a non-contiguous one gets a new array."""
    p, g, v = randn(3, 17), randn(3, 17), randn(3, 17)
    momentum = dict(mu=0.9, use_nesterov=False, regularization_method="l2_decay", regularization_coeff=0.01,
                    multi_precision=False, rescale_grad=0.5)
    want = get_op("momentum").forward(np, p, g, v, _f1(0.1), None, **momentum)
    strided_v = strided(v.copy())
    with opt_launch.updating_in_place():
        got = impls["momentum"](np, p, g, v, _f1(0.1), None, **momentum)
        out = impls["sgd"](np, strided(p), _f1(0.1), g, None, multi_precision=False)
        assert impls["momentum"](np, p.copy(), g, strided_v, _f1(0.1), None, **momentum)[1] is not strided_v
    assert got[0] is p and got[1] is v
    close(p, want[0], np.float32)
    close(v, want[1], np.float32)
    assert not np.shares_memory(out, p)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,extra", [("adam", {}), ("adamw", {"coeff": 0.01, "lr_ratio": 0.5, "with_decay": True})])
@pytest.mark.parametrize("global_pow", [False, True])
def test_adam(impls, dtype, op, extra, global_pow):
    shape = (7, 13)
    p, g = randn(*shape, dtype=dtype), randn(*shape, dtype=dtype)
    m1, m2 = randn(*shape, dtype=dtype) * 0.1, np.abs(randn(*shape, dtype=dtype)) * 0.1
    attrs = {**get_op(op).attrs, **extra, "use_global_beta_pow": global_pow}
    args = (p, g, _f1(1e-2), m1, m2, _f1(0.9 ** 3), _f1(0.999 ** 3), None)
    check(impls, op, args, attrs, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,attrs", [
    ("adagrad", {"epsilon": 1e-6}),
    ("rmsprop", {"epsilon": 1e-6, "decay": 0.9, "momentum": 0.5, "centered": False}),
    ("rmsprop", {"epsilon": 1e-6, "decay": 0.9, "momentum": 0.0, "centered": True}),
    ("adadelta", {"rho": 0.9, "epsilon": 1e-6}),
    ("adamax", {"beta1": 0.9, "beta2": 0.99, "epsilon": 1e-8}),
    ("nadam", {"beta1": 0.9, "beta2": 0.99, "epsilon": 1e-8, "momentum_decay": 0.004}),
    ("radam", {"beta1": 0.9, "beta2": 0.9, "epsilon": 1e-8}),
    ("rprop", {"learning_rate_range": [1e-3, 0.05], "etas": [0.5, 1.2]}),
])
def test_adaptive_updates(impls, dtype, op, attrs):
    shape = (7, 13)
    p, g = randn(*shape, dtype=dtype), randn(*shape, dtype=dtype)
    pos = [np.abs(randn(*shape, dtype=dtype)) * 0.1 + 0.5 for _ in range(3)]  # squares: positive, ms > mg^2
    mg = randn(*shape, dtype=dtype) * 0.1
    args = {"adagrad": (p, g, pos[0], _f1(0.1), None),
            "rmsprop": (p, pos[0], g, pos[1], _f1(0.01), mg, None),
            "adadelta": (p, g, pos[0], pos[1], _f1(1.0), None),
            "adamax": (p, g, _f1(0.01), mg, pos[0], _f1(0.9 ** 3), None),
            # element-wise powers after a few steps; radam's rho = t b2^t / (1 - b2^t) at t = 3 and 8 (both branches)
            "nadam": (p, g, _f1(0.01), np.full(shape, 0.96 ** 3, dtype), np.full(shape, 0.99 ** 3, dtype),
                      np.full(shape, 0.8, dtype), mg, pos[0], None),
            "radam": (p, g, _f1(0.01), np.full(shape, 0.9 ** 3, dtype),
                      (np.full(shape, 0.9, dtype) ** np.where(p > 0, 3, 8)).astype(dtype),
                      np.where(p > 0, 3 * 0.9 ** 3 / (1 - 0.9 ** 3), 8 * 0.9 ** 8 / (1 - 0.9 ** 8)).astype(dtype),
                      mg, pos[0], None),
            "rprop": (p, g, np.where(pos[2] > 0.55, -g, g) * (mg > 0), pos[1] * 0.05, None)}[op]
    check(impls, op, args, {**get_op(op).attrs, **attrs}, dtype)


@pytest.mark.parametrize("use_adamw", [False, True])
def test_merged_adam_one_launch(emu, use_adamw, monkeypatch):
    impls = device_impls("gpu")
    shapes = [(5,), (3, 17), (1,), (40, 9)]
    ps = [randn(*s) for s in shapes]
    gs = [randn(*s) for s in shapes]
    m1 = [randn(*s) * 0.1 for s in shapes]
    m2 = [np.abs(randn(*s)) * 0.1 for s in shapes]
    b1 = [_f1(0.9 ** 2) for _ in shapes]
    b2 = [_f1(0.999 ** 2) for _ in shapes]
    attrs = {**get_op("merged_adam").attrs, "weight_decay": 0.01, "use_adamw": use_adamw}
    monkeypatch.setattr(opt_launch, "ADAM_CHUNK", 64)  # several chunks per tensor
    kern = K.kernel("optimizer", "adam_multi_f32")
    before = kern.launches
    check(impls, "merged_adam", (ps, gs, [_f1(1e-2)], m1, m2, b1, b2, None), attrs, np.float32)
    assert kern.launches == before + 1


def test_merged_adam_in_place(emu, monkeypatch):
    """updating_in_place: the parameters, moments and beta powers updated where they are, in two launches."""
    impls = device_impls("gpu")
    monkeypatch.setattr(opt_launch, "ADAM_CHUNK", 64)
    shapes = [(5,), (3, 17), (40, 9)]
    ps, gs, m1 = ([randn(*s) for s in shapes] for _ in range(3))
    m2 = [np.abs(randn(*s)) for s in shapes]
    b1, b2 = [_f1(0.9 ** 2) for _ in shapes], [_f1(0.999 ** 2) for _ in shapes]
    attrs = {**get_op("merged_adam").attrs, "weight_decay": 0.01, "use_adamw": True}
    args = (ps, gs, [_f1(1e-2)], m1, m2, b1, b2, None)
    want = get_op("merged_adam").forward(np, *[[a.copy() for a in x] if isinstance(x, list) else x for x in args],
                                         **attrs)
    launches = [K.kernel("optimizer", name).launches for name in ("adam_multi_f32", "adam_pows_in_place")]
    with opt_launch.updating_in_place():
        got = impls["merged_adam"](np, *args, **attrs)
    assert [K.kernel("optimizer", name).launches for name in ("adam_multi_f32", "adam_pows_in_place")] == \
        [n + 1 for n in launches]
    for outs, ins, ref in zip(got, (ps, m1, m2, b1, b2), want):
        assert all(o is i for o, i in zip(outs, ins))
        for i, r in zip(ins, ref):
            close(i, r, np.float32)


def test_merged_adam_plan_is_reused_and_held_outputs_survive(emu, monkeypatch):
    """A second step on the same parameter list reuses the cached table (only the gradients' addresses are
    sent) and the dropped outputs' buffers; outputs still held from the first step are never overwritten; the
    plan dies with an array whose address it holds, and a non-contiguous input is not cached."""
    impls = device_impls("gpu")
    monkeypatch.setattr(opt_launch, "ADAM_CHUNK", 64)
    monkeypatch.setattr(opt_launch, "_PLANS", opt_launch.collections.OrderedDict())
    shapes = [(5,), (3, 17), (40, 9)]
    ps, m1, m2 = ([randn(*s) for s in shapes] for _ in range(3))
    m2 = [np.abs(a) for a in m2]
    b1, b2 = [_f1(0.9 ** 2) for _ in shapes], [_f1(0.999 ** 2) for _ in shapes]
    lr = [_f1(1e-2)]
    attrs = {**get_op("merged_adam").attrs, "weight_decay": 0.01, "use_adamw": True}

    def step(gs):
        return check(impls, "merged_adam", (ps, gs, lr, m1, m2, b1, b2, None), attrs, np.float32)

    held = step([randn(*s) for s in shapes])
    held_copy = [[a.copy() for a in lst] for lst in held[:5]]
    (plan,) = opt_launch._PLANS.values()
    step([randn(*s) for s in shapes])  # `held` still alive: fresh outputs
    assert all(np.array_equal(a, b) for lst, lc in zip(held[:5], held_copy) for a, b in zip(lst, lc))
    assert list(opt_launch._PLANS.values()) == [plan]
    first = step([randn(*s) for s in shapes])[0][0].__array_interface__["data"][0]
    again = step([randn(*s) for s in shapes])  # the outputs of the call before were dropped: reused
    assert again[0][0].__array_interface__["data"][0] == first
    del plan
    ps[1] = strided(ps[1])  # the array whose address the plan held dies, and the plan with it
    assert not opt_launch._PLANS
    step([randn(*s) for s in shapes])
    assert not opt_launch._PLANS  # a strided input is not cached (its contiguous copy would go stale)



@pytest.mark.parametrize("nesterov", [False, True])
def test_merged_momentum_one_launch(emu, nesterov, monkeypatch):
    """Every parameter in one momentum_multi launch, each with its own L2 coefficient (or none), a strided input
    among them, as the op's reference computes; then in place (updating_in_place), the inputs themselves updated."""
    impls = device_impls("gpu")
    monkeypatch.setattr(opt_launch, "ADAM_CHUNK", 64)  # several chunks per tensor
    shapes = [(5,), (3, 17), (1,), (40, 9)]
    ps, gs, vs = ([randn(*s) for s in shapes] for _ in range(3))
    gs[1] = strided(gs[1])
    attrs = {**get_op("merged_momentum").attrs, "mu": 0.8, "use_nesterov": nesterov, "rescale_grad": 0.5,
             "regularization_method": ["l2_decay", "", "l2_decay", ""], "regularization_coeff": [0.1, 0.0, 0.3, 0.0]}
    kern = K.kernel("optimizer", "momentum_multi_f32")
    before = kern.launches
    check(impls, "merged_momentum", (ps, gs, vs, [_f1(1e-2)], None), attrs, np.float32)
    assert kern.launches == before + 1
    want = get_op("merged_momentum").forward(np, [p.copy() for p in ps], gs, [v.copy() for v in vs], [_f1(1e-2)],
                                             None, **attrs)
    with opt_launch.updating_in_place():
        got = impls["merged_momentum"](np, ps, gs, vs, [_f1(1e-2)], None, **attrs)
    assert kern.launches == before + 2
    for outs, ins, ref in zip(got, (ps, vs), want):
        assert all(o is i for o, i in zip(outs, ins))
        for i, r in zip(ins, ref):
            close(i, r, np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_merged_sgd_one_launch(emu, dtype, monkeypatch):
    """sgd over every parameter: momentum_multi without velocities, one launch, bit for bit in float32."""
    impls = device_impls("gpu")
    monkeypatch.setattr(opt_launch, "ADAM_CHUNK", 64)
    monkeypatch.setattr(opt_launch, "_PLANS", opt_launch.collections.OrderedDict())
    shapes = [(7,), (3, 17), (40, 9)]
    ps = [randn(*s, dtype=dtype) for s in shapes]
    args = (ps, [_f1(0.05)], [randn(*s, dtype=dtype) for s in shapes], None)
    kern = K.kernel("optimizer", "momentum_multi_" + {np.float32: "f32", np.float16: "f16"}[dtype])
    before = kern.launches
    got = impls["merged_sgd"](np, *args, multi_precision=False)
    want = get_op("merged_sgd").forward(np, *args, multi_precision=False)
    assert kern.launches == before + 1
    for g, w in zip(got[0], want[0]):
        if dtype == np.float32:
            np.testing.assert_array_equal(g, w)
        else:
            close(g, w, dtype)
    (plan,) = opt_launch._PLANS.values()  # kept: the next step sends only the gradients' addresses
    impls["merged_sgd"](np, *args, multi_precision=False)
    assert list(opt_launch._PLANS.values()) == [plan]

# ---- raw bfloat16 kernels (NumPy has no bfloat16: bit patterns in uint16) ----------------------------
def to_bf16(a):
    b = np.asarray(a, np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(h):
    return (h.astype(np.uint32) << 16).view(np.float32)


def test_bf16_act_grad_and_reduce(emu):
    x, d = randn(5, 33), randn(5, 33)
    xb, db = to_bf16(x), to_bf16(d)
    out = np.empty_like(xb)
    emu.module("activation").get_function("act_grad_bf16")((1,), (256,), (xb, db, out, np.int64(xb.size),
                                                                          np.int32(act_launch.ACT_CODES["silu"]), np.int32(0)))
    xf, dfl = from_bf16(xb), from_bf16(db)
    s = 1 / (1 + np.exp(-xf))
    np.testing.assert_allclose(from_bf16(out), dfl * s * (1 + xf * (1 - s)), rtol=1e-2, atol=1e-2)
    col = np.empty((1, 33), np.float32)
    emu.module("reduce").get_function("reduce_mid_bf16_f32")((2, 1, 1), (32, 8), (xb, col, np.int64(1), np.int64(5),
                                                                                  np.int64(33), np.int32(0)))
    np.testing.assert_allclose(col[0], xf.sum(0), rtol=1e-5, atol=1e-5)


# ---- the emulator and the conversions themselves --------------------------------------------------
def test_f16_conversion_matches_numpy(emu):
    """Round-to-nearest-even float32 -> float16 (incl. subnormals, overflow, NaN) as NumPy does it."""
    vals = np.concatenate([randn(500) * 10, randn(100) * 1e-5, np.array([65504, 65520, 1e6, -1e6, 6e-8, 3e-8,
                                                                          0.0, np.inf, np.nan], np.float32)])
    vals = vals.astype(np.float32)
    out = np.empty(vals.shape, np.float16)
    emu.module("reduce").get_function("reduce_mid_f32_f16")((len(vals) // 32 + 1, 1, 1), (32, 8),
                                                            (vals, out, np.int64(1), np.int64(1), np.int64(len(vals)),
                                                             np.int32(0)))
    with np.errstate(over="ignore"):
        ref = vals.astype(np.float16)  # (no -0.0 above: a sum starting at +0 returns +0)
    assert np.array_equal(out.view(np.uint16)[~np.isnan(ref)], ref.view(np.uint16)[~np.isnan(ref)])
    assert np.isnan(out[np.isnan(ref)]).all()


def test_launch_checks_argument_count_and_sizes(emu):
    f = emu.module("dropout").get_function("dropout_grad_f32")
    m, d, o = np.ones(4, np.uint8), randn(4), np.empty(4, np.float32)
    with pytest.raises(TypeError, match="wrong C size"):
        f((1,), (32,), (m, d, o, np.int32(4), np.float32(1), np.int32(0)))  # n is int64 in the kernel
    with pytest.raises(TypeError, match="expects 6 arguments"):
        f((1,), (32,), (m, d, o, np.int64(4)))
    with pytest.raises(TypeError, match="sized NumPy scalar"):
        f((1,), (32,), (m, d, o, 4, np.float32(1), np.int32(0)))


# ---- recurrent cell steps -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("B,H", [(1, 1), (3, 5), (4, 33), (3, 8), (2, 1100)])
def test_lstm_cell(impls, dtype, B, H):
    gates, cp = randn(B, 4 * H, dtype=dtype), randn(B, H, dtype=dtype)
    h, c = check(impls, "lstm_cell", (gates, cp), {}, dtype)
    dh, dc = randn(B, H, dtype=dtype), randn(B, H, dtype=dtype)
    check(impls, "lstm_cell_grad", (gates, cp, c, dh, dc), {}, dtype)
    check(impls, "lstm_cell_grad", (strided(gates), strided(cp), c, dh, strided(dc)), {}, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("B,H", [(1, 1), (3, 5), (4, 33), (3, 8), (2, 1100)])
def test_gru_cell(impls, dtype, B, H):
    xg, hg, hp = randn(B, 3 * H, dtype=dtype), randn(B, 3 * H, dtype=dtype), randn(B, H, dtype=dtype)
    check(impls, "gru_cell", (xg, hg, hp), {}, dtype)
    check(impls, "gru_cell", (strided(xg), hg, strided(hp)), {}, dtype)
    check(impls, "gru_cell_grad", (xg, hg, hp, randn(B, H, dtype=dtype)), {}, dtype)


def test_float64_falls_back_to_the_reference(impls):
    x = np.random.default_rng(1).standard_normal((4, 5))
    np.testing.assert_array_equal(impls["relu_grad"](np, x, x), get_op("relu_grad").forward(np, x, x))


# ---- planted bugs must be caught --------------------------------------------------------------------
MUTATIONS = [
    ("activation", "case ACT_SILU: {\n      const float s = sigmoidf_(a);\n      return s * (1.f + a * (1.f - s));",
     "case ACT_SILU: {\n      const float s = sigmoidf_(a);\n      return s * (1.f - a * (1.f - s));"),
    ("layer_norm", "for (int i = 0; i < E; ++i) dv[i] = rs * (dv[i] - s1 - xv[i] * s2);",
     "for (int i = 0; i < E; ++i) dv[i] = rs * (dv[i] - s1 + xv[i] * s2);"),
    ("reduce", "for (int y = 1; y < TILE_Y; ++y) {", "for (int y = 2; y < TILE_Y; ++y) {"),
    ("common", "for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);",
     "for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);"),
    ("rnn", "gf[k] = dct * cpv[k] * sf * (1.f - sf);", "gf[k] = dct * cpv[k] * sf * (1.f + sf);"),
]


def _mutated_source(family, old, new):
    import os
    if family == "common":
        with open(os.path.join(K.kernel_dir(), "common.cuh")) as f:
            text = f.read()
        assert old in text
        with tempfile.TemporaryDirectory() as tmp:
            for name in os.listdir(K.kernel_dir()):
                shutil.copy(os.path.join(K.kernel_dir(), name), tmp)
            with open(os.path.join(tmp, "common.cuh"), "w") as f:
                f.write(text.replace(old, new))
            return "layer_norm", K.kernel_source("layer_norm", tmp)
    src = K.kernel_source(family)
    assert src.count(old) == 1, f"mutation anchor not found once in {family}"
    return family, src.replace(old, new)


@pytest.mark.parametrize("family,old,new", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_planted_bug_is_detected(family, old, new):
    from tests.cuda_emu.emu import EmuModules
    fam, src = _mutated_source(family, old, new)
    x, d = randn(6, 40), randn(6, 40)
    with K.use_backend(EmuModules({fam: src})):
        if fam == "activation":
            got, ref = act_launch.act_grad(np, x, d, "silu"), get_op("silu_grad").forward(np, x, d)
        elif fam == "layer_norm":
            x, d = randn(6, 300), randn(6, 300)  # rows wide enough that every lane of a warp holds elements
            mean, var = x.mean(1), x.var(1)
            ref = get_op("layer_norm_grad").forward(np, x, np.ones(300, np.float32), mean, var, d, 1e-5, 1)[0]
            got = ln_launch.layer_norm_grad(np, x, None, mean, var, d, 1e-5, 1)[0]
        elif fam == "rnn":
            gates, cp, dh = randn(6, 160), randn(6, 40), randn(6, 40)
            c = get_op("lstm_cell").forward(np, gates, cp)[1]
            got = rnn_launch.lstm_cell_grad(np, gates, cp, c, dh, d)[0]
            ref = get_op("lstm_cell_grad").forward(np, gates, cp, c, dh, d)[0]
        else:
            got, ref = red_launch.reduce_mid(np, x, 1, 6, 40, np.dtype(np.float32), grid_y=1)[0], x.sum(0)
    assert not np.allclose(got, ref, rtol=1e-3, atol=1e-4), "the planted bug went unnoticed"


def test_import_does_not_import_cupy():
    code = "import sys, paddlelite, paddlelite.ops; assert 'cupy' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
