"""Utilities: unique_name (parameter and temporary naming); structure (nested lists, tuples and dicts flattened to
leaves and rebuilt); layers_utils (Paddle's nest functions flatten, pack_sequence_as, map_structure; convert_to_list;
and the argument helpers scripts reach, shown outside __all__ as in Paddle); deprecated (Paddle's deprecation
decorator); try_import, require_version, strtobool."""
from . import unique_name
from .deprecated import deprecated
from .environments import strtobool  # noqa: F401
from .layers_utils import convert_to_list, flatten, map_structure, pack_sequence_as
from .layers_utils import (_contain_var, assert_same_structure, convert_shape_to_list, is_sequence,  # noqa: F401
                           padding_to_same_structure, to_sequence)
from .lazy_import import try_import
from .version_check import require_version

__all__ = ["unique_name", "deprecated", "flatten", "map_structure", "pack_sequence_as", "convert_to_list",
           "require_version", "try_import"]
