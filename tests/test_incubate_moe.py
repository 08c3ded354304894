"""paddle.incubate.nn.functional's MoE routing names against NumPy references written from the rules of Paddle's
GPU kernels (paddle/phi/kernels/gpu/moe_fuse_op.h, moe_gate_dispatch_kernel.cu, moe_combine_kernel.cu,
expand_modality_expert_id_kernel.cu, build_src_rank_and_local_expert_id_kernel.cu; PaddlePaddle, Apache-2.0) and,
for cal_aux_loss, against Paddle's own math_cal_aux_loss run by real Paddle. Gradients are checked by
tests/op_cases/moe.py (finite differences, eager and static)."""
import sys

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.incubate.nn import functional as F
from tests.differential import reference_paddle


def _dispatch_reference(x, gate, bias, k, capacity, use_pad):
    """Token by token: the top-k experts by gate (+ bias), then per expert its pairs in the kernel's sort order
    ((choice, token) with use_pad, else (token, choice)), the first `capacity` kept."""
    rows, experts = gate.shape
    scores = gate if bias is None else gate + bias
    expert_id = np.array([sorted(range(experts), key=lambda e: (-scores[s, e], e))[:k] for s in range(rows)])
    combine = np.take_along_axis(gate, expert_id, axis=1).copy()
    pairs = [(e, j, s) if use_pad else (e, s, j) for s in range(rows) for j, e in enumerate(expert_id[s])]
    pairs.sort()
    scatter = np.zeros((k, rows), np.int32)
    y = np.zeros((experts * capacity if use_pad else rows * k, x.shape[1]), x.dtype)
    offset = np.cumsum(np.bincount(expert_id.ravel(), minlength=experts))
    seen = {}
    for position, pair in enumerate(pairs):
        e = pair[0]
        s, j = (pair[2], pair[1]) if use_pad else (pair[1], pair[2])
        rank = seen.get(e, 0)
        seen[e] = rank + 1
        if rank >= capacity:
            combine[s, j] = 0
            continue
        row = e * capacity + rank if use_pad else position
        scatter[j, s] = row
        y[row] = x[s]
    return y, combine, scatter, offset, expert_id


def _inputs(rows=7, hidden=3, experts=4, seed=0):
    g = np.random.default_rng(seed)
    return (g.standard_normal((rows, hidden)).astype("float32"), g.random((rows, experts)).astype("float32"),
            (g.random(experts) * 0.3).astype("float32"))


@pytest.mark.parametrize("use_pad", [True, False])
@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("capacity", [2, 16])
def test_moe_gate_dispatch_matches_the_kernel_rules(use_pad, with_bias, capacity):
    x, gate, bias = _inputs()
    bias = bias if with_bias else None
    got = F.moe_gate_dispatch(paddle.to_tensor(x), paddle.to_tensor(gate),
                              None if bias is None else paddle.to_tensor(bias), 2, capacity, use_pad)
    want = _dispatch_reference(x, gate, bias, 2, capacity, use_pad)
    for name, ours, ref, dtype in zip(("y", "combine_weights", "scatter_index", "expert_offset", "expert_id"), got,
                                      want, ("float32", "float32", "int32", "int64", "int32")):
        assert ours.dtype.name == dtype, name
        np.testing.assert_array_equal(ours.numpy(), ref, err_msg=name)


def test_dispatch_then_combine_gives_back_the_weighted_tokens():
    x, gate, _ = _inputs(rows=9, hidden=5, experts=6, seed=1)
    y, weights, scatter, _, _ = F.moe_gate_dispatch(paddle.to_tensor(x), paddle.to_tensor(gate), None, 3, 9, True)
    out = F.moe_combine(y, weights, scatter.transpose([1, 0]))
    np.testing.assert_allclose(out.numpy(), weights.numpy().sum(1, keepdims=True) * x, rtol=1e-5, atol=1e-6)


def test_dispatch_permute_lays_the_padded_rows_out_by_local_expert_and_rank():
    x, gate, bias = _inputs(rows=10, hidden=3, experts=4, seed=2)
    args = (paddle.to_tensor(x), paddle.to_tensor(gate), paddle.to_tensor(bias), 2, 3)
    padded = F.moe_gate_dispatch(*args, True)
    permuted = F.moe_gate_dispatch_permute(*args, 2)
    assert permuted[0].shape == [2, 2, 3, 3]
    by_expert = padded[0].numpy().reshape(2, 2, 3, 3)  # [rank, local expert, capacity, H]
    np.testing.assert_array_equal(permuted[0].numpy(), by_expert.transpose(1, 0, 2, 3))
    for ours, ref in zip(permuted[1:], padded[1:]):
        np.testing.assert_array_equal(ours.numpy(), ref.numpy())


def test_dispatch_gradients_are_masked_by_the_dropped_pairs():
    x, gate, _ = _inputs(rows=6, hidden=2, experts=3, seed=3)
    xt, gt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(gate, stop_gradient=False)
    y, weights, scatter, _, expert_id = F.moe_gate_dispatch(xt, gt, None, 2, 2, True)
    (y.sum() + (weights * 2.0).sum()).backward()
    live = weights.numpy() > 0
    np.testing.assert_allclose(xt.grad.numpy(), live.sum(1, keepdims=True) * np.ones_like(x))
    want = np.zeros_like(gate)
    np.put_along_axis(want, expert_id.numpy().astype(int), np.where(live, 2.0, 0.0), axis=1)
    np.testing.assert_allclose(gt.grad.numpy(), want)


def _partial_reference(x, weights, expert_id, capacity, experts, use_pad, start, end, reverse):
    """Expert by expert: its pairs in (choice, token) order, the first (last with reverse) `capacity` kept, laid
    out by token."""
    rows = x.shape[0]
    out_w = np.zeros_like(weights)
    scatter = np.zeros(expert_id.shape[::-1], np.int32)
    y, rev, nums = [], [], np.zeros(experts, np.int64)
    for e in range(start, end):
        mine = sorted((j, t) for t in range(rows) for j in range(expert_id.shape[1]) if expert_id[t, j] == e)
        kept = sorted((mine[len(mine) - capacity:] if reverse else mine[:capacity]) if capacity else [],
                      key=lambda p: p[1])
        nums[e] = len(mine) if use_pad else len(kept)
        for j, t in kept:
            out_w[t, j] = weights[t, j]
            scatter[j, t] = len(y)
            y.append(x[t])
            rev.append(t)
        if use_pad:
            y += [np.zeros_like(x[0])] * (capacity - len(kept))
            rev += [rows] * (capacity - len(kept))
    return (np.array(y).reshape(-1, x.shape[1]), out_w, scatter, np.array(rev, np.int32),
            np.bincount(expert_id.ravel(), minlength=experts), nums)


@pytest.mark.parametrize("use_pad,reverse,capacity", [(True, False, 2), (False, False, 2), (False, True, 2),
                                                      (True, False, 9), (False, True, 1)])
def test_moe_gate_dispatch_partial_nosoftmaxtopk(use_pad, reverse, capacity):
    g = np.random.default_rng(7)
    x = g.standard_normal((8, 3)).astype("float32")
    logits = g.random((8, 5))
    expert_id = np.argsort(-logits, axis=1)[:, :2].astype("int32")
    weights = np.take_along_axis(logits, expert_id, axis=1).astype("float32")
    got = F.moe_gate_dispatch_partial_nosoftmaxtopk(paddle.to_tensor(x), paddle.to_tensor(weights),
                                                    paddle.to_tensor(expert_id), 2, capacity, 5, use_pad, 1, 4,
                                                    reverse)
    want = _partial_reference(x, weights, expert_id, capacity, 5, use_pad, 1, 4, reverse)
    for name, ours, ref in zip(("y", "combine_weights_out", "scatter_index", "scatter_index_rev", "expert_offset",
                                "expert_nums_local"), got, want):
        np.testing.assert_array_equal(ours.numpy(), ref, err_msg=name)
    with pytest.raises(ValueError, match="reverse_token_drop"):
        F.moe_gate_dispatch_partial_nosoftmaxtopk(paddle.to_tensor(x), paddle.to_tensor(weights),
                                                  paddle.to_tensor(expert_id), 2, 2, 5, True, 1, 4, True)


def test_moe_combine_and_its_gradient():
    g = np.random.default_rng(4)
    x, w = g.standard_normal((5, 3)).astype("float32"), g.random((4, 2)).astype("float32")
    index = np.array([[0, 4], [1, 1], [3, 2], [4, 0]], np.int32)
    xt, wt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(w, stop_gradient=False)
    out = F.moe_combine(xt, wt, paddle.to_tensor(index))
    np.testing.assert_allclose(out.numpy(), np.einsum("sk,skh->sh", w, x[index]), rtol=1e-6)
    out.sum().backward()
    want = np.zeros_like(x)
    np.add.at(want, index.ravel(), np.repeat(w.ravel()[:, None], 3, axis=1))
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(wt.grad.numpy(), x[index].sum(-1), rtol=1e-6)


def _paddle_math_cal_aux_loss():
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    import paddle.incubate.nn.functional  # noqa: F401  (registers the module below)
    return ref, sys.modules["paddle.incubate.nn.functional.cal_aux_loss"].math_cal_aux_loss


@pytest.mark.parametrize("case", ["plain", "tokens_mask", "scaled"])
def test_cal_aux_loss_matches_paddles_math_version(case):
    ref, math_cal_aux_loss = _paddle_math_cal_aux_loss()
    g = np.random.default_rng(5)
    gate = g.random((6, 4)).astype("float32")
    dispatch = (g.random((6, 4)) > 0.5).astype("int64")
    tokens = np.array([1, 1, 0, 1, 1, 1], "float32") if case != "plain" else None
    dispatch_tokens = np.array([1, 1, 1, 0, 1, 1, 1, 1], bool) if case == "scaled" else None
    results = []
    for lib, fn in ((paddle, F.cal_aux_loss), (ref, math_cal_aux_loss)):
        t = lib.to_tensor(gate, stop_gradient=False)
        def wrap(a):
            return None if a is None else lib.to_tensor(a)
        loss, seqlen, ce = fn(t, wrap(dispatch), wrap(tokens), wrap(dispatch_tokens), 4, True, 2, 1e-6)
        loss.backward()
        results.append([v.numpy() for v in (loss, seqlen, ce, t.grad)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("group", [True, False])
def test_expand_modality_expert_id(group):
    ids = np.array([[0, 3], [5, 1], [2, 7]], np.int64)
    out = F.expand_modality_expert_id(paddle.to_tensor(ids), 4, 2, 1, group)
    e = ids + (np.arange(6).reshape(3, 2) % 2) * 2 if group else ids
    np.testing.assert_array_equal(out.numpy(), (e // 4) * 8 + e % 4 + 4)
    assert out.dtype.name == "int64"


def test_build_src_rank_and_local_expert_id():
    counts = [2, 0, 1, 3]
    src, local = F.build_src_rank_and_local_expert_id(paddle.to_tensor(np.array(counts, np.int64)), counts, 2)
    np.testing.assert_array_equal(src.numpy(), [0, 0, 1, 1, 1, 1])
    np.testing.assert_array_equal(local.numpy(), [0, 0, 0, 1, 1, 1])
    assert src.dtype.name == local.dtype.name == "int32"


def test_bad_arguments_name_the_api_and_argument():
    x, gate, _ = _inputs()
    with pytest.raises(ValueError, match="moe_gate_dispatch.*k"):
        F.moe_gate_dispatch(paddle.to_tensor(x), paddle.to_tensor(gate), None, 5, 2, True)
    with pytest.raises(ValueError, match="gate_logits"):
        F.moe_gate_dispatch(paddle.to_tensor(x), paddle.to_tensor(gate[:3]), None, 2, 2, True)
    with pytest.raises(ValueError, match="world_size"):
        F.moe_gate_dispatch_permute(paddle.to_tensor(x), paddle.to_tensor(gate), None, 2, 2, 3)
    with pytest.raises(TypeError, match="moe_combine: scatter_index must be int32"):
        F.moe_combine(paddle.to_tensor(x), paddle.to_tensor(gate[:, :2]), paddle.to_tensor(np.zeros((7, 2))))


def test_dispatch_and_combine_in_a_static_program():
    x, gate, _ = _inputs(rows=5, hidden=3, experts=4, seed=6)
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            xv = paddle.static.data("x", [5, 3], "float32")
            gv = paddle.static.data("g", [5, 4], "float32")
            y, weights, scatter, _, _ = F.moe_gate_dispatch(xv, gv, None, 2, 5, True)
            out = F.moe_combine(y, weights, paddle.transpose(scatter, [1, 0]))
        exe = paddle.static.Executor(paddle.CPUPlace())
        got, got_w = exe.run(main, feed={"x": x, "g": gate}, fetch_list=[out, weights])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, got_w.sum(1, keepdims=True) * x, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
def test_routing_on_the_gpu_matches_the_cpu():
    x, gate, bias = _inputs(rows=12, hidden=8, experts=6, seed=8)
    results = {}
    for device in ("cpu", "gpu"):
        paddle.set_device(device)
        try:
            xt, gt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(gate, stop_gradient=False)
            y, weights, scatter, offset, expert_id = F.moe_gate_dispatch(xt, gt, paddle.to_tensor(bias), 2, 3, True)
            out = F.moe_combine(y * 2.0, weights, scatter.transpose([1, 0]))
            out.sum().backward()
            partial = F.moe_gate_dispatch_partial_nosoftmaxtopk(xt, weights, expert_id, 2, 2, 6, False, 1, 5, True)
            results[device] = [t.numpy() for t in (y, weights, scatter, offset, expert_id, out, xt.grad, gt.grad,
                                                   *partial)]
        finally:
            paddle.set_device("cpu")
    for ours, ref in zip(results["gpu"], results["cpu"]):
        np.testing.assert_allclose(ours, ref, rtol=1e-6, atol=1e-6)
