"""Program inputs: static.data and InputSpec."""
import numpy as np

from ..framework import dtype as _dtype
from .framework import Variable, default_main_program, normalize_shape, require_static


def _check_shape(shape, api):
    if not isinstance(shape, (list, tuple)):  # an int too: TypeError, as Paddle's
        raise TypeError(f"{api}: shape must be a list or tuple, received {type(shape).__name__}")
    return list(normalize_shape(shape, api))


def data(name, shape, dtype=None, lod_level=0):
    """A feedable Variable of the global block: None dims become -1; stop_gradient=True."""
    require_static("paddle.static.data")
    if not isinstance(name, str) or not name:
        raise TypeError(f"paddle.static.data: name must be a non-empty str, received {name!r}")
    shape = _check_shape(shape, "paddle.static.data")
    dtype = _dtype.convert_dtype(dtype if dtype is not None else _dtype.get_default_dtype())
    block = default_main_program().global_block()
    old = block.vars.get(name)
    if old is not None:  # Paddle returns the variable again when it matches
        if list(old._shape) != shape or old._dtype != dtype:
            raise ValueError(f"paddle.static.data: variable '{name}' was created before with shape "
                             f"{list(old._shape)} and dtype {old.dtype.name}; the new shape {shape} and dtype "
                             f"{dtype} do not match")
        return old
    return block.create_var(name=name, shape=shape, dtype=dtype, stop_gradient=True, persistable=False,
                            is_data=True)


class InputSpec:
    """Describes a program input: shape (None/-1 for unknown dims), dtype and name."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = tuple(_check_shape(shape, "InputSpec"))
        self.dtype = _dtype.convert_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        if not (hasattr(tensor, "shape") and hasattr(tensor, "dtype")):
            raise TypeError(f"InputSpec.from_tensor: expected a Tensor, received {type(tensor).__name__}")
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size):
        """Prepend a batch dim, in place (as Paddle); returns self."""
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"InputSpec.batch: a list batch_size must have 1 element, received {batch_size}")
            batch_size = batch_size[0]
        if not isinstance(batch_size, (int, np.integer)) or isinstance(batch_size, bool):
            raise TypeError(f"InputSpec.batch: batch_size must be an int, received {type(batch_size).__name__}")
        self.shape = tuple(_check_shape([batch_size, *self.shape], "InputSpec.batch"))
        return self

    def unbatch(self):
        """Drop the leading (batch) dim, in place (as Paddle); returns self."""
        if not self.shape:
            raise ValueError("InputSpec.unbatch: a 0-D spec has no batch dim")
        self.shape = self.shape[1:]
        return self

    def _create_feed_layer(self):
        return data(self.name, list(self.shape), self.dtype)

    def __eq__(self, other):
        return (type(other) is type(self) and self.shape == other.shape and self.dtype == other.dtype
                and self.name == other.name and self.stop_gradient == other.stop_gradient)

    def __hash__(self):
        # not the name, as Paddle: specs of one shape and dtype under two names are one signature to to_static
        return hash((tuple(self.shape), self.dtype.name, self.stop_gradient))

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, stop_gradient={self.stop_gradient})"


__all__ = ["data", "InputSpec", "Variable"]
