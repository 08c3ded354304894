"""nn.functional conv / pool / norm / embedding / dropout / linear: values and gradients vs PyTorch CPU."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from tests.references import TF, torch


def _pair(*arrays, dtype="float64"):
    """Paddle tensors (requiring grad) and torch tensors holding the same values."""
    ps = [paddle.to_tensor(a, dtype=dtype, stop_gradient=False) for a in arrays]
    ts = [torch.tensor(a, dtype=getattr(torch, dtype), requires_grad=True) for a in arrays]
    return ps, ts


def _check_fwd_bwd(p_out, t_out, ps, ts, rtol=1e-9, atol=1e-10):
    np.testing.assert_allclose(p_out.numpy(), t_out.detach().numpy(), rtol=rtol, atol=atol)
    w = np.random.default_rng(5).uniform(-1, 1, size=t_out.shape)
    (p_out * paddle.to_tensor(w, dtype=p_out.dtype)).sum().backward()
    (t_out * torch.tensor(w, dtype=t_out.dtype)).sum().backward()
    for p, t in zip(ps, ts):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


@pytest.fixture
def r():
    return np.random.default_rng(0)


# ---- conv -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("stride,padding,dilation,groups", [
    (1, 0, 1, 1), (2, 1, 1, 1), ((1, 2), (2, 1), (2, 1), 1), (1, 1, 1, 2), (2, 0, 2, 4)])
def test_conv2d_matches_torch(r, stride, padding, dilation, groups):
    (x, w, b), (tx, tw, tb) = _pair(r.normal(size=(2, 4, 9, 8)), r.normal(size=(4, 4 // groups, 3, 3)),
                                    r.normal(size=4))
    out = F.conv2d(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups)
    ref = TF.conv2d(tx, tw, tb, stride=stride, padding=padding, dilation=dilation, groups=groups)
    _check_fwd_bwd(out, ref, [x, w, b], [tx, tw, tb])


def test_conv2d_nhwc_same_and_asymmetric_padding(r):
    xv, wv = r.normal(size=(1, 3, 7, 6)), r.normal(size=(2, 3, 3, 3))
    (x, w), (tx, tw) = _pair(xv.transpose(0, 2, 3, 1), wv)
    out = F.conv2d(x, w, padding="SAME", data_format="NHWC")
    ref = TF.conv2d(tx.permute(0, 3, 1, 2), tw, padding="same").permute(0, 2, 3, 1)
    _check_fwd_bwd(out, ref, [x, w], [tx, tw])
    (x, w), (tx, tw) = _pair(xv, wv)
    out = F.conv2d(x, w, padding=[1, 0, 2, 1], stride=2)
    ref = TF.conv2d(TF.pad(tx, (2, 1, 1, 0)), tw, stride=2)
    _check_fwd_bwd(out, ref, [x, w], [tx, tw])


def test_conv1d_matches_torch(r):
    (x, w, b), (tx, tw, tb) = _pair(r.normal(size=(2, 4, 10)), r.normal(size=(6, 2, 3)), r.normal(size=6))
    _check_fwd_bwd(F.conv1d(x, w, b, stride=2, padding=1, groups=2),
                   TF.conv1d(tx, tw, tb, stride=2, padding=1, groups=2), [x, w, b], [tx, tw, tb])


def test_conv2d_float32_and_errors(r):
    x = paddle.to_tensor(r.normal(size=(1, 3, 5, 5)).astype("float32"))
    w = paddle.to_tensor(r.normal(size=(2, 3, 3, 3)).astype("float32"))
    assert F.conv2d(x, w).dtype == paddle.float32
    with pytest.raises(ValueError, match="channels"):
        F.conv2d(x, paddle.to_tensor(np.zeros((2, 2, 3, 3), "float32")))
    with pytest.raises(ValueError, match="conv2d: padding"):
        F.conv2d(x, w, padding="FULL")
    with pytest.raises(ValueError, match="conv2d: stride"):
        F.conv2d(x, w, stride=0)
    with pytest.raises(ValueError, match="4-D"):
        F.conv2d(paddle.to_tensor(np.zeros((3, 5, 5), "float32")), w)
    with pytest.raises(ValueError, match="conv2d: x must be a Tensor"):
        F.conv2d(np.zeros((1, 3, 5, 5)), w)
    with pytest.raises(ValueError, match="empty"):
        F.conv2d(paddle.to_tensor(np.zeros((1, 3, 2, 2), "float32")), w)
    with pytest.raises(ValueError, match="dtype"):  # ValueError, as Paddle's
        F.conv2d(x, paddle.to_tensor(np.zeros((2, 3, 3, 3), "float64")))


def test_conv2d_double_backward(r):
    (x, w), (tx, tw) = _pair(r.normal(size=(1, 2, 5, 5)), r.normal(size=(3, 2, 3, 3)))
    gx, = paddle.grad((F.conv2d(x, w, padding=1) ** 2).sum(), [x], create_graph=True)
    (gx * gx).sum().backward()
    tgx, = torch.autograd.grad((TF.conv2d(tx, tw, padding=1) ** 2).sum(), [tx], create_graph=True)
    (tgx * tgx).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-9)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-9)


@pytest.mark.parametrize("transpose", [False, True])
def test_conv_filter_grad_when_the_input_needs_none(r, transpose):
    """The grad op skips DInput when the Input needs no gradient (a network's first layer): the filter's
    gradient, and its double backward, match PyTorch's."""
    (w,), (tw,) = _pair(r.normal(size=(3, 2, 3, 3)))
    xv = r.normal(size=(2, 3, 5, 5) if transpose else (2, 2, 5, 5))
    conv, tconv = (F.conv2d_transpose, TF.conv_transpose2d) if transpose else (F.conv2d, TF.conv2d)
    gw, = paddle.grad((conv(paddle.to_tensor(xv), w, padding=1) ** 2).sum(), [w], create_graph=True)
    (gw * gw).sum().backward()
    tgw, = torch.autograd.grad((tconv(torch.tensor(xv), tw, padding=1) ** 2).sum(), [tw], create_graph=True)
    (tgw * tgw).sum().backward()
    np.testing.assert_allclose(gw.numpy(), tgw.detach().numpy(), rtol=1e-9)
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-9)


# ---- pooling --------------------------------------------------------------------------------------
def _distinct(r, shape):
    return r.permutation(int(np.prod(shape))).reshape(shape) / 10.0


@pytest.mark.parametrize("k,s,p,ceil", [(2, None, 0, False), (3, 2, 1, False), (3, 2, 1, True), ((2, 3), (1, 2), 0, True)])
def test_max_pool2d_matches_torch(r, k, s, p, ceil):
    (x,), (tx,) = _pair(_distinct(r, (2, 3, 7, 8)))
    _check_fwd_bwd(F.max_pool2d(x, k, s, p, ceil_mode=ceil), TF.max_pool2d(tx, k, s, p, ceil_mode=ceil), [x], [tx])


@pytest.mark.parametrize("k,s,p,exclusive", [(2, None, 0, True), (3, 2, 1, True), (3, 2, 1, False), ((3, 2), 1, (1, 0), False)])
def test_avg_pool2d_matches_torch(r, k, s, p, exclusive):
    (x,), (tx,) = _pair(r.normal(size=(2, 3, 7, 8)))
    _check_fwd_bwd(F.avg_pool2d(x, k, s, p, exclusive=exclusive),
                   TF.avg_pool2d(tx, k, s, p, count_include_pad=not exclusive), [x], [tx])


def test_avg_pool2d_divisor_nhwc_and_1d(r):
    (x,), (tx,) = _pair(r.normal(size=(1, 2, 6, 6)))
    _check_fwd_bwd(F.avg_pool2d(x, 3, 3, divisor_override=4), TF.avg_pool2d(tx, 3, 3, divisor_override=4), [x], [tx])
    (x,), (tx,) = _pair(_distinct(r, (1, 6, 5, 2)))
    _check_fwd_bwd(F.max_pool2d(x, 2, 2, data_format="NHWC"),
                   TF.max_pool2d(tx.permute(0, 3, 1, 2), 2, 2).permute(0, 2, 3, 1), [x], [tx])
    (x,), (tx,) = _pair(_distinct(r, (2, 3, 9)))
    _check_fwd_bwd(F.max_pool1d(x, 3, 2, 1), TF.max_pool1d(tx, 3, 2, 1), [x], [tx])
    (x,), (tx,) = _pair(r.normal(size=(2, 3, 9)))
    _check_fwd_bwd(F.avg_pool1d(x, 2), TF.avg_pool1d(tx, 2), [x], [tx])


@pytest.mark.parametrize("size", [1, 3, (2, 5), (4, None)])
def test_adaptive_pools_match_torch(r, size):
    (x,), (tx,) = _pair(_distinct(r, (2, 3, 7, 5)))
    _check_fwd_bwd(F.adaptive_avg_pool2d(x, size), TF.adaptive_avg_pool2d(tx, size), [x], [tx])
    (x,), (tx,) = _pair(_distinct(r, (2, 3, 7, 5)))
    _check_fwd_bwd(F.adaptive_max_pool2d(x, size), TF.adaptive_max_pool2d(tx, size), [x], [tx])


def test_adaptive_1d_and_pool_errors(r):
    (x,), (tx,) = _pair(r.normal(size=(2, 3, 10)))
    _check_fwd_bwd(F.adaptive_avg_pool1d(x, 4), TF.adaptive_avg_pool1d(tx, 4), [x], [tx])
    x = paddle.to_tensor(r.normal(size=(1, 2, 4, 4)))
    with pytest.raises(ValueError, match="max_pool2d: kernel_size"):
        F.max_pool2d(x, 0)
    with pytest.raises(ValueError, match="data_format"):
        F.max_pool2d(x, 2, data_format="NCL")
    with pytest.raises(ValueError, match="4-D"):
        F.avg_pool2d(paddle.to_tensor(np.zeros((2, 4, 4))), 2)
    with pytest.raises(ValueError, match="smaller than ksize"):
        F.max_pool2d(x, 2, padding=2)
    with pytest.raises(ValueError, match="output_size"):
        F.adaptive_avg_pool2d(x, 0)
    with pytest.raises(ValueError, match="return_mask"):  # the indices are given for NCHW only
        F.max_pool2d(x, 2, return_mask=True, data_format="NHWC")


# ---- norms ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,norm,affine", [((4, 6), [6], True), ((2, 3, 4), [3, 4], True), ((2, 3, 5), [5], False)])
def test_layer_norm_matches_torch(r, shape, norm, affine):
    arrays = [r.normal(size=shape)] + ([r.normal(size=norm), r.normal(size=norm)] if affine else [])
    ps, ts = _pair(*arrays)
    out = F.layer_norm(ps[0], norm, *ps[1:], epsilon=1e-5)
    ref = TF.layer_norm(ts[0], norm, *ts[1:], eps=1e-5)
    _check_fwd_bwd(out, ref, ps, ts)


def test_layer_norm_errors_and_float32(r):
    x = paddle.to_tensor(r.normal(size=(2, 3)).astype("float32"))
    assert F.layer_norm(x, 3).dtype == paddle.float32
    with pytest.raises(ValueError, match="trailing dims"):
        F.layer_norm(x, [4])
    with pytest.raises(ValueError, match="Scale must have 3 elements"):
        F.layer_norm(x, 3, weight=paddle.to_tensor(np.ones(4, "float32")))


@pytest.mark.parametrize("shape,fmt", [((4, 3, 2, 2), "NCHW"), ((5, 3), "NC"), ((2, 3, 4), "NCL"), ((3, 2, 2, 3), "NHWC")])
def test_batch_norm_training_matches_torch(r, shape, fmt):
    c = 3
    (x, w, b), (tx, tw, tb) = _pair(r.normal(size=shape), r.normal(size=c), r.normal(size=c))
    rm, rv = paddle.to_tensor(np.zeros(c)), paddle.to_tensor(np.ones(c))
    trm, trv = torch.zeros(c, dtype=torch.float64), torch.ones(c, dtype=torch.float64)
    out = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.9, epsilon=1e-5, data_format=fmt)
    if fmt == "NHWC":
        ref = TF.batch_norm(tx.permute(0, 3, 1, 2), trm, trv, tw, tb, training=True, momentum=0.1,
                            eps=1e-5).permute(0, 2, 3, 1)
    else:
        ref = TF.batch_norm(tx, trm, trv, tw, tb, training=True, momentum=0.1, eps=1e-5)
    _check_fwd_bwd(out, ref, [x, w, b], [tx, tw, tb])
    np.testing.assert_allclose(rm.numpy(), trm.numpy(), rtol=1e-10)
    # Paddle's running variance uses the biased batch variance (torch's the unbiased one)
    n = x.size // c
    np.testing.assert_allclose(rv.numpy(), 0.9 + 0.1 * (trv.numpy() - 0.9) / 0.1 * (n - 1) / n, rtol=1e-10)


def test_batch_norm_eval_uses_running_stats(r):
    (x, w, b), (tx, tw, tb) = _pair(r.normal(size=(4, 3, 2, 2)), r.normal(size=3), r.normal(size=3))
    mean, var = r.normal(size=3), r.uniform(0.5, 2, size=3)
    rm, rv = paddle.to_tensor(mean), paddle.to_tensor(var)
    out = F.batch_norm(x, rm, rv, w, b, training=False)
    ref = TF.batch_norm(tx, torch.tensor(mean), torch.tensor(var), tw, tb, training=False)
    _check_fwd_bwd(out, ref, [x, w, b], [tx, tw, tb])
    np.testing.assert_array_equal(rm.numpy(), mean)  # untouched
    with pytest.raises(ValueError, match="Scale must have shape"):
        F.batch_norm(x, rm, rv, paddle.to_tensor(np.ones(4)), b)
    with pytest.raises(ValueError, match="data_format"):
        F.batch_norm(x, rm, rv, data_format="CHWN")


# ---- embedding / linear / dropout -----------------------------------------------------------------
@pytest.mark.parametrize("padding_idx", [None, 2, -1])
def test_embedding_matches_torch(r, padding_idx):
    ids = np.array([[0, 2, 4], [2, 2, 1]], dtype=np.int64)
    (w,), (tw,) = _pair(r.normal(size=(5, 3)))
    out = F.embedding(paddle.to_tensor(ids), w, padding_idx=padding_idx)
    ref = TF.embedding(torch.tensor(ids), tw, padding_idx=padding_idx)
    if padding_idx is not None:  # Paddle's lookup gives zeros at the padding row (torch keeps the row's values)
        row = padding_idx % 5
        ref = ref * torch.tensor((ids != row)[..., None], dtype=torch.float64)
    _check_fwd_bwd(out, ref, [w], [tw])


def test_embedding_errors():
    w = paddle.to_tensor(np.zeros((5, 3)))
    with pytest.raises(TypeError, match="int32 or int64"):
        F.embedding(paddle.to_tensor(np.zeros((2,))), w)
    with pytest.raises(ValueError, match="padding_idx"):
        F.embedding(paddle.to_tensor(np.array([1])), w, padding_idx=7)
    with pytest.raises(ValueError, match=r"Ids must lie in \[0, 5\)"):
        F.embedding(paddle.to_tensor(np.array([5])), w)


def test_linear_matches_torch(r):
    (x, w, b), (tx, tw, tb) = _pair(r.normal(size=(3, 4)), r.normal(size=(4, 2)), r.normal(size=2))
    _check_fwd_bwd(F.linear(x, w, b), TF.linear(tx, tw.T, tb), [x, w, b], [tx, tw, tb])
    # another rank multiplies as matmul (Paddle's linear is matmul + add): a 1-D weight gives one feature
    assert F.linear(x, paddle.to_tensor(np.ones(4))).shape == [3]
    with pytest.raises(ValueError):
        F.linear(x, paddle.to_tensor(np.zeros(5)))


def test_dropout_statistics_and_gradient():
    x = paddle.to_tensor(np.ones((200, 100)), stop_gradient=False)
    out = F.dropout(x, p=0.3)
    vals = out.numpy()
    assert set(np.unique(vals)) <= {0.0, 1 / 0.7}
    assert abs((vals == 0).mean() - 0.3) < 0.02
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), vals)  # d out / d x = mask / (1 - p)
    down = F.dropout(x, p=0.3, mode="downscale_in_infer").numpy()
    assert set(np.unique(down)) <= {0.0, 1.0}
    np.testing.assert_allclose(F.dropout(x, p=0.3, training=False, mode="downscale_in_infer").numpy(), 0.7)
    inference = F.dropout(x, p=0.3, training=False)  # a copy, as Paddle's (tests/test_numerical_edges.py)
    assert inference is not x and np.array_equal(inference.numpy(), x.numpy())
    np.testing.assert_array_equal(F.dropout(x, p=1.0).numpy(), 0)


def test_dropout_reproducible_with_seed_and_axis():
    x = paddle.to_tensor(np.random.default_rng(1).normal(size=(6, 7)))
    paddle.seed(123)
    a = F.dropout(x, 0.5).numpy()
    b = F.dropout(x, 0.5).numpy()
    paddle.seed(123)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), a)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), b)
    assert not np.array_equal(a, b)
    cols = F.dropout(paddle.to_tensor(np.ones((50, 8))), 0.5, axis=1).numpy()
    assert (cols == cols[:1]).all()  # one mask value per column
    with pytest.raises(ValueError, match="dropout: p"):
        F.dropout(x, 1.5)
    with pytest.raises(ValueError, match="dropout: mode"):
        F.dropout(x, 0.5, mode="bogus")
    with pytest.raises(TypeError, match="floating point"):
        F.dropout(paddle.to_tensor(np.array([1, 2])), 0.5)


def test_pad_constant():
    x = paddle.to_tensor(np.ones((1, 1, 2, 3)), stop_gradient=False)
    out = F.pad(x, [1, 0, 2, 1], value=5.0)  # [left, right, top, bottom]
    ref = TF.pad(torch.ones(1, 1, 2, 3, dtype=torch.float64), (1, 0, 2, 1), value=5.0)
    np.testing.assert_array_equal(out.numpy(), ref.numpy())
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((1, 1, 2, 3)))
    with pytest.raises(ValueError, match="pad: pad must have at most"):
        F.pad(x, [1] * 9)  # Paddle ignores the pairs beyond the 2 * ndim entries; we refuse them
