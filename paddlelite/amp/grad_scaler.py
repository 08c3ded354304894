"""paddle.amp.GradScaler: dynamic loss scaling, with Paddle 3.3.1's state machine and counters.

scale(loss) multiplies by the scale; unscale_/step/minimize divide the gradients by it and skip the
optimizer's update when one of them is inf or nan; update() (or minimize) then adjusts the scale:
decr_ratio after decr_every_n_nan_or_inf steps with inf/nan, incr_ratio after incr_every_n_steps clean
steps in a row. Paddle disables the scaler on the CPU; paddlelite, which trains in low precision there
too, does not.
"""
from collections import defaultdict
from enum import Enum

import numpy as np

from ..framework import user_warnings as _user_warnings
from ..autograd import no_grad
from ..framework.tensor import Tensor
from ..ops import autocast as _autocast
from .auto_cast import amp_global_state

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_optimizer_state():
    return {"state": OptimizerState.INIT}


def _scale_tensor(value):
    from ..tensor.creation import to_tensor
    return to_tensor(np.array([value]).astype(np.float32))


class AmpScaler:
    def __init__(self, enable=True, init_loss_scaling=2.0 ** 15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True):
        self._enable = enable
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        if self._enable:
            assert incr_ratio > 1.0, "The incr_ratio must be > 1.0."
            assert decr_ratio < 1.0, "The decr_ratio must be < 1.0."
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
            self._found_inf = False
            self._scale = _scale_tensor(self._init_loss_scaling)
            self._cache_found_inf = None
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def scale(self, var):
        """`var` times the loss scale (`var` itself when the scaler is disabled). Dynamic scaling is for
        float16: when the last auto_cast was not float16 the scaler disables itself, as Paddle's does."""
        if self._enable and amp_global_state.amp_dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            _user_warnings.warn(f"It is not recommended to use dynamic loss scaling for {amp_global_state.amp_dtype}, "
                                "so GradScaler is disable by default.")
        if not self._enable:
            return var
        if not isinstance(var, Tensor):  # Paddle's class for this mistake (it reads var._is_initialized)
            raise AttributeError(f"GradScaler.scale: var must be a Tensor, received {type(var).__name__}")
        return var * self._scale

    def minimize(self, optimizer, *args, **kwargs):
        """optimizer.minimize(*args, **kwargs) on unscaled gradients, skipped when one is inf/nan; then the
        scale is updated."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        optimize_ops, params_grads = None, None
        if self._found_inf:
            self._cache_found_inf = True
        else:
            optimize_ops, params_grads = optimizer.minimize(*args, **kwargs)
            self._cache_found_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_refresh_optimizer_state)
        return optimize_ops, params_grads

    def _unscale(self, optimizer):
        """Divide the optimizer's gradients by the scale (in place) and note whether one is inf or nan."""
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        from ..tensor.math import isfinite
        from ..tensor.manipulation import cast, stack
        from ..tensor.reduce import all as all_
        finite = []
        with no_grad(), _autocast.suspended():
            inv_scale = 1.0 / self._scale
            for p in optimizer._parameter_list:
                g = p._grad
                if g is None:
                    continue
                finite.append(all_(isfinite(g)))
                wide = g if g.dtype.name in ("float32", "float64") else cast(g, "float32")
                g._write(cast(wide * inv_scale, g.dtype)._data)
        self._found_inf = bool(finite) and not bool(all_(stack(finite)))  # one device sync for all gradients
        state["state"] = OptimizerState.UNSCALED

    def _update(self):
        """Adjust the scale after a step: Paddle's counters."""
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                print(f"Found inf or nan, current scale is: {float(self._scale)}, decrease to: "
                      f"{float(self._scale)}*{float(self._decr_ratio)}")
                self._scale = self._scale * self._decr_ratio
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * self._incr_ratio
                self._incr_count = 0

    # ---- settings -----------------------------------------------------------------------------------
    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        """Sets the initial scale and resets the current scale to it."""
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = _scale_tensor(self._init_loss_scaling)

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        assert new_incr_ratio > 1.0, "The new_incr_ratio must be > 1.0."
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        assert new_decr_ratio < 1.0, "The new_decr_ratio must be < 1.0."
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self):
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    # ---- state --------------------------------------------------------------------------------------
    def state_dict(self):
        """The scale (a float32 array of shape [1]), the ratios, intervals and counters; {} when disabled."""
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy(), "incr_ratio": self._incr_ratio, "decr_ratio": self._decr_ratio,
                "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf, "incr_count": self._incr_count,
                "decr_count": self._decr_count, "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict):
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_loss_scaling = state_dict["scale"][0]
        self._scale = _scale_tensor(self._init_loss_scaling)
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


class GradScaler(AmpScaler):
    """Loss scaling for mixed precision training (dynamic mode):

        scaled = scaler.scale(loss); scaled.backward()
        scaler.step(optimizer); scaler.update()      # or scaler.minimize(optimizer, scaled)
    """

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer):
        """optimizer.step() on unscaled gradients, skipped when one is inf or nan."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            optimizer.step()
            self._cache_found_inf = False
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def update(self):
        """Adjust the loss scale (dynamic scaling) and start the next step."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale now (e.g. to clip them before step())."""
        return super()._unscale(optimizer)
