"""Which backend paddle.audio.info/load/save use: 'wave_backend' (16-bit PCM WAV, Python's wave module; the
default, as Paddle's) or 'soundfile' (libsndfile's formats; the optional extra paddlelite[audio])."""
import importlib.util

from . import backend, soundfile_backend, wave_backend

_BACKENDS = {"wave_backend": wave_backend, "soundfile": soundfile_backend}
_current_name = ["wave_backend"]


def list_available_backends():
    """The backends that can be set: 'soundfile' when the soundfile package is installed, and 'wave_backend'."""
    return (["soundfile"] if importlib.util.find_spec("soundfile") is not None else []) + ["wave_backend"]


def get_current_backend():
    return _current_name[0]


def set_backend(backend_name):
    """Make paddle.audio.info/load/save use `backend_name` (one of list_available_backends())."""
    if backend_name not in list_available_backends():
        raise NotImplementedError(f"paddle.audio.backends.set_backend: backend {backend_name!r} is not available; "
                                  f"available: {list_available_backends()}")
    _current_name[0] = backend_name
    backend._current[:] = [_BACKENDS[backend_name]]


set_backend("wave_backend")
