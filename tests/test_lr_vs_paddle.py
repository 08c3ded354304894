"""The newer learning-rate schedulers against Paddle 3.3.1: the rate over many steps, jumps by
step(epoch), and state_dict round trips."""
import pytest

from tests.differential import differential


def _trace(sched, n):
    out = []
    for _ in range(n):
        out.append(sched())
        sched.step()
    return out


SCHEDULERS = {
    "onecycle_cos": lambda lr: lr.OneCycleLR(0.1, total_steps=20),
    "onecycle_linear_3phase": lambda lr: lr.OneCycleLR(1.0, 20, divide_factor=10.0, end_learning_rate=0.001,
                                                       phase_pct=0.2, anneal_strategy="linear", three_phase=True),
    "cyclic_triangular": lambda lr: lr.CyclicLR(0.01, 0.1, step_size_up=3),
    "cyclic_triangular2": lambda lr: lr.CyclicLR(0.01, 0.1, 2, step_size_down=4, mode="triangular2"),
    "cyclic_exp_range": lambda lr: lr.CyclicLR(0.01, 0.1, 3, mode="exp_range", exp_gamma=0.9),
    "cyclic_scale_fn": lambda lr: lr.CyclicLR(0.01, 0.1, 3, scale_fn=lambda x: 0.5 ** x, scale_mode="iterations"),
    "linear": lambda lr: lr.LinearLR(0.5, total_steps=6),
    "linear_down": lambda lr: lr.LinearLR(0.5, 5, start_factor=1.0, end_factor=0.1),
    "warm_restarts": lambda lr: lr.CosineAnnealingWarmRestarts(0.1, T_0=3),
    "warm_restarts_mult": lambda lr: lr.CosineAnnealingWarmRestarts(0.1, T_0=2, T_mult=2, eta_min=0.01),
}


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_scheduler_trace(name):
    @differential(rtol=1e-12, atol=1e-15)
    def body(paddle):
        return _trace(SCHEDULERS[name](paddle.optimizer.lr), 20)
    body()


@pytest.mark.parametrize("name", ["warm_restarts", "warm_restarts_mult", "cyclic_triangular2", "linear"])
def test_scheduler_step_to_epoch_and_state(name):
    @differential(rtol=1e-12, atol=1e-15)
    def body(paddle):
        s = SCHEDULERS[name](paddle.optimizer.lr)
        jumps = []
        for epoch in (1, 4, 7, 2, 11):
            s.step(epoch)
            jumps.append((s.last_epoch, s()))
        state = s.state_dict()
        s2 = SCHEDULERS[name](paddle.optimizer.lr)
        s2.set_state_dict(state)
        return {"jumps": jumps, "state": sorted(state), "resumed": s2()}
    body()


@pytest.mark.parametrize("bad", [
    lambda lr: lr.OneCycleLR(0.1, total_steps=0),
    lambda lr: lr.OneCycleLR(0.1, total_steps=10, phase_pct=1),
    lambda lr: lr.OneCycleLR(0.1, total_steps=10, anneal_strategy="exp"),
    lambda lr: lr.OneCycleLR(0.1, total_steps=10, phase_pct=0.6, three_phase=True),
    lambda lr: lr.CyclicLR(0.01, 0.1, step_size_up=0),
    lambda lr: lr.CyclicLR(0.01, 0.1, 2, exp_gamma=1),
    lambda lr: lr.CyclicLR(0.01, 0.1, 2, mode="sine"),
    lambda lr: lr.LinearLR(0.1, 5, start_factor=0.0),
    lambda lr: lr.LinearLR(0.1, 0),
    lambda lr: lr.CosineAnnealingWarmRestarts(0.1, T_0=0),
    lambda lr: lr.CosineAnnealingWarmRestarts(0.1, T_0=2, T_mult=0),
    lambda lr: lr.StepDecay(0.1, "test", 0.1),  # TypeError
    lambda lr: lr.MultiStepDecay(-1, [20, 30, 50]),  # a negative learning rate: ValueError
])
def test_scheduler_bad_arguments(bad):
    differential()(lambda paddle: bad(paddle.optimizer.lr))()


@differential(rtol=1e-12)
def test_onecycle_past_total_steps_raises(paddle):
    s = paddle.optimizer.lr.OneCycleLR(0.1, total_steps=3)
    for _ in range(3):
        s.step()
    s.step()
