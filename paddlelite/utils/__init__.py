"""Utilities: unique_name (parameter and temporary naming); structure (nested lists, tuples and dicts flattened to
leaves and rebuilt)."""
from . import unique_name

__all__ = ["unique_name"]
