"""Real Paddle's checkpoint files: read safely, written so real Paddle reads them.

Paddle 3.3.1's `paddle.save` pickles (protocol 2-4, default 4) a state dict as a dict of NumPy arrays
plus a "StructuredToParameterName@@" table of parameter names, and any other object with each Tensor
as a `(name, ndarray)` tuple (bfloat16 data as its uint16 bits). Reading goes through a restricted
unpickler, the way PyTorch's `weights_only=True` does: only the globals a tree of arrays needs (array
and dtype reconstruction, NumPy scalars, plain containers, protocol 2's latin-1 bytes) resolve, each
to a checked constructor; any other global -- how a pickle runs code -- is refused with a
CheckpointError before anything is called, and so are object arrays.
"""
import _codecs
import collections
import io
import itertools
import pickle

import numpy as np

from .tensor import Tensor

NAME_TABLE = "StructuredToParameterName@@"
_BIG_PARAMS = "UnpackBigParamInfor@@"  # Paddle's split of arrays over 4 GB at protocol 2/3 (sic)
_PLAIN = (type(None), bool, int, float, complex, str, bytes, np.generic)


def _refuse(message):
    raise pickle.UnpicklingError(message)


def _checked_dtype(spec, align=False, copy=True):
    dtype = np.dtype(spec, align, copy)
    if dtype.hasobject or dtype.kind == "V":
        _refuse(f"dtype {dtype} (object or structured data) is not part of a checkpoint")
    return dtype


class _NDArrayToken:
    """Stands for numpy.ndarray, which a state dict only passes to _reconstruct (never calls)."""


def _reconstruct(cls, shape, typecode):
    """The empty array NumPy's pickles fill in with __setstate__ (which checks the data's size)."""
    if cls is not _NDArrayToken or tuple(shape) != (0,) or typecode != b"b":
        _refuse("numpy _reconstruct other than NumPy's own (ndarray, (0,), b'b')")
    return np.ndarray((0,), np.int8)


def _scalar(dtype, data=None):
    if not isinstance(dtype, np.dtype) or dtype.hasobject or not isinstance(data, bytes):
        _refuse("numpy scalar of an object dtype or without raw bytes")
    return np.frombuffer(data, dtype=dtype, count=1)[0]


def _latin1_bytes(text, encoding="latin1"):
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        _refuse(f"_codecs.encode with encoding {encoding!r}")
    return _codecs.encode(text, "latin1")


_NUMPY_GLOBALS = {"_reconstruct": _reconstruct, "scalar": _scalar}
_ALLOWED = {
    **{(module, name): fn for module in ("numpy.core.multiarray", "numpy._core.multiarray")
       for name, fn in _NUMPY_GLOBALS.items()},
    ("numpy", "ndarray"): _NDArrayToken,
    ("numpy", "dtype"): _checked_dtype,
    ("_codecs", "encode"): _latin1_bytes,
    ("collections", "OrderedDict"): collections.OrderedDict,
    **{(module, cls.__name__): cls for module in ("builtins", "__builtin__")
       for cls in (tuple, list, dict, set, frozenset)},
}


class _StateDictUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        fn = _ALLOWED.get((module, name))
        if fn is None:
            _refuse(f"it references {module}.{name}, which a checkpoint of arrays never needs (a pickle "
                    "runs code through such references)")
        return fn

    def persistent_load(self, pid):
        _refuse("persistent ids are not part of a checkpoint")


def _check_tree(obj):
    """Only containers, plain values and numeric arrays (iterative: no recursion limit on nesting)."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, np.ndarray):
            if o.dtype.hasobject or o.dtype.kind == "V" or type(o) is not np.ndarray:
                _refuse(f"an array of dtype {o.dtype} is not part of a checkpoint")
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend(o)
        elif not isinstance(o, _PLAIN):
            _refuse(f"an object of type {type(o).__name__} is not part of a checkpoint")


def unpickle(data):
    """The object tree a Paddle pickle holds (NumPy arrays, containers, plain values); pickle.UnpicklingError
    (or the error of a checked constructor) when it holds anything else or is malformed."""
    obj = _StateDictUnpickler(io.BytesIO(data), encoding="latin1").load()
    _check_tree(obj)
    return obj


def _join_big_params(obj):
    info = obj.pop(_BIG_PARAMS, None)
    if info is None:
        return
    for key, value in info.items():
        obj[key] = np.concatenate([obj.pop(part) for part in value["slices"]]).reshape(value["OriginShape"])


def _is_named_array(obj):
    return type(obj) is tuple and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)


def _contains(obj, predicate):
    if predicate(obj):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains(v, predicate) for v in obj.values())
    if type(obj) in (list, tuple, set):
        return any(_contains(v, predicate) for v in obj)
    return False


def _convert(obj, predicate, convert):
    if predicate(obj):
        return convert(obj)
    if type(obj) in (dict, collections.OrderedDict):
        for key in list(obj):
            obj[key] = _convert(obj[key], predicate, convert)
        return obj
    if type(obj) in (list, tuple, set):
        return type(obj)(_convert(v, predicate, convert) for v in obj)
    return obj


def to_paddle_objects(obj, to_tensor, keep_name_table=False):
    """What real Paddle's paddle.load returns for an unpickled tree: a state dict's named arrays (top level)
    become Tensors named from its table; elsewhere (name, array) tuples become named Tensors, or -- when
    there are none -- every array becomes a Tensor. `to_tensor(array, name)` makes one (or keeps the array)."""
    if isinstance(obj, dict):
        _join_big_params(obj)
        if NAME_TABLE in obj:
            for key, name in obj[NAME_TABLE].items():
                if isinstance(obj.get(key), np.ndarray):
                    obj[key] = to_tensor(obj[key], name)
            if not keep_name_table:
                del obj[NAME_TABLE]
            return obj
    if _contains(obj, _is_named_array):
        return _convert(obj, _is_named_array, lambda pair: to_tensor(pair[1], pair[0]))
    return _convert(obj, lambda o: isinstance(o, np.ndarray), lambda a: to_tensor(a, None))


# ---- writing ------------------------------------------------------------------------------------------
def _tensor_array(t):
    return np.ascontiguousarray(t.numpy())


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
        return (obj.name or f"generated_tensor_{next(unnamed)}", _tensor_array(obj))
    if getattr(obj, "_is_variable", False):
        raise TypeError(f"{api}: {where} is a static Variable, which holds no values")
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            raise TypeError(f"{api}: {where} is an object array; a checkpoint holds numeric arrays")
        return obj
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
        tree = {k: _tensor_array(v) if isinstance(v, Tensor) else _plain_tree(v, f"obj[{k!r}]", api, unnamed)
                for k, v in obj.items()}
        tree[NAME_TABLE] = names
    else:
        tree = _plain_tree(obj, "obj", api, unnamed)
    return pickle.dumps(tree, protocol=protocol)
