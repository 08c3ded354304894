"""Precision, Recall and Auc against Paddle 3.3.1 over several updates, with Tensors and arrays."""
import numpy as np
import pytest

from tests.differential import differential

_RNG = np.random.default_rng(3)
BATCHES = [(_RNG.random(n).astype("float32"), _RNG.integers(0, 2, n).astype("int64")) for n in (8, 13, 5)]


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
@pytest.mark.parametrize("shape", ["flat", "column"])
def test_precision_recall_match_paddle(cls, shape):
    @differential()
    def body(paddle):
        m = getattr(paddle.metric, cls)()
        out = []
        for i, (p, y) in enumerate(BATCHES):
            if shape == "column":
                p, y = p[:, None], y[:, None]
            m.update(paddle.to_tensor(p) if i % 2 else p, paddle.to_tensor(y) if i % 2 else y)
            out.append(m.accumulate())
        half = np.array([0.5, 1.5, 2.5, 0.5], "float32")  # rounding: floor(p + .5) vs half to even
        m.update(half, np.array([1, 1, 1, 0], "int64"))
        out.append(m.accumulate())
        m.reset()
        out.append(m.accumulate())
        return {"values": out, "name": m.name()}
    body()


@pytest.mark.parametrize("num_thresholds", [4095, 7])
def test_auc_matches_paddle(num_thresholds):
    @differential(rtol=1e-12, atol=1e-12)
    def body(paddle):
        m = paddle.metric.Auc(num_thresholds=num_thresholds)
        out = []
        for i, (p, y) in enumerate(BATCHES):
            preds = np.stack([1 - p, p], axis=1)
            m.update(paddle.to_tensor(preds) if i % 2 else preds, y[:, None] if i % 2 else y)
            out.append(m.accumulate())
        m.update(np.array([[0.0, 1.0], [1.0, 0.0]], "float32"), np.array([1, 0], "int64"))
        out.append(m.accumulate())
        m.reset()
        out.append(m.accumulate())
        return {"values": out, "name": m.name()}
    body()


@pytest.mark.parametrize("cls", ["Precision", "Recall", "Auc"])
def test_bad_input_types_are_value_errors(cls):
    differential()(lambda paddle: getattr(paddle.metric, cls)().update([0.5, 0.2], np.array([1, 0])))()
