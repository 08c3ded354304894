"""clip_grad_norm_ and clip_grad_value_: clip the parameters' gradients in place."""
import numpy as np

from ...autograd import no_grad
from ...device import current_place
from ...framework.tensor import wrap_array
from ...tensor.math import clip as _clip
from ..clip import ClipGradByGlobalNorm
from .transform_parameters import param_list

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the parameters' .grad in place so their global norm is at most max_norm; returns the norm."""
    params = [p for p in param_list(parameters, "clip_grad_norm_") if p.grad is not None]
    if float(norm_type) != 2.0:
        raise ValueError(f"clip_grad_norm_: only norm_type=2.0 is supported, received {norm_type}")
    clip = ClipGradByGlobalNorm(float(max_norm))
    with no_grad():
        if not params:
            return wrap_array(np.zeros((), np.float32), current_place(), True)
        norm = clip.global_norm([p.grad for p in params])
        if error_if_nonfinite and not np.isfinite(norm.item()):
            raise RuntimeError(f"clip_grad_norm_: the total norm of the gradients is {norm.item()}")
        for p, g in clip(((p, p.grad) for p in params)):
            p._grad = g
    return norm


def clip_grad_value_(parameters, clip_value):
    with no_grad():
        for p in param_list(parameters, "clip_grad_value_"):
            if p.grad is not None:
                p._grad = _clip(p.grad, -float(clip_value), float(clip_value))
