"""The eager Tensor: an array (NumPy or CuPy) with a place, autograd state and a version counter.

Math methods and operators are attached by `paddlelite.tensor.methods`, shared with static Variables.
Storage and views (Paddle's stride mechanism): `_data` is an ndarray that may be a view of a buffer other
tensors view too (its shape/strides/offset are the array's own). View ops (reshape, transpose, slicing,
detach, ...) return tensors whose arrays are NumPy/CuPy views of the input's and which share its version
counter `_vbox`; in-place ops write into `_data` (never rebind it), so every alias sees the new values and
the one shared counter tells a backward that a tensor it saved has changed.
"""
from __future__ import annotations

import itertools
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from ..device import deferred_checks
from ..device import place as _place_mod
from ..utils import unique_name
from . import dtype as _dtype
from .mode import generated_tensor_name
from .printing import PaddleNamedType, tensor_to_string
from .size import Size
from .sparse import is_sparse
from .unallocated import Unallocated

_tmp_ids = itertools.count()  # Paddle names op results eager_tmp_N (ours: when first asked for), all tracers on one count


_shared_zeros = {}  # (shape, dtype) -> read-only zeros shared by cleared NumPy gradients


def _cleared_zeros(array, place):
    """The zeros a cleared gradient of `array`'s shape and dtype (on `place`) holds. On NumPy a read-only view that takes no
    memory, shared by the cleared gradients of that shape and dtype (broadcast_to is slow, and clear_grad runs
    for every parameter in every step); a write into it first gives the tensor storage of its own
    (Tensor._write). CuPy has no read-only arrays, so there each gradient gets zeros of its own."""
    if array.__class__ is not np.ndarray:
        return place.xp.zeros(array.shape, array.dtype)
    key = (array.shape, array.dtype)
    zeros = _shared_zeros.get(key)
    if zeros is None:
        zeros = _shared_zeros[key] = np.broadcast_to(np.zeros((), array.dtype), array.shape)
    return zeros


def _holds_shared_zeros(array):
    """Whether `array` is the shared read-only zeros of a cleared gradient (NumPy only)."""
    return array.__class__ is np.ndarray and not array.flags.writeable



_TO_DTYPE_NAMES = {"bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64",
                   "complex128", "bool"}


def _to_arguments(tensor, args, kwargs):
    """(device, dtype) of a Tensor.to call, parsed as Paddle parses them (the first positional argument is a tensor,
    a dtype, or else a device); `blocking`/`non_blocking`/`copy` are accepted (copies here are synchronous)."""
    kwargs = dict(kwargs)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    if not 0 < len(args) + len(kwargs) <= 3:
        raise TypeError(f"Tensor.to: expected (dtype, blocking), (device, dtype, blocking) or (other, blocking), "
                        f"received {len(args) + len(kwargs)} arguments")
    unknown = set(kwargs) - {"device", "dtype", "blocking", "other"}
    if unknown:
        raise TypeError(f"Tensor.to() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    if not args:
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        other = kwargs.get("other")
        if device is None and dtype is None and other is not None:
            return other.place, other.dtype
        return device, dtype
    first = args[0]
    if isinstance(first, Tensor):
        return first.place, first.dtype
    if isinstance(first, (_dtype.DType, np.dtype)) or (isinstance(first, str) and first.lower() in _TO_DTYPE_NAMES):
        return None, first
    return first, (args[1] if len(args) > 1 else kwargs.get("dtype"))


class Tensor(metaclass=PaddleNamedType):
    _paddle_name = "paddle.Tensor"
    # Class-level defaults keep construction cheap: an instance only stores what differs.
    _node = None          # the grad node that produced this tensor (None for leaves)
    _out_index = 0        # which output of that node
    _grad = None          # accumulated gradient (leaves, or non-leaves after retain_grads)
    _grad_is_zeros = False  # after clear_grad(): .grad reads as zeros; the next backward replaces it
    _hooks = None         # {handle_id: fn} gradient hooks
    _vbox = None          # [version] shared by all tensors viewing one storage; None: version 0, no alias yet
    _name = None
    persistable = False
    trainable = False
    stop_gradient = True  # every instance sets its own; here so Tensor.stop_gradient exists, as in Paddle

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True, name=None):
        if data is None:
            data = np.zeros((0,), dtype=_dtype.default_float().np)
        place = _place_mod.current_place() if place is None else _place_mod.parse_place(place, "Tensor")
        self._data = to_array(data, dtype, place, "Tensor")
        self._place = place
        self.stop_gradient = bool(stop_gradient)
        self._name = generated_tensor_name() if name is None else name

    # ---- metadata -------------------------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    @property
    def name(self):
        if self._name is None:
            self._name = f"eager_tmp_{next(_tmp_ids)}"
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def dtype(self):
        return _dtype.from_numpy(self._data.dtype)

    @property
    def place(self):
        return self._place

    @property
    def ndim(self):
        return self._data.ndim

    dim = ndimension = lambda self: self._data.ndim

    @property
    def size(self):
        return int(self._data.size)

    def numel(self):
        return int(self._data.size)

    @property
    def is_leaf(self):
        return self._node is None

    @property
    def inplace_version(self):
        return 0 if self._vbox is None else self._vbox[0]

    def _bump_version(self):
        (self._vbox or new_version_counter(self))[0] += 1

    def _write(self, array):
        """Write `array` (same shape and dtype) into this tensor's storage: every view of it sees the values."""
        data = self._data
        if _holds_shared_zeros(data):  # a cleared gradient: storage of its own first
            data = self._data = np.empty(data.shape, data.dtype)
        elif data.__class__ is Unallocated:  # a lazily created parameter's first values
            data = self._data = self._place.xp.empty(data.shape, data.dtype)
        data[...] = array
        self._bump_version()

    def _take(self, array):
        """Make `array` (a fresh result that nothing else holds, same shape and dtype) this tensor's values,
        with `_write`'s effect. When the current storage owns its memory and nothing but this tensor refers to
        it (no view, alias or captured step can see it), taking the new array is indistinguishable from writing
        into the old one and saves the copy: what an optimizer update of a parameter costs most. On the CPU
        only: a CUDA graph replaying a step reads a parameter at a fixed device address."""
        data = self._data
        if array is data:  # written in place already (ops.launch.optimizer.updating_in_place)
            self._bump_version()
            return
        # references to `data`: this tensor, the local name and getrefcount's argument
        if data.__class__ is np.ndarray and data.base is None and sys.getrefcount(data) <= 3 \
                and array.dtype is data.dtype and array.shape == data.shape and array.flags.c_contiguous:
            self._data = array
            self._bump_version()
        else:
            self._write(array)

    # ---- storage layout (Paddle's Tensor.strides / offset / is_contiguous) ------------------------
    @property
    def strides(self):
        """Element strides of this view onto its storage."""
        size = self._data.itemsize
        return [s // size for s in self._data.strides]

    get_strides = lambda self: self.strides

    @property
    def offset(self):
        """Byte offset of this view's first element from the start of its storage."""
        return storage_of(self._data)[1]

    def is_contiguous(self):
        return bool(self._data.flags.c_contiguous)

    def data_ptr(self):
        return _address(self._data)

    # ---- conversion -----------------------------------------------------------------------------
    def numpy(self, force=False):
        """A NumPy copy of the values (copied from the GPU when the tensor lives there). bfloat16 comes out
        as its raw bits in uint16, as Paddle gives it (`to_tensor` of a uint16 array reads them back). `force`
        (Paddle's, torch's spelling) changes nothing: the values always come out as a copy."""
        a = self._host()
        return a.view(np.uint16) if a.dtype == _dtype.BFLOAT16 else a

    def _host(self):
        """A host (NumPy) copy of the values in their own dtype."""
        data = self._data
        if data.__class__ is np.ndarray:
            return data.copy()
        if is_sparse(data):
            raise TypeError(f"Tensor.numpy: a sparse {data.format.upper()} tensor has no dense array; use "
                            "to_dense(), values() or indices()/crows()/cols()")
        deferred_checks.raise_pending()  # the host reads device values: the checks kept until now are looked at
        return data.get()  # a device array (CuPy's) has get()

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, *index):
        a = self._data
        if len(index) == 1:  # one index counts the elements in flattened order (Paddle's, as NumPy's item)
            if not 0 <= index[0] < a.size:  # Paddle's offset is unsigned: a negative one is out of bounds too
                raise ValueError(f"Tensor.item: index {index[0]} is out of bounds for size {a.size}")
            a = a.reshape(-1)[index[0]]
        elif index:
            a = a[index]
        if a.size != 1:
            raise ValueError(f"Tensor.item: only a tensor with one element can be converted to a Python "
                             f"scalar, this one has shape {list(self._data.shape)}")
        if a.__class__ is not np.ndarray:
            deferred_checks.raise_pending()
        return a.item()

    def tolist(self):
        return self.numpy().tolist()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, this one is {self.dtype.name}")
        return int(self.item())

    def __bool__(self):
        if self._data.size != 1:
            raise ValueError("The truth value of a Tensor with more than one element is ambiguous; "
                             "use .any() or .all()")
        return bool(self.item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._data.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __hash__(self):
        return id(self)

    def _to_place(self, place):
        if place is self._place:
            return self
        data = self._data.map_arrays(lambda a: _array_to(a, place)) if is_sparse(self._data) else \
            _array_to(self._data, place)
        # The copy is a new leaf: gradients do not flow across devices.
        return wrap_array(data, place, self.stop_gradient)

    def cpu(self):
        return self._to_place(_place_mod.Place("cpu"))

    def cuda(self, device_id=None, blocking=True):
        idx = 0 if device_id is None else device_id
        return self._to_place(_place_mod.parse_place(f"gpu:{idx}", "Tensor.cuda"))

    def to(self, *args, **kwargs):
        """Paddle's three forms: to(dtype, blocking), to(device, dtype, blocking), to(other, blocking) (the other
        tensor's place and dtype); any of them by keyword (device=, dtype=, blocking=, other=)."""
        device, dtype = _to_arguments(self, args, kwargs)
        t = self
        if device is not None:
            t = t._to_place(_place_mod.parse_place(device, "Tensor.to"))
        if dtype is not None:
            t = t.astype(dtype)
        return t

    # ---- autograd state -------------------------------------------------------------------------
    @property
    def grad(self):
        if self._grad is None and self._grad_is_zeros:  # clear_grad() defers the zero fill to here
            xp = self._place.xp
            self._grad = wrap_array(xp.zeros_like(self._data), self._place, False)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Tensor.grad: expected a Tensor or None, received {type(value).__name__}")
        if value is not None and value.shape != self.shape:
            raise ValueError(f"Tensor.grad: shape {value.shape} does not match the tensor's {self.shape}")
        self._grad = value
        self._grad_is_zeros = False

    def clear_gradient(self, set_to_zero=True):
        """Gradient to zeros, or to None. As in Paddle, zeroing writes into the gradient tensor (a reference
        to it reads zeros) and the next backward replaces it rather than adding to it; with no gradient
        tensor yet, or one nobody else holds, the zeros are materialised when `.grad` is read."""
        g = self._grad
        if g is None and not self._grad_is_zeros:
            return
        if set_to_zero and g is not None and (g._vbox is not None or sys.getrefcount(g) > 3):
            # someone holds the gradient tensor (besides self._grad, `g` and getrefcount's argument) or a view of
            # it: it reads zeros from now on. A read-only zero view, not a write into the array: one gradient
            # array can reach several leaves. Held by nobody, it is dropped and the zeros come when read.
            g._data = _cleared_zeros(g._data, self._place)
            (g._vbox or new_version_counter(g))[0] += 1
        else:
            self._grad = None
        self._grad_is_zeros = bool(set_to_zero)

    def clear_grad(self):
        self.clear_gradient(True)

    def detach(self):
        """A new leaf viewing this tensor's storage (sharing its version counter), cut from the graph."""
        t = wrap_array(self._data, self._place, True)
        share_storage(self, (t,))
        return t

    def detach_(self):
        self._node = None
        self._out_index = 0
        self.stop_gradient = True
        return self

    # ---- printing -------------------------------------------------------------------------------
    def __repr__(self):
        return tensor_to_string(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0:  # a 0-D tensor formats as its number: f"{loss:.3f}"
            return format(self.item(), spec)
        return object.__format__(self, spec)

    if TYPE_CHECKING:  # what type checkers see of the methods and operators tensor/methods.py installs at import
        def __getattr__(self, name: str) -> Any: ...
        def __getitem__(self, index: Any) -> Tensor: ...
        def __setitem__(self, index: Any, value: Any) -> None: ...
        def __neg__(self) -> Tensor: ...
        def __pos__(self) -> Tensor: ...
        def __abs__(self) -> Tensor: ...
        def __invert__(self) -> Tensor: ...
        def __add__(self, other: Any) -> Tensor: ...
        def __radd__(self, other: Any) -> Tensor: ...
        def __sub__(self, other: Any) -> Tensor: ...
        def __rsub__(self, other: Any) -> Tensor: ...
        def __mul__(self, other: Any) -> Tensor: ...
        def __rmul__(self, other: Any) -> Tensor: ...
        def __truediv__(self, other: Any) -> Tensor: ...
        def __rtruediv__(self, other: Any) -> Tensor: ...
        def __floordiv__(self, other: Any) -> Tensor: ...
        def __rfloordiv__(self, other: Any) -> Tensor: ...
        def __mod__(self, other: Any) -> Tensor: ...
        def __rmod__(self, other: Any) -> Tensor: ...
        def __pow__(self, other: Any) -> Tensor: ...
        def __rpow__(self, other: Any) -> Tensor: ...
        def __matmul__(self, other: Any) -> Tensor: ...
        def __rmatmul__(self, other: Any) -> Tensor: ...
        def __and__(self, other: Any) -> Tensor: ...
        def __or__(self, other: Any) -> Tensor: ...
        def __xor__(self, other: Any) -> Tensor: ...
        def __lt__(self, other: Any) -> Tensor: ...
        def __le__(self, other: Any) -> Tensor: ...
        def __gt__(self, other: Any) -> Tensor: ...
        def __ge__(self, other: Any) -> Tensor: ...
        def __eq__(self, other: Any) -> Tensor: ...  # type: ignore[override]
        def __ne__(self, other: Any) -> Tensor: ...  # type: ignore[override]


_new = object.__new__


def _array_to(array, place):
    """A copy of `array` on `place`'s device."""
    if place.kind == "cpu":
        return array.get()
    cp = place.xp
    with cp.cuda.Device(place.index):
        return cp.asarray(array)



def wrap_array(data, place, stop_gradient):
    """The fast constructor used by the dispatcher: no checks, no copies."""
    t = _new(Tensor)
    t._data = data
    t._place = place
    t.stop_gradient = stop_gradient
    return t


def _address(array):
    return array.__array_interface__["data"][0] if isinstance(array, np.ndarray) else array.data.ptr


def storage_of(array):
    """(the whole buffer `array` views, as the array that owns it; the byte offset of array's first element)."""
    root = array
    while isinstance(getattr(root, "base", None), type(array)):
        root = root.base
    return root, _address(array) - _address(root)


def new_version_counter(t):
    """Give `t` its version counter (tensors get one when first modified or viewed). The grad node that
    produced `t` keeps it too, so a backward reading the saved output sees a later in-place change."""
    box = t._vbox = [0]
    if t._node is not None:
        t._node.watch_output(t._out_index, box)
    return box


def share_storage(base, views):
    """Make the tensors in `views` (Tensors or lists of them) aliases of `base`: one version counter."""
    box = base._vbox or new_version_counter(base)
    for v in views:
        if isinstance(v, list):
            for e in v:
                e._vbox = box
        else:
            v._vbox = box


class Parameter(Tensor):
    """A trainable leaf tensor (Paddle's EagerParamBase): stop_gradient=False, persistable, named."""

    _paddle_name = "paddle.base.framework.EagerParamBase"
    persistable = True
    is_distributed = False  # Paddle's flag for a part of a parameter split across ranks (never, with one rank)

    def __init__(self, data=None, *args, **kwargs):
        """Parameter(array, name, trainable=True) inside paddlelite, and Paddle's two public forms:
        Parameter(tensor, requires_grad=True, name=None) shares the tensor's storage;
        Parameter(shape, dtype, name=None, trainable=True) starts as zeros on the current device."""
        if isinstance(data, (list, tuple)) or "shape" in kwargs:
            shape = list(kwargs.pop("shape", data))
            dtype = args[0] if args else kwargs.pop("dtype", None)
            if dtype is None or any(d < 0 for d in shape):
                raise ValueError(f"Parameter: needs a dtype and a shape of non-negative dims, received {shape}, "
                                 f"{dtype}")
            data = _place_mod.current_place().xp.zeros(shape, dtype=_dtype.convert_dtype(dtype).np)
            trainable = kwargs.get("trainable", True)
        elif data is None or isinstance(data, Tensor):
            source = data
            if source is None:
                data = np.zeros((0,), dtype=_dtype.convert_dtype(_dtype.get_default_dtype()).np)
            else:
                data = source._data
                share_storage(source, [self])
            trainable = args[0] if args else kwargs.get("requires_grad", True)
        else:  # the internal form
            if args:
                kwargs["name"] = args[0]
            trainable = kwargs.get("trainable", True)
        self._data = data
        self._place = data.place if data.__class__ is Unallocated else _place_mod.place_of_array(data)
        self.name = kwargs.get("name") or unique_name.generate("_eager_param_base")
        self.trainable = trainable
        self.stop_gradient = not trainable

    # Created inside a paddle.LazyGuard: the initialiser (`init(param)` sets the values, `init(var, block)` appends
    # its ops), and whether initialize() is still to come
    _initializer = None
    _lazy_init = False

    @classmethod
    def _lazy(cls, shape, dtype, name, trainable, initializer, place):
        """A parameter without values yet (paddle.LazyGuard): `initializer` gives them at initialize()."""
        param = cls(Unallocated(shape, dtype, place, name), name, trainable=trainable)
        param._initializer, param._lazy_init = initializer, True
        return param

    def initialize(self):
        """Paddle's initialisation of a parameter created inside a LazyGuard: its initialiser draws the values now;
        AssertionError otherwise or when called again, as Paddle's."""
        if not self._lazy_init:
            raise AssertionError("Parameter.initialize: this parameter was not created inside paddle.LazyGuard, or "
                                 "is initialised already (Required self._init_func is not None, but received None.)")
        self._initializer(self)
        self._lazy_init = False

    def _create_init_op(self, block):
        """Append to `block` the ops that initialise this (lazily created) parameter, on a parameter variable of
        its name, shape and dtype (Layer._startup_program)."""
        if self._initializer is None:
            raise AssertionError(f"Parameter._create_init_op: '{self.name}' was not created inside paddle.LazyGuard "
                                 "(Required self._init_op_creator is not None, but received None.)")
        var = block.create_parameter(name=self.name, shape=list(self.shape), dtype=self.dtype,
                                     trainable=self.trainable)
        self._initializer(var, block)

    def __repr__(self):
        if self._data.__class__ is Unallocated:
            return "Parameter containing:\nTensor(Not initialized)"
        return "Parameter containing:\n" + tensor_to_string(self)

    __str__ = __repr__


def python_data_array(data, api):
    """Python numbers/lists as a NumPy array, refusing integers outside int64 (NumPy would make them uint64 or
    objects, and int64 then wraps 2**63 to -2**63) with Paddle's ValueError."""
    probe = np.asarray(data)
    if probe.dtype == np.uint64 or (probe.dtype == object and any(
            isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63 for v in _flatten([data]))):
        raise ValueError(f"{api}: an integer of the data lies outside int64's range [-2**63, 2**63 - 1]; pass "
                         "dtype='float64' (or 'float32') to store it as a float")
    return probe


def to_array(data, dtype, place, api):
    """Convert user data to an array of `dtype` on `place`; Python floats default to the default dtype."""
    xp = place.xp
    if isinstance(data, Tensor):
        arr = data._data
        if data._place is not place:
            arr = arr.get() if data._place.kind == "gpu" else arr
    elif isinstance(data, (list, tuple)) and any(isinstance(e, Tensor) for e in _flatten(data)):
        arr = np.array([[e._host() if isinstance(e, Tensor) else e] for e in data]).reshape(
            len(data), *np.shape(data[0]._host() if isinstance(data[0], Tensor) else data[0]))
    else:
        arr = data
    if dtype is None:
        if isinstance(arr, (np.ndarray,)) or (hasattr(arr, "dtype") and hasattr(arr, "shape")):
            # a NumPy array or scalar (np.float64(0.0)) keeps its dtype, as in Paddle
            if (arr.dtype == np.float64 and not isinstance(data, (np.ndarray, np.generic))
                    and not hasattr(data, "__cuda_array_interface__")):
                dtype = _dtype.default_float().np
            else:
                dtype = arr.dtype
                if dtype == np.uint16:  # Paddle's bfloat16 bits (what numpy() of a bfloat16 tensor gives)
                    arr, dtype = arr.view(_dtype.BFLOAT16), _dtype.BFLOAT16
                try:
                    _dtype.convert_dtype(dtype, api)
                except TypeError as e:  # e.g. uint32 arrays: Paddle's tensor.set() refuses them with a ValueError
                    raise ValueError(str(e)) from None
        else:
            probe = python_data_array(arr, api)
            if probe.dtype.kind == "f":
                dtype = _dtype.default_float().np
            elif probe.dtype.kind in "iu":
                dtype = np.int64
            elif probe.dtype.kind == "b":
                dtype = np.bool_
            elif probe.dtype.kind == "c":
                dtype = np.complex64
            else:
                raise TypeError(f"{api}: cannot make a tensor from {type(data).__name__} "
                                f"(numpy dtype {probe.dtype})")
            arr = probe
    else:
        dtype = _dtype.convert_dtype(dtype, api).np
    try:
        return xp.array(arr, dtype=dtype) if xp is np else xp.asarray(arr, dtype=dtype)
    except OverflowError:  # e.g. -1 as uint8: Paddle casts like C (wraps), NumPy 2 refuses Python ints
        with np.errstate(over="ignore", invalid="ignore"):
            return xp.asarray(np.asarray(arr).astype(dtype))
    except (TypeError, ValueError) as e:
        raise TypeError(f"{api}: cannot convert data of type {type(data).__name__} to {np.dtype(dtype)}: {e}") from None


def _flatten(seq):
    for e in seq:
        if isinstance(e, (list, tuple)):
            yield from _flatten(e)
        else:
            yield e
