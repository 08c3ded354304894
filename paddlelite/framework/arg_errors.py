"""The error an API raises for an argument that is not a Tensor, which in Paddle depends on the mode: its eager C++
bindings reject it with ValueError ("(InvalidArgument) relu(): argument 'x' (position 0) must be Tensor"), its
static-graph Python checks (check_variable_and_dtype) with TypeError. Paddle's own tests and user code catch the
class of the mode they run in."""
from .mode import in_static_mode


def not_a_tensor(message):
    """The exception (not raised) for `message`, which names the API, the argument and what it received."""
    return TypeError(message) if in_static_mode() else ValueError(message)


def bad_argument(message):
    """The exception (not raised) for a Tensor of the wrong dtype or an attribute of the wrong type: the same split
    by mode (Paddle's eager bindings and kernels reject them with ValueError, its static checks with TypeError)."""
    return not_a_tensor(message)
