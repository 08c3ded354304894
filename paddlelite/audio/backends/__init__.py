"""paddle.audio.backends: choosing how audio files are read and written."""
from .init_backend import get_current_backend, list_available_backends, set_backend

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]
