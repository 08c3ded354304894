"""The data of a parameter created inside paddle.LazyGuard, until its initialize(): a shape and a dtype, no memory.

It stands where a tensor's NumPy/CuPy array would, so the tensor's shape, dtype and place read as usual; any use
of its values -- an op's forward, NumPy's conversion, an attribute of an array -- raises Paddle's RuntimeError, as
Paddle's parameter without memory does. Writing the whole tensor (set_value) allocates it.
"""
import numpy as np


class Unallocated:
    __slots__ = ("shape", "dtype", "place", "name")

    def __init__(self, shape, dtype, place, name):
        self.shape, self.dtype, self.place, self.name = tuple(int(d) for d in shape), np.dtype(dtype), place, name

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def _refuse(self, *args, **kwargs):
        raise RuntimeError(f"Tensor '{self.name}' (shape {list(self.shape)}, {self.dtype}) holds no values: it was "
                           "created inside paddle.LazyGuard; call its initialize() (or set_value) first")

    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __setitem__ = __iter__ = __len__ = _refuse
    __float__ = __int__ = __bool__ = __index__ = _refuse

    def __getattr__(self, name):  # every other array attribute (astype, reshape, T, ...)
        self._refuse()


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift",
              "rshift"):
    setattr(Unallocated, f"__{_name}__", Unallocated._refuse)
    setattr(Unallocated, f"__r{_name}__", Unallocated._refuse)
for _name in ("neg", "pos", "abs", "invert", "lt", "le", "gt", "ge"):
    setattr(Unallocated, f"__{_name}__", Unallocated._refuse)
