"""The one function that applies an op, in either mode.

Static mode: append an Operator to the current block (outputs shaped by the op's `infer`).
Eager mode: run the forward for the inputs' place and, when grad mode is on and an input needs a
gradient, attach a grad node. Functional APIs, Tensor methods and layers all come through here.
"""
import numpy as _np

_ndarray = _np.ndarray
from ..device.place import current_place, parse_place
from ..framework import mode as _mode
from ..framework.tensor import Tensor, wrap_array
from .registry import Meta

_grad_state = _mode.grad_state
_static = _mode._static
_hooks = {}  # 'static': the static-mode appender, 'node': the eager grad-node factory


def set_static_appender(fn):
    _hooks["static"] = fn


def set_node_factory(fn):
    _hooks["node"] = fn


def apply(op, *inputs, **attrs):
    """Apply registered op `op` (an OpDef) to `inputs` (one per input slot) with `attrs`."""
    attrs = op.fill_attrs(attrs) if attrs else op.attrs
    if _static[0]:
        return _hooks["static"](op, inputs, attrs)
    if len(inputs) != op.n_in:
        raise TypeError(f"op '{op.type}': expected {op.n_in} inputs {op.inputs}, received {len(inputs)}")

    # Collect arrays, the common place, and whether any input needs a gradient.
    place = None
    needs_grad = False
    arrays = []
    for slot_i, t in enumerate(inputs):
        if t.__class__ is Tensor or isinstance(t, Tensor):
            p = t._place
            if place is None:
                place = p
            elif p is not place:
                _mixed_places(op, slot_i, place, p)
            if not t.stop_gradient:
                needs_grad = True
            arrays.append(t._data)
        elif t is None:
            if op.inputs[slot_i] not in op.optional_inputs:
                raise TypeError(f"op '{op.type}': input '{op.inputs[slot_i]}' is required, received None")
            arrays.append(None)
        elif isinstance(t, (list, tuple)) and op.inputs[slot_i] in op.variadic_inputs:
            group = []
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
            arrays.append(group)
        else:
            _not_tensor(op, slot_i, t)
    for i in op.same_dtype:
        if arrays[i] is not None and arrays[i].dtype != arrays[op.same_dtype[0]].dtype:
            raise TypeError(f"op '{op.type}': input '{op.inputs[i]}' has dtype {arrays[i].dtype} but "
                            f"'{op.inputs[op.same_dtype[0]]}' has {arrays[op.same_dtype[0]].dtype}; "
                            "cast one of them explicitly (paddlelite never promotes silently)")
    if place is None:  # an op without tensor inputs: the 'place' attr, else the current device
        place = parse_place(attrs["place"]) if attrs.get("place") else current_place()

    xp = place._xp or place.xp
    try:
        out = (op.forward if xp is _np else op.forward_for(xp))(xp, *arrays, **attrs)
    except Exception as e:
        _explain_failure(op, arrays, attrs, e)

    record = needs_grad and op.grad is not None and _grad_state.enabled
    if op.n_out == 1 and op.simple:
        if out.__class__ is not _ndarray and xp is _np:  # NumPy ufuncs give scalars for 0-D inputs
            out = _np.asarray(out)
        result = wrap_array(out, place, not record)
        outs = (result,)
    else:
        if op.n_out == 1:
            out = (out,)
        outs = []
        for slot, o in zip(op.outputs, out):
            if isinstance(o, list):
                outs.append([wrap_array(xp.asarray(a), place, not record) for a in o])
            else:
                outs.append(wrap_array(xp.asarray(o), place, not record))
        result = outs[0] if op.n_out == 1 else tuple(outs)
    if record:
        _hooks["node"](op, inputs, attrs, outs)
    return result


def _not_tensor(op, slot_i, value, k=None):
    where = f"input '{op.inputs[slot_i]}'" + (f"[{k}]" if k is not None else "")
    raise TypeError(f"op '{op.type}': {where} must be a Tensor, received {type(value).__name__}")


def _mixed_places(op, slot_i, first, other):
    raise RuntimeError(f"op '{op.type}': input '{op.inputs[slot_i]}' is on {other} but another input is on "
                       f"{first}; move tensors with .cpu() / .cuda() before combining them")


def _explain_failure(op, arrays, attrs, error):
    """Re-raise a forward failure with the op's own shape rule's explanation when it has one."""
    metas = [None if a is None else
             [Meta(tuple(e.shape), e.dtype) for e in a] if isinstance(a, list) else Meta(tuple(a.shape), a.dtype)
             for a in arrays]
    try:
        op.infer(*metas, **attrs)
    except (ValueError, TypeError, IndexError) as rule_error:
        raise rule_error from error
    except Exception:
        pass
    shapes = ", ".join(f"{s}={list(m.shape) if isinstance(m, Meta) else m}" for s, m in zip(op.inputs, metas))
    raise type(error)(f"op '{op.type}' failed on inputs ({shapes}) with attrs {attrs}: {error}") from error
