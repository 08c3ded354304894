"""Utilities: unique_name (parameter and temporary naming); structure (nested lists, tuples and dicts flattened to
leaves and rebuilt); layers_utils (Paddle's nest functions flatten, pack_sequence_as, map_structure; convert_to_list);
deprecated (Paddle's deprecation decorator); try_import (an optional dependency or what to install); download
(archives at local paths, unpacked); cpp_extension (custom C++ operators: not implemented)."""
from . import cpp_extension, download, unique_name  # noqa: F401
from .deprecated import deprecated
from .layers_utils import convert_to_list, flatten, map_structure, pack_sequence_as
from .lazy_import import try_import

__all__ = ["unique_name", "deprecated", "flatten", "map_structure", "pack_sequence_as", "convert_to_list", "try_import"]
