"""F.class_center_sample against real Paddle: the deterministic parts (remapped labels, positive centres
first and sorted; the random negatives are distinct classes outside the labels)."""
import pytest

from tests.differential import differential, raises


@pytest.mark.parametrize("num_samples", [2, 3, 6])
def test_sample(num_samples):
    @differential()
    def body(paddle):
        label = paddle.to_tensor([7, 2, 7, 5])
        remapped, centres = paddle.nn.functional.class_center_sample(label, 20, num_samples)
        c = centres.numpy()
        return {"remapped": remapped, "positives": c[:3], "count": len(c), "distinct": len(set(c.tolist())),
                "in_range": bool(((c >= 0) & (c < 20)).all()), "dtype": centres.dtype}


@differential(expected=raises(ValueError))
def test_too_many_samples(paddle):
    paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 2]), 20, 30)
