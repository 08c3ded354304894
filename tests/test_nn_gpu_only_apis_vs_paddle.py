"""Paddle's GPU-kernel-only nn.functional APIs raise what Paddle's CPU build raises."""
import numpy as np
import pytest

from tests.differential import differential, raises


def _t(paddle, *shape, dtype="float32"):
    return paddle.to_tensor(np.ones(shape, dtype=dtype))


CALLS = {
    "flash_attention_v3_varlen": (ValueError, lambda p, F: F.flash_attention_v3_varlen(
        _t(p, 8, 2, 8), _t(p, 8, 2, 8), _t(p, 8, 2, 8), p.to_tensor(np.array([0, 3, 8], "int32")),
        p.to_tensor(np.array([0, 3, 8], "int32")), 5, 5)),
    "flash_attn_varlen_qkvpacked": (RuntimeError, lambda p, F: F.flash_attn_varlen_qkvpacked(
        _t(p, 8, 3, 2, 8), p.to_tensor(np.array([0, 3, 8], "int32")), p.to_tensor(np.array([0, 3, 8], "int32")),
        5, 5, 0.3)),
    "flashmask_attention": (RuntimeError, lambda p, F: F.flashmask_attention(
        _t(p, 2, 4, 2, 8), _t(p, 2, 4, 2, 8), _t(p, 2, 4, 2, 8))),
    "sparse_attention": (RuntimeError, lambda p, F: F.sparse_attention(
        _t(p, 1, 1, 4, 8), _t(p, 1, 1, 4, 8), _t(p, 1, 1, 4, 8), p.to_tensor(np.array([[[0, 1, 2, 3, 4]]], "int32")),
        p.to_tensor(np.array([[[0, 1, 2, 3]]], "int32")))),
    "moe_permute": (RuntimeError, lambda p, F: F.moe_permute(
        _t(p, 4, 8), None, p.to_tensor(np.array([[0], [1], [0], [1]], "int32")), _t(p, 4, 1), 2, [2, 2], 0)),
    "moe_unpermute": (RuntimeError, lambda p, F: F.moe_unpermute(
        _t(p, 4, 8), p.to_tensor(np.zeros([4, 2], "int32")), p.to_tensor(np.array([[0], [1], [0], [1]], "int32")),
        _t(p, 4, 1), 4, 2)),
}


@pytest.mark.parametrize("api", list(CALLS))
def test_raises_like_paddle_cpu(api):
    cls, call = CALLS[api]

    @differential(expected=raises(cls))
    def body(paddle):
        call(paddle, paddle.nn.functional)
