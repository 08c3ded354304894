"""Loss functionals vs PyTorch CPU: values and gradients, Paddle's reductions / ignore_index / weights."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from tests.references import TF, torch


def _t(a, grad=True):
    return paddle.to_tensor(a, stop_gradient=not grad), torch.tensor(a, requires_grad=grad)


def _check(p_out, t_out, p_in, t_in, rtol=1e-9, atol=1e-12):
    np.testing.assert_allclose(p_out.numpy(), t_out.detach().numpy(), rtol=rtol, atol=atol)
    if p_out.size > 1:
        w = np.random.default_rng(3).uniform(-1, 1, size=tuple(t_out.shape))
        p_out = (p_out * paddle.to_tensor(w)).sum()
        t_out = (t_out * torch.tensor(w)).sum()
    p_out.backward()
    t_out.backward()
    for p, t in zip(p_in, t_in):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


@pytest.fixture
def r():
    return np.random.default_rng(0)


LABELS = np.array([0, 3, 1, 3, 2], dtype=np.int64)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_hard_labels(r, reduction):
    x, tx = _t(r.normal(size=(5, 4)))
    out = F.cross_entropy(x, paddle.to_tensor(LABELS), reduction=reduction)
    ref = TF.cross_entropy(tx, torch.tensor(LABELS), reduction=reduction)
    assert out.shape == list(ref.shape)
    _check(out, ref, [x], [tx])


def test_cross_entropy_label_with_unit_dim_keeps_it(r):
    x = paddle.to_tensor(r.normal(size=(5, 4)))
    out = F.cross_entropy(x, paddle.to_tensor(LABELS[:, None]), reduction="none")
    assert out.shape == [5, 1]


@pytest.mark.parametrize("ignore", [-100, 3])
def test_cross_entropy_ignore_index_and_weight(r, ignore):
    labels = LABELS.copy()
    labels[1] = ignore
    wv = r.uniform(0.5, 2.0, size=4)
    for weight in (None, wv):
        x, tx = _t(r.normal(size=(5, 4)))
        pw = None if weight is None else paddle.to_tensor(weight)
        tw = None if weight is None else torch.tensor(weight)
        out = F.cross_entropy(x, paddle.to_tensor(labels), weight=pw, ignore_index=ignore)
        ref = TF.cross_entropy(tx, torch.tensor(labels), weight=tw, ignore_index=ignore)
        if ignore < 0 and weight is None:  # Paddle (not torch) averages over every sample, the ignored one too
            ref = TF.cross_entropy(tx, torch.tensor(labels), ignore_index=ignore, reduction="sum") / len(labels)
        _check(out, ref, [x], [tx])


def test_cross_entropy_all_ignored_is_zero(r):
    x = paddle.to_tensor(r.normal(size=(2, 3)), stop_gradient=False)
    out = F.cross_entropy(x, paddle.to_tensor(np.array([-100, -100])))
    assert float(out) == 0.0
    out.backward()
    np.testing.assert_array_equal(x.grad.numpy(), 0)


def test_cross_entropy_soft_labels_axis_and_smoothing(r):
    x, tx = _t(r.normal(size=(3, 4, 2)))
    p = r.uniform(size=(3, 4, 2))
    p /= p.sum(axis=1, keepdims=True)
    out = F.cross_entropy(x, paddle.to_tensor(p), soft_label=True, axis=1)
    ref = TF.cross_entropy(tx, torch.tensor(p))
    _check(out, ref, [x], [tx])
    x, tx = _t(r.normal(size=(5, 4)))
    out = F.cross_entropy(x, paddle.to_tensor(LABELS), label_smoothing=0.1)
    ref = TF.cross_entropy(tx, torch.tensor(LABELS), label_smoothing=0.1)
    # Paddle's smoothing constants are float32 (0.9, 0.1 / 4), PyTorch's exact; and Paddle's gradient, softmax - label,
    # leaves out that those rounded labels sum to 1 + O(1e-8)
    _check(out, ref, [x], [tx], rtol=1e-6, atol=1e-8)
    x, tx = _t(r.normal(size=(2, 3, 4)))
    lab = np.array([[0, 2, 1, 2], [1, 1, 0, 2]])
    out = F.cross_entropy(x, paddle.to_tensor(lab), axis=1, reduction="none")
    ref = TF.cross_entropy(tx, torch.tensor(lab), reduction="none")
    _check(out, ref, [x], [tx])


def test_cross_entropy_without_softmax(r):
    probs = r.uniform(0.1, 1.0, size=(5, 4))
    probs /= probs.sum(axis=1, keepdims=True)
    x, tx = _t(probs)
    out = F.cross_entropy(x, paddle.to_tensor(LABELS), use_softmax=False)
    ref = TF.nll_loss(torch.log(tx), torch.tensor(LABELS))
    _check(out, ref, [x], [tx])


def test_softmax_with_cross_entropy(r):
    x, tx = _t(r.normal(size=(5, 4)))
    loss, sm = F.softmax_with_cross_entropy(x, paddle.to_tensor(LABELS[:, None]), return_softmax=True)
    assert loss.shape == [5, 1]
    np.testing.assert_allclose(sm.numpy(), torch.softmax(tx, 1).detach().numpy(), rtol=1e-12)
    ref = TF.cross_entropy(tx, torch.tensor(LABELS), reduction="none")[:, None]
    _check(loss, ref, [x], [tx])


def test_cross_entropy_errors(r):
    x = paddle.to_tensor(r.normal(size=(5, 4)))
    with pytest.raises(ValueError, match="cross_entropy: reduction"):
        F.cross_entropy(x, paddle.to_tensor(LABELS), reduction="avg")
    with pytest.raises(TypeError, match="must hold class ids"):
        F.cross_entropy(x, paddle.to_tensor(LABELS.astype("complex64")))
    with pytest.raises(IndexError, match=r"Label values must lie in \[0, 4\)"):
        F.cross_entropy(x, paddle.to_tensor(np.array([0, 1, 2, 3, 4])))
    with pytest.raises(ValueError, match="weight must have shape"):
        F.cross_entropy(x, paddle.to_tensor(LABELS), weight=paddle.to_tensor(np.ones(3)))
    with pytest.raises(ValueError, match="Label must have shape"):
        F.softmax_with_cross_entropy(x, paddle.to_tensor(np.zeros((5, 2), dtype=np.int64)))


@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss(r, weighted):
    lp = np.log(r.dirichlet(np.ones(4), size=5))
    x, tx = _t(lp)
    labels = LABELS.copy()
    labels[2] = -100
    wv = r.uniform(0.5, 2, size=4)
    out = F.nll_loss(x, paddle.to_tensor(labels), weight=paddle.to_tensor(wv) if weighted else None)
    ref = TF.nll_loss(tx, torch.tensor(labels), weight=torch.tensor(wv) if weighted else None)
    _check(out, ref, [x], [tx])
    x, tx = _t(lp)
    _check(F.nll_loss(x, paddle.to_tensor(labels), reduction="none"),
           TF.nll_loss(tx, torch.tensor(labels), reduction="none"), [x], [tx])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses(r, reduction):
    a, b = r.normal(size=(3, 4)), r.normal(size=(3, 4))
    for pf, tf in ((F.mse_loss, TF.mse_loss), (F.l1_loss, TF.l1_loss)):
        (x, tx), (y, ty) = _t(a), _t(b)
        _check(pf(x, y, reduction=reduction), tf(tx, ty, reduction=reduction), [x, y], [tx, ty])
    (x, tx), (y, ty) = _t(a), _t(b)
    _check(F.smooth_l1_loss(x, y, reduction=reduction, delta=0.7),
           TF.huber_loss(tx, ty, reduction=reduction, delta=0.7), [x, y], [tx, ty])


def test_square_error_cost(r):
    (x, tx), (y, ty) = _t(r.normal(size=(4, 1))), _t(r.normal(size=(4, 1)))
    _check(F.square_error_cost(x, y), (tx - ty) ** 2, [x, y], [tx, ty])


def test_binary_cross_entropy(r):
    p, y, w = r.uniform(0.05, 0.95, size=(4, 3)), r.uniform(size=(4, 3)), r.uniform(size=(4, 3))
    (x, tx), (lab, tlab) = _t(p), _t(y, grad=False)
    _check(F.binary_cross_entropy(x, lab, weight=paddle.to_tensor(w)),
           TF.binary_cross_entropy(tx, tlab, weight=torch.tensor(w)), [x], [tx])
    logits = r.normal(scale=3, size=(4, 3))
    pw = r.uniform(0.5, 2, size=3)
    for pos in (None, pw):
        (x, tx), (lab, tlab) = _t(logits), _t(y, grad=False)
        _check(F.binary_cross_entropy_with_logits(x, lab, reduction="sum",
                                                  pos_weight=None if pos is None else paddle.to_tensor(pos)),
               TF.binary_cross_entropy_with_logits(tx, tlab, reduction="sum",
                                                   pos_weight=None if pos is None else torch.tensor(pos)), [x], [tx])


def test_regression_loss_errors(r):
    x = paddle.to_tensor(r.normal(size=(3, 4)))
    with pytest.raises(ValueError, match="mse_loss: input and label must have the same shape"):
        F.mse_loss(x, paddle.to_tensor(r.normal(size=(4, 3))))
    with pytest.raises(ValueError, match="l1_loss: reduction"):
        F.l1_loss(x, x, reduction="max")
    with pytest.raises(ValueError, match="square_error_cost: label must be a Tensor"):
        F.square_error_cost(x, 1.0)
