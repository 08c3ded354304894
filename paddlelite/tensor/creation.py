"""Tensor creation: to_tensor, zeros/ones/full(_like), arange, linspace, eye, random tensors."""
from __future__ import annotations

import functools
import numbers
from typing import TYPE_CHECKING

import numpy as np

from ..device import place as _place
from ..framework import dtype as _dtype
from ..framework import random as _random
from ..framework.mode import generated_tensor_name, in_static_mode
from ..framework.tensor import Tensor, python_data_array, to_array, wrap_array
from ..ops import dispatch
from ..ops.creation import _range_len
from ..ops.registry import get_op
from ..static.appender import as_variable, layer_name_guard, op_helper_name
from ..static.framework import device_guard
from .math import is_tensor_like
from .tensor_args import holds_tensors, placeholders, plain_ints, tensor_argument, tensor_list

if TYPE_CHECKING:
    from .._typing import DTypeLike, NestedNumericSequence, Numeric, PlaceLike, ShapeLike, TensorLike


def _resolve_place(place, api):
    return _place.current_place() if place is None else _place.parse_place(place, api)


def _creation_options(fn):
    """Paddle 3.3's keyword-only options of its creation APIs: `device` (where the tensor is made), `requires_grad`
    (the result's stop_gradient is False), `pin_memory` (page-locked host memory, which paddlelite does not model:
    RuntimeError as Paddle's CPU build raises, or NotImplementedError with CUDA) and `out` (the result is written
    into it and it is returned)."""
    api = fn.__name__

    @functools.wraps(fn)
    def create(*args, out=None, device=None, requires_grad=False, pin_memory=False, **kwargs):
        if pin_memory:
            _place.CUDAPinnedPlace()  # raises, saying why
        if device is None or in_static_mode():  # a static program's tensors live where its executor runs
            result = fn(*args, **kwargs)
        else:
            place = _place.device_to_place(device, api)
            with _place.device_guard(place):
                result = fn(*args, **kwargs)._to_place(place)  # a `_like` result is made where its input is
        if requires_grad:
            result.stop_gradient = False
        return result if out is None else assign(result, out)
    return create


def to_tensor(data: TensorLike | NestedNumericSequence, dtype: DTypeLike | None = None,
              place: PlaceLike | None = None, stop_gradient: bool = True) -> Tensor:
    """A new leaf tensor holding a copy of `data` (list, scalar, numpy/cupy array or Tensor). In static mode, as
    Paddle's: the data as a constant of the program (or a Variable itself), cast to `dtype` where that differs."""
    if not isinstance(stop_gradient, bool):
        raise TypeError(f"to_tensor: stop_gradient must be a bool, received {type(stop_gradient).__name__}")
    if in_static_mode():
        return _to_tensor_static(data, dtype, stop_gradient)
    p = _resolve_place(place, "to_tensor")
    if isinstance(data, Tensor) and dtype is None:
        dtype = data._data.dtype
    t = wrap_array(to_array(data, dtype, p, "to_tensor"), p, stop_gradient)
    t._name = generated_tensor_name()
    return t


def _to_tensor_static(data, dtype, stop_gradient):
    """Paddle's static to_tensor: an assign_value of the data (Python floats in the default dtype, ints int64,
    arrays keep theirs) or the Variable given, then a cast where `dtype` differs; built on the CPU."""
    if dtype is None and isinstance(data, (int, float, list, tuple)):
        python_data_array(data, "to_tensor")  # refuses integers outside int64 as eager mode does
    with device_guard("cpu"):
        out = data if getattr(data, "_is_variable", False) else assign(data.numpy() if isinstance(data, Tensor) else data)
        if dtype is not None:
            dtype = _dtype.convert_dtype(dtype, "to_tensor")
            if dtype != out.dtype:
                out = dispatch.apply(get_op("cast"), out, dtype=dtype.name)
    out.stop_gradient = stop_gradient
    return out


def _shape_list(shape, api):
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{api}: shape must be a list/tuple of ints, received {type(shape).__name__}")
    out = []
    for i, d in enumerate(shape):
        d = int(d.item()) if isinstance(d, Tensor) else d
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise ValueError(f"{api}: shape entries must be non-negative ints, received {list(shape)}")
        if d < 0:  # Paddle's words
            raise ValueError(f"{api}: each value of shape is expected to be no less than 0, but received shape[{i}] "
                             f"= {d}; shape = {list(shape)}")
        out.append(int(d))
    return out


def _float_dtype(dtype, api=None):
    return _dtype.default_float().np if dtype is None else _dtype.convert_dtype(dtype, api).np


FILL_CONSTANT = None


@_creation_options
def full(shape: ShapeLike, fill_value: Numeric | str, dtype: DTypeLike | None = None, name: str | None = None,
         place: PlaceLike | None = None) -> Tensor:
    return _full(shape, fill_value, dtype, place, "full")


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    """full(shape, value, dtype); with `out`, the values are written into it (Paddle's legacy creator)."""
    result = _full(shape, value, dtype, None, "fill_constant", force_cpu=bool(force_cpu))
    return result if out is None else assign(result, out)


def _full(shape, fill_value, dtype, place, api, **force_cpu):
    """full(), with `api` (full / zeros / ones) named in errors."""
    if plain_ints(shape) is None and (is_tensor_like(shape) or holds_tensors(shape)) or is_tensor_like(fill_value):
        return _full_from_tensors(shape, fill_value, dtype, place, api, force_cpu)
    if isinstance(fill_value, str):  # Paddle takes numeric strings
        try:
            fill_value = float(fill_value)
        except ValueError:
            raise ValueError(f"{api}: fill_value {fill_value!r} is not a number") from None
    elif not isinstance(fill_value, (numbers.Number, np.number, np.bool_)):
        raise TypeError(f"{api}: fill_value must be a number, a numeric string or a Tensor, received "
                        f"{type(fill_value).__name__}")
    if dtype is None:
        dtype = np.bool_ if isinstance(fill_value, bool) else (
            np.int64 if isinstance(fill_value, numbers.Integral) else _dtype.default_float().np)
    return dispatch.apply(get_op("fill_constant"), shape=_shape_list(shape, api),
                          value=fill_value, dtype=_dtype.convert_dtype(dtype, api).name,
                          place=None if place is None else str(_resolve_place(place, api)), **force_cpu)


def _full_from_tensors(shape, fill_value, dtype, place, api, force_cpu):
    """full() with its shape or value given by tensors, which the fill_constant op reads when it runs: Paddle's
    shape tensors are int32 (int64 ones cast), a list's ints 0-D constants on the CPU; a value tensor is cast to
    the dtype (float32 by default)."""
    from .manipulation import cast
    dtype = _dtype.convert_dtype("float32" if dtype is None else dtype, api).name
    value_t = None
    if is_tensor_like(fill_value):
        value_t = tensor_argument(fill_value, api, "fill_value", kinds="biuf")
        value_t = value_t if value_t.dtype.name == dtype else cast(value_t, dtype)
        fill_value = None
    helper = op_helper_name("fill_constant")
    shape_t, shape_list, shape = _shape_argument(shape, api)
    with layer_name_guard(helper):
        return dispatch.apply(get_op("fill_constant"), shape_t, shape_list, value_t, shape=shape, value=fill_value,
                              dtype=dtype, place=None if place is None else str(_resolve_place(place, api)),
                              **force_cpu)


def _shape_argument(shape, api):
    """(ShapeTensor, ShapeTensorList, shape attr) of a creation API's shape, as Paddle's static helper passes them:
    a Tensor cast to int32; a list's Tensors cast to int32 and its ints 0-D int32 constants on the CPU (the attr -1
    there); plain ints as the attr."""
    from .manipulation import cast
    if is_tensor_like(shape):
        shape_t = tensor_argument(shape, api, "shape")
        return (shape_t if shape_t.dtype.name == "int32" else cast(shape_t, "int32")), None, []
    if holds_tensors(shape):
        return None, tensor_list(shape, api, "shape", shape=(), cast=True), placeholders(shape)
    return None, None, _shape_list(shape, api)


@_creation_options
def zeros(shape: ShapeLike, dtype: DTypeLike | None = None, name: str | None = None,
          place: PlaceLike | None = None) -> Tensor:
    return _full(shape, 0.0 if dtype is None or _dtype.convert_dtype(dtype, "zeros").is_floating_point else 0,
                 _float_dtype(dtype) if dtype is None else dtype, place, "zeros")


@_creation_options
def ones(shape: ShapeLike, dtype: DTypeLike | None = None, name: str | None = None,
         place: PlaceLike | None = None) -> Tensor:
    return _full(shape, 1.0 if dtype is None or _dtype.convert_dtype(dtype, "ones").is_floating_point else 1,
                 _float_dtype(dtype) if dtype is None else dtype, place, "ones")


@_creation_options
def full_like(x: Tensor, fill_value: Numeric | str, dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    dtype = x.dtype if dtype is None else _dtype.convert_dtype(dtype, "full_like")  # explicit, as Paddle's API
    return dispatch.apply(get_op("fill_any_like"), x, value=fill_value, dtype=dtype.name)


@_creation_options
def zeros_like(x: Tensor, dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    return full_like(x, 0, dtype)


@_creation_options
def ones_like(x: Tensor, dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    return full_like(x, 1, dtype)


@_creation_options
def empty(shape: ShapeLike, dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    return zeros(shape, dtype)


@_creation_options
def empty_like(x: Tensor, dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    return zeros_like(x, dtype)


@_creation_options
def arange(start: float | Tensor = 0, end: float | Tensor | None = None, step: float | Tensor = 1,
           dtype: DTypeLike | None = None, name: str | None = None) -> Tensor:
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    variables = [getattr(v, "_is_variable", False) for v in vals]  # static bounds computed by the program
    if dtype is None:
        integral = all(v.dtype.np.kind in "iu" if var else isinstance(v, numbers.Integral)
                       for v, var in zip(vals, variables))
        dtype = "int64" if integral else _dtype.default_float().name
    if not variables[2] and vals[2] == 0:
        raise ValueError("arange: step must not be 0")
    dtype = _dtype.convert_dtype(dtype, "arange").name
    if in_static_mode():
        return _static_arange(vals, variables, dtype)
    return dispatch.apply(get_op("range"), None, None, None, start=vals[0], end=vals[1], step=vals[2], dtype=dtype)


def _static_arange(bounds, variables, dtype):
    """arange in a static program as Paddle's legacy IR builds it: fill_constant ops kept on the CPU hold the
    constant bounds, a range op reads them; the output has the length constant bounds give."""
    from .manipulation import cast
    tensors = []
    for v, var in zip(bounds, variables):
        if var:
            tensors.append(v if v.dtype.name == dtype else cast(v, dtype))
        else:
            with device_guard("cpu"):
                tensors.append(fill_constant([1], dtype, v, force_cpu=True))
    out = dispatch.apply(get_op("range"), *tensors, start=None, end=None, step=None, dtype=dtype)
    if not any(variables):
        out._shape = (_range_len(*bounds),)  # as Paddle's arange sets it (out.desc.set_shape)
    return out


@_creation_options
def linspace(start: float | Tensor, stop: float | Tensor, num: int | Tensor, dtype: DTypeLike | None = None,
             name: str | None = None) -> Tensor:
    if not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"linspace: num must be a non-negative int, received {num!r}")
    return dispatch.apply(get_op("linspace"), start=float(start), stop=float(stop), num=int(num),
                          dtype=_dtype.convert_dtype(dtype or _dtype.default_float(), "linspace").name)


@_creation_options
def eye(num_rows: int, num_columns: int | None = None, dtype: DTypeLike | None = None,
        name: str | None = None) -> Tensor:
    return dispatch.apply(get_op("eye"), num_rows=int(num_rows),
                          num_columns=int(num_rows if num_columns is None else num_columns),
                          dtype=_dtype.convert_dtype(dtype or _dtype.default_float(), "eye").name)


def seed(value):
    """Seed every generator; returns the CPU's generator (a Generator: manual_seed, get_state, set_state, ...)."""
    _random.seed(value)
    return _random.default_cpu_generator()


def uniform(shape, dtype=None, min=0.0, max=1.0, seed=0, name=None):
    """Samples of U(min, max) (Paddle 3.3's default range [0, 1)); `shape` a list of ints, a 1-D int Tensor or a
    list holding Tensors."""
    shape_t, shape_list, shape = _shape_argument(shape, "uniform")
    return dispatch.apply(get_op("uniform_random"), shape_t, shape_list, shape=shape,
                          dtype=_dtype.convert_dtype(_float_dtype(dtype, "uniform")).name, min=float(min),
                          max=float(max), seed=int(seed))


@_creation_options
def rand(shape, dtype=None, name=None):
    return uniform(shape, dtype, 0.0, 1.0)


def normal(mean=0.0, std=1.0, shape=None, name=None):
    return dispatch.apply(get_op("gaussian_random"), shape=_shape_list([1] if shape is None else shape, "normal"),
                          dtype=_dtype.default_float().name, mean=float(mean), std=float(std), seed=0)


def gaussian(shape, mean=0.0, std=1.0, seed=0, dtype=None, name=None):
    """Samples of N(mean, std^2) (a nonzero `seed` makes this call reproducible)."""
    shape_t, shape_list, shape = _shape_argument(shape, "gaussian")
    return dispatch.apply(get_op("gaussian_random"), shape_t, shape_list, shape=shape,
                          dtype=_dtype.convert_dtype(_float_dtype(dtype, "gaussian")).name, mean=float(mean),
                          std=float(std), seed=int(seed))


@_creation_options
def randn(shape, dtype=None, name=None):
    return gaussian(shape, dtype=dtype)


standard_normal = randn


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    return dispatch.apply(get_op("randint"), shape=_shape_list(shape, "randint"), low=int(low), high=int(high),
                          dtype=_dtype.convert_dtype(dtype or "int64", "randint").name, seed=0)


def randperm(n, dtype="int64", name=None):
    return dispatch.apply(get_op("randperm"), n=int(n), dtype=_dtype.convert_dtype(dtype, "randperm").name, seed=0)


def assign(x, output=None):
    """A copy of `x` (Tensor/Variable, array, list or number); with `output`, the copy is written into it.

    Gradients flow back to `x`. In static mode a constant becomes an `assign_value` op and `output`
    receives an `assign` op writing to it (Paddle's way of updating an existing variable).
    """
    if not (isinstance(x, Tensor) or getattr(x, "_is_variable", False)):
        if in_static_mode():
            a = np.asarray(x)
            a = a.astype(_dtype.default_float().np) if a.dtype == np.float64 and not isinstance(x, np.ndarray) else a
            x = dispatch.apply(get_op("assign_value"), shape=list(a.shape), dtype=_dtype.convert_dtype(a.dtype).name,
                               values=a.ravel().tolist())
        else:
            x = to_tensor(x)
        if output is None:
            return x  # already a fresh copy
    elif output is None:
        return dispatch.apply(get_op("assign"), x)
    if in_static_mode():
        output = as_variable(output)  # a BatchNorm buffer: an eager Tensor paddle.jit traces, a cloned program's copy
        # into the block being built (a cond branch's, a loop body's), as Paddle's LayerHelper appends
        output.block.program.current_block().append_op("assign", inputs={"X": [x]}, outputs={"Out": [output]})
        return output
    out = dispatch.apply(get_op("assign"), x)
    if out._data.shape == output._data.shape and out._data.dtype == output._data.dtype:
        output._write(out._data)  # into output's storage: its views see the values
    else:
        output._data = out._data
        output._bump_version()
    if out._node is not None:  # x's graph reaches output; an untracked copy (constant, no_grad) leaves it as it was
        output._node, output._out_index = out._node, out._out_index
    output.stop_gradient = output.stop_gradient and out.stop_gradient
    return output


def clone(x, name=None):
    return dispatch.apply(get_op("assign"), x)


TENSOR_METHODS = ["clone"]


__all__ = ["arange", "assign", "clone", "empty", "empty_like", "eye", "fill_constant", "full", "full_like",
           "linspace",
           "normal", "ones", "ones_like", "rand", "randint", "randn", "randperm", "seed", "standard_normal",
           "to_tensor", "uniform", "zeros", "zeros_like"]
