"""paddle.incubate.nn.functional.variable_length_memory_efficient_attention against the naive formula of Paddle's
test_variable_length_memory_efficient_attention.py (PaddlePaddle/Paddle, Apache-2.0: softmax(q k^T * scale + mask) v,
key/value heads tiled over the query heads) applied to each sequence's own lengths, as Paddle's GPU kernel sizes its
problems: queries 0..seq_lens[b], keys 0..kv_seq_lens[b] + pre_cache_length, causal keeping key j <= query i; the
rows past a sequence's length are zeros. Paddle's kernel is GPU-only (its CPU build has none), so gradients are
checked against real Paddle running that naive formula on each sequence."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.incubate.nn.functional as IF
from tests.differential import reference_paddle, run_static

B, H, HK, SQ, SK, D = 3, 4, 2, 5, 7, 8


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _reference(q, k, v, seq_lens, kv_seq_lens, mask, scale, causal, pre_cache_length):
    out = np.zeros(q.shape[:3] + v.shape[3:], q.dtype)
    group = q.shape[1] // k.shape[1]
    for b, (m, n) in enumerate(zip(seq_lens, kv_seq_lens)):
        n += pre_cache_length if m else 0
        if not m or not n:
            continue
        keys, values = np.repeat(k[b, :, :n], group, 0), np.repeat(v[b, :, :n], group, 0)
        scores = q[b, :, :m] @ keys.transpose(0, 2, 1) * scale
        if mask is not None:
            scores = scores + mask[b, :, :m, :n]
        if causal:
            scores = scores + np.triu(np.full((m, n), -np.inf), 1)
        out[b, :, :m] = _softmax(scores) @ values
    return out


def _inputs(seed, dv=D):
    r = np.random.default_rng(seed)
    return (r.standard_normal((B, H, SQ, D)).astype("float32"), r.standard_normal((B, HK, SK, D)).astype("float32"),
            r.standard_normal((B, HK, SK, dv)).astype("float32"), r.standard_normal((B, 1, SQ, SK)).astype("float32"))


def _lens(values):
    return paddle.to_tensor(np.array(values, "int32").reshape(-1, 1))


@pytest.mark.parametrize("seq_lens, kv_seq_lens, use_mask, scale, causal, pre_cache", [
    ([5, 3, 1], [7, 4, 2], False, None, False, 0),
    ([5, 3, 2], [5, 3, 2], True, 0.2, False, 0),
    ([5, 4, 0], [5, 4, 3], False, None, True, 0),
    ([3, 2, 4], [2, 0, 3], True, None, True, 2),
])
def test_matches_reference_per_sequence_lengths(seq_lens, kv_seq_lens, use_mask, scale, causal, pre_cache):
    q, k, v, mask = _inputs(0)
    mask = mask if use_mask else None
    out = IF.variable_length_memory_efficient_attention(
        paddle.to_tensor(q), paddle.to_tensor(k), paddle.to_tensor(v), _lens(seq_lens), _lens(kv_seq_lens),
        None if mask is None else paddle.to_tensor(mask), scale, causal, pre_cache)
    expected = _reference(q, k, v, seq_lens, kv_seq_lens, mask, D ** -0.5 if scale is None else scale, causal,
                          pre_cache)
    assert out.shape == [B, H, SQ, D] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_value_head_size_and_static_mode():
    q, k, v, mask = _inputs(1, dv=3)
    expected = _reference(q, k, v, [4, 5, 2], [6, 7, 1], mask, D ** -0.5, True, 0)

    def build():
        feeds = [paddle.static.data(n, a.shape, "float32") for n, a in zip("qkvm", (q, k, v, mask))]
        lens = [paddle.static.data(n, [B, 1], "int32") for n in ("sl", "kl")]
        return [IF.variable_length_memory_efficient_attention(*feeds[:3], *lens, feeds[3], causal=True)]
    try:
        (got,) = run_static(paddle, build, {"q": q, "k": k, "v": v, "m": mask,
                                            "sl": np.array([[4], [5], [2]], "int32"),
                                            "kl": np.array([[6], [7], [1]], "int32")})
    finally:
        paddle.disable_static()
    assert got.shape == (B, H, SQ, 3)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_gradients_match_paddle_naive_attention_per_sequence():
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    q, k, v, mask = _inputs(2)
    seq_lens, kv_seq_lens = [5, 3, 2], [7, 3, 4]
    weights = np.random.default_rng(3).standard_normal((B, H, SQ, D)).astype("float32")
    ours = [paddle.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
    out = IF.variable_length_memory_efficient_attention(*ours, _lens(seq_lens), _lens(kv_seq_lens),
                                                        paddle.to_tensor(mask))
    (out * paddle.to_tensor(weights)).sum().backward()
    theirs = [ref.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
    total = 0
    for b, (m, n) in enumerate(zip(seq_lens, kv_seq_lens)):  # the naive formula of Paddle's test, one sequence
        query, key, value = theirs[0][b:b + 1, :, :m], theirs[1][b:b + 1, :, :n], theirs[2][b:b + 1, :, :n]
        key, value = (ref.repeat_interleave(t, H // HK, axis=1) for t in (key, value))
        scores = ref.matmul(query, key, transpose_y=True) * D ** -0.5 + ref.to_tensor(mask[b:b + 1, :, :m, :n])
        result = ref.matmul(ref.nn.functional.softmax(scores, -1), value)
        total = total + (result * ref.to_tensor(weights[b:b + 1, :, :m])).sum()
    total.backward()
    for mine, real in zip(ours, theirs):
        np.testing.assert_allclose(mine.grad.numpy(), real.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_bad_input():
    q, k, v, mask = (paddle.to_tensor(a) for a in _inputs(4))
    lens = _lens([1, 2, 3])
    attention = IF.variable_length_memory_efficient_attention
    with pytest.raises(ValueError, match="query must be 4-D"):
        attention(q[0], k, v, lens, lens)
    with pytest.raises(ValueError, match="kv_num_head dividing 4"):
        attention(q, paddle.zeros([B, 3, SK, D]), paddle.zeros([B, 3, SK, D]), lens, lens)
    with pytest.raises(ValueError, match="seq_lens must be an int32 tensor of 3 lengths"):
        attention(q, k, v, paddle.to_tensor([1, 2, 3]), lens)
    with pytest.raises(ValueError, match=r"mask must be \[3, 1 or 4, 5, 7\]"):
        attention(q, k, v, lens, lens, mask[:, :, :2])
    with pytest.raises(TypeError, match="key must be a floating-point Tensor"):
        attention(q, paddle.zeros([B, HK, SK, D], "int32"), v, lens, lens)
