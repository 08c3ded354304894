"""Real Paddle's checkpoint files: read safely, written so real Paddle reads them.

Paddle 3.3.1's `paddle.save` pickles (protocol 2-4, default 4) a state dict as a dict of NumPy arrays
plus a "StructuredToParameterName@@" table of parameter names, and any other object with each Tensor
as a `(name, ndarray)` tuple (bfloat16 data as its uint16 bits, which its paddle.load turns back into
bfloat16). Reading goes through a restricted unpickler, the way PyTorch's `weights_only=True` does: only
the globals a tree of arrays needs (array and dtype reconstruction, NumPy scalars, plain containers,
protocol 2's latin-1 bytes) resolve, each to a checked constructor; any other global -- how a pickle
runs code -- is refused with a CheckpointError before anything is called.

NumPy's own constructors are never handed the pickle's state: `dtype.__setstate__` trusts its state
(fields, offsets, sizes: a crafted one crashes the process) and so does `ndarray.__setstate__`. The
unpickler gives the pickle placeholders instead, which take the state BUILD passes, check it (a plain
numeric dtype from its descr string and byte order; an array whose shape and dtype account for exactly
the bytes it carries) and only then build the dtype and array. The tree is then walked once per object
(shared subtrees are not walked again), refusing cycles, deep nesting and anything but containers,
plain values and numeric arrays.
"""
import _codecs
import collections
import io
import itertools
import math
import pickle
import pickletools

import numpy as np

from .dtype import DTYPES
from .tensor import Tensor

NAME_TABLE = "StructuredToParameterName@@"
_BIG_PARAMS = "UnpackBigParamInfor@@"  # Paddle's split of arrays over 4 GB at protocol 2/3 (sic)
_PLAIN = (type(None), bool, int, float, complex, str, bytes, np.generic)
_CONTAINERS = (dict, collections.OrderedDict, list, tuple, set, frozenset)
MAX_DEPTH = 100  # containers nested deeper than this are no checkpoint (Paddle's are a few levels deep)
# The dtypes a checkpoint's arrays have, by the descr string NumPy's pickles name them with ('f4', 'i8', ...)
_DTYPES = {np.dtype(t).str[1:]: np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                                       np.uint16, np.uint32, np.uint64, np.float16, np.float32,
                                                       np.float64, np.complex64, np.complex128)}
_NUMERIC = frozenset(_DTYPES.values())
BFLOAT16_BITS = np.dtype(np.uint16)  # Paddle's pickles hold bfloat16 tensors as their raw bits


def _refuse(message):
    raise pickle.UnpicklingError(message)


def _is_int(value):
    return type(value) is int


class _DtypeToken:
    """What `numpy.dtype(descr, align, copy)` gives a pickle: BUILD hands its state to this, never to NumPy."""

    __slots__ = ("dtype", "built")

    def __init__(self, dtype):
        self.dtype, self.built = dtype, False

    def __setstate__(self, state):
        if self.built:
            _refuse("a dtype's state is given twice")
        self.built = True
        if type(state) is not tuple or len(state) != 8 or state[0] != 3:
            _refuse(f"dtype state {state!r:.80} is not NumPy's (version 3, 8 fields, no metadata)")
        _, order, subarray, names, fields, elsize, alignment, flags = state
        if subarray is not None or names is not None or fields is not None:
            _refuse("a structured or sub-array dtype is not part of a checkpoint")
        d = self.dtype
        if elsize not in (-1, d.itemsize) or alignment not in (-1, d.alignment) or not _is_int(flags):
            _refuse(f"dtype state {state!r:.80} does not describe {d}")
        if order not in ("<", ">", "=", "|") or (order == "|") != (d.itemsize == 1):
            _refuse(f"dtype {d} with byte order {order!r:.20}")
        self.dtype = d.newbyteorder(order) if order in "<>" else d


def _dtype(descr, align=False, copy=True):
    if type(descr) is not str or descr not in _DTYPES or not all(_is_int(v) or type(v) is bool for v in (align, copy)):
        _refuse(f"dtype {descr!r:.40} is not a numeric dtype of a checkpoint")
    return _DtypeToken(_DTYPES[descr])


def _resolved(dtype):
    if type(dtype) is not _DtypeToken:
        _refuse(f"{type(dtype).__name__} where a dtype belongs")
    return dtype.dtype


class _ArrayToken:
    """What `numpy.core.multiarray._reconstruct` gives a pickle: BUILD's state (shape, dtype, order, bytes) is
    checked -- the bytes must be exactly what the shape and dtype need -- before the array is made."""

    __slots__ = ("array",)

    def __init__(self):
        self.array = None

    def __setstate__(self, state):
        if self.array is not None:
            _refuse("an array's state is given twice")
        if type(state) is tuple and len(state) == 5 and state[0] == 1:
            state = state[1:]
        if type(state) is not tuple or len(state) != 4:
            _refuse("array state is not NumPy's (version, shape, dtype, is_fortran, data)")
        shape, dtype, fortran, data = state
        dtype = _resolved(dtype)
        if type(shape) is not tuple or not all(_is_int(n) and n >= 0 for n in shape):
            _refuse(f"array shape {shape!r:.80} is not a tuple of sizes")
        if type(fortran) is not bool and fortran not in (0, 1):
            _refuse("array order flag is not a bool")
        if type(data) is str:  # a Python 2 pickle's str, read as latin-1 text
            data = data.encode("latin1")
        if type(data) is not bytes:
            _refuse(f"array data of type {type(data).__name__}")
        if math.prod(shape) * dtype.itemsize != len(data):
            _refuse(f"array of shape {list(shape)} and dtype {dtype} needs {math.prod(shape) * dtype.itemsize} "
                    f"bytes, its data has {len(data)}")
        self.array = array_from_bytes(data, dtype, shape, "F" if fortran else "C")


def checkpoint_dtype(dtype):
    """Whether a checkpoint's array may have `dtype` (a plain numeric dtype, either byte order)."""
    return dtype.newbyteorder("=") in _NUMERIC


def array_from_bytes(data, dtype, shape, order="C"):
    """A writable native-order array of `dtype` and `shape` over a copy of `data` (exactly its size); bools
    are normalised to 0/1 (other bytes are no bool NumPy computes with)."""
    flat = np.frombuffer(data, dtype=dtype)
    if dtype.kind == "b":
        flat = flat.view(np.uint8) != 0
    return flat.reshape(shape, order=order).astype(flat.dtype.newbyteorder("="), order="C")


class _NDArrayToken:
    """Stands for numpy.ndarray, which a state dict only passes to _reconstruct (never calls)."""


def _reconstruct(cls, shape, typecode):
    """The empty array NumPy's pickles fill in with __setstate__."""
    if cls is not _NDArrayToken or type(shape) is not tuple or shape != (0,) or typecode != b"b":
        _refuse("numpy _reconstruct other than NumPy's own (ndarray, (0,), b'b')")
    return _ArrayToken()


def _scalar(dtype, data=None):
    dtype = _resolved(dtype)
    if type(data) is str:
        data = data.encode("latin1")
    if type(data) is not bytes or len(data) != dtype.itemsize:
        _refuse(f"numpy scalar of dtype {dtype} without its {dtype.itemsize} raw bytes")
    return array_from_bytes(data, dtype, ())[()]


def _latin1_bytes(text, encoding="latin1"):
    if type(text) is not str or encoding not in ("latin1", "latin-1"):
        _refuse(f"_codecs.encode with encoding {encoding!r:.40}")
    return _codecs.encode(text, "latin1")


_NUMPY_GLOBALS = {"_reconstruct": _reconstruct, "scalar": _scalar}
_ALLOWED = {
    **{(module, name): fn for module in ("numpy.core.multiarray", "numpy._core.multiarray")
       for name, fn in _NUMPY_GLOBALS.items()},
    ("numpy", "ndarray"): _NDArrayToken,
    ("numpy", "dtype"): _dtype,
    ("_codecs", "encode"): _latin1_bytes,
    ("collections", "OrderedDict"): collections.OrderedDict,
    **{(module, cls.__name__): cls for module in ("builtins", "__builtin__")
       for cls in (tuple, list, dict, set, frozenset)},
}


class _StateDictUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        fn = _ALLOWED.get((module, name))
        if fn is None:
            _refuse(f"it references {module!r:.60}.{name!r:.60}, which a checkpoint of arrays never needs (a "
                    "pickle runs code through such references)")
        return fn

    def persistent_load(self, pid):
        _refuse("persistent ids are not part of a checkpoint")


class _Tree:
    """The checked tree: every placeholder replaced by its array, each object visited once (a pickle's memo
    can share one subtree from many places), cycles and nesting past MAX_DEPTH refused."""

    def __init__(self):
        self.done = {}  # id -> (object, its checked replacement); holding the object keeps its id unique
        self.open = set()

    def check(self, o, depth=0):
        t = type(o)
        if t is _ArrayToken:
            if o.array is None:
                _refuse("an array without its data")
            return o.array
        if t not in _CONTAINERS:
            if not isinstance(o, _PLAIN):
                _refuse(f"an object of type {t.__name__} is not part of a checkpoint")
            return o
        key = id(o)
        if key in self.done:
            return self.done[key][1]
        if key in self.open:
            _refuse(f"a {t.__name__} that contains itself is not part of a checkpoint")
        if depth >= MAX_DEPTH:
            _refuse(f"containers nested deeper than {MAX_DEPTH} levels are not part of a checkpoint")
        if t is collections.OrderedDict and vars(o):
            _refuse("an OrderedDict with attributes is not part of a checkpoint")
        self.open.add(key)
        if t in (dict, collections.OrderedDict):
            items = [(self.check(k, depth + 1), self.check(v, depth + 1)) for k, v in o.items()]
            o.clear()
            o.update(items)  # the same object (another part of the tree may hold it)
            out = o
        elif t is list:
            o[:] = [self.check(v, depth + 1) for v in o]
            out = o
        else:
            out = t(self.check(v, depth + 1) for v in o)
        self.open.discard(key)
        self.done[key] = (o, out)
        return out


_MEMO_PUTS = frozenset(["PUT", "BINPUT", "LONG_BINPUT"])


def _check_framing(data):
    """Walk the opcodes (pickletools, pure Python) before unpickling: every counted argument must fit in the
    data (the C unpickler allocates a declared byte count before reading it) and memo indices must be the
    pickler's own, counting up (it grows its memo table to any index it is given)."""
    puts = 0
    for op, arg, _ in pickletools.genops(data):
        if op.name in _MEMO_PUTS:
            if not _is_int(arg) or not 0 <= arg <= puts:
                _refuse(f"memo index {arg!r:.20} out of order")
            puts += arg == puts
        elif op.name == "MEMOIZE":
            puts += 1


def unpickle(data):
    """The object tree a Paddle pickle holds (NumPy arrays, containers, plain values); pickle.UnpicklingError
    (or the error of a checked constructor) when it holds anything else or is malformed."""
    _check_framing(data)
    obj = _StateDictUnpickler(io.BytesIO(data), encoding="latin1").load()
    return _Tree().check(obj)


def _join_big_params(obj):
    info = obj.pop(_BIG_PARAMS, None)
    if info is None:
        return
    if type(info) is not dict:
        _refuse(f"{_BIG_PARAMS} is not a dict")
    for key, value in info.items():
        slices, shape = value["slices"], value["OriginShape"]
        if type(slices) is not list or not slices or not all(isinstance(obj.get(k), np.ndarray) for k in slices):
            _refuse(f"{_BIG_PARAMS}[{key!r:.40}] names slices the file does not hold")
        obj[key] = np.concatenate([obj.pop(part) for part in slices]).reshape(shape)


def _is_named_array(obj):
    return type(obj) is tuple and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)


def _is_array(obj):
    return isinstance(obj, np.ndarray)


def _contains(obj, predicate, seen=None):
    """Whether `predicate` holds for `obj` or anything in it (each shared container looked at once)."""
    if predicate(obj):
        return True
    if type(obj) not in _CONTAINERS:
        return False
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return False
    seen.add(id(obj))
    return any(_contains(v, predicate, seen) for v in (obj.values() if isinstance(obj, dict) else obj))


def _convert(obj, predicate, convert, memo):
    """`obj` with `convert` applied where `predicate` holds, as Paddle's loader does it (dicts and lists in
    place, tuples and sets rebuilt); `memo` converts a shared container once."""
    if predicate(obj):
        return convert(obj)
    t = type(obj)
    if t not in _CONTAINERS:
        return obj
    if id(obj) in memo:
        return memo[id(obj)]
    if t in (dict, collections.OrderedDict):
        for key in list(obj):
            obj[key] = _convert(obj[key], predicate, convert, memo)
        out = obj
    elif t is list:
        obj[:] = [_convert(v, predicate, convert, memo) for v in obj]
        out = obj
    else:
        out = t(_convert(v, predicate, convert, memo) for v in obj)
    memo[id(obj)] = out
    return out


def to_paddle_objects(obj, to_tensor, keep_name_table=False):
    """What real Paddle's paddle.load returns for a checked tree (unpickle's): a state dict's named arrays (top
    level) become Tensors named from its table; elsewhere (name, array) tuples become named Tensors, or -- when
    there are none -- every array becomes a Tensor. `to_tensor(array, name)` makes one (or keeps the array); an
    array the pickle names twice gives each Tensor its own copy, as Paddle's to_tensor copies."""
    given = set()

    def once(array, name):
        if id(array) in given:
            array = array.copy()
        given.add(id(array))
        return to_tensor(array, name)

    if isinstance(obj, dict):
        _join_big_params(obj)
        if NAME_TABLE in obj:
            table = obj[NAME_TABLE]
            if type(table) is not dict or not all(type(n) is str for n in table.values()):
                _refuse(f"{NAME_TABLE} is not a table of parameter names")
            for key, name in table.items():
                if isinstance(obj.get(key), np.ndarray):
                    obj[key] = once(obj[key], name)
            if not keep_name_table:
                del obj[NAME_TABLE]
            return obj
    if _contains(obj, _is_named_array):
        return _convert(obj, _is_named_array, lambda pair: once(pair[1], pair[0]), {})
    return _convert(obj, _is_array, lambda a: once(a, None), {})


# ---- writing ------------------------------------------------------------------------------------------
def _paddle_array(arr, where, api):
    """`arr` as Paddle's pickles hold it: C-contiguous (0-d stays 0-d), bfloat16 as its uint16 bits. float8 is
    refused: Paddle writes its bits as int8 and reads them back as int8, so the dtype would be lost."""
    if arr.dtype.hasobject:
        raise TypeError(f"{api}: {where} is an object array; a checkpoint holds numeric arrays")
    if arr.dtype == DTYPES["bfloat16"].np:
        return np.asarray(arr, order="C").view(BFLOAT16_BITS)
    if not checkpoint_dtype(arr.dtype):
        raise TypeError(f"{api}: {where} has dtype {arr.dtype}, which Paddle's pickle format cannot hold (real "
                        "Paddle saves float8 as int8 bits and loads int8); save with format='paddlelite', which "
                        "keeps it, or cast it")
    return np.asarray(arr, order="C")


def _is_state_dict(obj):
    """Paddle's test: a dict whose values are Tensors, or dicts without Tensors inside."""
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_contains(v, lambda o: isinstance(o, Tensor)) for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _plain_tree(obj, where, api, unnamed):
    if isinstance(obj, Tensor):  # Paddle's reduce of a Tensor; its loader needs a str name
        return (obj.name or f"generated_tensor_{next(unnamed)}", _paddle_array(obj._host(), where, api))
    if getattr(obj, "_is_variable", False):
        raise TypeError(f"{api}: {where} is a static Variable, which holds no values")
    if isinstance(obj, np.ndarray):
        return _paddle_array(obj, where, api)
    if isinstance(obj, np.generic) and not checkpoint_dtype(obj.dtype):
        return _paddle_array(np.asarray(obj), where, api)
    if isinstance(obj, _PLAIN):
        return obj
    if type(obj) in (dict, collections.OrderedDict):
        return type(obj)((k, _plain_tree(v, f"{where}[{k!r}]", api, unnamed)) for k, v in obj.items())
    if type(obj) in (list, tuple, set):
        return type(obj)(_plain_tree(v, f"{where}[{i}]", api, unnamed) for i, v in enumerate(obj))
    raise TypeError(f"{api}: cannot save {where} of type {type(obj).__name__} in Paddle's format; it holds "
                    "dicts, lists, tuples, Tensors, numpy arrays, numbers, strings and None")


def pickle_bytes(obj, protocol, api):
    """The bytes real Paddle's paddle.save writes for `obj` (a state dict gets the name table)."""
    if isinstance(protocol, bool) or not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError(f"{api}: protocol must be an int in [2, 4] (Paddle's pickle protocols), received "
                         f"{protocol!r}")
    unnamed = itertools.count()
    if _is_state_dict(obj):
        names = {k: v.name or f"generated_tensor_{next(unnamed)}" for k, v in obj.items() if isinstance(v, Tensor)}
        tree = {k: _paddle_array(v._host(), f"obj[{k!r}]", api) if isinstance(v, Tensor)
                else _plain_tree(v, f"obj[{k!r}]", api, unnamed) for k, v in obj.items()}
        tree[NAME_TABLE] = names
    else:
        tree = _plain_tree(obj, "obj", api, unnamed)
    return pickle.dumps(tree, protocol=protocol)
