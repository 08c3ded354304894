"""Transforms: invertible (or at least injective) maps y = f(x) with the log-determinant of their Jacobian, to
build TransformedDistribution and to reparameterise."""
import enum
import math
import typing

from .. import tensor as _pt
from ..nn import functional as _F
from ..tensor.tensor_args import is_tensor_like
from . import constraint, distribution, variable
from .distribution import sum_rightmost

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform", "IndependentTransform",
           "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform", "StackTransform",
           "StickBreakingTransform", "TanhTransform"]


class Type(enum.Enum):
    """How a transform maps its domain: one to one and onto, one to one, onto, or neither."""

    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type):
        return _type in (cls.BIJECTION, cls.INJECTION)


def _check_rank(value, rank, name):
    if not is_tensor_like(value):
        raise TypeError(f"Expected '{name}' is a Tensor or Real, but got {type(value)}.")
    if value.dim() < rank:
        raise ValueError(f"The dimensions of {name}({value.dim()}) should be grater than or equal to {rank}")


class Transform:
    """The base: forward/inverse, their log-det-Jacobians and the shapes they map. A call applies it to a
    tensor, wraps a distribution (TransformedDistribution) or chains a transform."""

    _type = Type.INJECTION

    def __init__(self):
        super().__init__()

    @classmethod
    def _is_injective(cls):
        return Type.is_injective(cls._type)

    def __call__(self, input):
        if isinstance(input, distribution.Distribution):
            from .transformed_distribution import TransformedDistribution
            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x):
        _check_rank(x, self._domain.event_rank, "x")
        return self._forward(x)

    def inverse(self, y):
        _check_rank(y, self._codomain.event_rank, "y")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x):
        """log |det dy/dx| at x."""
        _check_rank(x, self._domain.event_rank, "x")
        if not self._is_injective():
            raise NotImplementedError("forward_log_det_jacobian can't be implemented for non-injectivetransforms.")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y):
        """log |det dx/dy| at y."""
        _check_rank(y, self._codomain.event_rank, "y")
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape):
        if not isinstance(shape, typing.Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._forward_shape(shape)

    def inverse_shape(self, shape):
        if not isinstance(shape, typing.Sequence):
            raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")
        return self._inverse_shape(shape)

    @property
    def _domain(self):
        return variable.real

    @property
    def _codomain(self):
        return variable.real

    def _forward(self, x):
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y):
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x):
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobianis implemented. "
                                  "One of them is required.")

    def _call_inverse_log_det_jacobian(self, y):
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
                                  "One of them is required")

    def _forward_shape(self, shape):
        return shape

    def _inverse_shape(self, shape):
        return shape


class AbsTransform(Transform):
    """y = |x| (not injective: the inverse gives both preimages)."""

    _type = Type.SURJECTION

    def _forward(self, x):
        return x.abs()

    def _inverse(self, y):
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zero = _pt.zeros([], dtype=y.dtype)
        return zero, zero

    @property
    def _codomain(self):
        return variable.positive


class AffineTransform(Transform):
    """y = loc + scale * x."""

    _type = Type.BIJECTION

    def __init__(self, loc, scale):
        if not is_tensor_like(loc):
            raise TypeError(f"Expected 'loc' is a Tensor, but got {type(loc)}")
        if not is_tensor_like(scale):
            raise TypeError(f"Expected scale is a Tensor, but got {type(scale)}")
        self._loc, self._scale = loc, scale
        super().__init__()

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return self._loc + self._scale * x

    def _inverse(self, y):
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x):
        return _pt.abs(self._scale).log()

    def _forward_shape(self, shape):
        return tuple(_pt.broadcast_shape(_pt.broadcast_shape(shape, self._loc.shape), self._scale.shape))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The transforms applied in order."""

    def __init__(self, transforms):
        if not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected type of 'transforms' is Sequence, but got {type(transforms)}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All elements of transforms should be Transform type.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self):
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x):
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y):
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x):
        value = 0.0
        event_rank = self._domain.event_rank
        for t in self.transforms:
            value += sum_rightmost(t.forward_log_det_jacobian(x), event_rank - t._domain.event_rank)
            x = t.forward(x)
            event_rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape):
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape):
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return shape

    @property
    def _domain(self):
        domain = self.transforms[0]._domain
        event_rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            event_rank -= t._codomain.event_rank - t._domain.event_rank
            event_rank = max(event_rank, t._domain.event_rank)
        return variable.Independent(domain, event_rank - domain.event_rank)

    @property
    def _codomain(self):
        codomain = self.transforms[-1]._codomain
        event_rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            event_rank += t._codomain.event_rank - t._domain.event_rank
            event_rank = max(event_rank, t._codomain.event_rank)
        return variable.Independent(codomain, event_rank - codomain.event_rank)


class ExpTransform(Transform):
    """y = exp(x)."""

    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return variable.positive

    def _forward(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def _forward_log_det_jacobian(self, x):
        return x


class IndependentTransform(Transform):
    """`base` with its rightmost `reinterpreted_batch_rank` dims treated as event dims (their log-det summed)."""

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Transform):
            raise TypeError(f"Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError("Expected 'reinterpreted_batch_rank' is grater than zero, but got "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self):
        return self._base._is_injective()

    def _forward(self, x):
        if x.dim() < self._domain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.forward(x)

    def _inverse(self, y):
        if y.dim() < self._codomain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x):
        return sum_rightmost(self._base.forward_log_det_jacobian(x), self._reinterpreted_batch_rank)

    def _forward_shape(self, shape):
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape):
        return self._base.inverse_shape(shape)

    @property
    def _domain(self):
        return variable.Independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self):
        return variable.Independent(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """y = x ** power."""

    _type = Type.BIJECTION

    def __init__(self, power):
        if not is_tensor_like(power):
            raise TypeError(f"Expected 'power' is a tensor, but got {type(power)}")
        self._power = power
        super().__init__()

    @property
    def power(self):
        return self._power

    @property
    def _codomain(self):
        return variable.positive

    def _forward(self, x):
        return x.pow(self._power)

    def _inverse(self, y):
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x):
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape):
        return tuple(_pt.broadcast_shape(shape, self._power.shape))

    _inverse_shape = _forward_shape


def _event_shape_check(shape, event, name):
    if len(shape) < len(event):
        raise ValueError(f"Expected length of 'shape' is not less than {len(event)}, but got {len(shape)}")
    if tuple(shape[-len(event):]) != tuple(event):
        raise ValueError(f"Event shape mismatch, expected: {event}, but got {shape[-len(event):]}")


class ReshapeTransform(Transform):
    """Reshapes the event part of x from in_event_shape to out_event_shape."""

    _type = Type.BIJECTION

    def __init__(self, in_event_shape, out_event_shape):
        if not isinstance(in_event_shape, typing.Sequence) or not isinstance(out_event_shape, typing.Sequence):
            raise TypeError("Expected type of 'in_event_shape' and 'out_event_shape' is Sequence[int], but got "
                            f"'in_event_shape': {in_event_shape}, 'out_event_shape': {out_event_shape}")
        in_size, out_size = math.prod(in_event_shape), math.prod(out_event_shape)
        if in_size != out_size:
            raise ValueError(f"The numel of 'in_event_shape' should be 'out_event_shape', but got "
                             f"{in_size}!={out_size}")
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self):
        return self._in_event_shape

    @property
    def out_event_shape(self):
        return self._out_event_shape

    @property
    def _domain(self):
        return variable.Independent(variable.real, len(self._in_event_shape))

    @property
    def _codomain(self):
        return variable.Independent(variable.real, len(self._out_event_shape))

    def _forward(self, x):
        return x.reshape(tuple(x.shape)[:x.dim() - len(self._in_event_shape)] + self._out_event_shape)

    def _inverse(self, y):
        return y.reshape(tuple(y.shape)[:y.dim() - len(self._out_event_shape)] + self._in_event_shape)

    def _forward_shape(self, shape):
        _event_shape_check(shape, self._in_event_shape, "in")
        return tuple(shape[:-len(self._in_event_shape)]) + self._out_event_shape

    def _inverse_shape(self, shape):
        _event_shape_check(shape, self._out_event_shape, "out")
        return tuple(shape[:-len(self._out_event_shape)]) + self._in_event_shape

    def _forward_log_det_jacobian(self, x):
        return _pt.zeros(x.shape[:x.dim() - len(self._in_event_shape)], dtype=x.dtype)


class SigmoidTransform(Transform):
    """y = sigmoid(x)."""

    @property
    def _codomain(self):
        return variable.Variable(False, 0, constraint.Range(0.0, 1.0))

    def _forward(self, x):
        return _F.sigmoid(x)

    def _inverse(self, y):
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x):
        return -_F.softplus(-x) - _F.softplus(x)


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last axis (not injective: the inverse is log y)."""

    _type = Type.OTHER

    @property
    def _domain(self):
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self):
        return variable.Variable(False, 1, constraint.simplex)

    def _forward(self, x):
        x = (x - x.max(-1, keepdim=True)[0]).exp()
        return x / x.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()

    def _forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError(f"Expected length of shape is grater than 1, but got {len(shape)}")
        return shape

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """The i-th transform applied to the i-th slice of x along `axis`."""

    def __init__(self, transforms, axis=0):
        if not transforms or not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected 'transforms' is Sequence[Transform], but got {type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"Expected 'axis' is int, but got{type(axis)}.")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self):
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self):
        return self._transforms

    @property
    def axis(self):
        return self._axis

    def _map(self, value, method):
        self._check_size(value)
        return _pt.stack([getattr(t, method)(v) for v, t in zip(_pt.unstack(value, self._axis), self._transforms)],
                         self._axis)

    def _forward(self, x):
        return self._map(x, "forward")

    def _inverse(self, y):
        return self._map(y, "inverse")

    def _forward_log_det_jacobian(self, x):
        return self._map(x, "forward_log_det_jacobian")

    def _check_size(self, v):
        if not -v.dim() <= self._axis < v.dim():
            raise ValueError(f"Input dimensions {v.dim()} should be grater than stack transform axis {self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"Input size along {self._axis} should be equal to the length of transforms.")

    @property
    def _domain(self):
        return variable.Stack([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self):
        return variable.Stack([t._codomain for t in self._transforms], self._axis)


def _pad_last(value, before, after):
    """`value` padded with ones along its last axis."""
    return _F.pad(value, [0] * 2 * (len(value.shape) - 1) + [before, after], value=1)


class StickBreakingTransform(Transform):
    """R^K -> the (K+1)-simplex by stick breaking (each coordinate takes a sigmoid share of what is left)."""

    _type = Type.BIJECTION

    def _offset_log(self, size):
        return (size + 1 - _pt.ones([size]).cumsum(-1)).log()

    def _forward(self, x):
        z = _F.sigmoid(x - self._offset_log(x.shape[-1]))
        return _pad_last(z, 0, 1) * _pad_last((1 - z).cumprod(-1), 1, 0)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - _pt.ones([y_crop.shape[-1]]).cumsum(-1)
        return y_crop.log() - (1 - y_crop.cumsum(-1)).log() + offset.log()

    def _forward_log_det_jacobian(self, x):
        y = self.forward(x)
        x = x - self._offset_log(x.shape[-1])
        return (-x + _F.log_sigmoid(x) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] + 1)

    def _inverse_shape(self, shape):
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] - 1)

    @property
    def _domain(self):
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self):
        return variable.Variable(False, 1, constraint.simplex)


class TanhTransform(Transform):
    """y = tanh(x)."""

    _type = Type.BIJECTION

    @property
    def _codomain(self):
        return variable.Variable(False, 0, constraint.Range(-1.0, 1.0))

    def _forward(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def _forward_log_det_jacobian(self, x):
        return 2.0 * (math.log(2.0) - x - _F.softplus(-2.0 * x))
