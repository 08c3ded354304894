"""paddle.base.core: the parts of Paddle's C++ core module that Paddle code calls directly -- its places, the
VarDesc.VarType enum, LoDTensor (DenseTensor) and Scope, the flags as `globals()`, the build queries, its TF32
switches and set_num_threads.

`set_cublas_switch(False)` keeps float32 matmul-family GEMMs in full float32 on GPUs with TF32 tensor cores,
`set_cudnn_switch(False)` does the same for convolutions; both are on by default, as in Paddle's CUDA build
(paddlelite reads them in ops/math.matmul_array; NVIDIA_TF32_OVERRIDE=0 still turns TF32 off below either).
"""
import operator
import types

from ..device import threads as _threads
from ..device.info import (IPUPlace, XPUPlace, is_compiled_with_cinn, is_compiled_with_cuda,
                           is_compiled_with_custom_device, is_compiled_with_distribute, is_compiled_with_ipu,
                           is_compiled_with_rocm, is_compiled_with_xpu)
from ..autograd.hooks import add_backward_final_hook
from ..device.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place
from ..distributed.parallel import assign_group_by_size as eager_assign_group_by_size
from ..framework.flags import TF32, GlobalFlags
from ..framework.random import Generator, default_cpu_generator
from ..framework.tensor import Tensor as _EagerTensor
from ..framework.var_type import DataType, VarDesc
from ..static.binary_io import load_dense_tensor, load_selected_rows, save_dense_tensor, save_selected_rows
from ..static.executor import LoDTensor, Scope
from ..static import op_role as _op_role
from ..static.selected_rows import SelectedRows

DenseTensor = LoDTensor  # one class under both names, as Paddle 3 (core.LoDTensor is DenseTensor)
Tensor = DenseTensor  # core.Tensor is the runtime tensor, as in Paddle 3
# core.eager: the eager tensor class and the backward final hooks
eager = types.SimpleNamespace(Tensor=_EagerTensor, _add_backward_final_hook=add_backward_final_hook)
_globals = GlobalFlags()
# the names of the attributes every op carries, and the OpRole values of its op_role
op_proto_and_checker_maker = types.SimpleNamespace(
    OpRole=_op_role.OpRole, kOpRoleAttrName=lambda: _op_role.OP_ROLE_ATTR,
    kOpRoleVarAttrName=lambda: _op_role.OP_ROLE_VAR_ATTR, kOpDeviceAttrName=lambda: _op_role.OP_DEVICE_ATTR,
    kOpNameScopeAttrName=lambda: _op_role.OP_NAMESCOPE_ATTR, kOpCreationCallstackAttrName=lambda: _op_role.OP_CALLSTACK_ATTR,
    kOpWithQuantAttrName=lambda: _op_role.WITH_QUANT_ATTR)


def globals():  # noqa: A001  (Paddle's name)
    """The flags as a mapping: `core.globals()['FLAGS_check_nan_inf']`."""
    return _globals


def is_compiled_with_nccl():
    return is_compiled_with_cuda()


def is_compiled_with_mkldnn():
    return False


is_compiled_with_onednn = is_compiled_with_mkldnn


def _switch(library, api):
    def set_switch(on):
        if isinstance(on, (str, bytes)):  # Paddle's binding takes anything with a truth value but text
            raise TypeError(f"{api}: expected a bool, received {type(on).__name__}")
        TF32[library] = bool(on)
    return set_switch


set_cublas_switch = _switch("cublas", "set_cublas_switch")
set_cudnn_switch = _switch("cudnn", "set_cudnn_switch")


def get_cublas_switch():
    """Whether float32 matmul-family GEMMs may use TF32 tensor cores."""
    return TF32["cublas"]


def get_cudnn_switch():
    """Whether float32 convolutions may use TF32 tensor cores."""
    return TF32["cudnn"]


# Paddle's switches of its composite-op lowering (prim), forward and backward: accepted and reported back. paddlelite
# differentiates every op through the one registry, so the gradients are the same with them on or off.
_PRIM = {"forward": False, "backward": False}


def _set_prim_forward_enabled(enable):
    _PRIM["forward"] = bool(enable)


def _set_prim_backward_enabled(enable):
    _PRIM["backward"] = bool(enable)


def _set_prim_all_enabled(enable):
    _PRIM["forward"] = _PRIM["backward"] = bool(enable)


def _is_fwd_prim_enabled():
    return _PRIM["forward"]


def _is_bwd_prim_enabled():
    return _PRIM["backward"]


def _is_all_prim_enabled():
    return _PRIM["forward"] and _PRIM["backward"]


# Paddle's auto-tuning state (incubate.autotune.set_config): the kernel switch is FLAGS_use_autotune, its tuning range
# is kept here; layout tuning (NCHW -> NHWC for tensor cores) is accepted and off: paddlelite converts no layouts, so
# use_layout_autotune() is False, as on Paddle's builds without tensor cores
_AUTOTUNE_RANGE = [1, 10]


def set_autotune_range(start, end):
    _AUTOTUNE_RANGE[:] = [int(start), int(end)]


def enable_layout_autotune():
    pass


def disable_layout_autotune():
    pass


def use_layout_autotune():
    return False


def set_num_threads(num_threads):
    """The BLAS threads a large matrix product may use (device/threads.py; below 1 means 1). As Paddle's, it
    sets the math library directly and leaves FLAGS_paddle_num_threads as it was."""
    try:
        num_threads = operator.index(num_threads)
    except TypeError:  # Paddle's binding takes an int (a bool too) and nothing else
        raise TypeError(f"set_num_threads: expected an int, received {type(num_threads).__name__}")
    _threads.set_num_threads(num_threads)


__all__ = ["CPUPlace", "CUDAPinnedPlace", "CUDAPlace", "DataType", "DenseTensor", "Generator", "IPUPlace", "LoDTensor", "Place",
           "Scope", "SelectedRows", "VarDesc", "XPUPlace", "default_cpu_generator", "eager", "eager_assign_group_by_size",
           "get_cublas_switch", "get_cudnn_switch",
           "globals", "op_proto_and_checker_maker", "is_compiled_with_cinn", "is_compiled_with_cuda", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "is_compiled_with_ipu", "is_compiled_with_mkldnn", "is_compiled_with_nccl",
           "is_compiled_with_onednn", "is_compiled_with_rocm", "is_compiled_with_xpu", "set_cublas_switch",
           "set_cudnn_switch", "set_num_threads", "save_dense_tensor", "load_dense_tensor", "save_selected_rows",
           "load_selected_rows"]
