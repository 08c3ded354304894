"""The fused CUDA kernels on a real GPU, against the registry ops' NumPy forwards (skipped without one).

Fresh random inputs of many shapes (tiny, odd, large), output buffers poisoned with NaN before every
run (CuPy's memory pool hands recycled blocks to the next allocation, so a kernel that skips an
element returns NaN there), relative error bounds per dtype.
"""
import re

import numpy as np
import pytest

from paddlelite.device import kernels as K
from paddlelite.ops.launch import embedding as emb_launch
from paddlelite.ops.launch.common import THREADS
from paddlelite.ops.registry import device_impls, get_op
from tests.cuda_emu import nvrtc

pytestmark = pytest.mark.gpu

TOL = {np.dtype(np.float32): 1e-4, np.dtype(np.float16): 1e-2}
SHAPES_2D = [(1, 1), (3, 7), (33, 65), (257, 1000), (4096, 1024)]


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def impls():
    return device_impls("gpu")


def poison(cp):
    """Fill a big chunk of the pool with NaN and free it: the next outputs start as NaN."""
    junk = cp.full((64 << 20) // 4, cp.nan, cp.float32)
    del junk


def run(cp, impls, op, arrays, attrs, dtype, rel=None):
    attrs = get_op(op).fill_attrs(attrs)  # the dispatcher hands bindings every attr, defaults included
    poison(cp)
    dev = [None if a is None else [cp.asarray(e) for e in a] if isinstance(a, list) else cp.asarray(a)
           for a in arrays]
    got = impls[op](cp, *dev, **attrs)
    ref = get_op(op).forward(np, *[None if a is None else a for a in arrays], **attrs)
    tol = rel or TOL[np.dtype(dtype)]
    flat_got = _flatten(got)
    flat_ref = _flatten(ref)
    assert len(flat_got) == len(flat_ref)
    for g, r in zip(flat_got, flat_ref):
        g = cp.asnumpy(g).astype(np.float64)
        r = np.asarray(r).astype(np.float64)
        assert g.shape == r.shape
        assert np.isfinite(g).all() or not np.isfinite(r).all(), "NaN left in an output: an element was skipped"
        scale = max(1.0, float(np.abs(r).max()) if r.size else 1.0)
        np.testing.assert_allclose(g, r, rtol=tol, atol=tol * scale)


def _flatten(v):
    if isinstance(v, (tuple, list)):
        out = []
        for e in v:
            out += _flatten(e)
        return out
    return [v]


R = np.random.default_rng(1234)


def randn(*shape, dtype=np.float32):
    return R.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", SHAPES_2D)
@pytest.mark.parametrize("soft", [False, True])
def test_softmax_ce_grad(cp, impls, dtype, shape, soft):
    x = randn(*shape)
    sm = np.exp(x - x.max(-1, keepdims=True))
    sm = (sm / sm.sum(-1, keepdims=True)).astype(dtype)
    if soft:
        label = R.uniform(size=shape).astype(dtype)
    else:
        label = R.integers(0, shape[1], (shape[0], 1)).astype(np.int64)
        label[::5] = -100
    dl = randn(shape[0], 1, dtype=dtype)
    run(cp, impls, "softmax_with_cross_entropy_grad", (label, sm, dl),
        dict(soft_label=soft, ignore_index=-100, axis=-1, numeric_stable_mode=True), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", [(1, 8), (7, 33), (64, 768), (1000, 1024), (16, 12288)])
def test_layer_norm_forward(cp, impls, dtype, shape):
    x = randn(*shape, dtype=dtype) * 3 + 1
    run(cp, impls, "layer_norm", (x, randn(shape[1], dtype=dtype), randn(shape[1], dtype=dtype)),
        dict(epsilon=1e-5, begin_norm_axis=1), dtype, rel=2e-2 if dtype == np.float16 else 1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", [(1, 8), (7, 33), (64, 768), (1000, 1024), (16, 12288)])
def test_layer_norm_grad(cp, impls, dtype, shape):
    x = randn(*shape, dtype=dtype)
    _, mean, var = get_op("layer_norm").forward(np, x, None, None, epsilon=1e-5, begin_norm_axis=1)
    run(cp, impls, "layer_norm_grad", (x, randn(shape[1], dtype=dtype), mean, var, randn(*shape, dtype=dtype)),
        dict(epsilon=1e-5, begin_norm_axis=1), dtype, rel=2e-2 if dtype == np.float16 else 1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op,attrs", [("relu_grad", {}), ("sigmoid_grad", {}), ("tanh_grad", {}),
                                      ("gelu_grad", {"approximate": False}), ("gelu_grad", {"approximate": True}),
                                      ("silu_grad", {})])
@pytest.mark.parametrize("n", [1, 7, 1023, 1 << 20, 3 * (1 << 20) + 5])
def test_activation_grads(cp, impls, dtype, op, attrs, n):
    run(cp, impls, op, (randn(n, dtype=dtype), randn(n, dtype=dtype)), attrs, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("act", ["relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh"])
@pytest.mark.parametrize("shape", SHAPES_2D)
def test_fused_bias_act_grad(cp, impls, dtype, act, shape):
    x, b, d = randn(*shape, dtype=dtype), randn(shape[1], dtype=dtype), randn(*shape, dtype=dtype)
    run(cp, impls, "fused_bias_act", (x, b), {"act": act}, dtype)
    rel = 5e-2 if dtype == np.float16 else 1e-3  # dbias: float32 sums vs sums in the input dtype
    run(cp, impls, "fused_bias_act_grad", (x.astype(np.float32), b.astype(np.float32), d.astype(np.float32)),
        {"act": act}, np.float32, rel=1e-3)
    run(cp, impls, "fused_bias_act_grad", (x, b, d), {"act": act}, dtype, rel=rel)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [3, 4099, 1 << 22])
def test_dropout_grads(cp, impls, dtype, n):
    mask = (R.uniform(size=n) > 0.1).astype(np.uint8)
    attrs = dict(dropout_prob=0.1, is_test=False, dropout_implementation="upscale_in_train")
    run(cp, impls, "dropout_grad", (mask, randn(n, dtype=dtype)), attrs, dtype)
    run(cp, impls, "fused_dropout_act_grad", (mask, randn(n, dtype=dtype), randn(n, dtype=dtype)),
        dict(attrs, act="gelu"), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("V,D,ntok", [(5, 3, 7), (1000, 768, 4096), (30000, 512, 8192)])
@pytest.mark.parametrize("deterministic", [False, True])
def test_embedding_grad(cp, impls, dtype, V, D, ntok, deterministic):
    ids = R.integers(0, V, ntok).astype(np.int64)
    ids[: ntok // 3] = 1
    emb_launch.set_deterministic(deterministic)
    try:
        run(cp, impls, "embedding_grad", (ids, np.empty((V, D), dtype), randn(ntok, D, dtype=dtype)),
            {"padding_idx": 0, "scale_grad_by_freq": False, "is_sparse": False}, dtype, rel=2e-2 if dtype == np.float16 else 1e-4)
    finally:
        emb_launch.set_deterministic(False)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("xshape,tshape", [((3, 7), (7,)), ((4096, 1024), (1024,)), ((1024, 4096), (1024, 1)),
                                           ((8, 512, 64), (1, 512, 1)), ((1 << 22,), ()), ((32, 3, 64, 64), (3, 1, 1))])
def test_reduce_as(cp, impls, dtype, xshape, tshape):
    x = randn(*xshape, dtype=dtype)
    poison(cp)
    got = cp.asnumpy(impls["reduce_as"](cp, cp.asarray(x), cp.empty(tshape, dtype))).astype(np.float64)
    ref = get_op("reduce_as").forward(np, x.astype(np.float64), np.empty(tshape))
    np.testing.assert_allclose(got, ref, rtol=TOL[np.dtype(dtype)] * 10, atol=TOL[np.dtype(dtype)] * 10 *
                               max(1.0, float(np.abs(ref).max())))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("B,H", [(1, 1), (33, 65), (256, 1024)])
def test_rnn_cells(cp, impls, dtype, B, H):
    gates, c_prev, dh, dc = randn(B, 4 * H, dtype=dtype), randn(B, H, dtype=dtype), randn(B, H, dtype=dtype), \
        randn(B, H, dtype=dtype)
    run(cp, impls, "lstm_cell", (gates, c_prev), {}, dtype)
    c = get_op("lstm_cell").forward(np, gates, c_prev)[1]
    run(cp, impls, "lstm_cell_grad", (gates, c_prev, c, dh, dc), {}, dtype)
    xg, hg = randn(B, 3 * H, dtype=dtype), randn(B, 3 * H, dtype=dtype)
    run(cp, impls, "gru_cell", (xg, hg, c_prev), {}, dtype)
    run(cp, impls, "gru_cell_grad", (xg, hg, c_prev, dh), {}, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [1, 1001, 1 << 20])
def test_optimizers(cp, impls, dtype, n):
    p, g, v = randn(n, dtype=dtype), randn(n, dtype=dtype), randn(n, dtype=dtype)
    lr = np.array([1e-3], np.float32)
    run(cp, impls, "sgd", (p, lr, g, None), {"multi_precision": False}, dtype)
    run(cp, impls, "momentum", (p, g, v, lr, None), {**get_op("momentum").attrs, "use_nesterov": True}, dtype)
    m1, m2 = randn(n, dtype=dtype) * 0.1, np.abs(randn(n, dtype=dtype)) * 0.1
    b1, b2 = np.array([0.9 ** 5], np.float32), np.array([0.999 ** 5], np.float32)
    for op in ("adam", "adamw"):
        run(cp, impls, op, (p, g, lr, m1, m2, b1, b2, None), get_op(op).attrs, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [1, 1001, 1 << 20])
def test_adaptive_optimizers(cp, impls, dtype, n):
    p, g, mg = randn(n, dtype=dtype), randn(n, dtype=dtype), randn(n, dtype=dtype) * 0.1
    a, b = (np.abs(randn(n, dtype=dtype)) * 0.1 + 0.5 for _ in range(2))
    lr = np.array([1e-3], np.float32)
    run(cp, impls, "adagrad", (p, g, a, lr, None), get_op("adagrad").attrs, dtype)
    for centered in (False, True):
        run(cp, impls, "rmsprop", (p, a, g, b, lr, mg, None), {**get_op("rmsprop").attrs, "centered": centered,
                                                              "momentum": 0.5}, dtype)
    run(cp, impls, "adadelta", (p, g, a, b, lr, None), get_op("adadelta").attrs, dtype)
    run(cp, impls, "adamax", (p, g, lr, mg, a, np.array([0.9 ** 5], np.float32), None), get_op("adamax").attrs, dtype)
    pows = [np.full(n, v, dtype) for v in (0.96 ** 3, 0.999 ** 3, 0.8)]
    run(cp, impls, "nadam", (p, g, lr, *pows, mg, a, None), get_op("nadam").attrs, dtype)
    b1p, b2p = np.full(n, 0.9 ** 8, dtype), np.full(n, 0.9 ** 8, dtype)
    rho = np.full(n, 8 * 0.9 ** 8 / (1 - 0.9 ** 8), dtype)
    run(cp, impls, "radam", (p, g, lr, b1p, b2p, rho, mg, a, None), {**get_op("radam").attrs, "beta2": 0.9}, dtype)
    run(cp, impls, "rprop", (p, g, mg, a * 0.01, None), get_op("rprop").attrs, dtype)


def test_merged_adam_many_params(cp, impls):
    shapes = [(R.integers(1, 300), R.integers(1, 300)) for _ in range(40)] + [(1,), (1 << 20,)]
    ps = [randn(*s) for s in shapes]
    args = (ps, [randn(*s) for s in shapes], [np.array([1e-3], np.float32)], [randn(*s) * 0.1 for s in shapes],
            [np.abs(randn(*s)) * 0.1 for s in shapes], [np.array([0.9], np.float32)] * len(shapes),
            [np.array([0.999], np.float32)] * len(shapes), None)
    run(cp, impls, "merged_adam", args, {**get_op("merged_adam").attrs, "use_adamw": True, "weight_decay": 0.01},
        np.float32)



def test_merged_momentum_and_sgd_many_params(cp, impls):
    shapes = [(R.integers(1, 300), R.integers(1, 300)) for _ in range(40)] + [(1,), (1 << 20,)]
    ps, gs, vs = ([randn(*s) for s in shapes] for _ in range(3))
    lr = [np.array([1e-3], np.float32)]
    attrs = {**get_op("merged_momentum").attrs, "use_nesterov": True, "rescale_grad": 0.5,
             "regularization_method": ["l2_decay", ""] * (len(shapes) // 2),
             "regularization_coeff": [1e-4, 0.0] * (len(shapes) // 2)}
    run(cp, impls, "merged_momentum", (ps, gs, vs, lr, None), attrs, np.float32)
    run(cp, impls, "merged_sgd", (ps, lr, gs, None), get_op("merged_sgd").attrs, np.float32)

@pytest.mark.parametrize("family", K.FAMILIES)
def test_kernels_launch_with_the_common_block_size(cp, family):
    """Launch helpers use THREADS threads per block (layer_norm sizes its blocks from its kernel, attention uses its
    kernels' own): every compiled kernel's registers must allow that many, or its launch fails with
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES."""
    lib = nvrtc.load()
    if lib is None:
        pytest.skip("NVRTC (to list the kernels) is not installed")
    ptx = nvrtc.compile_ptx(lib, K.kernel_source(family), f"{family}.cu", options=K.CupyModules.OPTIONS)
    names = sorted(set(re.findall(r"\.entry\s+(\w+)\(", ptx)))
    assert names
    short = {n: K.kernel(family, n).max_threads_per_block for n in names}
    assert not {n: m for n, m in short.items() if m < _block_of(n)}, short


def _block_of(name):
    """The threads per block kernel `name` is launched with: THREADS, but the attention kernels' own (a block of 4
    warps over query rows, one warp over a key tile)."""
    from paddlelite.ops.launch import attention
    own = {"attn_fwd": attention.ROW_THREADS, "attn_bwd_dq": attention.ROW_THREADS,
           "attn_bwd_dkdv": attention.KEY_THREADS}
    return next((v for k, v in own.items() if name.startswith(k)), THREADS)
