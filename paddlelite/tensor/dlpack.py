"""DLPack exchange (paddle.to_dlpack / paddle.from_dlpack, paddle.utils.dlpack): zero-copy sharing with NumPy,
CuPy, PyTorch, JAX, ... through the arrays' own __dlpack__ protocol."""
import numpy as np

from ..device import cuda
from ..device.place import place_of_array
from ..framework.tensor import Tensor, wrap_array


def to_dlpack(x):
    """A DLPack capsule viewing x's memory (no copy)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"to_dlpack: x must be a Tensor, received {type(x).__name__}")
    return x._data.__dlpack__()


class _Capsule:
    """A bare DLPack capsule given the protocol NumPy's from_dlpack expects (a CPU capsule)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


class _WritableView:
    """Exposes a read-only array's memory as writable (`__array_interface__`), keeping the array alive."""

    def __init__(self, array):
        self._array = array
        self.__array_interface__ = dict(array.__array_interface__, data=(array.__array_interface__["data"][0], False))


def _writable(array):
    """NumPy marks an array read from a legacy (unversioned) capsule read-only, the capsule having no flag to say
    otherwise; Paddle's from_dlpack shares the memory both ways (a write through it reaches the exporter)."""
    return array if array.flags.writeable else np.asarray(_WritableView(array))


def from_dlpack(dlpack):
    """A Tensor sharing the memory of `dlpack`: an object with __dlpack__ (a NumPy/CuPy array, a torch tensor,
    ...) or a capsule from to_dlpack."""
    if hasattr(dlpack, "__dlpack__"):
        on_gpu = hasattr(dlpack, "__dlpack_device__") and dlpack.__dlpack_device__()[0] not in (1, 3)
        data = cuda.cupy().from_dlpack(dlpack) if on_gpu else np.from_dlpack(dlpack)
    elif type(dlpack).__name__ == "PyCapsule":
        try:
            data = _writable(np.from_dlpack(_Capsule(dlpack)))
        except (BufferError, RuntimeError, TypeError):  # not CPU memory: a CUDA capsule
            data = cuda.cupy().from_dlpack(dlpack)
    else:
        raise TypeError(f"from_dlpack: expected a DLPack capsule or an object with __dlpack__, received "
                        f"{type(dlpack).__name__}")
    return wrap_array(data, place_of_array(data), True)


__all__ = ["from_dlpack", "to_dlpack"]
