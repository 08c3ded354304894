"""Type aliases of the public signatures, as Paddle's `paddle._typing` names them (ShapeLike, DTypeLike, ...).

For type checkers only: the modules that use them import them under `if TYPE_CHECKING:` with
`from __future__ import annotations`, so nothing here runs when paddlelite is imported.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from typing import TypeAlias

    from .device.place import Place
    from .framework.dtype import DType
    from .framework.tensor import Tensor

_T = TypeVar("_T")

ShapeLike: TypeAlias = Union[Sequence[Union[int, "Tensor", None]], "Tensor"]
DTypeLike: TypeAlias = Union["DType", np.dtype, type, Literal[
    "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
    "complex128", "bool"]]
PlaceLike: TypeAlias = Union["Place", str]  # a Place, or "cpu", "gpu", "gpu:1"
Numeric: TypeAlias = Union[int, float, bool, complex, np.number, "Tensor"]
TensorLike: TypeAlias = Union[npt.NDArray[Any], "Tensor", Numeric]
NestedSequence: TypeAlias = Union[_T, Sequence["NestedSequence[_T]"]]
NestedNumericSequence: TypeAlias = NestedSequence[Numeric]
TensorOrTensors: TypeAlias = Union["Tensor", Sequence["Tensor"]]
