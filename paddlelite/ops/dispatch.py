"""The one function that applies an op, in either mode.

Static mode: append an Operator to the current block (outputs shaped by the op's `infer`).
Eager mode: run the forward for the inputs' place and, when grad mode is on and an input needs a
gradient, attach a grad node. Functional APIs, Tensor methods and layers all come through here.
"""
import numpy as _np

from ..device.place import current_place, parse_place
from ..framework.arg_errors import not_a_tensor
from ..framework import mode as _mode
from ..framework import user_warnings as _user_warnings
from ..framework.sparse import is_sparse as _is_sparse
from ..framework.tensor import Tensor, share_storage, wrap_array
from . import check_numerics as _check_numerics
from .registry import Meta, no_grad_op_error

_ndarray = _np.ndarray
_new = object.__new__
_grad_state = _mode.grad_state
_static_state = _mode.static_state  # .on: whether this thread is in static mode
_hooks = {}  # 'static': the static-mode appender
_make_node = None  # the eager grad-node class, OpNode(op, inputs, attrs, outs); set by autograd.node
autocast = [None]  # the active paddle.amp.auto_cast rule (ops/autocast.py: Autocast), or None
_checking_numerics = _check_numerics.enabled  # [FLAGS_check_nan_inf]
_user_warnings.install_filter()  # a forward's warnings come back here as exceptions, to be issued at the user's line


def set_static_appender(fn):
    _hooks["static"] = fn


def set_node_factory(fn):
    global _make_node
    _make_node = fn


def apply(op, *inputs, **attrs):  # noqa: C901 -- the eager hot path, inlined on purpose
    """Apply registered op `op` (an OpDef) to `inputs` (one per input slot) with `attrs`."""
    if attrs:  # op.fill_attrs(attrs), inlined: defaults merged, unknown names an error
        merged = {**op.attrs, **attrs}
        attrs = merged if len(merged) == len(op.attrs) else op.fill_attrs(attrs)
    else:
        attrs = op.attrs
    if len(inputs) != op.n_in:
        inputs = with_absent_inputs(op, inputs)
    if autocast[0] is not None:
        inputs = autocast[0].cast_inputs(op, inputs)
    if _static_state.on:
        return _hooks["static"](op, inputs, attrs)

    # Collect arrays, the common place, and whether any input needs a gradient.
    place = None
    needs_grad = False
    arrays = []
    for t in inputs:
        if isinstance(t, Tensor):
            p = t._place
            if p is not place:
                if place is not None:
                    _mixed_places(op, len(arrays), place, p)
                place = p
            if not t.stop_gradient:
                needs_grad = True
            arrays.append(t._data)
        else:
            group, group_place, group_needs = _other_input(op, len(arrays), t, place)
            arrays.append(group)
            place = place or group_place
            needs_grad = needs_grad or group_needs
    same = op.same_dtype
    if same and (len(same) != 2 or arrays[same[1]] is None or arrays[same[0]].dtype is not arrays[same[1]].dtype):
        _check_same_dtype(op, arrays)  # builtin dtypes are singletons: two identical ones need no check
    if place is None:  # an op without tensor inputs: the 'place' attr, else the current device
        place = parse_place(attrs["place"]) if attrs.get("place") else current_place()

    xp = place._xp or place.xp
    forward = op.forward if xp is _np else op.forward_for(xp)
    try:
        out = forward(xp, *arrays, **attrs)
    except Warning:  # a warning the forward issued, raised by user_warnings' filter: issued again at the user's line
        out = _user_warnings.rerun(forward, xp, *arrays, **attrs)
    except Exception as e:
        _explain_failure(op, arrays, attrs, e)
    if _checking_numerics[0]:
        _check_numerics.check(op.type, out, place)

    record = needs_grad and _grad_state.enabled and (op.grad is not None or _has_no_grad(op))
    if op.n_out == 1 and op.simple:
        if out.__class__ is not _ndarray and xp is _np and not _is_sparse(out):  # NumPy ufuncs give scalars for 0-D inputs
            out = _np.asarray(out)
        result = _new(Tensor)  # wrap_array, inlined: this is the hottest line of eager mode
        result._data = out
        result._place = place
        result.stop_gradient = not record
        outs = (result,)
    else:
        if op.n_out == 1:
            out = (out,)
        outs = []
        for o in out:
            if isinstance(o, list):
                outs.append([wrap_array(device_array(xp, a), place, not record) for a in o])
            else:
                outs.append(wrap_array(device_array(xp, o), place, not record))
        result = outs[0] if op.n_out == 1 else tuple(outs)
    if record:
        _make_node(op, inputs, attrs, outs)
    view = op.view
    if view and (view is True or view(**attrs)):
        share_storage(inputs[0], outs)
    return result


def with_absent_inputs(op, inputs):
    """`inputs` with the trailing optional inputs a caller left out (a reshape's Shape tensors) as None."""
    tail = op.absent_tails.get(len(inputs))
    if tail is None:
        raise TypeError(f"op '{op.type}': expected {op.n_in} inputs {op.inputs}, received {len(inputs)}")
    return (*inputs, *tail)


def _has_no_grad(op):
    """False for an op without a gradient; raises for a grad op without one (a higher-order gradient through it
    must fail where create_graph asks for it, not come out silently zero)."""
    if op.lacks_higher_grad:
        raise no_grad_op_error(op.type)
    return False


def device_array(xp, a):
    """`a` as an array of `xp`: itself when it is one (a multi-output op's results on a GPU: no CuPy call per output).
    A NumPy object array (a while loop's step scopes boxed by paddle.jit) stays on the host: CuPy has no object
    dtype; a sparse container holds arrays of `xp` already."""
    if a.__class__ is _ndarray:
        return a if xp is _np or a.dtype.hasobject else xp.asarray(a)
    return a if a.__class__ is getattr(xp, "ndarray", None) or _is_sparse(a) else xp.asarray(a)


def _other_input(op, slot_i, t, place):
    """A None (optional slot) or a list of Tensors (variadic slot): (arrays, place, needs_grad)."""
    slot = op.inputs[slot_i]
    if t is None:
        if slot not in op.optional_inputs:
            raise TypeError(f"op '{op.type}': input '{slot}' is required, received None")
        return None, None, False
    if not (isinstance(t, (list, tuple)) and slot in op.variadic_inputs):
        _not_tensor(op, slot_i, t)
    group, needs_grad = [], False
    for k, e in enumerate(t):
        if not isinstance(e, Tensor):
            _not_tensor(op, slot_i, e, k)
        if place is None:
            place = e._place
        elif e._place is not place:
            _mixed_places(op, slot_i, place, e._place)
        if not e.stop_gradient:
            needs_grad = True
        group.append(e._data)
    return group, place, needs_grad


def _check_same_dtype(op, arrays):
    first = op.same_dtype[0]
    ref = arrays[first].dtype
    for i in op.same_dtype[1:]:
        a = arrays[i]
        if a is not None and a.dtype is not ref and a.dtype != ref:  # builtin dtypes are singletons
            # ValueError, as Paddle's kernels raise for operands of two dtypes (its APIs' promotion raises TypeError)
            raise ValueError(f"op '{op.type}': input '{op.inputs[i]}' has dtype {a.dtype} but "
                            f"'{op.inputs[first]}' has {ref}; cast one of them explicitly "
                            "(paddlelite never promotes silently)")


def _not_tensor(op, slot_i, value, k=None):
    where = f"input '{op.inputs[slot_i]}'" + (f"[{k}]" if k is not None else "")
    raise not_a_tensor(f"op '{op.type}': {where} must be a Tensor, received {type(value).__name__}")


def _mixed_places(op, slot_i, first, other):
    raise RuntimeError(f"op '{op.type}': input '{op.inputs[slot_i]}' is on {other} but another input is on "
                       f"{first}; move tensors with .cpu() / .cuda() before combining them")


def _explain_failure(op, arrays, attrs, error):
    """Re-raise a forward failure with the op's own shape rule's explanation when it has one."""
    if not op.sparse:
        for slot, a in zip(op.inputs, arrays):
            if _is_sparse(a):
                raise TypeError(f"op '{op.type}': input '{slot}' is a sparse {a.format.upper()} tensor, and the op "
                                "takes dense tensors; use paddle.sparse's functions or to_dense()") from error
    metas = [None if a is None else
             [Meta(tuple(e.shape), e.dtype) for e in a] if isinstance(a, list) else Meta(tuple(a.shape), a.dtype)
             for a in arrays]
    try:
        if op.infer is not None:  # (a sparse op has none: its forward explains itself)
            op.infer(*metas, **attrs)
    except (ValueError, TypeError, IndexError) as rule_error:
        raise rule_error from error
    except Exception:
        pass
    shapes = ", ".join(f"{s}={list(m.shape) if isinstance(m, Meta) else m}" for s, m in zip(op.inputs, metas))
    raise _same_kind(error, f"op '{op.type}' failed on inputs ({shapes}) with attrs {attrs}: {error}") from error


def _same_kind(error, message):
    """A new exception carrying `message`, of the nearest built-in class of `error` that takes one (a MemoryError
    stays a MemoryError). Only built-in classes are constructed: a library's own exception class may need
    other arguments (NumPy's _ArrayMemoryError does)."""
    for cls in type(error).__mro__:
        if cls.__module__ == "builtins" and issubclass(cls, Exception):
            try:
                return cls(message)
            except TypeError:  # e.g. UnicodeDecodeError's five arguments; its base takes a message
                continue
    return RuntimeError(message)
