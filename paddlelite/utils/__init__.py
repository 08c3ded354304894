"""Utilities: unique_name (parameter and temporary naming)."""
from . import unique_name

__all__ = ["unique_name"]
