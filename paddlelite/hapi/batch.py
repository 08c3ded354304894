"""What paddle.Model's two graph adapters share: batches as lists, values as arrays, the metrics' host update."""
import numpy as np

from ..framework.tensor import Tensor


def to_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def to_numpy(value):
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def update_metrics(metrics, states):
    """metric.update(*state) for each metric and its (computed) state; the per-batch results."""
    return [metric.update(*[to_numpy(s) for s in to_list(state)]) for metric, state in zip(metrics, states)]


def batch_result(losses, metrics):
    """train/eval_batch's return: the losses, the metrics, or both as a pair (Paddle's shapes)."""
    if losses and metrics:
        return losses, metrics
    return losses if losses else metrics
