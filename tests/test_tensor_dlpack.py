"""to_dlpack / from_dlpack: round trips, zero-copy sharing with NumPy and (when installed) PyTorch, and
agreement with real Paddle on what comes back."""
import numpy as np
import pytest

from tests.differential import assert_same, differential, raises, run_both


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


@differential(expected={"copied": [0.0, 1.0, 2.0], "shared": [9.0, 1.0, 2.0], "on_cpu": [9.0, 1.0, 2.0],
                        "tensor": [1.0, 2.0], "ints": [3, 4]})
def test_utils_dlpack_copy_and_device(paddle):
    from_dlpack, to_dlpack = paddle.utils.dlpack.from_dlpack, paddle.utils.dlpack.to_dlpack
    a = np.arange(3.0)
    copied, shared, on_cpu = from_dlpack(a, copy=True), from_dlpack(a, copy=False), from_dlpack(a, device="cpu")
    a[0] = 9.0
    x = paddle.to_tensor([1.0, 2.0])
    return {"copied": copied, "shared": shared, "on_cpu": on_cpu, "tensor": from_dlpack(x),  # Tensor.__dlpack__
            "ints": from_dlpack(to_dlpack(paddle.to_tensor([3, 4], dtype="int32")))}


@differential(expected=raises(ValueError))
def test_capsule_is_consumed_once(paddle):
    capsule = paddle.utils.dlpack.to_dlpack(paddle.to_tensor([1.0]))
    paddle.utils.dlpack.from_dlpack(capsule)
    paddle.utils.dlpack.from_dlpack(capsule)


@differential(expected=raises(TypeError))
def test_to_dlpack_of_an_array(paddle):
    paddle.utils.dlpack.to_dlpack(np.zeros(2))


@differential(expected={"shape": [2, 0], "scalar": 3.0, "strided": [0, 2], "bool": [True, False]})
def test_odd_arrays(paddle):
    from_dlpack = paddle.utils.dlpack.from_dlpack
    return {"shape": list(from_dlpack(np.zeros((2, 0))).shape), "scalar": from_dlpack(np.array(3.0)),
            "strided": from_dlpack(np.arange(3)[::2]), "bool": from_dlpack(np.array([True, False]))}


def test_bfloat16_with_torch_shares_memory():
    from tests.references import torch
    import paddlelite as paddle
    t = torch.tensor([1.5, 2.0], dtype=torch.bfloat16)
    ours = paddle.utils.dlpack.from_dlpack(t)
    assert str(ours.dtype) == "paddle.bfloat16" and ours.astype("float32").tolist() == [1.5, 2.0]
    t[0] = 3.0
    assert ours.astype("float32").tolist() == [3.0, 2.0]
    back = torch.from_dlpack(paddle.utils.dlpack.to_dlpack(ours))
    assert back.dtype == torch.bfloat16 and back.tolist() == [3.0, 2.0]
    back[1] = -1.0
    assert ours.astype("float32").tolist() == [3.0, -1.0]


def test_numpy_reads_a_tensor():
    import paddlelite as paddle
    x = paddle.to_tensor([1.0, 2.0])
    view = np.from_dlpack(x)
    assert view.tolist() == [1.0, 2.0] and _address(view) == _address(x._data)
