"""to_dlpack / from_dlpack: round trips, zero-copy sharing with NumPy and (when installed) PyTorch, and
agreement with real Paddle on what comes back."""
import numpy as np
import pytest

from tests.differential import assert_same, run_both


def _round_trip(paddle):
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    back = paddle.from_dlpack(paddle.to_dlpack(x))
    ints = paddle.from_dlpack(paddle.to_dlpack(paddle.to_tensor([1, 2], dtype="int32")))
    return [back, ints, paddle.from_dlpack(np.arange(4, dtype="int64"))]


def test_round_trip_matches_paddle():
    pytest.importorskip("paddle")
    ours, theirs = run_both(_round_trip)
    assert_same(ours, theirs)


def test_shares_memory():
    import paddlelite as paddle
    a = np.arange(4.0)
    t = paddle.from_dlpack(a)
    a[0] = 9.0
    assert float(t[0]) == 9.0
    x = paddle.to_tensor([1.0, 2.0])
    shared = paddle.from_dlpack(paddle.to_dlpack(x))
    assert _address(shared._data) == _address(x._data)


def _address(array):
    """Where an array's data starts, on either device."""
    if hasattr(array, "__cuda_array_interface__"):
        return array.__cuda_array_interface__["data"][0]
    return array.__array_interface__["data"][0]


def test_with_torch():
    from tests.references import torch
    import paddlelite as paddle
    t = torch.arange(3.0)
    ours = paddle.from_dlpack(t)
    t[0] = 5.0
    assert ours.numpy().tolist() == [5.0, 1.0, 2.0]
    assert torch.from_dlpack(paddle.to_dlpack(ours)).tolist() == [5.0, 1.0, 2.0]


def test_bad_input():
    import paddlelite as paddle
    with pytest.raises(TypeError):
        paddle.to_dlpack(np.zeros(2))
    with pytest.raises(TypeError):
        paddle.from_dlpack([1, 2])
