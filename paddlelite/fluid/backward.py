"""fluid.backward: append_backward and gradients."""
from ..static.backward import append_backward, calc_gradient, gradients
from ..static.backward import grad_name as _append_grad_suffix_  # noqa: F401 -- Paddle code calls them by these names
from ..static.backward import strip_grad as _strip_grad_suffix_  # noqa: F401

__all__ = ["append_backward", "gradients", "calc_gradient"]


def _as_list(x):
    """Paddle's helper: None as [], a list or tuple as a list, anything else as a list of it."""
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]
