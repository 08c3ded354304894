"""Learning-rate schedulers (paddle.optimizer.lr).

A scheduler holds `last_epoch` and `last_lr`; `step()` advances it, calling it returns the current
rate. In static mode `optimizer.minimize` binds the scheduler to the program's learning-rate variable
(`_var_name`) and sets `program.lr_scheduler`; as in Paddle, `Executor.run` then writes the current rate
into that variable of whichever scope the run uses, so `step()` touches no scope itself.
"""
import math
import numbers

import numpy as np

__all__ = ["LRScheduler", "StepDecay", "MultiStepDecay", "ExponentialDecay", "CosineAnnealingDecay",
           "LinearWarmup", "PiecewiseDecay", "PolynomialDecay", "NaturalExpDecay", "InverseTimeDecay",
           "LambdaDecay", "MultiplicativeDecay", "NoamDecay", "ReduceOnPlateau", "OneCycleLR", "CyclicLR",
           "LinearLR", "CosineAnnealingWarmRestarts"]


def _number(api, name, value):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{api}: {name} must be a number, received {type(value).__name__}")
    return float(value)


class LRScheduler:
    """Base class: subclasses define get_lr() from self.base_lr and self.last_epoch."""

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        api = type(self).__name__
        self.base_lr = _number(api, "learning_rate", learning_rate)
        if self.base_lr < 0:  # ValueError, as Paddle's
            raise ValueError(f"{api}: learning_rate must not be negative, received {learning_rate}")
        if not isinstance(last_epoch, int):
            raise TypeError(f"{api}: last_epoch must be an int, received {type(last_epoch).__name__}")
        self.last_lr = self.base_lr
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        """Advance one epoch/step (or jump to `epoch`) and recompute last_lr."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            if not isinstance(epoch, (int, float, np.integer)):
                raise TypeError(f"{type(self).__name__}.step: epoch must be a number, received {type(epoch).__name__}")
            self.last_epoch = int(epoch)
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def get_lr(self):
        raise TypeError(f"{type(self).__name__} does not define get_lr()")

    # ---- state ----------------------------------------------------------------------------------
    _state_keys = ("last_epoch", "last_lr")

    def state_dict(self):
        state = {}
        for key in self._state_keys:
            value = getattr(self, key)
            if hasattr(value, "item") and not isinstance(value, (list, tuple)):
                value = value.item()
            state[key] = value
        return state

    def set_state_dict(self, state_dict):
        if not isinstance(state_dict, dict):
            raise TypeError(f"{type(self).__name__}.set_state_dict: expected a dict, received "
                            f"{type(state_dict).__name__}")
        for key in self._state_keys:
            if key not in state_dict:
                raise KeyError(f"{type(self).__name__}.set_state_dict: the state has no '{key}'")
            setattr(self, key, state_dict[key])

    set_dict = set_state_dict


class StepDecay(LRScheduler):
    """lr = base * gamma ** (last_epoch // step_size)"""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int):  # TypeError, as Paddle's
            raise TypeError(f"StepDecay: step_size must be an int, received {type(step_size).__name__}")
        if step_size <= 0:
            raise ValueError(f"StepDecay: step_size must be positive, received {step_size}")
        if gamma >= 1.0:
            raise ValueError(f"StepDecay: gamma must be less than 1.0, received {gamma}")
        self.step_size, self.gamma = step_size, float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class MultiStepDecay(LRScheduler):
    """lr = base * gamma ** (number of milestones <= last_epoch)"""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(milestones, (list, tuple)) or not milestones:
            raise TypeError(f"MultiStepDecay: milestones must be a non-empty list, received {milestones!r}")
        if any(b <= a for a, b in zip(milestones, milestones[1:])):
            raise ValueError(f"MultiStepDecay: milestones must increase, received {list(milestones)}")
        if gamma >= 1.0:
            raise ValueError(f"MultiStepDecay: gamma must be less than 1.0, received {gamma}")
        self.milestones, self.gamma = list(milestones), float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        for i, m in enumerate(self.milestones):
            if self.last_epoch < m:
                return self.base_lr * self.gamma ** i
        return self.base_lr * self.gamma ** len(self.milestones)


class ExponentialDecay(LRScheduler):
    """lr = base * gamma ** last_epoch"""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if not 0.0 < gamma < 1.0:
            raise ValueError(f"ExponentialDecay: gamma must be in (0, 1), received {gamma}")
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch


class NaturalExpDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = float(gamma)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from base to eta_min over T_max epochs (Paddle's recursive form; step(epoch)
    uses the closed form)."""

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int) or T_max <= 0:
            raise ValueError(f"CosineAnnealingDecay: T_max must be a positive int, received {T_max!r}")
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
        return ((1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (self.last_lr - self.eta_min) + self.eta_min)

    def _get_closed_form_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class LinearWarmup(LRScheduler):
    """Linear ramp from start_lr to end_lr over warmup_steps, then `learning_rate` (a float or a
    scheduler, stepped with the epochs after the warm-up)."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1, verbose=False):
        if not isinstance(learning_rate, (LRScheduler, numbers.Real)) or isinstance(learning_rate, bool):
            raise TypeError(f"LinearWarmup: learning_rate must be a number or an LRScheduler, received "
                            f"{type(learning_rate).__name__}")
        if not isinstance(warmup_steps, int) or warmup_steps <= 0:
            raise ValueError(f"LinearWarmup: warmup_steps must be a positive int, received {warmup_steps!r}")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr, self.end_lr = float(start_lr), float(end_lr)
        if end_lr <= start_lr:
            raise ValueError(f"LinearWarmup: end_lr ({end_lr}) must be greater than start_lr ({start_lr})")
        super().__init__(start_lr, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return float(self.learning_rate)

    def state_dict(self):
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler) and "LinearWarmup_LR" in state_dict:
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict


class PiecewiseDecay(LRScheduler):
    """values[i] while last_epoch < boundaries[i]; values[-1] after the last boundary."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseDecay: values must have one more entry than boundaries "
                             f"({len(values)} vs {len(boundaries)})")
        self.boundaries, self.values = list(boundaries), [float(v) for v in values]
        super().__init__(self.values[0], last_epoch, verbose)

    def get_lr(self):
        for i, b in enumerate(self.boundaries):
            if self.last_epoch < b:
                return self.values[i]
        return self.values[-1]


class PolynomialDecay(LRScheduler):
    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False, last_epoch=-1,
                 verbose=False):
        if not isinstance(decay_steps, int) or decay_steps <= 0:
            raise ValueError(f"PolynomialDecay: decay_steps must be a positive int, received {decay_steps!r}")
        self.decay_steps, self.end_lr, self.power, self.cycle = decay_steps, float(end_lr), float(power), cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        step, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            div = math.ceil(step / float(steps)) if step else 1
            steps = steps * max(div, 1)
        else:
            step = min(step, steps)
        return (self.base_lr - self.end_lr) * (1 - float(step) / float(steps)) ** self.power + self.end_lr


class LambdaDecay(LRScheduler):
    """lr = base * lr_lambda(last_epoch)"""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"LambdaDecay: lr_lambda must be callable, received {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """lr = last_lr * lr_lambda(last_epoch) for each epoch after the first."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"MultiplicativeDecay: lr_lambda must be callable, received {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch > 0:
            return self.last_lr * self.lr_lambda(self.last_epoch)
        return self.base_lr


class NoamDecay(LRScheduler):
    """The Transformer schedule: base * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5) (0 at step 0)."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        step = self.last_epoch
        decay = 1.0 if step == 0 else step ** -0.5
        return self.base_lr * self.d_model ** -0.5 * min(decay, step * self.warmup_steps ** -1.5)


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by `factor` when `step(metrics)` has not improved for `patience` calls."""

    _state_keys = ("last_epoch", "last_lr", "best", "num_bad_epochs", "cooldown_counter")

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: mode must be 'min' or 'max', received {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"ReduceOnPlateau: threshold_mode must be 'rel' or 'abs', received {threshold_mode!r}")
        if factor >= 1.0:
            raise ValueError(f"ReduceOnPlateau: factor must be less than 1.0, received {factor}")
        self.mode, self.factor, self.patience = mode, float(factor), int(patience)
        self.threshold, self.threshold_mode = float(threshold), threshold_mode
        self.cooldown, self.min_lr, self.epsilon = int(cooldown), float(min_lr), float(epsilon)
        self.best = None
        self.num_bad_epochs = 0
        self.cooldown_counter = 0
        self.base_lr = self.last_lr = _number("ReduceOnPlateau", "learning_rate", learning_rate)
        self.last_epoch = 0
        self.verbose = verbose
        self._var_name = None

    def step(self, metrics, epoch=None):
        if hasattr(metrics, "item"):
            metrics = metrics.item()
        metrics = float(metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
        elif self.best is None or self._better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
            if self.num_bad_epochs > self.patience:
                self.cooldown_counter = self.cooldown
                self.num_bad_epochs = 0
                new_lr = max(self.last_lr * self.factor, self.min_lr)
                if self.last_lr - new_lr > self.epsilon:
                    self.last_lr = new_lr
                    if self.verbose:
                        print(f"Epoch {self.last_epoch}: ReduceOnPlateau set learning rate to {self.last_lr}.")

    def _better(self, current, best):
        if self.mode == "min":
            bound = best - best * self.threshold if self.threshold_mode == "rel" else best - self.threshold
            return current < bound
        bound = best + best * self.threshold if self.threshold_mode == "rel" else best + self.threshold
        return current > bound


def _positive(api, name, value, kinds=(int, float), allow_zero=False):
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise TypeError(f"{api}: {name} must be {' or '.join(k.__name__ for k in kinds)}, received "
                        f"{type(value).__name__}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{api}: {name} must be positive, received {value}")
    return value


class OneCycleLR(LRScheduler):
    """The one-cycle policy: warm up from max/divide_factor to max over phase_pct of total_steps, then
    anneal ('cos' or 'linear') to end_learning_rate (three_phase: back to the initial rate first)."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0, end_learning_rate=0.0001, phase_pct=0.3,
                 anneal_strategy="cos", three_phase=False, last_epoch=-1, verbose=False):
        api = "OneCycleLR"
        _positive(api, "max_learning_rate", max_learning_rate, allow_zero=True)
        _positive(api, "end_learning_rate", end_learning_rate, allow_zero=True)
        self.total_steps = _positive(api, "total_steps", total_steps, (int,))
        if not isinstance(phase_pct, float):
            raise TypeError(f"{api}: phase_pct must be float, received {type(phase_pct).__name__}")
        if not 0 <= phase_pct <= 1:
            raise ValueError(f"{api}: phase_pct must be between 0 and 1, received {phase_pct}")
        _number(api, "divide_factor", divide_factor)
        initial_lr = max_learning_rate / float(divide_factor)
        end = float(end_learning_rate)
        up = phase_pct * total_steps - 1
        last = total_steps - 1
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError(f"{api}: with three_phase=True phase_pct must be less than 0.5, received {phase_pct}")
            self._step_config = [0, up, 2 * phase_pct * total_steps - 2, last, last]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, end]
        else:
            self._step_config = [0, up, last, last]
            self._lr_config = [initial_lr, max_learning_rate, end]
        bounds = self._step_config
        # the last phase's size repeats for the final step, as in Paddle
        self._steps_size = [b - a for a, b in zip(bounds[:-2], bounds[1:-1])]
        self._steps_size.append(self._steps_size[-1])
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"{api}: anneal_strategy must be 'cos' or 'linear', received {anneal_strategy!r}")
        self.anneal_strategy = anneal_strategy
        super().__init__(initial_lr, last_epoch, verbose)

    def _anneal(self, start, end, pct):
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: tried to step {step} times, but total_steps is {self.total_steps}")
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end_step or i == len(self._lr_config) - 2:
                return self._anneal(self._lr_config[i], self._lr_config[i + 1], (step - self._step_config[i]) / size)


class CyclicLR(LRScheduler):
    """Cycle between base and max rate: up for step_size_up steps, down for step_size_down; the amplitude
    scaled per cycle ('triangular', 'triangular2') or per iteration ('exp_range') or by scale_fn."""

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None, mode="triangular",
                 exp_gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1, verbose=False):
        api = "CyclicLR"
        _positive(api, "max_learning_rate", max_learning_rate, allow_zero=True)
        _positive(api, "step_size_up", step_size_up, (int,))
        if step_size_down is not None:
            _positive(api, "step_size_down", step_size_down, (int,))
        if not isinstance(exp_gamma, float):
            raise TypeError(f"{api}: exp_gamma must be float, received {type(exp_gamma).__name__}")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"{api}: mode must be 'triangular', 'triangular2' or 'exp_range' when scale_fn is "
                             f"not given, received {mode!r}")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"{api}: scale_mode must be 'cycle' or 'iterations', received {scale_mode!r}")
        self.mode, self.gamma = mode, exp_gamma
        if scale_fn is None:
            scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1 / (2.0 ** (x - 1)),
                        "exp_range": lambda x: self.gamma ** x}[mode]
            scale_mode = "iterations" if mode == "exp_range" else "cycle"
        self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale = pct / self.step_up_pct
        else:
            scale = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * scale * self.scale_fn(x)


class LinearLR(LRScheduler):
    """Scale the rate linearly from start_factor to end_factor over total_steps, then hold it."""

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0, last_epoch=-1,
                 verbose=False):
        if not 0 < start_factor <= 1.0:
            raise ValueError(f"LinearLR: start_factor must be in (0, 1], received {start_factor}")
        if not 0 <= end_factor <= 1.0:
            raise ValueError(f"LinearLR: end_factor must be in [0, 1], received {end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR: total_steps must be positive, received {total_steps}")
        self.start_factor, self.end_factor, self.total_steps = start_factor, end_factor, total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        delta = self.end_factor - self.start_factor
        # recursive, as Paddle: each step multiplies the previous rate
        return self.last_lr * (1.0 + delta / (self.total_steps * self.start_factor + (self.last_epoch - 1) * delta))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the base rate to eta_min over T_i steps, restarting with T_i *= T_mult."""

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_0 must be a positive int, received {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts: T_mult must be an int >= 1, received {T_mult}")
        self.T_0 = self.T_i = T_0
        self.T_mult, self.eta_min, self.T_cur = T_mult, eta_min, last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"CosineAnnealingWarmRestarts.step: epoch must be non-negative, received {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: CosineAnnealingWarmRestarts set learning rate to {self.last_lr}.")


# the fluid-era functions, under their Paddle module path (they build on the classes above)
from .lr_functions import (autoincreased_step_counter, cosine_decay, exponential_decay,  # noqa: E402,F401
                           inverse_time_decay, linear_lr_warmup, natural_exp_decay, noam_decay, piecewise_decay,
                           polynomial_decay)
