"""Paddle's dtype objects, backed by NumPy dtypes (CuPy uses the same ones).

bfloat16 and the float8 types come from ml_dtypes: NumPy dtypes whose `kind` is 'V', so code asks
`kind(dtype)` (here) instead of `dtype.kind` where a low-precision float must count as a float.
"""
import ml_dtypes
import numpy as np

from .framework_proto import DTYPE_NUMBERS

# Paddle's dtypes that NumPy lacks, by name
_ML_DTYPES = {name: np.dtype(getattr(ml_dtypes, name)) for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2")}
# float16/bfloat16 (and float8) compute through float32, as Paddle's CPU kernels accumulate
LOW_PRECISION = frozenset([np.dtype(np.float16), *_ML_DTYPES.values()])


def kind(npdtype):
    """NumPy's kind letter of a dtype ('f' float, 'c' complex, 'i'/'u' int, 'b' bool), with the ml_dtypes
    floats (bfloat16, float8) as 'f'."""
    return "f" if npdtype in LOW_PRECISION else npdtype.kind


def compute_dtype(npdtype):
    """The dtype an accumulating kernel (sum, matmul) computes a `npdtype` tensor in: float32 for the
    16/8-bit floats, the dtype itself otherwise."""
    return _F32 if npdtype in LOW_PRECISION else npdtype


_F32 = np.dtype(np.float32)
BFLOAT16 = _ML_DTYPES["bfloat16"]
FLOAT8_E4M3FN = _ML_DTYPES["float8_e4m3fn"]
FLOAT8_MAX = {d: float(ml_dtypes.finfo(d).max) for d in (FLOAT8_E4M3FN, _ML_DTYPES["float8_e5m2"])}  # casts saturate


class DType:
    """A Paddle dtype: compares equal to its name ('float32'), to the NumPy dtype, to itself and (as Paddle's
    VarType does) to its VarType number, which legacy op descs hold (`op.attr('in_dtype') == paddle.float32`)."""

    __slots__ = ("name", "np")

    def __init__(self, name):
        self.name = name
        self.np = _ML_DTYPES[name] if name in _ML_DTYPES else np.dtype(name)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.np == other.np
        if isinstance(other, int) and not isinstance(other, bool):
            return DTYPE_NUMBERS.get(self.name) == other
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
        return kind(self.np) == "f"

    @property
    def is_complex(self):
        return self.np.kind == "c"

    @property
    def itemsize(self):
        return self.np.itemsize


_NAMES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128", "float8_e4m3fn", "float8_e5m2")
DTYPES = {name: DType(name) for name in _NAMES}
_BY_NP = {d.np: d for d in DTYPES.values()}
_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "int": "int64", "long": "int64",
            "bool_": "bool",
            "uint16": "bfloat16"}  # Paddle's legacy IR stores bfloat16 as uint16: dtype='uint16' makes bfloat16


class UnsupportedDType(DType):
    """A dtype Paddle names but no tensor holds (paddle.uint16/uint32/uint64, the string and raw types: Paddle 3.3.1's
    to_tensor rejects them too): usable as a name, TypeError where a tensor would get it. (The string
    'uint16' and NumPy's uint16 are the legacy IR's bfloat16 storage: as a dtype they make bfloat16.)"""

    __slots__ = ()

    def __init__(self, name):
        self.name, self.np = name, None

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash(self.name)


UNSUPPORTED = {name: UnsupportedDType(name) for name in ("uint16", "uint32", "uint64", "pstring", "raw")}


def convert_dtype(dtype, api=None):
    """Accepts a DType, a name ('float32', 'paddle.float32'), a NumPy dtype or scalar type; `api` (the
    calling API) prefixes the error."""
    where = f"{api}: dtype" if api else "dtype"
    if isinstance(dtype, UnsupportedDType):
        raise TypeError(f"{where}: {dtype!r} is a Paddle dtype no tensor can hold; expected one of {sorted(DTYPES)}")
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
    if npd == np.uint16:
        return DTYPES["bfloat16"]
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
