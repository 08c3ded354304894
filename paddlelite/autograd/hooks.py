"""Gradient hooks on tensors: a leaf keeps its hooks, a non-leaf's live on its producing node.

retain_grads() is one more hook in the same ordered table, as in Paddle: the retained gradient is the
one that reaches it, so hooks registered before it change what is retained, hooks after it do not.
"""
import itertools
import weakref

from ..framework.tensor import wrap_array

_ids = itertools.count()


class HookRemoveHelper:
    """Returned by register_hook; remove() is True the first time, False after."""

    def __init__(self, table):
        self._table = weakref.ref(table) if not isinstance(table, dict) else (lambda t=table: t)
        self._id = next(_ids)

    def remove(self):
        table = self._table()
        if table is not None and self._id in table:
            del table[self._id]
            return True
        return False


def _table_for(tensor):
    node = tensor._node
    if node is None:
        if tensor._hooks is None:
            tensor._hooks = {}
        return tensor._hooks
    if node.hooks is None:
        node.hooks = {}
    return node.hooks.setdefault(tensor._out_index, {})


def add_hook(tensor, fn):
    return add_hook_to(_table_for(tensor), fn)


def remove_hook(tensor, hook_id):
    """Remove the hook `hook_id` (a handle's id) from `tensor`; whether it was there."""
    return _table_for(tensor).pop(hook_id, None) is not None


def add_hook_to(table, fn):
    handle = HookRemoveHelper(table)
    table[handle._id] = fn
    return handle


class _Retain:
    """The hook retain_grads() adds: each backward replaces the tensor's `.grad` with the gradient
    arriving here (Paddle does not accumulate retained gradients of non-leaf tensors)."""

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = weakref.ref(tensor)

    def __call__(self, grad):
        t = self.tensor()
        if t is not None:
            t._grad = grad if grad._node is not None else wrap_array(grad._data, grad._place, grad.stop_gradient)
            t._grad_is_zeros = False


def retain(tensor):
    """Keep the gradient of a non-leaf tensor in `.grad` (a leaf keeps its own anyway)."""
    if tensor._node is None:
        return
    table = _table_for(tensor)
    if not any(isinstance(fn, _Retain) and fn.tensor() is tensor for fn in table.values()):
        table[next(_ids)] = _Retain(tensor)


# Paddle's backward final hooks (core.eager._add_backward_final_hook): called, in order, once the next backward or
# grad pass has finished, then forgotten
_final_hooks = []


def add_backward_final_hook(hook):
    if not callable(hook):
        raise TypeError(f"_add_backward_final_hook: hook must be callable, received {type(hook).__name__}")
    _final_hooks.append(hook)


def run_backward_final_hooks():
    hooks = list(_final_hooks)
    _final_hooks.clear()
    for hook in hooks:
        hook()

