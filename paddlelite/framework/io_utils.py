"""paddle.framework.io_utils: a static variable's value in a scope, read and written (get_value / set_value, over the
Variable's own methods), and is_pir_fetch_var (False: there is no PIR here)."""


def _check_variable(var, api):
    if not getattr(var, "_is_variable", False):  # AttributeError, as Paddle's (which reads var.name)
        raise AttributeError(f"{api}: var must be a static Variable, received {type(var).__name__}")


def get_value(var, scope=None):
    """`var`'s value in `scope` (default: the global scope), as the scope's DenseTensor."""
    _check_variable(var, "paddle.framework.io_utils.get_value")
    return var.get_value(scope)


def set_value(var, value, scope=None):
    """Write `value` (a NumPy array or a DenseTensor of var's shape) as `var`'s value in `scope`."""
    _check_variable(var, "paddle.framework.io_utils.set_value")
    var.set_value(value, scope)


def is_pir_fetch_var(value):
    """Whether `value` is a PIR program's fetch result: never, programs here are legacy-IR programs."""
    return False
