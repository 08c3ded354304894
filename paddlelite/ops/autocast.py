"""Automatic mixed precision in the dispatcher: the dtype an op computes in under `paddle.amp.auto_cast`,
and the casts that take its inputs there.

While an auto_cast context is active, `dispatch.apply` hands every op's inputs to `Autocast.cast_inputs`
(otherwise it pays one `is not None` check). The casts are ordinary `cast` ops applied through the
dispatcher, so eager mode records their gradients (which return to each input's own dtype) and static
mode appends them to the program. The rule is Paddle's eager AMP (paddle/fluid/eager/amp_utils.h,
amp_auto_cast.h):

* a white-list op computes in the low dtype, a black-list op in float32;
* any other op (grey) computes in float32 when one of its inputs is float32, else in the low dtype
  ("promote"); at level 'OD' grey ops compute in float32; at 'O2' with use_promote=False they run as is;
* only float32/float16/bfloat16 inputs are cast; batch_norm/layer_norm cast X alone (their scale, bias
  and statistics stay float32), and the dtype they compute in follows X.

Unlike Paddle, which turns autocast off on the CPU, casting happens on every place: float16 through
NumPy, bfloat16 through ml_dtypes.
"""
import contextlib

import numpy as np

from ..framework.dtype import DTYPES
from ..framework.tensor import Tensor
from . import dispatch
from .legacy import LEGACY_TYPES
from .registry import all_ops, get_op

_F32 = np.dtype(np.float32)
_CASTABLE = frozenset([_F32, DTYPES["float16"].np, DTYPES["bfloat16"].np])
# Ops Paddle never autocasts: cast itself and a to_static program (its traced ops were cast when traced).
# In-place updates (the optimizers') are not autocast either: Optimizer._run suspends autocast.
_NO_AMP = frozenset(["cast", "run_program"])
_X_ONLY = frozenset(["batch_norm", "sync_batch_norm", "layer_norm"])  # Paddle casts (and promotes by) input X alone
# Paddle's list names of ops whose type here is neither Paddle's op type nor its legacy type
_PADDLE_NAMES = {"linear": "linear_v2"}

_WHITE, _BLACK, _GREY, _SKIP = range(4)
_CAST = get_op("cast")


_by_paddle_name = {}


def op_type(name):
    """The type of the registered op that Paddle's list name `name` (its op type, legacy type or the name its
    lists use) stands for; `name` itself when no op here has that name."""
    if not _by_paddle_name:
        for t in all_ops():
            for n in (t, _PADDLE_NAMES.get(t, t), LEGACY_TYPES.get(t, t)):
                _by_paddle_name.setdefault(n, t)
    return _by_paddle_name.get(name, name)


class Autocast:
    """One auto_cast context's rule: `low_name` ('float16' or 'bfloat16'), the white and black lists (op types,
    see op_type), the level ('O1', 'O2', 'OD') and use_promote."""

    __slots__ = ("low", "low_name", "white", "black", "level", "promote", "_kinds")

    def __init__(self, low_name, white, black, level, use_promote=True):
        self.low_name = low_name
        self.low = DTYPES[low_name].np
        self.white, self.black = frozenset(white), frozenset(black)
        self.level = level
        self.promote = use_promote or level != "O2"  # Paddle reads use_promote at O2 only
        self._kinds = {}  # op type -> _WHITE | _BLACK | _GREY | _SKIP

    @property
    def key(self):
        """What the casts depend on: equal keys, equal casts (to_static caches a program per key)."""
        return self.low_name, self.level, self.white, self.black, self.promote

    def _kind(self, op):
        """How `op` is cast (first use in this context; cast_inputs caches it)."""
        if op.type in _NO_AMP:
            kind = _SKIP
        elif op.type in self.white:
            kind = _WHITE
        elif op.type in self.black or self.level == "OD":
            kind = _BLACK
        else:
            kind = _GREY if self.promote else _SKIP
        self._kinds[op.type] = kind
        return kind

    def cast_inputs(self, op, inputs):
        """`inputs` with each float input cast to the dtype `op` computes in."""
        kind = self._kinds.get(op.type)
        if kind is None:
            kind = self._kind(op)
        if kind == _SKIP:
            return inputs
        n = 1 if op.type in _X_ONLY else len(inputs)
        dtypes = []
        for t in inputs[:n]:
            if isinstance(t, (list, tuple)):
                dtypes.extend(_dtype_of(e) for e in t)
            elif t is not None:
                dtypes.append(_dtype_of(t))
        if kind == _WHITE:
            dst = self.low
        elif kind == _BLACK:
            dst = _F32
        else:
            dst = _F32 if _F32 in dtypes else self.low
        if not any(d in _CASTABLE and d != dst for d in dtypes):
            return inputs
        name = "float32" if dst is _F32 else self.low_name
        out = list(inputs)
        for i in range(n):
            t = inputs[i]
            if isinstance(t, (list, tuple)):
                out[i] = [_cast(e, dst, name) for e in t]
            elif t is not None:
                out[i] = _cast(t, dst, name)
        return tuple(out)


def _dtype_of(t):
    if isinstance(t, Tensor):
        return t._data.dtype
    d = getattr(t, "_dtype", None)  # a static Variable's DType
    return None if d is None else d.np


def _cast(t, dst, name):
    d = _dtype_of(t)
    if d is None or d == dst or d not in _CASTABLE:
        return t
    return dispatch.apply(_CAST, t, dtype=name)


def active():
    """The active Autocast rule, or None."""
    return dispatch.autocast[0]


def active_key():
    """The active rule's key (None without autocast)."""
    rule = dispatch.autocast[0]
    return None if rule is None else rule.key


@contextlib.contextmanager
def using(rule):
    """Run the block under `rule` (an Autocast, or None: no autocast); the previous rule is restored after."""
    prev = dispatch.autocast[0]
    dispatch.autocast[0] = rule
    try:
        yield
    finally:
        dispatch.autocast[0] = prev


_NOT_ACTIVE = contextlib.nullcontext()


def suspended():
    """No autocast in the block: backward passes and in-place updates run the ops as they are given."""
    return _NOT_ACTIVE if dispatch.autocast[0] is None else using(None)  # the common case stays cheap
