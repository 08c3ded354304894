"""The helpers of paddle.utils.cpp_extension that Paddle code imports (custom operators: not implemented)."""
from .cpp_extension import _not_implemented

__all__ = []

_jit_compile = _not_implemented("extension_utils._jit_compile")
_import_module_from_library = _not_implemented("extension_utils._import_module_from_library")
