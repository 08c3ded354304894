"""paddle.autograd.py_layer: Paddle's module path for PyLayer (implemented in pylayer.py)."""
from .pylayer import PyLayer, PyLayerContext

__all__ = ["PyLayer", "PyLayerContext"]
