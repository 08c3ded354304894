"""Bad input gets Paddle's exception class (checked against real Paddle 3.3.1 when installed) and a
message naming the API, never a silently wrong result (issue 8)."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from tests.differential import differential, raises

LOGITS = np.random.default_rng(0).normal(size=(4, 3)).astype("float32")
OUT_OF_RANGE = [0, 1, 5, 2]
NEGATIVE = [0, 1, -1, 2]
IGNORED = [0, 1, -100, 2]


def _labels(paddle, values):
    return paddle.to_tensor(np.array(values, dtype="int64"))


@pytest.mark.parametrize("labels", [OUT_OF_RANGE, NEGATIVE], ids=["too-large", "negative"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_nll_loss_label_out_of_range_raises(labels, reduction):
    @differential(expected=raises(ValueError))
    def body(paddle):
        logp = paddle.nn.functional.log_softmax(paddle.to_tensor(LOGITS))
        return paddle.nn.functional.nll_loss(logp, _labels(paddle, labels), reduction=reduction)
    body()
    with pytest.raises(ValueError, match=r"nll_loss'?: [Ll]abel values must lie in \[0, 3\)"):
        F.nll_loss(F.log_softmax(paddle.to_tensor(LOGITS)), _labels(paddle, labels))


@differential(expected=[1.1646225])
def test_nll_loss_ignored_label_is_still_skipped(paddle):
    logp = paddle.nn.functional.log_softmax(paddle.to_tensor(LOGITS))
    return paddle.nn.functional.nll_loss(logp, _labels(paddle, IGNORED)).reshape([1])


@pytest.mark.parametrize("labels", [OUT_OF_RANGE, NEGATIVE], ids=["too-large", "negative"])
@pytest.mark.parametrize("use_softmax", [True, False])
def test_cross_entropy_label_out_of_range_raises_index_error(labels, use_softmax):
    @differential(expected=raises(IndexError))
    def body(paddle):
        x = paddle.to_tensor(LOGITS)
        x = x if use_softmax else paddle.nn.functional.softmax(x)
        return paddle.nn.functional.cross_entropy(x, _labels(paddle, labels), use_softmax=use_softmax)
    body()


@pytest.mark.parametrize("labels", [OUT_OF_RANGE, NEGATIVE, IGNORED], ids=["too-large", "negative", "ignore_index"])
def test_cross_entropy_label_smoothing_needs_every_label_in_range(labels):
    @differential(expected=raises(ValueError))
    def body(paddle):
        return paddle.nn.functional.cross_entropy(paddle.to_tensor(LOGITS), _labels(paddle, labels),
                                                  label_smoothing=0.1)
    body()
    with pytest.raises(ValueError, match=r"cross_entropy: label values must lie in \[0, 3\)"):
        F.cross_entropy(paddle.to_tensor(LOGITS), _labels(paddle, labels), label_smoothing=0.1)


def test_loss_label_checks_run_in_static_mode_with_unknown_batch(prog):
    main, startup = prog
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [None], "int64")
    loss = F.nll_loss(F.log_softmax(x), y)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    (ok,) = exe.run(main, feed={"x": LOGITS, "y": np.array(IGNORED)}, fetch_list=[loss])
    assert np.isfinite(ok)
    with pytest.raises(ValueError, match=r"nll_loss'?: [Ll]abel values"):
        exe.run(main, feed={"x": LOGITS, "y": np.array(OUT_OF_RANGE)}, fetch_list=[loss])


@pytest.mark.parametrize("axis", [9, -4, 3, [0, 4], [3, 0]])
def test_unsqueeze_axis_out_of_range_raises(axis):
    @differential(expected=raises(ValueError))
    def body(paddle):
        return paddle.unsqueeze(paddle.ones([2, 3]), axis)
    body()
    with pytest.raises(ValueError, match="unsqueeze.*out of range"):
        paddle.unsqueeze(paddle.ones([2, 3]), axis)


@pytest.mark.parametrize("axis,shape", [(-3, [1, 2, 3]), (2, [2, 3, 1]), ([0, 3], [1, 2, 3, 1]), ([-1, 0], [1, 2, 3, 1])])
def test_unsqueeze_axis_in_range(axis, shape):
    @differential(expected=shape)
    def body(paddle):
        return list(paddle.unsqueeze(paddle.ones([2, 3]), axis).shape)
    body()


def test_an_allocation_failure_stays_a_memory_error():
    with pytest.raises(MemoryError, match="fill_constant") as info:
        paddle.zeros([10**12])
    assert isinstance(info.value.__cause__, MemoryError)


def test_a_forward_failure_keeps_its_builtin_class_without_constructing_foreign_types():
    from paddlelite.ops.dispatch import _same_kind

    class NeedsTwoArguments(MemoryError):
        def __init__(self, shape, dtype):
            super().__init__(f"{shape} {dtype}")

    assert type(_same_kind(NeedsTwoArguments((1,), "f4"), "m")) is MemoryError
    assert type(_same_kind(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"), "m")) is UnicodeError
    assert type(_same_kind(KeyError("k"), "m")) is KeyError


@pytest.mark.parametrize("value,expected", [("1.5", [1.5, 1.5]), ([1.0], raises(TypeError)), ({}, raises(TypeError))])
def test_full_fill_value_kinds(value, expected):
    @differential(expected=expected)
    def body(paddle):
        return paddle.full([2], value, dtype="float32")
    body()


def test_reshape_zero_past_the_input_dims_and_unsqueeze_of_strings_are_errors():
    with pytest.raises(ValueError, match="reshape.*0 at index 0"):
        paddle.reshape(paddle.to_tensor(1.0), [0])
    with pytest.raises(TypeError, match="unsqueeze: axis must be an int"):
        paddle.unsqueeze(paddle.ones([2]), "0")
    with pytest.raises(ValueError, match="squeeze.*out of range"):
        paddle.squeeze(paddle.to_tensor(1.0), 1)
    with pytest.raises(ValueError, match="flatten.*out of range"):
        paddle.flatten(paddle.to_tensor(1.0), 0, 1)
    assert paddle.reshape(paddle.ones([2, 3]), paddle.to_tensor([3, 2])).shape == [3, 2]


@pytest.mark.parametrize("make,expected", [
    (lambda paddle: paddle.full([2], -1, dtype="uint8"), [255, 255]),
    (lambda paddle: paddle.full([2], 300, dtype="int8"), [44, 44]),
    (lambda paddle: paddle.to_tensor([-1], dtype="uint8"), [255]),
], ids=["full-uint8", "full-int8", "to_tensor-uint8"])
def test_out_of_range_integers_cast_like_c(make, expected):
    @differential(expected=expected)
    def body(paddle):
        return make(paddle)
    body()


def test_unsupported_numpy_dtypes_are_type_errors_naming_the_api():
    with pytest.raises(ValueError, match="to_tensor: dtype: uint32 is not supported"):  # Paddle: ValueError
        paddle.to_tensor(np.zeros(2, np.uint32))
    with pytest.raises(TypeError, match="eye: dtype"):
        paddle.eye(2, dtype="uint64")
    with pytest.raises(TypeError, match="zeros: dtype"):
        paddle.zeros([2], dtype="uint32")
