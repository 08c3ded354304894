"""The Tensor methods that belong to autograd (backward, register_hook, retain_grads, gradient).

framework.Tensor is a data holder on a lower floor and cannot import autograd; autograd installs
these methods on it instead, as tensor.methods.install does for the operators.
"""
from ..framework.tensor import Tensor
from . import api
from .hooks import add_hook, add_hook_to, remove_hook, retain


def retain_grads(self):
    """Keep this non-leaf tensor's gradient in `.grad` after backward (a no-op on leaves, as in Paddle,
    also while stop_gradient is still True: a leaf keeps its gradient once it requires one)."""
    retain(self)


def register_hook(self, hook):
    """Call `hook(grad)` when this tensor's gradient is computed; a returned Tensor replaces it."""
    if self.stop_gradient:
        raise RuntimeError("Tensor.register_hook: cannot register a hook on a tensor with "
                           "stop_gradient=True (no gradient is computed for it)")
    if not callable(hook):
        raise TypeError(f"Tensor.register_hook: hook must be callable, received {type(hook).__name__}")
    return add_hook(self, hook)


def _register_grad_hook(self, hook):
    """register_hook returning the hook's id (Paddle's internal form); `_remove_grad_hook(id)` removes it."""
    return register_hook(self, hook)._id


def _remove_grad_hook(self, hook_id):
    return remove_hook(self, hook_id)


def _grad_ivar(self):
    """The gradient tensor, or None (Paddle's internal name for `.grad`)."""
    return self.grad


def _register_backward_hook(self, hook):
    """Call `hook()` (no arguments) each time backward() has accumulated this leaf's gradient of the pass
    into `.grad` -- Paddle's hook for reducers such as DataParallel's gradient buckets."""
    if not callable(hook):
        raise TypeError(f"Tensor._register_backward_hook: hook must be callable, received {type(hook).__name__}")
    if self._node is not None:  # ValueError as Paddle's InvalidArgument
        raise ValueError("Tensor._register_backward_hook: only a leaf Tensor takes a backward hook; this one is the "
                         "output of an op")
    if self.stop_gradient:
        raise ValueError("Tensor._register_backward_hook: cannot register a backward hook on a Tensor that stops "
                         "gradient (stop_gradient=True)")
    if self._post_accumulate_hooks is None:
        self._post_accumulate_hooks = {}
    return add_hook_to(self._post_accumulate_hooks, hook)


def backward(self, grad_tensor=None, retain_graph=False, *, dump_backward_graph_path=None):
    if not isinstance(retain_graph, bool):  # TypeError as Paddle's Tensor.backward
        raise TypeError(f"Tensor.backward: retain_graph must be a bool, received {type(retain_graph).__name__}")
    if grad_tensor is not None:
        if not isinstance(grad_tensor, Tensor):  # AssertionError as Paddle; explicit so -O keeps it
            raise AssertionError(f"Tensor.backward: grad_tensor must be a Tensor, received "
                                 f"{type(grad_tensor).__name__}")
        if grad_tensor.shape != self.shape:
            raise AssertionError(f"Tensor.backward: grad_tensor shape {grad_tensor.shape} does not match the "
                                 f"tensor's shape {self.shape}")
    api.backward([self], None if grad_tensor is None else [grad_tensor], retain_graph,
             dump_backward_graph_path=dump_backward_graph_path)


def gradient(self):
    """The gradient as a NumPy array (None before any backward reached this tensor), as Paddle's
    legacy Tensor.gradient()."""
    grad = self.grad
    return None if grad is None else grad.numpy()


def install(cls):
    """Attach the autograd methods to the Tensor class."""
    cls.retain_grads = retain_grads
    cls.register_hook = register_hook
    cls._register_grad_hook = _register_grad_hook
    cls._remove_grad_hook = _remove_grad_hook
    cls._grad_ivar = _grad_ivar
    cls._register_backward_hook = _register_backward_hook
    cls._post_accumulate_hooks = None  # {handle_id: fn()} run after a backward accumulates into .grad
    cls.backward = backward
    cls.gradient = gradient
