"""Realistic Paddle 2.x eager programs (the way the official tutorials write them), run with
`import paddlelite as paddle` and checked against independent references (PyTorch CPU, NumPy)."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn as nn
import paddlelite.nn.functional as F
from paddlelite.autograd import PyLayer
from paddlelite.io import DataLoader, Dataset
from tests.references import torch

RNG = np.random.default_rng(2024)


# ---- LeNet on fake MNIST-shaped data: forward, loss, grads, SGD step vs PyTorch ----------------------
class LeNet(nn.Layer):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        x = paddle.flatten(x, 1)
        return self.fc(x)


class FakeMNIST(Dataset):
    def __init__(self, n):
        self.images = RNG.standard_normal((n, 1, 28, 28)).astype("float32")
        self.labels = RNG.integers(0, 10, (n, 1)).astype("int64")

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]

    def __len__(self):
        return len(self.images)


def _torch_lenet(model):
    t = torch.nn.Sequential(
        torch.nn.Conv2d(1, 6, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2, 2),
        torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2, 2), torch.nn.Flatten(),
        torch.nn.Linear(400, 120), torch.nn.Linear(120, 84), torch.nn.Linear(84, 10))
    sd = model.state_dict()
    with torch.no_grad():
        for ti, pi in ((0, "features.0"), (3, "features.3")):
            t[ti].weight.copy_(torch.tensor(sd[pi + ".weight"].numpy()))
            t[ti].bias.copy_(torch.tensor(sd[pi + ".bias"].numpy()))
        for ti, pi in ((7, "fc.0"), (8, "fc.1"), (9, "fc.2")):
            t[ti].weight.copy_(torch.tensor(sd[pi + ".weight"].numpy().T))  # Paddle: [in, out]
            t[ti].bias.copy_(torch.tensor(sd[pi + ".bias"].numpy()))
    return t


def test_lenet_training_loop_matches_torch(tmp_path):
    paddle.seed(1)
    ds = FakeMNIST(16)
    loader = DataLoader(ds, batch_size=8, shuffle=False, drop_last=True)
    model = LeNet()
    tmodel = _torch_lenet(model)
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    topt = torch.optim.SGD(tmodel.parameters(), lr=0.05)
    model.train()
    for x_data, y_data in loader():
        assert x_data.shape == [8, 1, 28, 28] and y_data.shape == [8, 1] and y_data.dtype == paddle.int64
        predicts = model(x_data)
        loss = F.cross_entropy(predicts, y_data)
        acc = paddle.metric.accuracy(predicts, y_data)
        tp = tmodel(torch.tensor(x_data.numpy()))
        tloss = torch.nn.functional.cross_entropy(tp, torch.tensor(y_data.numpy()[:, 0]))
        np.testing.assert_allclose(predicts.numpy(), tp.detach().numpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(float(loss), tloss.item(), rtol=1e-5)
        want_acc = np.mean(tp.detach().numpy().argmax(1) == y_data.numpy()[:, 0])
        assert acc.shape == [] and acc.dtype == paddle.float32
        np.testing.assert_allclose(float(acc), want_acc)
        loss.backward()
        topt.zero_grad()
        tloss.backward()
        np.testing.assert_allclose(model.features[0].weight.grad.numpy(), tmodel[0].weight.grad.numpy(),
                                   rtol=1e-4, atol=1e-6)
        opt.step()
        opt.clear_grad()
        topt.step()
    np.testing.assert_allclose(model.fc[2].weight.numpy(), tmodel[9].weight.detach().numpy().T, rtol=1e-4, atol=1e-6)
    # checkpoint round trip: a fresh model loaded from the state dict predicts the same
    path = str(tmp_path / "lenet.pdparams")
    paddle.save(model.state_dict(), path)
    other = LeNet()
    other.set_state_dict(paddle.load(path))
    model.eval()
    other.eval()
    x = paddle.rand([2, 1, 28, 28])
    np.testing.assert_array_equal(other(x).numpy(), model(x).numpy())


# ---- Embedding + masked mean pooling text classifier, Adam + StepDecay + global-norm clip ------------
class BoWClassifier(nn.Layer):
    def __init__(self, vocab_size, emb_dim, num_classes, padding_idx=0):
        super().__init__()
        self.embedder = nn.Embedding(vocab_size, emb_dim, padding_idx=padding_idx)
        self.fc = nn.Linear(emb_dim, num_classes)

    def forward(self, ids):
        emb = self.embedder(ids)
        mask = (ids != 0).astype("float32").unsqueeze(-1)
        summed = paddle.sum(emb * mask, axis=1)
        pooled = summed / paddle.clip(paddle.sum(mask, axis=1), min=1.0)
        return self.fc(F.tanh(pooled))


def test_text_classifier_adam_stepdecay_clip_matches_torch():
    paddle.seed(3)
    model = BoWClassifier(30, 8, 3)
    temb = torch.nn.Embedding(30, 8, padding_idx=0)
    tfc = torch.nn.Linear(8, 3)
    with torch.no_grad():
        temb.weight.copy_(torch.tensor(model.embedder.weight.numpy()))
        tfc.weight.copy_(torch.tensor(model.fc.weight.numpy().T))
        tfc.bias.copy_(torch.tensor(model.fc.bias.numpy()))
    ids = RNG.integers(0, 30, (6, 7))
    ids[:, 5:] = 0  # padding
    labels = RNG.integers(0, 3, (6,))
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters(),
                                grad_clip=nn.ClipGradByGlobalNorm(clip_norm=0.5))
    tparams = list(temb.parameters()) + list(tfc.parameters())
    topt = torch.optim.Adam(tparams, lr=0.1)
    tsched = torch.optim.lr_scheduler.StepLR(topt, step_size=2, gamma=0.5)
    for _ in range(5):
        loss = F.cross_entropy(model(paddle.to_tensor(ids)), paddle.to_tensor(labels))
        loss.backward()
        assert np.all(model.embedder.weight.grad.numpy()[0] == 0)  # the padding row gets no gradient
        opt.step()
        opt.clear_grad()
        sched.step()
        ti = torch.tensor(ids)
        mask = (ti != 0).float().unsqueeze(-1)
        pooled = (temb(ti) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        tloss = torch.nn.functional.cross_entropy(tfc(torch.tanh(pooled)), torch.tensor(labels))
        topt.zero_grad()
        tloss.backward()
        torch.nn.utils.clip_grad_norm_(tparams, 0.5)
        topt.step()
        tsched.step()
        np.testing.assert_allclose(float(loss), tloss.item(), rtol=1e-5)
        assert opt.get_lr() == pytest.approx(tsched.get_last_lr()[0])
    np.testing.assert_allclose(model.embedder.weight.numpy(), temb.weight.detach().numpy(), rtol=1e-4, atol=1e-5)


# ---- autograd: PyLayer, higher-order paddle.grad, hooks, no_grad --------------------------------------
class CusTanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def test_pylayer_higher_order_grad_hooks_and_no_grad():
    a = RNG.standard_normal((2, 3))
    x = paddle.to_tensor(a, stop_gradient=False)
    CusTanh.apply(x).mean().backward()
    np.testing.assert_allclose(x.grad.numpy(), (1 - np.tanh(a) ** 2) / 6)

    x = paddle.to_tensor(a, stop_gradient=False)
    y = paddle.sin(x) * x
    (dx,) = paddle.grad(y, x, create_graph=True)
    (ddx,) = paddle.grad(dx.sum(), x)
    tx = torch.tensor(a, requires_grad=True)
    tdx, = torch.autograd.grad((torch.sin(tx) * tx).sum(), tx, create_graph=True)
    tddx, = torch.autograd.grad(tdx.sum(), tx)
    np.testing.assert_allclose(dx.numpy(), tdx.detach().numpy())
    np.testing.assert_allclose(ddx.numpy(), tddx.numpy())
    assert x.grad is None  # paddle.grad leaves .grad alone

    h = x * 2
    handle = h.register_hook(lambda g: g * 10)
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 3), 20.0))
    assert handle.remove() is True and handle.remove() is False
    with paddle.no_grad():
        assert (x * 3).stop_gradient


# ---- search / sort APIs: values vs NumPy, gradients vs PyTorch ------------------------------------------
def test_topk_sort_argsort_values_and_grads():
    a = RNG.permutation(20).reshape(4, 5).astype("float64")
    x = paddle.to_tensor(a, stop_gradient=False)
    vals, idx = paddle.topk(x, k=3)
    want_idx = np.argsort(-a, axis=-1, kind="stable")[:, :3]
    np.testing.assert_array_equal(idx.numpy(), want_idx)
    np.testing.assert_array_equal(vals.numpy(), np.take_along_axis(a, want_idx, -1))
    assert idx.dtype == paddle.int64
    small, sidx = paddle.topk(x, k=2, axis=0, largest=False)
    np.testing.assert_array_equal(sidx.numpy(), np.argsort(a, axis=0)[:2])
    w = RNG.standard_normal((4, 3))
    (vals * paddle.to_tensor(w)).sum().backward()
    tx = torch.tensor(a, requires_grad=True)
    (torch.topk(tx, 3).values * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())

    np.testing.assert_array_equal(paddle.sort(x, axis=0, descending=True).numpy(), -np.sort(-a, axis=0))
    np.testing.assert_array_equal(paddle.argsort(x).numpy(), np.argsort(a, -1))
    np.testing.assert_array_equal(x.argsort(axis=0, descending=True).numpy(), np.argsort(-a, 0, kind="stable"))
    ties = paddle.to_tensor([3, 1, 3, 2, 1])
    np.testing.assert_array_equal(paddle.argsort(ties).numpy(), [1, 4, 3, 0, 2])  # stable
    np.testing.assert_array_equal(paddle.argsort(ties, descending=True).numpy(), [0, 2, 3, 1, 4])
    with pytest.raises(ValueError, match=r"topk: k must lie in \[1, 5\]"):
        paddle.topk(x, k=6)


def test_accuracy_metric_topk_and_streaming():
    pred = paddle.to_tensor([[0.2, 0.1, 0.4, 0.1, 0.1], [0.2, 0.3, 0.1, 0.15, 0.25]])
    label = paddle.to_tensor([[2], [0]], dtype="int64")
    assert float(paddle.metric.accuracy(input=pred, label=label, k=1)) == 0.5
    assert float(paddle.metric.accuracy(pred, label, k=5)) == 1.0
    logits = RNG.standard_normal((10, 4)).astype("float32")
    lab = RNG.integers(0, 4, (10, 1))
    top2 = np.argsort(-logits, 1)[:, :2]
    want = np.mean([lab[i, 0] in top2[i] for i in range(10)])
    np.testing.assert_allclose(float(paddle.metric.accuracy(paddle.to_tensor(logits), paddle.to_tensor(lab), k=2)),
                               want, rtol=1e-6)
    m = paddle.metric.Accuracy(topk=(1, 2))
    m.update(m.compute(paddle.to_tensor(logits), paddle.to_tensor(lab)))
    top1 = np.mean(logits.argmax(1) == lab[:, 0])
    np.testing.assert_allclose(m.accumulate(), [top1, want])
    assert m.name() == ["acc_top1", "acc_top2"]
    with pytest.raises(TypeError, match="accuracy: label must be an int32 or int64 Tensor"):
        paddle.metric.accuracy(pred, paddle.to_tensor([[2.0], [0.0]]))


def test_nonzero_unique_where_take_along_axis_masked_fill():
    a = np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    x = paddle.to_tensor(a)
    np.testing.assert_array_equal(paddle.nonzero(x).numpy(), np.argwhere(a))
    rows, cols = paddle.nonzero(x, as_tuple=True)
    assert rows.shape == [3] and cols.shape == [3]  # 1-D index tensors, as Paddle's
    rows, cols = paddle.where(x > 0)
    np.testing.assert_array_equal(np.stack([rows.numpy(), cols.numpy()], 1), np.argwhere(a > 0))

    u = np.array([2, 3, 3, 1, 5, 3])
    out, index, inverse, counts = paddle.unique(paddle.to_tensor(u), return_index=True, return_inverse=True,
                                                return_counts=True)
    wu, wi, winv, wc = np.unique(u, return_index=True, return_inverse=True, return_counts=True)
    for got, want in ((out, wu), (index, wi), (inverse, winv), (counts, wc)):
        np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(paddle.unique(paddle.to_tensor([[1, 2], [1, 2], [0, 1]]), axis=0).numpy(),
                                  [[0, 1], [1, 2]])

    b = RNG.standard_normal((3, 4))
    xb = paddle.to_tensor(b, stop_gradient=False)
    ind = np.array([[0], [3], [3]])
    got = paddle.take_along_axis(xb, paddle.to_tensor(ind), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(b, ind, 1))
    got.sum().backward()
    tb = torch.tensor(b, requires_grad=True)
    torch.take_along_dim(tb, torch.tensor(ind), 1).sum().backward()
    np.testing.assert_array_equal(xb.grad.numpy(), tb.grad.numpy())
    bcast = paddle.take_along_axis(xb, paddle.to_tensor([[1, 2]]), axis=1)  # indices broadcast over rows
    np.testing.assert_array_equal(bcast.numpy(), b[:, [1, 2]])

    np.testing.assert_array_equal(xb.masked_fill(xb > 0, 0.0).numpy(), np.where(b > 0, 0, b))


def test_linear_algebra_helpers_match_torch():
    a = RNG.standard_normal((2, 3, 4))
    b = RNG.standard_normal((2, 4, 5))
    x, y = paddle.to_tensor(a, stop_gradient=False), paddle.to_tensor(b)
    np.testing.assert_allclose(paddle.bmm(x, y).numpy(), a @ b)
    m = paddle.to_tensor(a[0], stop_gradient=False)
    np.testing.assert_array_equal(paddle.t(m).numpy(), a[0].T)
    np.testing.assert_array_equal(paddle.tril(m, diagonal=1).numpy(), np.tril(a[0], 1))
    np.testing.assert_array_equal(m.triu(-1).numpy(), np.triu(a[0], -1))
    paddle.tril(m).sum().backward()
    np.testing.assert_array_equal(m.grad.numpy(), np.tril(np.ones((3, 4))))
    v = paddle.to_tensor(a[0, 0])
    np.testing.assert_allclose(float(paddle.dot(v, v)), a[0, 0] @ a[0, 0])
    np.testing.assert_allclose(paddle.dot(m, m).numpy(), (a[0] * a[0]).sum(-1))
    assert [t.shape for t in paddle.unbind(x, axis=1)] == [[2, 4]] * 3
    assert bool(paddle.allclose(x, x + 1e-9)) and not bool(paddle.allclose(x, x + 1e-3))
    assert bool(paddle.equal_all(y, y)) and not bool(paddle.equal_all(y, x))
    assert paddle.is_tensor(x) and not paddle.is_tensor(a)
    np.testing.assert_allclose(F.normalize(x, axis=-1).numpy(),
                               torch.nn.functional.normalize(torch.tensor(a), dim=-1).numpy())
    np.testing.assert_allclose(F.cosine_similarity(x, x * 2 + 1, axis=2).numpy(),
                               torch.nn.functional.cosine_similarity(torch.tensor(a), torch.tensor(a) * 2 + 1,
                                                                     dim=2).numpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="mean: x must be a floating-point Tensor, received bool"):
        paddle.mean(paddle.to_tensor([True, False]))


def test_shape_and_numel_are_tensors():
    x = paddle.ones([2, 3, 4])
    s = paddle.shape(x)
    assert s.dtype == paddle.int32 and s.numpy().tolist() == [2, 3, 4]
    n = paddle.numel(x)
    assert n.dtype == paddle.int64 and n.shape == [] and int(n) == 24
    assert x.numel() == 24
