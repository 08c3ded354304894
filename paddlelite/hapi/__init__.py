"""paddle's high-level API: Model, the callbacks, summary and flops."""
from . import callbacks  # noqa: F401
from .dynamic_flops import flops
from .model import Model
from .model_summary import summary

__all__ = ["Model", "summary", "flops"]
