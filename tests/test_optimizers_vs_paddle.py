"""Every optimizer against Paddle 3.3.1 step by step: same initial weights, same gradients -> same
parameters and accumulators (by Paddle's accumulator names) after several steps; weight-decay forms,
clipping, parameter groups, schedulers; and PyTorch where its update math coincides with Paddle's."""
import numpy as np
import pytest

from tests.differential import differential
from tests.references import torch

_RNG = np.random.default_rng(7)
X = _RNG.normal(size=(6, 4)).astype(np.float32)
Y = _RNG.normal(size=(6, 3)).astype(np.float32)
W0 = _RNG.normal(size=(4, 3)).astype(np.float32)
B0 = _RNG.normal(size=(3,)).astype(np.float32)


def _params(paddle):
    init = paddle.nn.initializer.Assign
    w = paddle.create_parameter([4, 3], "float32", default_initializer=init(W0))
    b = paddle.create_parameter([3], "float32", default_initializer=init(B0))
    return w, b


def _train(paddle, make, steps=5, groups=False):
    w, b = _params(paddle)
    params = [{"params": [w]}, {"params": [b], **groups}] if groups else [w, b]
    opt = make(paddle, params)
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    trace = []
    for _ in range(steps):
        loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched = opt._learning_rate
        if not isinstance(sched, float):
            sched.step()
        trace.append(w.numpy().copy())
    state = {k.replace(w.name, "W").replace(b.name, "B"): v for k, v in opt.state_dict().items()}
    return {"trace": trace, "b": b, "state": state}


O = lambda name, **kw: (lambda paddle, params: getattr(paddle.optimizer, name)(parameters=params, **kw))  # noqa: E731

CASES = {
    "adagrad": O("Adagrad", learning_rate=0.1),
    "adagrad_init_acc_l2": O("Adagrad", learning_rate=0.1, initial_accumulator_value=0.5, weight_decay=0.01),
    "rmsprop": O("RMSProp", learning_rate=0.01),
    "rmsprop_centered_momentum": O("RMSProp", learning_rate=0.01, rho=0.9, momentum=0.5, centered=True,
                                   epsilon=1e-4),
    "adamax": O("Adamax", learning_rate=0.05),
    "adamax_betas": O("Adamax", learning_rate=0.05, beta1=0.8, beta2=0.99, epsilon=1e-6),
    "adadelta": O("Adadelta", learning_rate=1.0),
    "adadelta_rho": O("Adadelta", learning_rate=0.5, rho=0.9, epsilon=1e-4),
    "lamb": O("Lamb", learning_rate=0.01),
    "lamb_no_decay": O("Lamb", learning_rate=0.01, lamb_weight_decay=0.0),
    "lamb_always_adapt": O("Lamb", learning_rate=0.01, lamb_weight_decay=0.0, always_adapt=True),
    "nadam": O("NAdam", learning_rate=0.02),
    "nadam_decay": O("NAdam", learning_rate=0.02, beta1=0.8, momentum_decay=0.01),
    "radam": O("RAdam", learning_rate=0.02, beta2=0.9),  # beta2=0.9 reaches the rectified branch at step 5
    "radam_default": O("RAdam", learning_rate=0.02),
    "rprop": O("Rprop", learning_rate=0.01),
    "rprop_range": O("Rprop", learning_rate=0.01, learning_rate_range=(0.005, 0.02), etas=(0.3, 1.5)),
    "asgd": O("ASGD", learning_rate=0.1),
    "asgd_batches": O("ASGD", learning_rate=0.1, batch_num=3),
    "asgd_l2": O("ASGD", learning_rate=0.1, batch_num=2, weight_decay=0.1),
    # weight decay forms, clipping, schedulers
    "rmsprop_l1": lambda p, ps: p.optimizer.RMSProp(0.01, parameters=ps, weight_decay=p.regularizer.L1Decay(0.05)),
    "adamax_l2": lambda p, ps: p.optimizer.Adamax(0.05, parameters=ps, weight_decay=p.regularizer.L2Decay(0.1)),
    "nadam_clip": lambda p, ps: p.optimizer.NAdam(0.02, parameters=ps, grad_clip=p.nn.ClipGradByGlobalNorm(0.1)),
    "radam_clip_value": lambda p, ps: p.optimizer.RAdam(0.02, parameters=ps, beta2=0.9,
                                                        grad_clip=p.nn.ClipGradByValue(0.2)),
    "adadelta_sched": lambda p, ps: p.optimizer.Adadelta(p.optimizer.lr.StepDecay(1.0, 2, 0.5), parameters=ps),
    "lamb_exclude": lambda p, ps: p.optimizer.Lamb(0.01, parameters=ps,
                                                   exclude_from_weight_decay_fn=lambda t: t.shape == [3]),
    "adagrad_clip_norm": lambda p, ps: p.optimizer.Adagrad(0.1, parameters=ps, grad_clip=p.nn.ClipGradByNorm(0.3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_steps_match_paddle(name):
    differential(rtol=2e-5, atol=1e-6)(lambda paddle: _train(paddle, CASES[name]))()


GROUPS = {
    "adagrad": ("Adagrad", {"learning_rate": 0.1}, {"epsilon": 1e-3, "learning_rate": 0.5}),
    "rmsprop": ("RMSProp", {"learning_rate": 0.01}, {"rho": 0.8, "momentum": 0.3, "weight_decay": 0.1}),
    "adamax": ("Adamax", {"learning_rate": 0.05}, {"beta1": 0.7, "learning_rate": 2.0}),
    "adadelta": ("Adadelta", {"learning_rate": 1.0}, {"rho": 0.5}),
    "lamb": ("Lamb", {"learning_rate": 0.01}, {"beta2": 0.9, "lamb_weight_decay": 0.1}),
    "nadam": ("NAdam", {"learning_rate": 0.02}, {"beta1": 0.5, "learning_rate": 0.5}),
    "radam": ("RAdam", {"learning_rate": 0.02}, {"beta2": 0.9, "weight_decay": 0.05}),
}


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_parameter_groups_match_paddle(name):
    cls, kw, group = GROUPS[name]
    differential(rtol=2e-5, atol=1e-6)(lambda paddle: _train(paddle, O(cls, **kw), groups=group))()


@pytest.mark.parametrize("name", ["adagrad", "rmsprop_centered_momentum", "adamax", "adadelta", "lamb", "nadam",
                                  "radam", "rprop", "asgd_batches"])
def test_state_dict_round_trip_resumes_exactly(name):
    import paddlelite as paddle
    first = _train(paddle, CASES[name], steps=3)
    w, b = _params(paddle)
    w.set_value(first["trace"][-1])
    b.set_value(first["b"].numpy())
    opt = CASES[name](paddle, [w, b])
    opt.set_state_dict({k.replace("W", w.name).replace("B", b.name): v for k, v in first["state"].items()})
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    for _ in range(2):
        ((paddle.matmul(x, w) + b - y) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
    np.testing.assert_array_equal(w.numpy(), _train(paddle, CASES[name], steps=5)["trace"][-1])


def _torch_trace(make, steps=5):
    w, b = torch.tensor(W0, requires_grad=True), torch.tensor(B0, requires_grad=True)
    opt = make([w, b])
    for _ in range(steps):
        ((torch.from_numpy(X) @ w + b - torch.from_numpy(Y)) ** 2).mean().backward()
        opt.step()
        opt.zero_grad()
    return w.detach().numpy()


TORCH = {  # the optimizers whose update math PyTorch shares with Paddle
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1, eps=1e-6),
    "adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.95, eps=1e-6),
    "nadam": lambda p: torch.optim.NAdam(p, lr=0.02),
    "radam": lambda p: torch.optim.RAdam(p, lr=0.02, betas=(0.9, 0.9)),
    "rprop": lambda p: torch.optim.Rprop(p, lr=0.01, step_sizes=(1e-5, 50)),
}


@pytest.mark.parametrize("name", sorted(TORCH))
def test_matches_torch_where_math_coincides(name):
    import paddlelite as paddle
    ours = _train(paddle, CASES[name])["trace"][-1]
    np.testing.assert_allclose(ours, _torch_trace(TORCH[name]), rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("bad", [
    lambda p, ps: p.optimizer.Adamax(0.1, beta1=1.0, parameters=ps),
    lambda p, ps: p.optimizer.NAdam(0.1, beta2=-0.5, parameters=ps),
    lambda p, ps: p.optimizer.RAdam(0.1, beta1=2.0, parameters=ps),
    lambda p, ps: p.optimizer.Adagrad(0.1),
    lambda p, ps: p.optimizer.RMSProp(None, parameters=ps),
])
def test_bad_arguments_raise_as_paddle(bad):
    differential()(lambda paddle: bad(paddle, list(_params(paddle))))()


# ---- paddle.nn.utils.clip_grad_norm_ / clip_grad_value_ -------------------------------------------------------
@differential(expected={"2": [7.348469, 0.408248], "1": [18.0, 0.166667], "0": [1.0, 2.999997],
                        "inf": [3.0, 1.0], "two": [3.0, [1.0, 0.5]]})
def test_clip_grad_norm_of_each_norm_type(paddle):
    """Paddle's norm types (inf, 0, 1, 2), its scale max_norm / (norm + 1e-6) clamped to 1, the total norm of
    several gradients as the norm of their norms."""
    out = {}
    x = paddle.to_tensor(np.ones([2, 3], "float32"), stop_gradient=False)
    for norm_type in (2, 1, 0, float("inf")):
        x.clear_gradient()
        (x * 3).sum().backward()
        total = paddle.nn.utils.clip_grad_norm_([x], 1.0, norm_type)
        out[str(norm_type)] = [round(total.item(), 5), round(float(x.grad.numpy()[0, 0]), 6)]
    a = paddle.to_tensor([1.0], stop_gradient=False)
    b = paddle.to_tensor([1.0], stop_gradient=False)
    (a * 3 + b * 1.5).backward()
    total = paddle.nn.utils.clip_grad_norm_([a, b], 1.0, float("inf"))
    out["two"] = [total.item(), [round(float(a.grad.numpy()[0]), 6), round(float(b.grad.numpy()[0]), 6)]]
    return out


@differential(expected=["ValueError", "RuntimeError", "RuntimeError", "RuntimeError"])
def test_clip_grad_refusals(paddle):
    """A norm type Paddle does not support, a non-finite norm with error_if_nonfinite, and either function in static
    mode."""
    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x.grad = paddle.to_tensor([1.0, 2.0])
    bad_type = outcome(lambda: paddle.nn.utils.clip_grad_norm_(x, 2.0, norm_type=float("-inf")))
    x.grad = paddle.full([2], float("inf"))
    nonfinite = outcome(lambda: paddle.nn.utils.clip_grad_norm_(x, 2.0, error_if_nonfinite=True))
    paddle.enable_static()
    try:
        static = [outcome(lambda: paddle.nn.utils.clip_grad_norm_(x, 2.0)),
                  outcome(lambda: paddle.nn.utils.clip_grad_value_(x, 2.0))]
    finally:
        paddle.disable_static()
    return [bad_type, nonfinite, *static]
