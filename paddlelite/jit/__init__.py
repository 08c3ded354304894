"""paddle.jit: dynamic-to-static (to_static), and saving/loading traced models for inference."""
from .api import (StaticFunction, enable_to_static, ignore_module, not_to_static, set_code_level, set_verbosity,
                  to_static)

__all__ = ["enable_to_static", "ignore_module", "not_to_static", "set_code_level",
           "set_verbosity", "to_static", "StaticFunction"]
