"""clip_grad_norm_ and clip_grad_value_: clip the parameters' gradients in place (dynamic mode only, as Paddle's)."""
from ...autograd import no_grad
from ...framework.mode import in_dynamic_mode
from ...tensor.creation import to_tensor
from ...tensor.linalg import norm as _norm
from ...tensor.manipulation import stack
from ...tensor.math import clip as _clip
from ...tensor.reduce import max as _max
from .transform_parameters import param_list

__all__ = ["clip_grad_norm_", "clip_grad_value_"]

_NORM_TYPES = (float("inf"), 0, 1, 2)  # Paddle's


def _dynamic_only(api):
    if not in_dynamic_mode():  # Paddle's class: the gradients of a static program are no Tensors to clip
        raise RuntimeError(f"{api}: this API can only run in dynamic mode (call paddle.disable_static() first)")


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the parameters' .grad in place by max_norm / (total norm + 1e-6) when that is below 1, the total norm
    being the `norm_type` norm of the gradients' norms (Paddle's formula); returns the total norm."""
    _dynamic_only("clip_grad_norm_")
    params = param_list(parameters, "clip_grad_norm_")
    if norm_type not in _NORM_TYPES:
        raise ValueError(f"clip_grad_norm_: norm_type must be one of {list(_NORM_TYPES)}, received {norm_type}")
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return to_tensor(0.0)
    norm_type = float(norm_type)
    with no_grad():
        if norm_type == float("inf"):
            norms = [g.abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else _max(stack(norms))
        else:
            total = _norm(stack([_norm(g, norm_type) for g in grads]), norm_type)
        if error_if_nonfinite and not bool(total.isfinite()):
            raise RuntimeError(f"clip_grad_norm_: the total norm of order {norm_type} of the gradients is "
                               f"{total.item()}, which cannot scale them; pass error_if_nonfinite=False to scale "
                               "by it anyway")
        scale = _clip(float(max_norm) / (total + 1e-6), max=1.0)
        for g in grads:
            g.multiply_(scale)
    return total


def clip_grad_value_(parameters, clip_value):
    """Clip the parameters' .grad in place to [-clip_value, clip_value]."""
    _dynamic_only("clip_grad_value_")
    with no_grad():
        for p in param_list(parameters, "clip_grad_value_"):
            if p.grad is not None:
                p._grad = _clip(p.grad, -float(clip_value), float(clip_value))
