"""Double backward through the recurrent cells and layers (gradient penalties): paddle.grad with
create_graph=True, then a second gradient. The cells against real Paddle 3.3.1 (same weights); cells and
the multi-step layers against central differences of the first-order gradients in float64.

Paddle itself refuses create_graph=True through SimpleRNN/LSTM/GRU (its fused `rnn_grad` op has no grad
op: RuntimeError); paddlelite unrolls the layers over the cell ops, whose grad ops are differentiable, so
there the numeric check is the reference."""
import numpy as np
import pytest

import paddlelite
from tests.differential import differential

RNG = np.random.default_rng(5)
X_STEP = RNG.uniform(-1, 1, (3, 4)).astype("float32")
H0 = RNG.uniform(-1, 1, (3, 3)).astype("float32")
C0 = RNG.uniform(-1, 1, (3, 3)).astype("float32")

CELLS = {
    "simple": lambda nn: nn.SimpleRNNCell(4, 3),
    "lstm": lambda nn: nn.LSTMCell(4, 3),
    "lstm_proj": lambda nn: nn.LSTMCell(4, 3, proj_size=2),
    "gru": lambda nn: nn.GRUCell(4, 3),
}


def _set_weights(model, seed=0, dtype="float32"):
    rng = np.random.default_rng(seed)
    for _, p in model.named_parameters():
        p.set_value(rng.uniform(-0.8, 0.8, p.shape).astype(dtype))
    return model


def _initial_states(paddle, name, dtype="float32"):
    h = paddle.to_tensor(H0[:, :2] if name == "lstm_proj" else H0, dtype=dtype, stop_gradient=False)
    if name.startswith("lstm"):
        return (h, paddle.to_tensor(C0, dtype=dtype, stop_gradient=False))
    return h


def _weighted(ts):
    return sum(((t * t).sum() + (t * (k + 1.0)).sum() for k, t in enumerate(ts)), 0)


@pytest.mark.parametrize("name", list(CELLS))
def test_cell_gradient_penalty(name):
    def body(paddle):
        cell = _set_weights(CELLS[name](paddle.nn))
        x = paddle.to_tensor(X_STEP, stop_gradient=False)
        states = _initial_states(paddle, name)
        flat_states = list(states) if isinstance(states, tuple) else [states]
        out, new_states = cell(x, states)
        new_flat = list(new_states) if isinstance(new_states, tuple) else [new_states]
        firsts = paddle.grad(_weighted([out] + new_flat), [x] + flat_states, create_graph=True)
        _weighted(firsts).backward()
        return {"first": firsts, "x_grad": x.grad, "state_grads": [s.grad for s in flat_states],
                "param_grads": {n: p.grad for n, p in cell.named_parameters()}}
    body(paddlelite)  # runs (the comparison below would also accept both libraries raising alike)
    differential(rtol=1e-4, atol=1e-5)(body)()


LAYERS = {
    "simple_rnn": lambda nn: nn.SimpleRNN(2, 3),
    "lstm_layer": lambda nn: nn.LSTM(2, 3),
    "lstm_bidirect_2layers": lambda nn: nn.LSTM(2, 2, num_layers=2, direction="bidirect"),
    "gru_layer": lambda nn: nn.GRU(2, 3),
    "gru_padded": lambda nn: nn.GRU(2, 3, direction="bidirect"),
}


@pytest.mark.parametrize("name", list(CELLS) + list(LAYERS))
def test_second_derivatives_are_the_numeric_ones(name):
    """d/d(x, a weight) of <dL/dx, V> matches central differences of the first-order dL/dx (float64)."""
    paddle, nn = paddlelite, paddlelite.nn
    rng = np.random.default_rng(7)
    if name in LAYERS:
        model = _set_weights(LAYERS[name](nn).to(dtype="float64"), seed=1, dtype="float64")
        x_np = rng.uniform(-1, 1, (2, 3, 2))
        seq = paddle.to_tensor(np.array([3, 2], "int64")) if name.endswith("padded") else None

        def first_order(x, create_graph):
            out, states = model(x, sequence_length=seq)
            flat = list(states) if isinstance(states, tuple) else [states]
            return paddle.grad(_weighted([out] + flat), x, create_graph=create_graph)[0]
    else:
        model = _set_weights(CELLS[name](nn).to(dtype="float64"), seed=1, dtype="float64")
        x_np = rng.uniform(-1, 1, (3, 4))
        states = _initial_states(paddle, name, dtype="float64")

        def first_order(x, create_graph):
            out, new_states = model(x, states)
            flat = list(new_states) if isinstance(new_states, tuple) else [new_states]
            return paddle.grad(_weighted([out] + flat), x, create_graph=create_graph)[0]
    v = rng.uniform(-1, 1, x_np.shape)
    weight = next(p for n, p in model.named_parameters() if "weight_hh" in n)

    x = paddle.to_tensor(x_np, stop_gradient=False)
    g = first_order(x, create_graph=True)
    assert not g.stop_gradient
    x_dd, w_dd = paddle.grad((g * paddle.to_tensor(v)).sum(), [x, weight])

    def numeric(arr, set_arr):
        out = np.zeros(arr.shape)
        for idx in np.ndindex(*arr.shape):
            vals = []
            for step in (1e-6, -1e-6):
                e = arr.copy()
                e[idx] += step
                vals.append(float((first_order(set_arr(e), False).numpy() * v).sum()))
            out[idx] = (vals[0] - vals[1]) / 2e-6
        set_arr(arr)
        return out

    np.testing.assert_allclose(x_dd.numpy(), numeric(x_np, lambda e: paddle.to_tensor(e, stop_gradient=False)),
                               rtol=1e-5, atol=1e-7)
    w_np = weight.numpy().copy()

    def set_weight(e):
        weight.set_value(e)
        return paddle.to_tensor(x_np, stop_gradient=False)
    np.testing.assert_allclose(w_dd.numpy(), numeric(w_np, set_weight), rtol=1e-5, atol=1e-7)
