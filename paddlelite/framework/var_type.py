"""Paddle's VarDesc.VarType: the dtype members (FP32, INT64, ...) and the kinds of variable (DENSE_TENSOR,
SELECTED_ROWS, DENSE_TENSOR_ARRAY, ...).

In Paddle both are one C++ enum; here a dtype member is the paddle dtype itself (`VarType.FP32 is paddle.float32`,
so comparisons with a tensor's dtype hold either way) and a kind is a `VarKind`, a str enum: it equals its name
(`Variable.type == 'DENSE_TENSOR'`), prints as Paddle's (`VarType.DENSE_TENSOR`) and `int()` gives Paddle's number.
"""
import enum

from .dtype import DTYPES, UNSUPPORTED
from .framework_proto import KIND_NUMBERS as _KIND_NUMBERS  # Paddle's numbers of the kinds


class VarKind(str, enum.Enum):
    """A kind of variable. `format(kind)` is its bare name (as program text shows it), `str(kind)` Paddle's
    `VarType.<name>`."""

    DENSE_TENSOR = "DENSE_TENSOR"
    LOD_TENSOR = "DENSE_TENSOR"  # Paddle 3's old name of the same member
    SELECTED_ROWS = "SELECTED_ROWS"
    FEED_MINIBATCH = "FEED_MINIBATCH"
    FETCH_LIST = "FETCH_LIST"
    STEP_SCOPES = "STEP_SCOPES"
    LOD_RANK_TABLE = "LOD_RANK_TABLE"
    DENSE_TENSOR_ARRAY = "DENSE_TENSOR_ARRAY"
    LOD_TENSOR_ARRAY = "DENSE_TENSOR_ARRAY"
    PLACE_LIST = "PLACE_LIST"
    READER = "READER"
    RAW = "RAW"
    VOCAB = "VOCAB"
    STRINGS = "STRINGS"
    SPARSE_COO = "SPARSE_COO"

    def __str__(self):
        return f"VarType.{self.name}"

    def __repr__(self):
        return f"<VarType.{self.name}: {int(self)}>"

    def __format__(self, spec):
        return format(self.value, spec)

    def __int__(self):
        return _KIND_NUMBERS[self.value]

    __index__ = __int__

    def __hash__(self):
        return hash(self.value)


def var_kind(kind, api="Variable"):
    """A VarKind from a VarKind or its name."""
    try:
        return VarKind(kind if isinstance(kind, str) else getattr(kind, "value", kind))
    except ValueError:
        raise ValueError(f"{api}: type must be one of {sorted({k.value for k in VarKind})}, received {kind!r}") from None


class VarType:
    """Paddle's core.VarDesc.VarType: its dtype members are paddle's dtypes, its kinds VarKind members."""

    BOOL, INT8, UINT8, INT16, INT32, INT64 = (DTYPES[n] for n in ("bool", "int8", "uint8", "int16", "int32", "int64"))
    FP16, BF16, FP32, FP64 = (DTYPES[n] for n in ("float16", "bfloat16", "float32", "float64"))
    COMPLEX64, COMPLEX128 = DTYPES["complex64"], DTYPES["complex128"]
    FP8_E4M3FN, FP8_E5M2 = DTYPES["float8_e4m3fn"], DTYPES["float8_e5m2"]
    UINT16, UINT32, UINT64 = UNSUPPORTED["uint16"], UNSUPPORTED["uint32"], UNSUPPORTED["uint64"]
    STRING = UNSUPPORTED["pstring"]


class DataType:
    """Paddle's core.DataType (phi's enum, the dtypes of Paddle 3's tensors): its members are paddle's dtypes."""

    BOOL, INT8, UINT8, INT16, INT32, INT64 = VarType.BOOL, VarType.INT8, VarType.UINT8, VarType.INT16, \
        VarType.INT32, VarType.INT64
    FLOAT16, BFLOAT16, FLOAT32, FLOAT64 = VarType.FP16, VarType.BF16, VarType.FP32, VarType.FP64
    COMPLEX64, COMPLEX128 = VarType.COMPLEX64, VarType.COMPLEX128
    FLOAT8_E4M3FN, FLOAT8_E5M2 = VarType.FP8_E4M3FN, VarType.FP8_E5M2
    UINT16, UINT32, UINT64, PSTRING = VarType.UINT16, VarType.UINT32, VarType.UINT64, VarType.STRING


for _kind in VarKind.__members__:
    setattr(VarType, _kind, VarKind[_kind])


class VarDesc:
    """The namespace Paddle code reaches VarType through (`core.VarDesc.VarType.FP32`)."""

    VarType = VarType
