"""How the location-scale distributions (Normal, Uniform) take their two parameters, as Paddle does: ints as
floats; two tensors as they are; numbers, lists and arrays as float32 tensors broadcast together -- float64 when
the first float64 array among them says so."""
import numpy as np

from .. import tensor as _pt
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..static.framework import Variable
from .distribution import check_type

PARAMETER_TYPES = (int, float, np.ndarray, Tensor, Variable, list, tuple)


def two_parameters(dist, a, b, names, api):
    """(a, b, dtype name, whether both were Python floats) for `dist`'s parameters named `names`."""
    if not in_dynamic_mode():
        check_type(a, names[0], PARAMETER_TYPES, api)
        check_type(b, names[1], PARAMETER_TYPES, api)
    a = float(a) if isinstance(a, int) else a
    b = float(b) if isinstance(b, int) else b
    if dist._validate_args(a, b):
        return a, b, a.dtype.name, False
    both_floats = isinstance(a, float) and isinstance(b, float)
    dtype = "float32"
    for arg in (a, b):
        if isinstance(arg, np.ndarray) and arg.dtype in (np.float32, np.float64):
            dtype = str(arg.dtype)
            break
    a, b = dist._to_tensor(a, b)
    if dtype != "float32":
        a, b = _pt.cast(a, dtype), _pt.cast(b, dtype)
    return a, b, dtype, both_floats


def draw_shape(sample_shape, batch):
    """The shape of `sample_shape` draws of a batch shaped like tensor `batch`: a list, or a shape tensor when a
    static dim is unknown (-1)."""
    dims = list(batch.shape)
    if -1 not in dims:
        return list(sample_shape) + dims
    return _pt.concat([_pt.to_tensor(list(sample_shape), dtype="int32"), _pt.shape(batch).astype("int32")]) \
        if sample_shape else _pt.shape(batch)


