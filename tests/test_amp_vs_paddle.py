"""paddle.amp against real Paddle 3.3.1 where Paddle's CPU build behaves as on a GPU: the argument checks,
the queries, and GradScaler's state machine.

Paddle turns auto_cast and GradScaler off on the CPU (with a warning). GradScaler's bookkeeping is plain
Python over CPU kernels (check_finite_and_unscale), so the reference scaler is built as if on a GPU: the
tracer's expected place is the only thing Paddle's constructor checks. What auto_cast casts is tested
against Paddle's documented semantics in tests/test_amp.py.
"""
import contextlib
import warnings

import numpy as np
import pytest

from tests.differential import differential, raises


@contextlib.contextmanager
def _as_on_gpu(paddle):
    """Build real Paddle's GradScaler as it is built on a GPU (paddlelite's needs nothing)."""
    if paddle.__name__ != "paddle":
        yield
        return
    from paddle.amp import grad_scaler

    class _Place:
        def __getattr__(self, name):
            return lambda: name == "is_gpu_place"

    class _Tracer:
        _expected_place = _Place()

    # Paddle 3.3.1's float() of a 1-element tensor fails under NumPy >= 2.4 ("only 0-dimensional arrays"),
    # which its scaler calls to print a decreased scale: its module reads float() as a 0-D conversion instead
    grad_scaler.float = lambda t: float(np.asarray(t).reshape(()))
    real = grad_scaler._dygraph_tracer
    grad_scaler._dygraph_tracer = _Tracer
    try:
        yield
    finally:
        grad_scaler._dygraph_tracer = real


def _scaler(paddle, **kwargs):
    with _as_on_gpu(paddle):
        scaler = paddle.amp.GradScaler(**kwargs)
    with warnings.catch_warnings():  # Paddle warns that auto_cast does nothing on the CPU
        warnings.simplefilter("ignore")
        with paddle.amp.auto_cast():  # the scaler scales float16 training: the last auto_cast's dtype
            pass
    return scaler


def _param(paddle, values):
    init = paddle.nn.initializer.Assign(np.array(values, dtype="float32"))
    return paddle.create_parameter([len(values)], "float32", default_initializer=init)


# Which steps see an inf or a nan in the gradient; the scale halves on each, doubles after 2 clean steps.
_BAD = [False, False, True, False, False, False, "nan", True, False, False]


def _train(paddle, scaler, apply, bad_steps=_BAD, optimizer="SGD"):
    w = _param(paddle, [0.5, -1.0, 2.0])
    opt = getattr(paddle.optimizer, optimizer)(learning_rate=0.1, parameters=[w])
    states = []
    for bad in bad_steps:
        x = paddle.to_tensor([1.0, {False: 2.0, True: np.inf, "nan": np.nan}[bad], 3.0])
        loss = (w * x).sum()
        apply(scaler, scaler.scale(loss), opt)
        opt.clear_grad()
        states.append({**scaler.state_dict(), "w": w.numpy().copy()})
    return states


def _step_update(scaler, scaled, opt):
    scaled.backward()
    scaler.step(opt)
    scaler.update()


@differential()
def test_scaler_step_update_sequence_with_inf_and_nan(paddle):
    scaler = _scaler(paddle, init_loss_scaling=1024.0, incr_every_n_steps=2)
    return _train(paddle, scaler, _step_update)


@differential()
def test_scaler_skips_adam_steps_whole(paddle):
    """A skipped step leaves Adam's moments and beta powers as they were, too."""
    scaler = _scaler(paddle, init_loss_scaling=4.0, incr_every_n_steps=3)
    states = _train(paddle, scaler, _step_update, optimizer="Adam")
    return states


@differential()
def test_scaler_minimize_sequence(paddle):
    scaler = _scaler(paddle, init_loss_scaling=8.0, incr_ratio=4.0, decr_ratio=0.25, incr_every_n_steps=3,
                     decr_every_n_nan_or_inf=2)

    def minimize(scaler, scaled, opt):
        scaled.backward()
        scaler.minimize(opt, scaled)

    return _train(paddle, scaler, minimize)


@differential()
def test_scaler_unscale_then_step_and_static_scaling(paddle):
    scaler = _scaler(paddle, init_loss_scaling=64.0, use_dynamic_loss_scaling=False)
    w = _param(paddle, [1.0, 2.0])
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w])
    scaled = scaler.scale((w * w).sum())
    scaled.backward()
    scaler.unscale_(opt)
    grad = w.grad.numpy().copy()  # unscaled: 2w
    scaler.step(opt)
    scaler.update()
    return {"scaled": scaled, "grad": grad, "w": w, "state": scaler.state_dict(),
            "dynamic": scaler.is_use_dynamic_loss_scaling(), "enabled": scaler.is_enable()}


@differential()
def test_scaler_getters_setters_and_state_round_trip(paddle):
    scaler = _scaler(paddle)
    got = {"defaults": [scaler.get_init_loss_scaling(), scaler.get_incr_ratio(), scaler.get_decr_ratio(),
                        scaler.get_incr_every_n_steps(), scaler.get_decr_every_n_nan_or_inf()]}
    scaler.set_init_loss_scaling(128.0)
    scaler.set_incr_ratio(3.0)
    scaler.set_decr_ratio(0.25)
    scaler.set_incr_every_n_steps(5)
    scaler.set_decr_every_n_nan_or_inf(4)
    state = scaler.state_dict()
    other = _scaler(paddle)
    other.load_state_dict(state)
    got["loaded"] = other.state_dict()
    got["scaled"] = other.scale(paddle.to_tensor(2.0))
    return got


@differential(expected=raises(AssertionError))
def test_scaler_rejects_incr_ratio_at_most_one(paddle):
    _scaler(paddle).set_incr_ratio(1.0)


@differential(expected=raises(AssertionError))
def test_scaler_constructor_checks_decr_ratio(paddle):
    _scaler(paddle, decr_ratio=1.5)


def _after_backward(paddle):
    """A scaler and an optimizer whose parameter holds a scaled gradient."""
    scaler = _scaler(paddle)
    w = _param(paddle, [1.0])
    opt = paddle.optimizer.SGD(parameters=[w])
    scaler.scale(w.sum()).backward()
    return scaler, opt


@differential(expected=raises(RuntimeError))
def test_scaler_unscale_twice_raises(paddle):
    scaler, opt = _after_backward(paddle)
    scaler.unscale_(opt)
    scaler.unscale_(opt)


@differential(expected=raises(RuntimeError))
def test_scaler_step_twice_before_update_raises(paddle):
    scaler, opt = _after_backward(paddle)
    scaler.step(opt)
    scaler.step(opt)


@differential(expected=raises(RuntimeError))
def test_scaler_unscale_after_step_raises(paddle):
    scaler, opt = _after_backward(paddle)
    scaler.step(opt)
    scaler.unscale_(opt)


@differential(expected=raises(RuntimeError))
def test_scaler_load_empty_state_raises(paddle):
    _scaler(paddle).load_state_dict({})


@differential(expected=raises(AttributeError))
def test_scaler_scale_needs_a_tensor(paddle):
    _scaler(paddle).scale(3.0)


@differential(expected={"enabled": False, "state": {}, "same": True})
def test_scaler_turns_itself_off_for_bfloat16(paddle):
    scaler = _scaler(paddle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with paddle.amp.auto_cast(dtype="bfloat16"):
            pass
        loss = paddle.to_tensor(3.0)
        same = scaler.scale(loss) is loss
    return {"enabled": scaler.is_enable(), "state": scaler.state_dict(), "same": same}


@differential(expected={"enabled": False, "state": {}, "w": [0.9]})
def test_disabled_scaler_passes_through(paddle):
    scaler = paddle.amp.GradScaler(enable=False)
    w = _param(paddle, [1.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
    scaler.scale(w.sum()).backward()
    scaler.step(opt)
    scaler.update()
    return {"enabled": scaler.is_enable(), "state": scaler.state_dict(), "w": w}


# ---- auto_cast / decorate: argument checks and queries ---------------------------------------------------
@differential(expected=raises(ValueError))
def test_auto_cast_rejects_unknown_level(paddle):
    with paddle.amp.auto_cast(level="O3"):
        pass


@differential(expected=raises(ValueError))
def test_auto_cast_rejects_float32_when_enabled(paddle):
    with paddle.amp.auto_cast(dtype="float32"):
        pass


@differential(expected=raises(ValueError))
def test_auto_cast_rejects_overlapping_custom_lists(paddle):
    with paddle.amp.auto_cast(custom_white_list={"exp"}, custom_black_list=["exp", "tanh"]):
        pass


@differential(expected={"inside": [False, "float16"], "after": [False, "float16", False, "float16", "float16"]})
def test_disabled_auto_cast_queries(paddle):
    with paddle.amp.auto_cast(enable=False):
        inside = [paddle.amp.is_autocast_enabled(), paddle.amp.get_autocast_dtype()]
    after = [paddle.is_autocast_enabled(), paddle.get_autocast_dtype(), paddle.amp.is_autocast_enabled("cpu"),
             paddle.get_autocast_cpu_dtype(), paddle.amp.get_autocast_gpu_dtype()]
    return {"inside": inside, "after": after}


@differential(expected=raises(KeyError))  # Paddle looks float32 up in its lists even when disabled
def test_disabled_auto_cast_still_needs_a_low_dtype(paddle):
    with paddle.amp.auto_cast(enable=False, dtype="float32"):
        pass


@pytest.mark.usefixtures("cpu_device")
@differential(expected=[False, False])
def test_float16_amp_is_not_supported_on_the_cpu(paddle):
    return [paddle.amp.is_float16_supported(), paddle.amp.is_float16_supported("cpu")]


@pytest.mark.usefixtures("cpu_device")
def test_bfloat16_amp_is_supported_on_every_cpu():
    """A deliberate difference (README, Compatibility): Paddle's CPU build answers from the host's
    instruction set, so its answer differs between machines; paddlelite's bfloat16 runs through ml_dtypes
    on any CPU."""
    import paddlelite as paddle
    assert paddle.amp.is_bfloat16_supported() is True
    assert paddle.amp.is_bfloat16_supported("cpu") is True


@differential(expected=[True, True, "float32"])
def test_decorate_o1_returns_its_arguments(paddle):
    model = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=model.parameters())
    m, o = paddle.amp.decorate(model, opt, level="O1")
    return [m is model, o is opt, model.weight.dtype]


@differential(expected=raises(ValueError))
def test_decorate_rejects_unknown_level(paddle):
    paddle.amp.decorate(paddle.nn.Linear(2, 2), level="O3")


@differential(expected=raises(ValueError))
def test_decorate_rejects_float32(paddle):
    paddle.amp.decorate(paddle.nn.Linear(2, 2), level="O2", dtype="float32")
