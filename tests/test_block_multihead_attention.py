"""paddle.incubate.nn.functional.block_multihead_attention against the naive reference of Paddle's
test_block_multihead_attention.py (PaddlePaddle/Paddle, Apache-2.0): an encoder pass (causal attention within each
sequence's tokens, key/value heads tiled over the query heads) that fills the paged caches, read back as that test's
block_cache_to_naive_cache reads them, then a decoder step attending over the cached steps and itself with tgt_mask.
Sequences of different lengths, as the kernel's packed tokens allow."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.incubate.nn.functional as IF
from tests.differential import run_static

B, H, HK, D, BLOCK = 2, 4, 2, 8, 4
LENS = [5, 3]
BLOCKS_PER_SEQ = 3
NUM_BLOCKS = B * BLOCKS_PER_SEQ
TABLES = np.array([[5, 0, 3], [1, 4, 2]], "int32")  # shuffled blocks: the table decides where each step lives


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _attend(q, k, v, mask):
    """q [heads, sq, d], k / v [kv_heads, sk, d]: the naive formula of Paddle's test."""
    k, v = np.repeat(k, H // HK, 0), np.repeat(v, H // HK, 0)
    return _softmax(q @ k.transpose(0, 2, 1) / np.sqrt(D) + mask) @ v


def _naive_cache(cache, b, steps):
    return np.stack([cache[TABLES[b, j // BLOCK], :, j % BLOCK] for j in range(steps)], 1)     # [kv_heads, steps, d]


def _packed(r, lens):
    tokens = sum(lens)
    q, k, v = (r.standard_normal((tokens, n, D)).astype("float32") for n in (H, HK, HK))
    qkv = np.concatenate([q, k, v], 1).reshape(tokens, -1)
    return q, k, v, qkv, np.concatenate([[0], np.cumsum(lens)]).astype("int32")


def _call(qkv, caches, encoder, decoder, this_time, cu, max_seq_len, **kwargs):
    lens = [paddle.to_tensor(np.array(x, "int32").reshape(-1, 1)) for x in (encoder, decoder, this_time)]
    cu_t = paddle.to_tensor(cu.reshape(-1, 1))
    return IF.block_multihead_attention(paddle.to_tensor(qkv), *caches, *lens, None, None, cu_t, cu_t,
                                        paddle.to_tensor(TABLES), max_seq_len=max_seq_len, block_size=BLOCK, **kwargs)


def test_encoder_then_decoder_step_match_naive_attention():
    r = np.random.default_rng(0)
    caches = [paddle.zeros([NUM_BLOCKS, HK, BLOCK, D]) for _ in range(2)]
    q, k, v, qkv, cu = _packed(r, LENS)
    out, _, key_cache, value_cache = _call(qkv, caches, LENS, [0, 0], LENS, cu, max(LENS))
    assert key_cache is caches[0] and out.shape == [sum(LENS), H * D]
    for b, n in enumerate(LENS):
        rows = slice(cu[b], cu[b + 1])
        causal = np.triu(np.full((n, n), -np.inf), 1)
        expected = _attend(q[rows].transpose(1, 0, 2), k[rows].transpose(1, 0, 2), v[rows].transpose(1, 0, 2), causal)
        np.testing.assert_allclose(out.numpy()[rows], expected.transpose(1, 0, 2).reshape(n, -1), rtol=1e-5,
                                   atol=1e-5)
        np.testing.assert_allclose(_naive_cache(caches[0].numpy(), b, n), k[rows].transpose(1, 0, 2))
        np.testing.assert_allclose(_naive_cache(caches[1].numpy(), b, n), v[rows].transpose(1, 0, 2))
    # the decoder step: one token per sequence at step LENS[b], tgt_mask over steps 0..LENS[b]
    q1, k1, v1, qkv1, cu1 = _packed(r, [1, 1])
    tgt = r.standard_normal((B, H, 1, max(LENS) + 1)).astype("float32")
    out, _, _, _ = _call(qkv1, caches, [0, 0], LENS, [1, 1], cu1, 1, tgt_mask=paddle.to_tensor(tgt))
    for b, n in enumerate(LENS):
        keys, values = _naive_cache(caches[0].numpy(), b, n + 1), _naive_cache(caches[1].numpy(), b, n + 1)
        np.testing.assert_allclose(keys[:, :n], k[cu[b]:cu[b + 1]].transpose(1, 0, 2))  # the encoder's steps kept
        np.testing.assert_allclose(keys[:, n], k1[b])
        np.testing.assert_allclose(values[:, n], v1[b])
        expected = _attend(q1[b][:, None], keys, values, tgt[b][:, :, :n + 1])
        np.testing.assert_allclose(out.numpy()[b], expected.reshape(-1), rtol=1e-5, atol=1e-5)


def test_mixed_batch_with_bias_and_encoder_mask():
    """One call where sequence 0 encodes 4 tokens and sequence 1 decodes one at step 2 (its earlier steps cached)."""
    r = np.random.default_rng(1)
    past_k, past_v = (r.standard_normal((NUM_BLOCKS, HK, BLOCK, D)).astype("float32") for _ in range(2))
    caches = [paddle.to_tensor(past_k.copy()), paddle.to_tensor(past_v.copy())]
    q, k, v, qkv, cu = _packed(r, [4, 1])
    bias = r.standard_normal(qkv.shape[1]).astype("float32")
    mask = r.standard_normal((B, 1, 4, 4)).astype("float32")
    out, qkv_out, _, _ = _call(qkv, caches, [4, 0], [0, 2], [4, 1], cu, 4, qkv_bias=paddle.to_tensor(bias),
                               mask=paddle.to_tensor(mask))
    np.testing.assert_allclose(qkv_out.numpy(), qkv + bias, rtol=1e-6)
    qb, kb, vb = np.split((qkv + bias).reshape(5, H + 2 * HK, D), [H, H + HK], axis=1)
    encoded = _attend(qb[:4].transpose(1, 0, 2), kb[:4].transpose(1, 0, 2), vb[:4].transpose(1, 0, 2),
                      mask[0, 0] + np.triu(np.full((4, 4), -np.inf), 1))
    np.testing.assert_allclose(out.numpy()[:4], encoded.transpose(1, 0, 2).reshape(4, -1), rtol=1e-5, atol=1e-5)
    keys = np.concatenate([_naive_cache(past_k, 1, 2), kb[4][:, None]], 1)
    values = np.concatenate([_naive_cache(past_v, 1, 2), vb[4][:, None]], 1)
    np.testing.assert_allclose(out.numpy()[4], _attend(qb[4][:, None], keys, values, 0).reshape(-1), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(_naive_cache(caches[0].numpy(), 1, 3), keys)


def test_static_mode_fills_the_fed_caches_as_eager():
    _, _, _, qkv, cu = _packed(np.random.default_rng(3), LENS)
    empty = np.zeros([NUM_BLOCKS, HK, BLOCK, D], "float32")

    def build():
        caches = [paddle.static.data(f"cache{i}", empty.shape, "float32") for i in range(2)]
        lens = [paddle.static.data(name, [B, 1], "int32") for name in ("encoder", "decoder", "this_time")]
        cu_t = paddle.static.data("cu", [B + 1, 1], "int32")
        out, _, key_cache, value_cache = IF.block_multihead_attention(
            paddle.static.data("qkv", list(qkv.shape), "float32"), *caches, *lens, None, None, cu_t, cu_t,
            paddle.assign(TABLES), max_seq_len=max(LENS), block_size=BLOCK)
        return [out, key_cache, value_cache]
    lens = np.array(LENS, "int32").reshape(-1, 1)
    try:
        got = run_static(paddle, build, {"qkv": qkv, "cache0": empty, "cache1": empty, "encoder": lens,
                                         "decoder": np.zeros_like(lens), "this_time": lens, "cu": cu.reshape(-1, 1)})
    finally:
        paddle.disable_static()
    caches = [paddle.zeros(list(empty.shape)) for _ in range(2)]
    out = _call(qkv, caches, LENS, [0, 0], LENS, cu, max(LENS))[0]
    for fetched, eager in zip(got, [out, *caches]):
        np.testing.assert_allclose(fetched, eager.numpy(), rtol=1e-6, atol=1e-6)


def test_bad_input():
    r = np.random.default_rng(2)
    caches = [paddle.zeros([NUM_BLOCKS, HK, BLOCK, D]) for _ in range(2)]
    _, _, _, qkv, cu = _packed(r, LENS)
    with pytest.raises(NotImplementedError, match="'cache_k_quant_scales' is not supported"):
        _call(qkv, caches, LENS, [0, 0], LENS, cu, 5, cache_k_quant_scales=paddle.ones([HK]))
    with pytest.raises(NotImplementedError, match="'rope_emb' is not supported"):
        _call(qkv, caches, LENS, [0, 0], LENS, cu, 5, rope_emb=paddle.ones([2, B, 5, 1, D // 2]))
    with pytest.raises(ValueError, match="qkv must be"):
        _call(qkv[:, :-1], caches, LENS, [0, 0], LENS, cu, 5)
    with pytest.raises(ValueError, match="key_cache and value_cache must both be"):
        _call(qkv, [caches[0], paddle.zeros([NUM_BLOCKS, HK, BLOCK, D + 1])], LENS, [0, 0], LENS, cu, 5)
