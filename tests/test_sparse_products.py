"""paddle.sparse's products -- matmul (sparse @ dense, sparse @ sparse), masked_matmul, mv, addmm, attention and
pca_lowrank -- against NumPy on the dense equivalents, values and gradients. Paddle 3.3.1 has only GPU kernels for
them (its CPU build raises), so these are checked against closed forms rather than differentially."""
import numpy as np
import pytest

import paddlelite as paddle

pytest.importorskip("scipy.sparse")  # the CPU's sparse products
sp = paddle.sparse
RNG = np.random.default_rng(0)


def _sparse_dense(shape, density=0.4, seed=0):
    g = np.random.default_rng(seed)
    return (g.uniform(-1, 1, shape) * (g.uniform(size=shape) < density)).astype(np.float64)


def _values_and_matrix(dense, fmt):
    """A leaf values tensor and the sparse tensor holding it (gradients reach the values)."""
    coo = paddle.to_tensor(dense).to_sparse_coo(len(dense.shape))
    values = paddle.to_tensor(coo.values().numpy(), stop_gradient=False)
    x = sp.sparse_coo_tensor(coo.indices(), values, list(dense.shape), stop_gradient=False)
    return values, (x.to_sparse_csr() if fmt == "csr" else x), coo.indices().numpy()


@pytest.mark.parametrize("fmt", ["coo", "csr"])
@pytest.mark.parametrize("batched", [False, True])
def test_matmul_sparse_dense(fmt, batched):
    shape = (2, 4, 5) if batched else (4, 5)
    a = _sparse_dense(shape)
    b = RNG.uniform(-1, 1, shape[:-2] + (5, 3))
    values, x, idx = _values_and_matrix(a, fmt)
    y = paddle.to_tensor(b, stop_gradient=False)
    out = sp.matmul(x, y)
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-12)
    w = RNG.uniform(-1, 1, out.shape)
    (out * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), np.swapaxes(a, -1, -2) @ w, rtol=1e-12)
    dense_grad = w @ np.swapaxes(b, -1, -2)  # d a = w b^T, read at a's entries
    np.testing.assert_allclose(values.grad.numpy(), dense_grad[tuple(idx)], rtol=1e-12)


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_matmul_sparse_sparse(fmt):
    a, b = _sparse_dense((4, 5), seed=1), _sparse_dense((5, 3), seed=2)
    va, x, ia = _values_and_matrix(a, fmt)
    vb, y, ib = _values_and_matrix(b, fmt)
    out = sp.matmul(x, y)
    assert out.is_sparse_coo() if fmt == "coo" else out.is_sparse_csr()
    np.testing.assert_allclose(out.to_dense().numpy(), a @ b, rtol=1e-12)
    w = RNG.uniform(-1, 1, (4, 3))
    (out.to_dense() * paddle.to_tensor(w)).sum().backward()
    pattern = (np.abs(a) @ np.abs(b)) != 0  # the product's entries: only their gradients count
    wm = w * pattern
    np.testing.assert_allclose(va.grad.numpy(), (wm @ b.T)[tuple(ia)], rtol=1e-12)
    np.testing.assert_allclose(vb.grad.numpy(), (a.T @ wm)[tuple(ib)], rtol=1e-12)


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_masked_matmul(fmt):
    a, b = RNG.uniform(-1, 1, (4, 3)), RNG.uniform(-1, 1, (3, 5))
    mask = _sparse_dense((4, 5), seed=3)
    _, m, idx = _values_and_matrix(mask, fmt)
    x, y = paddle.to_tensor(a, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)
    out = sp.masked_matmul(x, y, m)
    np.testing.assert_allclose(out.to_dense().numpy(), (a @ b) * (mask != 0), rtol=1e-12)
    w = RNG.uniform(-1, 1, (4, 5)) * (mask != 0)
    (out.to_dense() * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), w @ b.T, rtol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), a.T @ w, rtol=1e-12)


@pytest.mark.parametrize("density", [0.03, 0.5])  # per-entry dots, and the whole product read at the entries
def test_batched_masked_matmul_either_way(density):
    a, b = RNG.uniform(-1, 1, (3, 6, 4)), RNG.uniform(-1, 1, (3, 7, 4))
    mask = _sparse_dense((3, 6, 7), density=density, seed=5)
    out = sp.masked_matmul(paddle.to_tensor(a), paddle.to_tensor(b).transpose([0, 2, 1]),
                           paddle.to_tensor(mask).to_sparse_csr())
    np.testing.assert_allclose(out.to_dense().numpy(), (a @ b.transpose(0, 2, 1)) * (mask != 0), rtol=1e-12)


def test_mv_and_addmm():
    a = _sparse_dense((4, 5), seed=4)
    values, x, idx = _values_and_matrix(a, "csr")
    v = RNG.uniform(-1, 1, 5)
    out = sp.mv(x, paddle.to_tensor(v))
    np.testing.assert_allclose(out.numpy(), a @ v, rtol=1e-12)
    out.sum().backward()
    np.testing.assert_allclose(values.grad.numpy(), np.outer(np.ones(4), v)[tuple(idx)], rtol=1e-12)
    inp, b = RNG.uniform(-1, 1, (4, 2)), RNG.uniform(-1, 1, (5, 2))
    got = sp.addmm(paddle.to_tensor(inp), x, paddle.to_tensor(b), beta=0.5, alpha=2.0)
    np.testing.assert_allclose(got.numpy(), 0.5 * inp + 2.0 * (a @ b), rtol=1e-12)
    s1, s2 = _values_and_matrix(_sparse_dense((4, 4), seed=5), "coo")[1], _values_and_matrix(
        _sparse_dense((4, 4), seed=6), "coo")[1]
    both = sp.addmm(s1, s1, s2, beta=2.0, alpha=-1.0)
    np.testing.assert_allclose(both.to_dense().numpy(), 2 * s1.to_dense().numpy()
                               - s1.to_dense().numpy() @ s2.to_dense().numpy(), rtol=1e-12)


def test_product_errors():
    x = paddle.to_tensor(_sparse_dense((4, 5))).to_sparse_coo(2)
    with pytest.raises(ValueError, match="do not multiply"):
        sp.matmul(x, paddle.ones([4, 2], "float64"))
    with pytest.raises(TypeError, match="sparse"):
        sp.matmul(paddle.ones([4, 5]), paddle.ones([5, 2]))
    with pytest.raises(ValueError, match="mask's shape"):
        sp.masked_matmul(paddle.ones([4, 3], "float64"), paddle.ones([3, 4], "float64"), x)
    with pytest.raises(ValueError, match="1-D"):
        sp.mv(x, paddle.ones([5, 1], "float64"))


def test_attention():
    """softmax(Q K^T / sqrt(d), restricted to the mask's entries and the padding/attention masks) V."""
    b, h, s, d = 2, 2, 4, 3
    q, k, v = (RNG.uniform(-1, 1, (b, h, s, d)) for _ in range(3))
    allowed = RNG.uniform(size=(b * h, s, s)) < 0.6
    allowed[:, :, 0] = True  # every query sees at least key 0 (never padded nor masked)
    mask = paddle.to_tensor(allowed.astype(np.float64)).to_sparse_csr()
    key_padding = np.ones((b, s))
    key_padding[1, -1] = 0
    attn = np.ones((s, s))
    attn[0, 1] = 0
    tensors = [paddle.to_tensor(t, stop_gradient=False) for t in (q, k, v)]
    out = sp.nn.functional.attention(*tensors, mask, paddle.to_tensor(key_padding), paddle.to_tensor(attn))
    scores = (q.reshape(b * h, s, d) @ k.reshape(b * h, s, d).transpose(0, 2, 1)) / np.sqrt(d)
    keep = allowed & (np.repeat(key_padding, h, axis=0)[:, None, :] != 0) & (attn[None] != 0)
    scores = np.where(keep, scores, -np.inf)
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), (p @ v.reshape(b * h, s, d)).reshape(b, h, s, d), rtol=1e-10)
    out.sum().backward()
    assert all(t.grad is not None and np.isfinite(t.grad.numpy()).all() for t in tensors)


def test_pca_lowrank():
    """The leading singular triplets of the centred matrix, for a matrix of exact rank 3."""
    g = np.random.default_rng(7)
    low = g.uniform(-1, 1, (20, 3)) @ g.uniform(-1, 1, (3, 12))
    low[np.abs(low) < 0.3] = 0.0
    x = paddle.to_tensor(low).to_sparse_coo(2)
    paddle.seed(0)
    u, s, v = sp.pca_lowrank(x, q=12, niter=4)
    centred = low - low.mean(0)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(centred, compute_uv=False), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, centred, atol=1e-8)
    _, s2, _ = sp.pca_lowrank(x, q=4, center=False)
    assert s2.shape == [4]
    with pytest.raises(ValueError, match="q"):
        sp.pca_lowrank(x, q=30)


@pytest.mark.gpu
def test_products_on_the_gpu_match_the_cpu():
    a, b = _sparse_dense((6, 5), seed=8), RNG.uniform(-1, 1, (5, 4))
    cpu = sp.matmul(paddle.to_tensor(a).to_sparse_csr(), paddle.to_tensor(b)).numpy()
    x = paddle.to_tensor(a, place="gpu:0").to_sparse_csr()
    gpu = sp.matmul(x, paddle.to_tensor(b, place="gpu:0"))
    assert gpu.place.is_gpu_place()
    np.testing.assert_allclose(gpu.numpy(), cpu, rtol=1e-12)
