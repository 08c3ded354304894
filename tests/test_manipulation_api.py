"""Manipulation APIs: forward values vs NumPy/PyTorch, argument errors, Tensor methods, shape rules."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.ops import get_op
from paddlelite.ops.registry import Meta
from tests.references import torch


def T(a, sg=True):
    return paddle.to_tensor(np.asarray(a), stop_gradient=sg)


A = np.arange(24, dtype=np.float64).reshape(2, 3, 4)


def test_squeeze_flatten_unsqueeze():
    x = T(np.zeros((2, 1, 3, 1)))
    assert paddle.squeeze(x).shape == [2, 3]
    assert paddle.squeeze(x, axis=-1).shape == [2, 1, 3]
    assert paddle.squeeze(x, axis=[0, 1]).shape == [2, 3, 1]  # non-1 axis 0 is left alone, as Paddle
    assert x.squeeze(1).shape == [2, 3, 1]
    assert paddle.flatten(T(A)).shape == [24]
    assert T(A).flatten(1).shape == [2, 12]
    assert paddle.flatten(T(A), 0, 1).shape == [6, 4]
    assert T(A).unsqueeze([0, 2]).shape == [1, 2, 1, 3, 4]
    with pytest.raises(ValueError, match="start_axis"):
        paddle.flatten(T(A), 2, 1)


def test_concat_stack_split_chunk_unstack():
    a, b = np.random.rand(2, 3), np.random.rand(2, 5)
    np.testing.assert_array_equal(paddle.concat([T(a), T(b)], axis=1).numpy(), np.concatenate([a, b], 1))
    np.testing.assert_array_equal(paddle.concat([T(a), T(a)], axis=-2).numpy(), np.concatenate([a, a], -2))
    np.testing.assert_array_equal(paddle.stack([T(a), T(a * 2)], axis=-1).numpy(), np.stack([a, a * 2], -1))
    parts = paddle.split(T(b), [2, -1, 1], axis=1)
    ref = torch.split(torch.tensor(b), [2, 2, 1], dim=1)
    for p, r in zip(parts, ref):
        np.testing.assert_array_equal(p.numpy(), r.numpy())
    assert [p.shape for p in paddle.split(T(A), 2, axis=-1)] == [[2, 3, 2]] * 2
    assert [p.shape for p in T(A).chunk(3, axis=1)] == [[2, 1, 4]] * 3
    us = paddle.unstack(T(A), axis=1)
    assert len(us) == 3 and all(np.array_equal(u.numpy(), A[:, i]) for i, u in enumerate(us))
    with pytest.raises(ValueError, match="concat"):
        paddle.concat([T(a), T(b)], axis=0)
    with pytest.raises(ValueError, match="dtype"):  # ValueError, as Paddle
        paddle.concat([T(a), T(a.astype(np.float32))])
    with pytest.raises(ValueError, match="stack"):
        paddle.stack([T(a), T(b)])
    with pytest.raises(ValueError, match="3 equal parts"):
        paddle.split(T(b), 3, axis=1)
    with pytest.raises(ValueError, match="add up to"):
        paddle.split(T(b), [2, 2], axis=1)
    with pytest.raises(ValueError, match="at most one -1"):
        paddle.split(T(b), [-1, -1], axis=1)
    with pytest.raises(TypeError, match="list or tuple of Tensors"):
        paddle.concat(T(a))
    with pytest.raises(ValueError, match="at least one"):
        paddle.stack([])


def test_split_unused_output_gets_zero_grad():
    x = T(np.arange(6.0), sg=False)
    a, b, c = paddle.split(x, 3)
    (b * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 2, 2, 0, 0])


def test_slice_and_strided_slice_match_python_slicing():
    x = T(A)
    np.testing.assert_array_equal(paddle.slice(x, [0, 2], [1, -3], [10, -1]).numpy(), A[1:10, :, -3:-1])
    np.testing.assert_array_equal(paddle.strided_slice(x, [1, 2], [-1, 0], [-10, 4], [-2, 3]).numpy(),
                                  A[:, -1:-10:-2, 0:4:3])
    with pytest.raises(ValueError, match="same length"):
        paddle.slice(x, [0, 1], [0], [1])
    with pytest.raises(ValueError, match="strides must not be 0"):
        paddle.strided_slice(x, [0], [0], [1], [0])


def test_expand_broadcast_tile_against_torch():
    a = np.random.rand(3, 1)
    np.testing.assert_array_equal(paddle.expand(T(a), [2, -1, 4]).numpy(), torch.tensor(a).expand(2, -1, 4).numpy())
    np.testing.assert_array_equal(paddle.broadcast_to(T(a), [3, 5]).numpy(), np.broadcast_to(a, (3, 5)))
    np.testing.assert_array_equal(T(a).expand_as(T(np.zeros((2, 3, 2)))).numpy(), np.broadcast_to(a, (2, 3, 2)))
    np.testing.assert_array_equal(paddle.tile(T(a), [2, 1, 3]).numpy(), torch.tensor(a).repeat(2, 1, 3).numpy())
    np.testing.assert_array_equal(T(A).tile([2]).numpy(), np.tile(A, 2))
    with pytest.raises(ValueError, match="neither 1 nor"):
        paddle.expand(T(np.zeros((3, 2))), [3, 4])
    with pytest.raises(ValueError, match="fewer dims"):
        paddle.expand(T(A), [3, 4])
    with pytest.raises(TypeError, match="shape must be a list"):
        paddle.expand(T(a), 3)


def test_expand_grad_reduces():
    x = T(np.random.rand(3, 1), sg=False)
    paddle.expand(x, [2, 3, 4]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((3, 1), 8.0))


def test_flip_roll_repeat_interleave():
    t = torch.tensor(A)
    np.testing.assert_array_equal(paddle.flip(T(A), [0, -1]).numpy(), t.flip([0, -1]).numpy())
    np.testing.assert_array_equal(T(A).flip(1).numpy(), t.flip(1).numpy())
    np.testing.assert_array_equal(paddle.roll(T(A), [1, -2], [0, 2]).numpy(), t.roll((1, -2), (0, 2)).numpy())
    np.testing.assert_array_equal(paddle.roll(T(A), 5).numpy(), t.roll(5).numpy())
    np.testing.assert_array_equal(paddle.repeat_interleave(T(A), 2, axis=1).numpy(),
                                  t.repeat_interleave(2, dim=1).numpy())
    np.testing.assert_array_equal(T(A).repeat_interleave(3).numpy(), t.repeat_interleave(3).numpy())
    with pytest.raises(ValueError, match="repeats an axis"):
        paddle.flip(T(A), [0, -3])
    with pytest.raises(ValueError, match="same length"):
        paddle.roll(T(A), [1, 2], [0])


def test_gather_index_select_gather_nd_scatter():
    x = np.random.rand(4, 3)
    idx = np.array([3, 0, 3])
    np.testing.assert_array_equal(paddle.gather(T(x), T(idx)).numpy(), x[idx])
    np.testing.assert_array_equal(T(x).gather(T(idx[1:] - 1), axis=1).numpy(), x[:, idx[1:] - 1])
    np.testing.assert_array_equal(paddle.index_select(T(x), T(np.array([2, 2])), axis=-1).numpy(), x[:, [2, 2]])
    ind = np.array([[1, 2], [3, 0]])
    np.testing.assert_array_equal(paddle.gather_nd(T(x), T(ind)).numpy(), x[ind[:, 0], ind[:, 1]])
    np.testing.assert_array_equal(paddle.gather_nd(T(x), T(np.array([[2]]))).numpy(), x[[2]])
    upd = np.random.rand(2, 3)
    ref = x.copy()
    ref[[1, 3]] = upd
    np.testing.assert_array_equal(paddle.scatter(T(x), T(np.array([1, 3])), T(upd)).numpy(), ref)
    ref = x.copy()
    ref[1] = upd[0] + upd[1]
    np.testing.assert_allclose(paddle.scatter(T(x), T(np.array([1, 1])), T(upd), overwrite=False).numpy(), ref)
    with pytest.raises(TypeError, match="int32 or int64"):
        paddle.gather(T(x), T(np.array([0.0])))
    with pytest.raises(ValueError, match="1-D"):
        paddle.index_select(T(x), T(np.array([[0]])))
    with pytest.raises(IndexError, match="gather"):
        paddle.gather(T(x), T(np.array([4])))


def test_gather_grad_accumulates_like_torch():
    x = np.random.rand(4, 3)
    idx = np.array([1, 1, 3, 1])
    px = T(x, sg=False)
    paddle.index_select(px, T(idx), axis=0).sum().backward()
    tx = torch.tensor(x, requires_grad=True)
    torch.index_select(tx, 0, torch.tensor(idx)).sum().backward()
    np.testing.assert_array_equal(px.grad.numpy(), tx.grad.numpy())


def test_pad_one_hot_masked_select():
    a = np.random.rand(2, 3)
    np.testing.assert_array_equal(paddle.tensor.manipulation.pad(T(a), [1, 0, 0, 2], 7.0).numpy(),
                                  np.pad(a, [(1, 0), (0, 2)], constant_values=7.0))
    oh = paddle.tensor.manipulation.one_hot(T(np.array([0, 2, 1])), 3)
    assert oh.dtype == paddle.float32
    np.testing.assert_array_equal(oh.numpy(), np.eye(3)[[0, 2, 1]])
    with pytest.raises(ValueError, match="one_hot"):
        paddle.tensor.manipulation.one_hot(T(np.array([3])), 3)
    m = a > 0.5
    np.testing.assert_array_equal(paddle.masked_select(T(a), T(m)).numpy(), a[m])
    np.testing.assert_array_equal(T(a).masked_select(T(np.array([True, False, True]))).numpy(), a[:, [0, 2]].ravel())


def test_infer_rules_accept_unknown_dims():
    assert get_op("concat").infer([Meta((-1, 3), np.float32), Meta((-1, 2), np.float32)], axis=1) == \
        Meta((-1, 5), np.float32)
    assert get_op("split").infer(Meta((-1, 6), np.float32), num=0, sections=[2, -1], axis=1) == \
        ([Meta((-1, 2), np.float32), Meta((-1, 4), np.float32)],)
    assert get_op("flatten").infer(Meta((-1, 3, 4), np.float32), start_axis=1, stop_axis=2).shape == (-1, 12)
    assert get_op("expand").infer(Meta((-1, 1), np.float32), None, None, shape=[-1, 5]).shape == (-1, 5)
    assert get_op("tile").infer(Meta((-1, 2), np.float32), None, None, repeat_times=[2, 3]).shape == (-1, 6)
    assert get_op("getitem").infer(Meta((-1, 5), np.float32), [], index=[["slice", None, None, None], ["int", 0]]) \
        .shape == (-1,)
    assert get_op("gather").infer(Meta((-1, 5), np.float32), Meta((3,), np.int64), axis=1).shape == (-1, 3)


def test_methods_are_attached():
    x = T(A)
    for name in ("flatten", "squeeze", "expand", "tile", "gather", "split", "chunk", "flip", "roll",
                 "unsqueeze", "index_select", "broadcast_to", "add_", "zero_", "fill_", "copy_", "set_value"):
        assert callable(getattr(x, name)), name


def test_static_program_matches_eager():
    from paddlelite import static
    xv = np.arange(12.0).reshape(2, 6)
    iv = np.array([0, 0, 2])

    def build(x, i):
        a, b = paddle.split(x, [2, -1], axis=1)
        c = paddle.concat([b, a], axis=1)[:, ::-2]
        f = paddle.tile(paddle.gather(c, i, axis=1), [1, 2]).flatten()
        return f, paddle.sum(paddle.stack(paddle.unstack(f.reshape([2, 6]), axis=0), axis=1) * f.reshape([6, 2]))

    paddle.enable_static()
    try:
        main, start = static.Program(), static.Program()
        with static.program_guard(main, start):
            x = static.data("x", [-1, 6], "float64")
            x.stop_gradient = False
            f, loss = build(x, static.data("i", [3], "int64"))
            assert f.shape == (-1,)
            (gx,) = static.gradients([loss], [x])
        exe = static.Executor(paddle.CPUPlace())
        exe.run(start)
        fs, gs = exe.run(main, feed={"x": xv, "i": iv}, fetch_list=[f, gx])
    finally:
        paddle.disable_static()
    xe = paddle.to_tensor(xv, stop_gradient=False)
    fe, le = build(xe, paddle.to_tensor(iv))
    le.backward()
    np.testing.assert_allclose(fs, fe.numpy())
    np.testing.assert_allclose(gs, xe.grad.numpy())
