"""paddle.compat: Paddle 3.3's PyTorch-spelled APIs over paddlelite's ops (`input`/`dim` arguments, torch's
namedtuple results, torch's split sizes), and the entry points of the torch proxy (import_alias.py): with the proxy
on, these names stand for torch's (`torch.sort` is compat.sort, `torch.nn.Linear` compat.nn.Linear).

A Paddle-spelled keyword (`x=`, `axis=`) raises a TypeError naming the Paddle API meant, as Paddle's does."""
import typing as _typing

from .. import tensor as _t
from ..framework import random as _random
from ..framework.mode import in_dynamic_mode
from ..import_alias import disable_compat as disable_torch_proxy
from ..import_alias import enable_compat as enable_torch_proxy
from ..import_alias import extend_torch_proxy_blocked_modules, use_torch_proxy_guard
from ..tensor.tensor_args import is_tensor_like as _is_tensor_like
from ..utils.decorator_utils import ForbidKeywordsDecorator
from . import nn

__all__ = ["equal", "slogdet", "sort", "split", "min", "max", "unique", "median", "nanmedian", "seed"]


class MedianRetType(_typing.NamedTuple):
    values: object
    indices: object


class MinMaxRetType(_typing.NamedTuple):
    values: object
    indices: object


class SortRetType(_typing.NamedTuple):
    values: object
    indices: object


class SlogdetResult(_typing.NamedTuple):
    sign: object
    logabsdet: object


def _check_out_status(out, expect_multiple=False):
    """`out` (eager only) is a Tensor, or two of them for the APIs that return (values, indices)."""
    if out is None:
        return
    if not in_dynamic_mode():
        raise RuntimeError("Using `out` static graph CINN backend is currently not supported. Directly return the "
                           "tensor tuple instead.\n")
    if expect_multiple:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"Expected a list or tuple of two tensors, got {type(out)} instead.")
        if not (_is_tensor_like(out[0]) and _is_tensor_like(out[1])):
            raise TypeError(f"Expected Tensor type in the tuple/list, got ({type(out[0])}, {type(out[1])}) instead.")
    elif not _is_tensor_like(out):
        raise TypeError(f"Expected a Tensor, got {type(out)} instead.")


def _written(result, out):
    """`result` copied into `out` (a Tensor, or a pair for a (values, indices) result) when given; what to return."""
    if out is None:
        return result
    if isinstance(result, tuple):
        for source, target in zip(result, out):
            _t.assign(source, target)
        return type(result)(*out)
    _t.assign(result, out)
    return out


@ForbidKeywordsDecorator(illegal_keys={"x", "y"}, func_name="paddle.compat.equal", correct_name="paddle.equal")
def equal(input, other):
    """Whether the two tensors have the same shape and elements (a Python bool). Of different dtypes both are
    compared in `other`'s (Paddle's promotion table lookup falls back to it)."""
    if input.dtype != other.dtype:
        input = input.cast(other.dtype)
    return _t.equal_all(input, other).item()


def _median(api, name, input, dim, keepdim, out):
    if dim is None:
        _check_out_status(out, False)
        return _written(api(input, axis=None, keepdim=keepdim, mode="min"), out)
    _check_out_status(out, True)
    values, indices = api(input, axis=dim, keepdim=keepdim, mode="min")
    if name == "nanmedian":  # an all-NaN slice's index is -1 in paddle.nanmedian, 0 in torch's
        indices = _t.maximum(indices, _t.zeros_like(indices))
    return _written(MedianRetType(values, indices), out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.median", correct_name="paddle.median")
def median(input, dim=None, keepdim=False, *, out=None):
    """The lower median of all elements (a Tensor), or along `dim`: (values, indices)."""
    return _median(_t.median, "median", input, dim, keepdim, out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.nanmedian",
                         correct_name="paddle.nanmedian")
def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """median ignoring NaNs."""
    return _median(_t.nanmedian, "nanmedian", input, dim, keepdim, out)


def seed():
    """Seed every generator from fresh entropy; returns the seed (torch.seed)."""
    value = _random.default_cpu_generator().seed()
    _t.seed(value)
    return value


def _min_max_arguments(name, args, kwargs):
    """(dim or other, keepdim) from torch's three forms: (input), (input, other), (input, dim, keepdim=False)."""
    def invalid(prefix=""):
        got = ", ".join([type(v).__name__ for v in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        return TypeError(f"Invalid arguments for `paddle.compat.{name}`:\n{prefix}Got: (paddle.Tensor input, {got}), "
                         f"but expect one of:\n - (input: paddle.Tensor) for reduce_{name} on all dims.\n"
                         f" - (input: paddle.Tensor, other: paddle.Tensor) -> see paddle.{name}imum\n"
                         " - (input: paddle.Tensor, int dim (cannot be None), bool keepdim = False)\n")

    def keyword(key):
        if key not in kwargs:
            raise invalid()
        return kwargs[key]

    dim_or_other, keepdim = None, False
    given = len(args) + len(kwargs)
    if given > 2:
        raise invalid()
    if given == 2:
        if len(args) == 2:
            dim_or_other, keepdim = args
        elif len(args) == 1:
            dim_or_other, keepdim = args[0], keyword("keepdim")
        else:
            dim_or_other, keepdim = keyword("dim"), keyword("keepdim")
        if dim_or_other is None or _is_tensor_like(dim_or_other):
            raise invalid()
    elif given == 1:
        if args:
            dim_or_other = args[0]
        elif "dim" in kwargs:
            dim_or_other = kwargs["dim"]
        elif "other" in kwargs:
            dim_or_other = kwargs["other"]
            if not _is_tensor_like(dim_or_other):
                raise invalid()
        if dim_or_other is None:
            raise invalid()
    if dim_or_other is not None and not _is_tensor_like(dim_or_other) and type(dim_or_other) is not int:
        raise invalid(f"The second input must be int or Tensor or implicit None in compat.{name}, but received "
                      f"{type(dim_or_other)}.\n")
    return dim_or_other, keepdim


def _min_max(name, input, args, kwargs, out):
    if not _is_tensor_like(input):
        raise TypeError(f"input should be a tensor, but got an instance with type '{type(input).__name__}'")
    if input.dtype.name in ("int32", "int64", "uint8", "int16") and not input.stop_gradient:
        raise TypeError(f"Tensors with integral type: '{input.dtype}' should stop gradient.")
    dim_or_other, keepdim = _min_max_arguments(name, args, kwargs)
    if dim_or_other is None:
        _check_out_status(out, False)
        return _written(getattr(_t, name)(input), out)
    if _is_tensor_like(dim_or_other):
        _check_out_status(out, False)
        return _written(getattr(_t, name + "imum")(input, dim_or_other), out)
    _check_out_status(out, True)
    if not input.ndim:
        return _written(MinMaxRetType(input, _t.zeros([], dtype="int64")), out)
    if in_dynamic_mode() and not input.place.is_gpu_place() and input.dtype.name in ("float16", "bfloat16", "int16"):
        raise TypeError(f"Non-CUDA GPU placed Tensor does not have '{input.dtype}' op registered.\n"
                        "Paddle support following DataTypes: int32, int64, float64, float32, uint8")
    indices = getattr(_t, "arg" + name)(input, axis=dim_or_other, keepdim=True)
    values = _t.take_along_axis(input, indices, axis=dim_or_other)
    if not keepdim:
        values, indices = values.squeeze(axis=dim_or_other), indices.squeeze(axis=dim_or_other)
    return _written(MinMaxRetType(values, indices), out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.min", correct_name="paddle.min")
def min(input, *args, out=None, **kwargs):  # noqa: A001  (torch's name)
    """torch.min: of all elements; of `input` and `other` elementwise; or along `dim`: (values, indices)."""
    return _min_max("min", input, args, kwargs, out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.max", correct_name="paddle.max")
def max(input, *args, out=None, **kwargs):  # noqa: A001  (torch's name)
    """torch.max: of all elements; of `input` and `other` elementwise; or along `dim`: (values, indices)."""
    return _min_max("max", input, args, kwargs, out)


def slogdet(x, out=None):
    """(sign, logabsdet) of the determinant of (a batch of) square matrices."""
    both = _t.linalg.slogdet(x)
    return _written(SlogdetResult(both[0], both[1]), out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.sort", correct_name="paddle.sort")
def sort(input, dim=-1, descending=False, stable=False, out=None):
    """(values, indices) of `input` sorted along `dim`."""
    _check_out_status(out, expect_multiple=True)
    indices = _t.argsort(input, axis=dim, descending=descending, stable=stable)
    return _written(SortRetType(_t.take_along_axis(input, indices, axis=dim), indices), out)


@ForbidKeywordsDecorator(illegal_keys={"x", "axis"}, func_name="paddle.compat.unique", correct_name="paddle.unique")
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002  (torch's name)
    """torch.unique: the distinct values, with the inverse mapping and counts when asked."""
    return _t.unique(input, return_inverse=return_inverse, return_counts=return_counts, axis=dim, sorted=sorted)


@ForbidKeywordsDecorator(illegal_keys={"x", "num_or_sections", "axis", "name"}, func_name="paddle.compat.split",
                         correct_name="paddle.split")
def split(tensor, split_size_or_sections, dim=0):
    """torch.split: pieces of `split_size_or_sections` elements along `dim` (the last one smaller when they do not
    divide it), or of the listed sizes."""
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s.item(0)) if _is_tensor_like(s) else s for s in split_size_or_sections]
        for i, size in enumerate(sizes):
            if size < 0:
                raise ValueError(f"paddle.compat.split expects split_sizes have only non-negative entries, but got "
                                 f"size = {size} on dim {i}")
        return tuple(_t.split(tensor, sizes, axis=dim))
    if _is_tensor_like(dim):
        dim = int(dim.item(0))
    rank = len(tensor.shape)
    if not isinstance(split_size_or_sections, int):
        raise TypeError("The type of 'split_size_or_sections' in split must be int, list or tuple in imperative "
                        f"mode, but received {type(split_size_or_sections)}.")
    if split_size_or_sections <= 0:
        raise AssertionError("split_size_or_sections must be greater than 0.")
    if not -rank <= dim < rank:
        raise ValueError(f"(InvalidArgument) The dim is expected to be in range of [-{rank}, {rank}), but got {dim}")
    length = tensor.shape[dim]
    pieces, rest = divmod(length, split_size_or_sections)
    sections = pieces if rest == 0 else [split_size_or_sections] * pieces + [rest]
    return tuple(_t.split(tensor, sections, axis=dim))

