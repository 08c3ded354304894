"""paddle.incubate.nn.functional.masked_multihead_attention against a NumPy reference of the step Paddle's
test_masked_multihead_attention_op.py checks (PaddlePaddle/Paddle, Apache-2.0): the new k/v appended after the
first seq_len cached steps, softmax(q k^T / sqrt(head_dim) + src_mask) v; and a generation loop whose cached
steps reproduce causal attention over the whole sequence."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.incubate.nn.functional as IF

B, H, D, L = 2, 3, 4, 8


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _reference(x, bias, cache, mask, step):
    qkv = x.reshape(B, 3, H, D) + bias
    q, k, v = qkv[:, 0, :, None], qkv[:, 1, :, None], qkv[:, 2, :, None]
    keys = np.concatenate([cache[0, :, :, :step], k], axis=2)
    values = np.concatenate([cache[1, :, :, :step], v], axis=2)
    p = _softmax(q @ keys.transpose(0, 1, 3, 2) / np.sqrt(D) + mask)
    return (p @ values).reshape(B, H * D)


def test_step_matches_reference_and_writes_cache_in_place():
    r = np.random.default_rng(0)
    step = 5
    x = r.standard_normal((B, 3 * H * D)).astype("float32")
    bias = r.standard_normal((3, H, D)).astype("float32")
    cache = r.standard_normal((2, B, H, L, D)).astype("float32")
    mask = r.standard_normal((B, 1, 1, step + 1)).astype("float32")
    cache_t = paddle.to_tensor(cache.copy())
    out, cache_out = IF.masked_multihead_attention(paddle.to_tensor(x), cache_t, paddle.to_tensor(bias),
                                                   paddle.to_tensor(mask))
    np.testing.assert_allclose(out.numpy(), _reference(x, bias, cache, mask, step), rtol=1e-5, atol=1e-5)
    written = cache_t.numpy()
    np.testing.assert_allclose(written[:, :, :, step], (x.reshape(B, 3, H, D) + bias)[:, 1:].transpose(1, 0, 2, 3))
    np.testing.assert_array_equal(written[:, :, :, :step], cache[:, :, :, :step])
    assert cache_out is cache_t


def test_generation_loop_matches_causal_attention():
    r = np.random.default_rng(1)
    steps = 6
    xs = r.standard_normal((steps, B, 3 * H * D)).astype("float32")
    cache = paddle.zeros([2, B, H, L, D], dtype="float32")
    outs = [IF.masked_multihead_attention(paddle.to_tensor(xs[t]), cache, seq_len=t)[0].numpy()
            for t in range(steps)]
    qkv = xs.reshape(steps, B, 3, H, D).transpose(2, 1, 3, 0, 4)  # [3, B, H, steps, D]
    scores = qkv[0] @ qkv[1].transpose(0, 1, 3, 2) / np.sqrt(D) + np.triu(np.full((steps, steps), -np.inf), 1)
    full = (_softmax(scores) @ qkv[2]).transpose(2, 0, 1, 3).reshape(steps, B, H * D)
    np.testing.assert_allclose(np.stack(outs), full, rtol=1e-5, atol=1e-5)


def test_per_sequence_lengths_and_bad_input():
    r = np.random.default_rng(2)
    x = r.standard_normal((B, 3 * H * D)).astype("float32")
    cache = r.standard_normal((2, B, H, L, D)).astype("float32")
    lens = paddle.to_tensor(np.array([[2], [4]], dtype="int32"))
    out, _ = IF.masked_multihead_attention(paddle.to_tensor(x), paddle.to_tensor(cache.copy()), sequence_lengths=lens)
    zero_bias = np.zeros((3, H, D), "float32")
    for b, t in enumerate((2, 4)):
        np.testing.assert_allclose(out.numpy()[b], _reference(x, zero_bias, cache, 0.0, t)[b], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="masked_multihead_attention: x must have shape"):
        IF.masked_multihead_attention(paddle.to_tensor(x[:, :-1]), paddle.to_tensor(cache))
    with pytest.raises(NotImplementedError, match="rotary_tensor"):
        IF.masked_multihead_attention(paddle.to_tensor(x), paddle.to_tensor(cache), rotary_tensor=paddle.to_tensor(x))
