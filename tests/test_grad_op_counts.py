"""The eager backward of small training models runs exactly these ops. A grad maker that starts recording extra
ops (a reshape per elementwise gradient, a copy, a broadcast) shows up here, not only as a slower benchmark
(bench/test_bench_eager.py, bench/test_bench_static.py): eager overhead per op is most of a small step's time."""
import pytest

import paddlelite as paddle
from paddlelite.ops import dispatch


def _ops_run_by_backward(loss, monkeypatch):
    seen, apply = [], dispatch.apply

    def counting(op, *inputs, **attrs):
        seen.append(op.type)
        return apply(op, *inputs, **attrs)
    monkeypatch.setattr(dispatch, "apply", counting)
    loss.backward()
    return seen


def _mlp():
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))


@pytest.mark.parametrize("loss_of, expected", [
    # mean(square(mlp(x) - y)): square's gradient is 2 x dout (scale, multiply); y needs none, x - y's passes dout
    (lambda out, y: paddle.mean(paddle.square(out - y)),
     ["fill_any_like", "mean_grad", "scale", "multiply", "matmul", "matmul", "reduce_as", "relu_grad", "matmul",
      "reduce_as"]),
    (lambda out, y: paddle.nn.functional.cross_entropy(out, paddle.to_tensor([0, 1, 2, 0, 1])),
     ["fill_any_like", "mean_grad", "softmax_with_cross_entropy_grad", "matmul", "matmul", "reduce_as", "relu_grad",
      "matmul", "reduce_as"]),
])
def test_mlp_backward_runs_one_op_per_term(loss_of, expected, monkeypatch):
    # the first layer's input needs no gradient: its linear gradient is the weight's matmul and the bias's sum only
    model = _mlp()
    loss = loss_of(model(paddle.rand([5, 4])), paddle.rand([5, 3]))
    assert _ops_run_by_backward(loss, monkeypatch) == expected


def test_broadcast_add_backward_reduces_once(monkeypatch):
    x = paddle.rand([5, 3])
    b = paddle.rand([3])
    x.stop_gradient = b.stop_gradient = False
    assert _ops_run_by_backward(paddle.sum(x + b), monkeypatch) == ["fill_any_like", "expand_as", "reduce_as"]
