"""Paddle's dtype objects, backed by NumPy dtypes (CuPy uses the same ones)."""
import numpy as np


class DType:
    """A Paddle dtype: compares equal to its name ('float32'), to the NumPy dtype and to itself."""

    __slots__ = ("name", "np")

    def __init__(self, name):
        self.name = name
        self.np = np.dtype(name)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.np == other.np
        try:
            return self.np == convert_dtype(other).np
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.np)

    def __repr__(self):
        return "paddle." + self.name

    __str__ = __repr__

    @property
    def is_floating_point(self):
        return self.np.kind == "f"

    @property
    def itemsize(self):
        return self.np.itemsize


_NAMES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128")
DTYPES = {name: DType(name) for name in _NAMES}
_BY_NP = {d.np: d for d in DTYPES.values()}
_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "int": "int64", "long": "int64",
            "bool_": "bool"}


def convert_dtype(dtype, api=None):
    """Accepts a DType, a name ('float32', 'paddle.float32'), a NumPy dtype or scalar type; `api` (the
    calling API) prefixes the error."""
    where = f"{api}: dtype" if api else "dtype"
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        name = dtype[len("paddle."):] if dtype.startswith("paddle.") else dtype
        name = _ALIASES.get(name, name)
        if name in DTYPES:
            return DTYPES[name]
        raise TypeError(f"{where}: expected one of {sorted(DTYPES)}, received '{dtype}'")
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{where}: expected a dtype name, paddle dtype or numpy dtype, received {dtype!r}") from None
    if npd not in _BY_NP:
        raise TypeError(f"{where}: {npd} is not supported; expected one of {sorted(DTYPES)}")
    return _BY_NP[npd]


def from_numpy(npdtype):
    """The DType of a NumPy dtype (fast path for array results)."""
    return _BY_NP[npdtype]


def default_float():
    return _default[0]


_default = [DTYPES["float32"]]


def set_default_dtype(d):
    d = convert_dtype(d)
    if not d.is_floating_point:
        raise TypeError(f"set_default_dtype: expected a floating dtype, received {d.name}")
    _default[0] = d


def get_default_dtype():
    return _default[0].name
