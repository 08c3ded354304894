"""saved_tensors_hooks: user hooks that pack every tensor saved for backward and unpack it when used.

Grad nodes save their inputs and outputs (OpNode) or what `save_for_backward` received (PyLayer). While
a pair of hooks is registered, each saved tensor is replaced by a SavedTensor holding what pack_hook
returned; the backward pass calls unpack_hook when the gradient reads it. As in Paddle, one pair is
registered at a time, and nothing is packed for an op that records no grad node (no_grad, inputs
that stop gradient).
"""
import weakref

from ..framework.mode import is_grad_enabled
from ..framework.tensor import Tensor, wrap_array

_active = []  # [] or [(pack_hook, unpack_hook)]: the registered pair


class saved_tensors_hooks:
    """Context manager: inside it, tensors saved for backward go through pack_hook(tensor) -> anything,
    and come back through unpack_hook(packed) -> Tensor with the same values when backward uses them."""

    def __init__(self, pack_hook, unpack_hook):
        for name, fn in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(fn):
                raise TypeError(f"saved_tensors_hooks: {name} must be callable, received {type(fn).__name__}")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _active:
            raise ValueError("paddle.autograd.saved_tensors_hooks only one pair of hooks is allowed at a time; "
                             "leave the registered saved_tensors_hooks before entering another")
        _active.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc):
        _active.clear()


class SavedTensor:
    """A tensor saved for backward while hooks were registered: pack_hook's result, unpacked on use.
    `shape` and `dtype` stay readable without unpacking (zero gradients, graph dumps). It remembers the
    saved tensor's place in the graph (its node, or a weak reference to a leaf), so that a backward
    that builds a graph (create_graph=True) differentiates through the unpacked tensor as through the
    saved one."""

    __slots__ = ("packed", "unpack_hook", "box", "shape", "dtype", "node", "out_index", "leaf")

    def __init__(self, tensor):
        pack_hook, self.unpack_hook = _active[0]
        alias = tensor.detach()  # the same storage and version counter, a new Tensor (as Paddle hands over)
        alias.stop_gradient = tensor.stop_gradient  # what pack_hook sees of it is the saved tensor's
        self.box = alias._vbox
        self.shape, self.dtype = tensor._data.shape, tensor._data.dtype
        self.node, self.out_index = (None, 0) if tensor.stop_gradient else (tensor._node, tensor._out_index)
        self.leaf = weakref.ref(tensor) if self.node is None and not tensor.stop_gradient else None
        self.packed = pack_hook(alias)

    def unpack(self, api):
        t = self.unpack_hook(self.packed)
        if not isinstance(t, Tensor):
            raise ValueError(f"{api}: saved_tensors_hooks' unpack_hook must return a Tensor, "
                             f"received {type(t).__name__}")
        if tuple(t._data.shape) != tuple(self.shape):
            raise ValueError(f"{api}: saved_tensors_hooks' unpack_hook returned shape {list(t._data.shape)}, "
                             f"but the saved tensor has shape {list(self.shape)}")
        if not is_grad_enabled():  # a backward that records nothing: the values are all it needs
            return t
        if self.node is not None:  # the unpacked values, at the saved tensor's place in the graph
            t = t.detach()
            t._node, t._out_index, t.stop_gradient = self.node, self.out_index, False
            return t
        leaf = None if self.leaf is None else self.leaf()
        # a leaf's gradient must reach the leaf itself (its values are the unpacked ones, by contract)
        return leaf if leaf is not None else t


def packing():
    """Whether tensors saved for backward are packed now."""
    return bool(_active)


def pack_all(values):
    """`values` with each Tensor (also inside a list) replaced by its SavedTensor."""
    return [SavedTensor(v) if isinstance(v, Tensor) else
            [SavedTensor(e) if isinstance(e, Tensor) else e for e in v] if isinstance(v, (list, tuple)) else v
            for v in values]


def pack_arrays(arrays, place):
    """Saved output arrays as SavedTensors."""
    return [SavedTensor(wrap_array(a, place, True)) for a in arrays]
