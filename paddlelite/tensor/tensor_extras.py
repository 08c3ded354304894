"""Tensor-only methods of Paddle (the module's globals `float`, `int`, `bool`, ... are these methods): dtype conversions (x.float(), x.long(), ...), type_as, new_zeros/new_ones/
new_full/new_empty, element_size, is_same_shape, repeat, split_with_sizes, and concat/stack/slice as methods."""
from ..framework.tensor import Tensor
from . import creation as _creation
from . import manipulation as _manip
from .manipulation import _check_tensor, _int_list, concat, slice, stack  # noqa: F401  (methods, see below)

# method name -> the dtype it casts to
_CONVERSIONS = {
    "float": "float32", "double": "float64", "half": "float16", "int": "int32", "long": "int64", "bool": "bool",
    "byte": "uint8", "char": "int8", "short": "int16", "cfloat": "complex64", "cdouble": "complex128",
    **{name: name for name in ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                               "complex64", "complex128")},
}


def _conversion(name, dtype):
    def convert(self):
        return _manip.cast(self, dtype)
    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"self cast to {dtype}."
    return convert


for _name, _dtype in _CONVERSIONS.items():
    globals()[_name] = _conversion(_name, _dtype)


def type_as(self, other):
    """self cast to other's dtype."""
    _check_tensor(other, "type_as", "other")
    return _manip.cast(self, other.dtype)


def _size(size, api):
    """`x.new_ones(2, 3)` and `x.new_ones([2, 3])` (or size=[2, 3]) alike, as Paddle's."""
    if len(size) == 1 and isinstance(size[0], (list, tuple, Tensor)):
        return size[0]
    if not size:
        raise TypeError(f"Tensor.{api}: missing the size")
    return list(size)


def _new(fill, api):
    def new(var, *size, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
        size = _size(size + ((kw.pop("size"),) if "size" in kw else ()), api)
        if kw:
            raise TypeError(f"Tensor.{api}: unexpected keyword argument(s) {sorted(kw)}")
        out = fill(var, size, var.dtype if dtype is None else dtype)
        out.stop_gradient = not requires_grad
        return out
    new.__name__ = new.__qualname__ = api
    new.__doc__ = f"A new tensor of shape `size`, in var's dtype unless `dtype` ({api})."
    return new


new_zeros = _new(lambda var, size, dtype: _creation.zeros(size, dtype), "new_zeros")
new_ones = _new(lambda var, size, dtype: _creation.ones(size, dtype), "new_ones")
new_empty = _new(lambda var, size, dtype: _creation.empty(size, dtype), "new_empty")


def new_full(var, size, fill_value, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor of shape `size` filled with fill_value, in var's dtype unless `dtype`."""
    out = _creation.full(size, fill_value, var.dtype if dtype is None else dtype)
    out.stop_gradient = not requires_grad
    return out


def element_size(self):
    """Bytes per element."""
    return self.dtype.np.itemsize


def is_same_shape(self, y):
    """Whether self and y have the same shape."""
    _check_tensor(y, "is_same_shape", "y")
    return list(self.shape) == list(y.shape)


def repeat(input, *repeats):
    """input tiled `repeats` times per dim (as x.repeat(2, 1) or x.repeat([2, 1]); leading repeats add dims)."""
    if len(repeats) == 1 and isinstance(repeats[0], (list, tuple, Tensor)):
        repeats = repeats[0]
    return _manip.tile(input, _int_list(list(repeats), "repeat", "repeats"))


itemsize = property(element_size, doc="Bytes per element.")


def tolist(x):
    """x's values as nested Python lists (paddle.tolist; top-level only)."""
    _check_tensor(x, "tolist")
    return x.tolist()


def split_with_sizes(self, split_sizes, dim=0):
    """self split along `dim` into pieces of `split_sizes`."""
    return _manip.split(self, list(split_sizes), dim)


TENSOR_METHODS = [*_CONVERSIONS, "type_as", "new_zeros", "new_ones", "new_empty", "new_full", "element_size", "itemsize",
                  "is_same_shape", "repeat", "split_with_sizes", "concat", "stack", "slice"]
