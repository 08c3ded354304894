"""The underscore methods of Paddle's Tensor that Paddle's own tests and tutorials call (`x._to(...)`,
`x._is_shared_buffer_with(y)`, `x._md5sum()`, ...): private in Paddle, yet part of the surface real code uses.
(The autograd ones -- `_grad_ivar`, `_register_grad_hook`, `_remove_grad_hook` -- are in autograd/tensor_methods.py.)
"""
import hashlib

from ..device import place as _place_mod
from ..framework.tensor import Tensor, share_storage, storage_of, wrap_array
from ..framework.unallocated import Unallocated
from .manipulation import _check_tensor, _int


def _to(self, device=None, dtype=None, blocking=None):
    """Tensor.to under Paddle's internal name."""
    return self.to(device, dtype, blocking)


def _is_shared_buffer_with(self, other):
    """Whether this tensor and `other` view one storage."""
    _check_tensor(other, "Tensor._is_shared_buffer_with", "other")
    return storage_of(self._data)[0] is storage_of(other._data)[0]


def _copy_to(self, place, blocking=True):
    """A copy of the values on `place` (a new leaf that needs no gradient)."""
    moved = self._to_place(_place_mod.parse_place(place, "Tensor._copy_to"))
    data = moved._data.copy() if moved is self else moved._data
    return wrap_array(data, moved._place, True)


def _numel(self):
    return int(self._data.size)


def _is_initialized(self):
    """Whether the tensor holds values: all but a parameter created inside paddle.LazyGuard before initialize()."""
    return self._data.__class__ is not Unallocated


_is_dense_tensor_hold_allocation = _is_initialized


def _slice(self, begin_idx, end_idx):
    """Rows [begin_idx, end_idx) of the first axis, viewing this tensor's storage (outside autograd)."""
    begin_idx, end_idx = _int(begin_idx, "Tensor._slice", "begin_idx"), _int(end_idx, "Tensor._slice", "end_idx")
    if self._data.ndim == 0 or not 0 <= begin_idx <= end_idx <= self._data.shape[0]:
        raise ValueError(f"Tensor._slice: need 0 <= begin_idx <= end_idx <= {list(self._data.shape)[:1]}, received "
                         f"[{begin_idx}, {end_idx})")
    view = wrap_array(self._data[begin_idx:end_idx], self._place, True)
    share_storage(self, (view,))
    return view


_place_str = property(lambda self: str(self._place), doc="The place as text: 'Place(cpu)', 'Place(gpu:0)'.")


def _inplace_version(self):
    return self.inplace_version


def _bump_inplace_version(self):
    """Count one in-place change (as a write would)."""
    self._bump_version()


def _offset(self):
    """The byte offset of this view's first element in its storage."""
    return self.offset


def _md5sum(self):
    """The MD5 digest of the values' bytes, as hex."""
    return hashlib.md5(self._host().tobytes()).hexdigest()


def _share_buffer_to(self, dst):
    """Make `dst` view this tensor's storage (shape and dtype included)."""
    if not isinstance(dst, Tensor):
        raise TypeError(f"Tensor._share_buffer_to: dst must be a Tensor, received {type(dst).__name__}")
    dst._data, dst._place = self._data, self._place
    share_storage(self, (dst,))


_share_underline_tensor_to = _share_buffer_to


def _use_gpudnn(self, use_gpudnn=True):
    """The tensor itself: the choice between cuDNN and paddlelite's own kernels is made per op, not per tensor."""
    return self


def _unset_fake_empty(self):
    """Nothing to undo: paddlelite has no 'fake empty' tensors (Paddle's placeholder for skipped outputs)."""


def _local_value(self):
    """None: a dense tensor has no local shard (Paddle's value for a tensor that is not distributed)."""
    return None


EAGER_METHODS = ["_bump_inplace_version", "_copy_to", "_inplace_version", "_is_dense_tensor_hold_allocation",
                 "_is_initialized", "_is_shared_buffer_with", "_local_value", "_md5sum", "_numel", "_offset",
                 "_place_str", "_share_buffer_to", "_share_underline_tensor_to", "_slice", "_to", "_unset_fake_empty",
                 "_use_gpudnn"]
__all__ = []
