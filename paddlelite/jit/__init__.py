"""paddle.jit: dynamic-to-static (to_static), and saving/loading traced models for inference."""
from .api import (StaticFunction, enable_to_static, ignore_module, not_to_static, set_code_level, set_verbosity,
                  to_static)
import sys as _sys

from . import io as _io
from .io import TranslatedLayer, load, save
from . import pir_program  # noqa: F401  (the model loaders read real Paddle's PIR programs)

_sys.modules[f"{__name__}.translated_layer"] = _io  # Paddle's module of TranslatedLayer, which Paddle code imports

__all__ = ["TranslatedLayer", "load", "save", "enable_to_static", "ignore_module", "not_to_static", "set_code_level",
           "set_verbosity", "to_static", "StaticFunction"]
