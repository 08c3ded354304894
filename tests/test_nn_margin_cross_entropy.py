"""F.margin_cross_entropy (one process) against a NumPy reference of Paddle's formula (Paddle's CPU build has
no kernel for it, so there is nothing to run differentially)."""
import numpy as np
import pytest

import paddlelite as paddle

_LOGITS = np.random.default_rng(0).uniform(-0.95, 0.95, (4, 6))
_LABEL = np.array([1, 0, 5, 3])


def _reference(m1, m2, m3, s):
    rows = np.arange(4)
    z = _LOGITS.copy()
    z[rows, _LABEL] = np.cos(m1 * np.arccos(z[rows, _LABEL]) + m2) - m3
    z *= s
    soft = np.exp(z - z.max(1, keepdims=True))
    soft /= soft.sum(1, keepdims=True)
    loss = -np.log(soft[rows, _LABEL])[:, None]
    target = np.zeros_like(z)
    target[rows, _LABEL] = 1
    dz = (soft - target) / 4 * s  # d mean(loss) / dz, times the scale
    sin_t = np.sqrt(1 - _LOGITS[rows, _LABEL] ** 2)
    dlogits = dz.copy()
    dlogits[rows, _LABEL] *= np.sin(m1 * np.arccos(_LOGITS[rows, _LABEL]) + m2) * m1 / sin_t
    return loss, soft, dlogits


@pytest.mark.parametrize("m1,m2,m3,s", [(1.0, 0.5, 0.0, 64.0), (1.0, 0.0, 0.35, 30.0), (1.35, 0.0, 0.0, 8.0)])
def test_matches_formula(m1, m2, m3, s):
    logits = paddle.to_tensor(_LOGITS, stop_gradient=False)
    label = paddle.to_tensor(_LABEL)
    loss, soft = paddle.nn.functional.margin_cross_entropy(logits, label, m1, m2, m3, s, return_softmax=True)
    loss.backward()
    ref_loss, ref_soft, ref_grad = _reference(m1, m2, m3, s)
    np.testing.assert_allclose(loss.numpy(), ref_loss.mean(), rtol=1e-10)
    np.testing.assert_allclose(soft.numpy(), ref_soft, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(logits.grad.numpy(), ref_grad, rtol=1e-7, atol=1e-10)
    none = paddle.nn.functional.margin_cross_entropy(logits, label, m1, m2, m3, s, reduction=None)
    assert none.shape == [4, 1]
    np.testing.assert_allclose(none.numpy(), ref_loss, rtol=1e-10)


def test_bad_reduction():
    with pytest.raises(ValueError, match="reduction"):
        paddle.nn.functional.margin_cross_entropy(paddle.to_tensor(_LOGITS), paddle.to_tensor(_LABEL),
                                                  reduction="max")
