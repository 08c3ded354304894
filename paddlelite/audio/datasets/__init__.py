"""paddle.audio.datasets: audio classification datasets, read where Paddle unpacks them (never downloaded)."""
from .esc50 import ESC50
from .tess import TESS

__all__ = ["ESC50", "TESS"]
