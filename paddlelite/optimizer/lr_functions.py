"""The fluid-era learning-rate functions of paddle.optimizer.lr (noam_decay, exponential_decay, ..., linear_lr_warmup).

In dynamic mode each returns the LRScheduler Paddle returns (with Paddle's arguments: exponential_decay's scheduler,
for one, decays every step whatever decay_steps and staircase say). In static mode each appends the ops computing the
rate from a step counter: a persistable int64 variable that the startup program sets to begin - 1 and an `increment`
op at the head of the main program advances on every run (autoincreased_step_counter), so the n-th run sees step n
(begin 1) or n - 1 (the decay functions' counter starts at 0)."""
import math
import numbers

from .. import tensor as T
from ..framework.mode import in_dynamic_mode
from ..static.framework import Variable, default_main_program
from ..static.layer_apis import create_global_var
from .lr import (CosineAnnealingDecay, ExponentialDecay, InverseTimeDecay, LinearWarmup, NaturalExpDecay, NoamDecay,
                 PiecewiseDecay, PolynomialDecay)

_DECAY_COUNTER = "@LR_DECAY_COUNTER@"


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """The main program's int64 [1] counter `counter_name` (default '@STEP_COUNTER@'): `begin` on the first run of the
    program, `step` more on each run after. Created once per program; a second call returns the same variable."""
    block = default_main_program().global_block()
    name = "@STEP_COUNTER@" if counter_name is None else counter_name
    counter = block._lookup(name)
    if counter is None:
        counter = create_global_var([1], begin - 1, "int64", persistable=True, name=name)
        counter.belong_to_optimizer = True
        block._prepend_op(type="increment", inputs={"X": [counter]}, outputs={"Out": [counter]},
                          attrs={"step": float(step)})
    return counter


def _decay_step(begin=0):
    """The float32 step of the decay functions: `begin` on the program's first run."""
    return T.cast(autoincreased_step_counter(_DECAY_COUNTER, begin=begin, step=1), "float32")


def _staircase(value, staircase):
    return T.floor(value) if staircase else value


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    """learning_rate * d_model^-0.5 * min(step^-0.5, step * warmup_steps^-1.5), from step 1."""
    if in_dynamic_mode():
        return NoamDecay(d_model, warmup_steps, learning_rate=learning_rate)
    step = _decay_step(1)
    return learning_rate * (d_model ** -0.5) * T.minimum(step ** -0.5, (warmup_steps ** -1.5) * step)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate * decay_rate^(step / decay_steps) (the exponent floored with staircase)."""
    if in_dynamic_mode():
        return ExponentialDecay(learning_rate, decay_rate)
    return learning_rate * (decay_rate ** _staircase(_decay_step() / decay_steps, staircase))


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate * exp(-decay_rate * step / decay_steps) (the quotient floored with staircase)."""
    if in_dynamic_mode():
        return NaturalExpDecay(learning_rate, decay_rate)
    return learning_rate * T.exp(-1 * decay_rate * _staircase(_decay_step() / decay_steps, staircase))


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate / (1 + decay_rate * step / decay_steps) (the quotient floored with staircase)."""
    if in_dynamic_mode():
        return InverseTimeDecay(learning_rate, decay_rate)
    return learning_rate / (1 + decay_rate * _staircase(_decay_step() / decay_steps, staircase))


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
    """(learning_rate - end) * (1 - step / decay_steps)^power + end, the step held at decay_steps; with cycle,
    decay_steps grows to the next multiple of itself instead (once per cycle)."""
    if in_dynamic_mode():
        return PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)
    step = _decay_step()
    if cycle:
        cycles = T.ceil(step / decay_steps)
        decay_steps = decay_steps * T.where(step == T.zeros([1], "float32"), T.ones([1], "float32"), cycles)
    else:
        step = T.minimum(step, T.full([1], float(decay_steps), "float32"))
    return (learning_rate - end_learning_rate) * ((1 - step / decay_steps) ** power) + end_learning_rate


def piecewise_decay(boundaries, values):
    """values[i] while the step is below boundaries[i], values[-1] from the last boundary on."""
    if len(values) - len(boundaries) != 1:
        raise ValueError(f"piecewise_decay: values must have one entry more than boundaries, received "
                         f"{len(values)} values and {len(boundaries)} boundaries")
    if in_dynamic_mode():
        return PiecewiseDecay(boundaries, values)
    step = _decay_step()
    lr = create_global_var([1], 0.0, "float32", persistable=True, name="learning_rate")
    value = T.full([1], float(values[-1]), "float32")
    for boundary, v in reversed(list(zip(boundaries, values))):
        value = T.where(step < T.full([1], float(boundary), "float32"), T.full([1], float(v), "float32"), value)
    T.assign(value, output=lr)
    return lr


def cosine_decay(learning_rate, step_each_epoch, epochs):
    """learning_rate * (cos(epoch * pi / epochs) + 1) / 2, epoch = floor(step / step_each_epoch)."""
    if in_dynamic_mode():
        return CosineAnnealingDecay(learning_rate, epochs)
    if isinstance(learning_rate, bool) or not isinstance(learning_rate, (float, Variable)):  # checked in static mode,
        raise TypeError(f"cosine_decay: learning_rate must be a float or a Variable, received "  # as Paddle's
                        f"{type(learning_rate).__name__}")
    epoch = T.floor(_decay_step() / step_each_epoch)
    return learning_rate * 0.5 * (T.cos(epoch * math.pi / epochs) + 1)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    """start_lr + (end_lr - start_lr) * step / warmup_steps while the step is below warmup_steps, then learning_rate
    (a number, or a [1] Variable such as another decay function's)."""
    if in_dynamic_mode():
        return LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr)
    if not isinstance(learning_rate, (Variable, numbers.Real)) or isinstance(learning_rate, bool):
        raise TypeError(f"linear_lr_warmup: learning_rate must be a number or a Variable, received "
                        f"{type(learning_rate).__name__}")
    dtype = learning_rate.dtype if isinstance(learning_rate, Variable) else "float32"
    lr = create_global_var([1], 0.0, dtype, persistable=True, name="learning_rate_warmup")
    step = _decay_step()
    if not isinstance(learning_rate, Variable):
        learning_rate = T.full([1], float(learning_rate), dtype)
    warming = start_lr + (float(end_lr) - float(start_lr)) * (step / float(warmup_steps))
    T.assign(T.where(step < float(warmup_steps), T.cast(warming, dtype), learning_rate), output=lr)
    return lr
