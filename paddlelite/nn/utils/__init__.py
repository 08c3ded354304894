"""nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters."""
import numpy as np

from ...autograd import no_grad
from ...framework.tensor import Tensor, wrap_array
from ..clip import ClipGradByGlobalNorm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _param_list(parameters, api):
    if isinstance(parameters, Tensor):
        return [parameters]
    params = list(parameters)
    for p in params:
        if not isinstance(p, Tensor):
            raise TypeError(f"{api}: parameters must be Tensors, received {type(p).__name__}")
    return params


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the parameters' .grad in place so their global norm is at most max_norm; returns the norm."""
    params = [p for p in _param_list(parameters, "clip_grad_norm_") if p.grad is not None]
    if float(norm_type) != 2.0:
        raise ValueError(f"clip_grad_norm_: only norm_type=2.0 is supported, received {norm_type}")
    clip = ClipGradByGlobalNorm(float(max_norm))
    with no_grad():
        if not params:
            from ...device import current_place
            return wrap_array(np.zeros((), np.float32), current_place(), True)
        norm = clip.global_norm([p.grad for p in params])
        if error_if_nonfinite and not np.isfinite(norm.item()):
            raise RuntimeError(f"clip_grad_norm_: the total norm of the gradients is {norm.item()}")
        for p, g in clip(((p, p.grad) for p in params)):
            p._grad = g
    return norm


def clip_grad_value_(parameters, clip_value):
    import paddlelite
    with no_grad():
        for p in _param_list(parameters, "clip_grad_value_"):
            if p.grad is not None:
                p._grad = paddlelite.clip(p.grad, -float(clip_value), float(clip_value))


def parameters_to_vector(parameters, name=None):
    import paddlelite
    params = _param_list(parameters, "parameters_to_vector")
    return paddlelite.concat([paddlelite.reshape(p, [-1]) for p in params])


def vector_to_parameters(vec, parameters, name=None):
    params = _param_list(parameters, "vector_to_parameters")
    data = vec.numpy() if isinstance(vec, Tensor) else np.asarray(vec)
    total = sum(p.size for p in params)
    if data.size != total:
        raise ValueError(f"vector_to_parameters: vec has {data.size} elements, the parameters {total}")
    off = 0
    for p in params:
        chunk = data[off:off + p.size].reshape(p.shape).astype(p._data.dtype)
        p._write(p._place.xp.asarray(chunk))
        off += p.size
