"""What a Tensor says about itself and a few whole-tensor methods: requires_grad(_), device, get_device, is_cuda,
stride, layout, data, grad_fn, apply(_), set_, resize_, fill_diagonal_(tensor)(_), softmax (Paddle's
torch-style spelling), and the sparse / distributed / C++-runtime names, which raise NotImplementedError
saying why (README.md, "Compatibility")."""
import numpy as np

from ..device import cuda
from ..framework.tensor import Tensor, share_storage
from ..framework.var_type import VarKind
from ..ops import activation as _act
from ..ops import dispatch
from ..static.executor import LoDTensor
from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from .aliases import _deliver
from .manipulation import _check_tensor, _int, _int_list
from .math import is_tensor  # noqa: F401  (a method too: x.is_tensor())
from .scattering import diagonal_scatter
from .diagonals import diagonal


# ---- autograd and place -------------------------------------------------------------------------
def _get_requires_grad(self):
    return not self.stop_gradient


def _set_requires_grad(self, value):
    self.stop_gradient = not bool(value)


requires_grad = property(_get_requires_grad, _set_requires_grad,
                         doc="Whether gradients flow to this tensor (not stop_gradient).")


def requires_grad_(self, requires_grad=True):
    """Set requires_grad in place; returns self."""
    self.stop_gradient = not bool(requires_grad)
    return self


grad_fn = property(lambda self: self._node, doc="The grad node that produced this tensor (None for a leaf).")
grad_ = property(lambda self: self.grad, doc="Paddle's second name for .grad.")


def _get_data(self):
    return self


def _set_data(self, value):
    _check_tensor(value, "Tensor.data", "value")
    self._data = value._data
    share_storage(value, [self])
    self._bump_version()


data = property(_get_data, _set_data, doc="The tensor itself; assigning another tensor makes this one share its "
                                           "values (shape and dtype included), outside autograd.")
device = property(lambda self: "cpu" if self.place.is_cpu_place() else f"gpu:{self.place.gpu_device_id()}",
                  doc="Where the tensor lives: 'cpu' or 'gpu:N'.")
is_cuda = property(lambda self: self.place.is_gpu_place(), doc="Whether the tensor lives on a GPU.")
layout = property(lambda self: "NCHW", doc="The data layout Paddle reports for a dense tensor ('NCHW').")
type = property(lambda self: VarKind.DENSE_TENSOR, doc="The tensor's kind: VarType.DENSE_TENSOR (as a static Variable's "
                                                         "type; it equals 'DENSE_TENSOR').")
block = property(lambda self: _global_block(), doc="The global block of the default main program.")
num_shard = property(lambda self: None, doc="None: a dense tensor is not sharded (Paddle's value).")
placements = property(lambda self: None, doc="None: a dense tensor has no distributed placements.")
process_mesh = property(lambda self: None, doc="None: a dense tensor has no process mesh.")


def _global_block():
    from ..static import default_main_program
    return default_main_program().global_block()


def get_device(self):
    """The GPU index the tensor lives on, -1 on the CPU."""
    return -1 if self.place.is_cpu_place() else self.place.gpu_device_id()


def pin_memory(self, blocking=True):
    """A copy in host memory for fast transfer to the GPU (needs CUDA, as in Paddle)."""
    from ..device import cuda
    if not cuda.is_available():
        raise RuntimeError("Tensor.pin_memory: pinned memory needs CUDA, and no CUDA device is available")
    return _creation.to_tensor(self.numpy(), place="cpu", stop_gradient=self.stop_gradient)


def stride(self, dim=None):
    """The element strides of this view onto its storage, or the stride of one dim."""
    strides = list(self.strides)
    if dim is None:
        return strides
    dim = _int(dim, "Tensor.stride", "dim")
    if not -len(strides) <= dim < len(strides):
        raise IndexError(f"Tensor.stride: dim must be in [{-len(strides)}, {len(strides)}), received {dim}")
    return strides[dim]


def _false(self):
    return False


is_dist = is_selected_rows = _false


def value(self):
    """The tensor itself (Paddle's dense value of a tensor)."""
    return self


class _Storage:
    """The one-variable scope a Tensor's get_tensor() view reads and writes: that Tensor's storage."""

    def __init__(self, tensor):
        self._values = self  # (the view reads and writes scope._values)
        self._lods = {}  # a Tensor's own storage carries no level-of-detail offsets
        self._tensor = tensor

    def get(self, name, default=None):
        return self._tensor._data

    def __setitem__(self, name, array):
        t = self._tensor
        array = cuda.as_module(t._place.xp, array)
        if tuple(array.shape) != tuple(t._data.shape) or array.dtype != t._data.dtype:
            raise ValueError(f"Tensor.get_tensor().set: the values must keep the tensor's shape {list(t._data.shape)} "
                             f"and dtype {t._data.dtype}, received {list(array.shape)} {array.dtype} (a paddlelite "
                             "tensor's storage is not reallocated)")
        t._write(array)


def get_tensor(self):
    """Paddle's DenseTensor of this tensor (`x.value().get_tensor()`): a view reading as its array (np.array(v),
    shape(), _dtype(), ...) whose set(array, place) writes the tensor's values."""
    return LoDTensor(_Storage(self), self.name)


# ---- whole-tensor methods -----------------------------------------------------------------------
def apply(self, func):
    """func(self), for a tensor outside autograd (RuntimeError when it requires gradients, as in Paddle)."""
    if not self.stop_gradient:
        raise RuntimeError("Tensor.apply: cannot apply a function to a tensor that requires gradients")
    return func(self)


def apply_(self, func):
    """self's values replaced by func(self) (same shape and dtype), outside autograd."""
    if not self.stop_gradient:
        raise RuntimeError("Tensor.apply_: cannot apply a function to a tensor that requires gradients")
    out = func(self)
    _check_tensor(out, "Tensor.apply_", "func(self)")
    return _manip.inplace_apply(self, "Tensor.apply_", lambda a: out)


def set_(x, source=None, shape=None, stride=None, offset=0, name=None):
    """x becomes a view of source's storage (shape/stride/offset as in as_strided; source's own layout by
    default; an empty float tensor when source is None)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"Tensor.set_: needs an eager Tensor, received {type(x).__name__}")
    if source is None:
        source = _creation.zeros([0], x.dtype)
    _check_tensor(source, "Tensor.set_", "source")
    if source.dtype != x.dtype:
        raise ValueError(f"Tensor.set_: source must have x's dtype {x.dtype.name}, received {source.dtype.name}")
    if shape is not None or stride is not None or offset:
        shape = list(source.shape) if shape is None else _int_list(shape, "Tensor.set_", "shape")
        stride = _contiguous_strides(shape) if stride is None else _int_list(stride, "Tensor.set_", "stride")
        source = _manip.as_strided(source, shape, stride, offset)
    x._data = source._data
    share_storage(source, [x])
    x._bump_version()
    return x


def _contiguous_strides(shape):
    return [int(np.prod(shape[d + 1:])) for d in range(len(shape))]


def resize_(x, shape, fill_zero=False, name=None):
    """x reshaped in place to `shape`, keeping its leading elements in order; new elements are zeros (Paddle
    leaves them uninitialised unless fill_zero)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"Tensor.resize_: needs an eager Tensor, received {type(x).__name__}")
    shape = _int_list(shape, "Tensor.resize_", "shape")
    if any(d < 0 for d in shape):
        raise ValueError(f"Tensor.resize_: shape entries must be >= 0, received {shape}")
    n, have = int(np.prod(shape)), x.size
    flat = _manip.flatten(x) if x.shape else _manip.reshape(x, [1])
    if n <= have:
        kept = _manip.slice(flat, [0], [0], [n])
    else:
        kept = _manip.concat([flat, _creation.zeros([n - have], x.dtype)])
    return _manip.inplace_layout(x, "Tensor.resize_", lambda a: _manip.reshape(kept.detach(), shape))


def _diagonal_mask(shape, offset, wrap):
    """The positions fill_diagonal_ writes, as Paddle's kernel walks them: for a matrix every (cols + 1)-th flat
    position (over the first cols rows, or all rows when wrap) shifted by offset within its row; for a
    higher-rank tensor (i, i, ..., i)."""
    mask = np.zeros(shape, dtype=bool)
    if len(shape) != 2:
        idx = np.arange(min(shape))
        mask[(idx,) * len(shape)] = True
        return mask
    cols = shape[1]
    size = mask.size if wrap else min(mask.size, cols * cols)
    starts = np.arange(0, size, cols + 1)
    column = starts % cols + offset if cols else starts
    keep = (column >= 0) & (column < cols)
    mask.reshape(-1)[starts[keep] + offset] = True
    return mask


def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """x with `value` written on its diagonal (offset `offset`; wrap restarts it down a tall matrix), in place."""
    _check_tensor(x, "fill_diagonal_")
    if len(x.shape) < 2:
        raise ValueError(f"fill_diagonal_: x must have at least 2 dimensions, received shape {list(x.shape)}")
    mask = _creation.to_tensor(_diagonal_mask(list(x.shape), _int(offset, "fill_diagonal_", "offset"), bool(wrap)))
    return _manip.inplace_apply(x, "fill_diagonal_", lambda a: _math.where(mask, _creation.full_like(a, value), a))


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """x with its `offset` diagonal over (dim1, dim2) replaced by y (shaped like paddle.diagonal's result)."""
    _check_tensor(x, "fill_diagonal_tensor")
    _check_tensor(y, "fill_diagonal_tensor", "y")
    want = list(diagonal(x, offset, dim1, dim2).shape)
    if list(y.shape) != want:  # AssertionError, as Paddle raises
        raise AssertionError(f"fill_diagonal_tensor: y must have shape {want}, received {list(y.shape)}")
    return diagonal_scatter(x, y, offset, dim1, dim2)


def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    """In-place fill_diagonal_tensor."""
    return _manip.inplace_apply(x, "fill_diagonal_tensor_",
                                lambda a: fill_diagonal_tensor(a, y, offset, dim1, dim2))


def softmax(input, dim=None, dtype=None, *, out=None):
    """softmax over dim (PyTorch's spelling Paddle 3.3.1 adopted; dim None: 0 for 0-, 1- and 3-D inputs, else 1)."""
    _check_tensor(input, "softmax", "input")
    ndim = len(input.shape)
    if dim is None:
        dim = 0 if ndim in (0, 1, 3) else 1
    dim = _int(dim, "softmax", "dim")
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise ValueError(f"softmax: dim must be in [{-max(ndim, 1)}, {max(ndim, 1)}), received {dim}")
    x = input if dtype is None else input.astype(dtype)
    return _deliver(dispatch.apply(_act.SOFTMAX, x, axis=dim), out)


# ---- names of Paddle's sparse tensors, distributed tensors and C++ runtime objects --------------------------
def _unsupported(name, why):
    def method(self, *args, **kwargs):
        raise NotImplementedError(f"Tensor.{name}: {why}")
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Not supported: {why}."
    return method


_RUNTIME = "this reaches into Paddle's C++ runtime objects, which paddlelite does not have"
UNSUPPORTED = {
    "rows": "SelectedRows (Paddle's row-sparse gradients) are not tensors here; paddle.sparse has COO and CSR",
    **{n: _RUNTIME for n in ("get_map_tensor", "get_selected_rows", "set_string_list", "set_tensor", "set_vocab")},
    "reconstruct_from_": "distributed tensors are not supported (paddle.distributed here is data parallel only)",
}
globals().update({name: _unsupported(name, why) for name, why in UNSUPPORTED.items()})

TENSOR_METHODS = ["fill_diagonal_tensor", "is_tensor", "softmax"]
# eager Tensors only: a static Variable has its own block, type, ... (methods.install)
EAGER_METHODS = ["apply", "apply_", "block", "data", "device", "fill_diagonal_", "fill_diagonal_tensor_", "get_device",
                 "grad_", "grad_fn", "is_cuda", "is_dist", "is_selected_rows", "layout", "num_shard", "pin_memory", "placements", "process_mesh",
                 "requires_grad", "requires_grad_", "resize_", "set_", "stride", "type", "value", "get_tensor", *UNSUPPORTED]
__all__ = ["softmax"]
