"""LBFGS against Paddle 3.3.1 (and PyTorch, whose algorithm Paddle's follows): closure-driven steps,
with and without the strong-Wolfe line search, history limits, and the state it keeps."""
import numpy as np
import pytest

from tests.differential import differential
from tests.references import torch

_RNG = np.random.default_rng(5)
X = _RNG.normal(size=(8, 3))
Y = X @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * _RNG.normal(size=(8, 1))
W0 = _RNG.normal(size=(3, 1))
B0 = np.zeros([1])

CONFIGS = {
    "plain": dict(learning_rate=0.5, max_iter=4),
    "wolfe": dict(learning_rate=1.0, max_iter=6, line_search_fn="strong_wolfe"),
    "short_history": dict(learning_rate=1.0, max_iter=5, history_size=2, line_search_fn="strong_wolfe"),
    "max_eval": dict(learning_rate=0.3, max_iter=10, max_eval=3),
}


def _fit(paddle, config, steps=2):  # a third step sits at the optimum, where line-search branches follow rounding
    init = paddle.nn.initializer.Assign
    w = paddle.create_parameter([3, 1], "float64", default_initializer=init(W0))
    b = paddle.create_parameter([1], "float64", default_initializer=init(B0))
    opt = paddle.optimizer.LBFGS(parameters=[w, b], **config)
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)

    def closure():
        opt.clear_grad()
        loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
        loss.backward()
        return loss
    losses = [float(opt.step(closure)) for _ in range(steps)]
    state = opt.state_dict()["state"]
    return {"w": w, "b": b, "losses": losses, "func_evals": state["func_evals"], "n_iter": state["n_iter"],
            "history": len(state["old_yk"]), "d": state["d"]}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_lbfgs_matches_paddle(name):
    differential(rtol=1e-4, atol=1e-5)(lambda paddle: _fit(paddle, CONFIGS[name]))()


@pytest.mark.parametrize("name", ["plain", "wolfe"])
def test_lbfgs_matches_torch(name):
    import paddlelite as paddle
    ours = _fit(paddle, CONFIGS[name])
    kw = dict(CONFIGS[name])
    kw["lr"] = kw.pop("learning_rate")
    w, b = torch.tensor(W0, requires_grad=True), torch.tensor(B0, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], tolerance_grad=1e-7, **kw)

    def closure():
        opt.zero_grad()
        loss = ((torch.from_numpy(X) @ w + b - torch.from_numpy(Y)) ** 2).mean()
        loss.backward()
        return loss
    for _ in range(2):
        opt.step(closure)
    np.testing.assert_allclose(ours["w"].numpy(), w.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_lbfgs_minimize_is_not_supported():
    differential()(lambda paddle: paddle.optimizer.LBFGS(parameters=[paddle.create_parameter([1], "float32")])
                   .minimize(paddle.ones([1])))()
