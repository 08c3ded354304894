"""Gradient hooks on tensors: a leaf keeps its hooks, a non-leaf's live on its producing node."""
import itertools
import weakref

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


def add_hook_to(table, fn):
    handle = HookRemoveHelper(table)
    table[handle._id] = fn
    return handle


def retain(tensor):
    node = tensor._node
    if node.retained is None:
        node.retained = {}
    node.retained[tensor._out_index] = weakref.ref(tensor)
