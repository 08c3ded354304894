"""Utilities: unique_name (parameter and temporary naming); structure (nested lists, tuples and dicts flattened to
leaves and rebuilt); layers_utils (Paddle's nest functions flatten, pack_sequence_as, map_structure; convert_to_list); deprecated
(Paddle's deprecation decorator)."""
from . import unique_name
from .deprecated import deprecated
from .layers_utils import convert_to_list, flatten, map_structure, pack_sequence_as

__all__ = ["unique_name", "deprecated", "flatten", "map_structure", "pack_sequence_as", "convert_to_list"]
