"""Eager autograd: grad nodes, the backward engine, grad(), hooks, PyLayer, graph dumps."""
from ..framework.mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .api import backward, grad
from .functional import hessian, jacobian
from .node import set_record_call_stack
from .pylayer import PyLayer, PyLayerContext
from .saved_tensors_hooks import saved_tensors_hooks
from ..framework.tensor import Tensor as _Tensor
from . import tensor_methods as _tensor_methods

_tensor_methods.install(_Tensor)
Function = PyLayer

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "PyLayer", "PyLayerContext", "set_record_call_stack", "jacobian", "hessian",
           "Function", "saved_tensors_hooks"]
