"""F.ctc_loss / nn.CTCLoss against real Paddle 3.3.1's warpctc: losses and logits gradients, float32 and
float64, ragged input and label lengths, every reduction, norm_by_times, blank not 0, static mode."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

_DOC_LOGITS = [[[4.17021990e-01, 7.20324516e-01, 1.14374816e-04], [3.02332580e-01, 1.46755889e-01, 9.23385918e-02]],
               [[1.86260208e-01, 3.45560730e-01, 3.96767467e-01], [5.38816750e-01, 4.19194520e-01, 6.85219526e-01]],
               [[2.04452246e-01, 8.78117442e-01, 2.73875929e-02], [6.70467496e-01, 4.17304814e-01, 5.58689833e-01]],
               [[1.40386939e-01, 1.98101491e-01, 8.00744593e-01], [9.68261600e-01, 3.13424170e-01, 6.92322612e-01]],
               [[8.76389146e-01, 8.94606650e-01, 8.50442126e-02], [3.90547849e-02, 1.69830427e-01, 8.78142476e-01]]]


@differential(expected={"none": [3.91798496, 2.90765190], "mean": 1.13760614}, rtol=1e-5)
def test_documented_example(paddle):
    x = paddle.to_tensor(_DOC_LOGITS, dtype="float32")
    labels = paddle.to_tensor([[1, 2, 2], [1, 2, 2]], dtype="int32")
    lengths, label_lengths = paddle.to_tensor([5, 5], dtype="int64"), paddle.to_tensor([3, 3], dtype="int64")
    f = paddle.nn.functional.ctc_loss
    return {"none": f(x, labels, lengths, label_lengths, blank=0, reduction="none"),
            "mean": f(x, labels, lengths, label_lengths, blank=0, reduction="mean")}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("norm_by_times", [False, True])
def test_loss_and_grad(dtype, reduction, norm_by_times):
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((7, 4, 6))
    labels = np.array([[1, 2, 2, 5], [3, 1, 0, 0], [4, 4, 4, 0], [5, 0, 0, 0]], dtype=np.int32)
    # an empty label (a loss of all blanks) except under 'mean', which divides by the label length
    lengths = np.array([7, 4, 7, 2], dtype=np.int64)
    label_lengths = np.array([4, 2, 3, 1 if reduction == "mean" else 0], dtype=np.int64)
    weights = rng.standard_normal(4) if reduction == "none" else None

    @differential(rtol=1e-5, atol=1e-6 if dtype == "float64" else 1e-5)
    def body(paddle):
        x = paddle.to_tensor(logits.astype(dtype), stop_gradient=False)
        loss = paddle.nn.functional.ctc_loss(x, paddle.to_tensor(labels), paddle.to_tensor(lengths),
                                             paddle.to_tensor(label_lengths), blank=0, reduction=reduction,
                                             norm_by_times=norm_by_times)
        out = loss * paddle.to_tensor(weights.astype(dtype)) if weights is not None else loss
        out.sum().backward()
        return {"loss": loss, "grad": x.grad}

    body()


@differential(rtol=1e-5, atol=1e-6)
def test_layer_blank_last_zero_infinity(paddle):
    rng = np.random.default_rng(5)
    x = paddle.to_tensor(rng.standard_normal((3, 2, 4)), stop_gradient=False)
    # the second sequence needs 4 frames (1, blank, 1, 2) but has 3: its loss is infinite
    labels = paddle.to_tensor([[0, 2, 0], [1, 1, 2]], dtype="int32")
    layer = paddle.nn.CTCLoss(blank=3, reduction="none", zero_infinity=True)
    loss = layer(x, labels, paddle.to_tensor([3, 3], dtype="int64"), paddle.to_tensor([2, 3], dtype="int64"))
    loss[0].backward()
    return {"loss": loss, "grad": x.grad}


# (reduction='sum' is left out: Paddle 3.3.1's legacy-IR ctc_loss raises TypeError from paddle.sum there)
@differential(rtol=1e-5, atol=1e-6)
def test_static_program(paddle):
    rng = np.random.default_rng(7)
    feed = {"x": rng.standard_normal((5, 2, 4)).astype("float32"),
            "labels": np.array([[1, 3], [2, 0]], dtype=np.int32),
            "lengths": np.array([5, 3], dtype=np.int64), "label_lengths": np.array([2, 1], dtype=np.int64)}

    def build():
        x = paddle.static.data("x", [5, 2, 4], "float32")
        x.stop_gradient = False
        labels = paddle.static.data("labels", [2, 2], "int32")
        lengths = paddle.static.data("lengths", [2], "int64")
        label_lengths = paddle.static.data("label_lengths", [2], "int64")
        loss = paddle.nn.functional.ctc_loss(x, labels, lengths, label_lengths, reduction="mean")
        (grad,) = paddle.static.gradients([loss], [x])
        return [loss, grad]

    loss, grad = run_static(paddle, build, feed)
    return {"loss": loss, "grad": grad}


def test_bad_reduction_names_the_argument():  # (Paddle asserts: an AssertionError without a message)
    import paddlelite as paddle
    x = paddle.zeros([3, 1, 4])
    with pytest.raises(ValueError, match="ctc_loss: reduction"):
        paddle.nn.functional.ctc_loss(x, paddle.to_tensor([[1]], dtype="int32"), paddle.to_tensor([3], dtype="int64"),
                                      paddle.to_tensor([1], dtype="int64"), reduction="avg")


@differential(expected=raises(ValueError))
def test_label_equal_to_blank(paddle):
    x = paddle.zeros([3, 1, 4])
    paddle.nn.functional.ctc_loss(x, paddle.to_tensor([[0]], dtype="int32"), paddle.to_tensor([3], dtype="int64"),
                                  paddle.to_tensor([1], dtype="int64"), reduction="none")
