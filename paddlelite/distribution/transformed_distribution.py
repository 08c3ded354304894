"""TransformedDistribution(base, transforms): the law of transforms applied in order to draws of `base`."""
import typing

from . import distribution, independent, transform
from .distribution import sum_rightmost


class TransformedDistribution(distribution.Distribution):
    """y = t_n(... t_1(x)), x ~ base; log_prob by the change of variables formula."""

    def __init__(self, base, transforms):
        if not isinstance(base, distribution.Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}.")
        if not isinstance(transforms, typing.Sequence):
            raise TypeError(f"Expected type of 'transforms' is Sequence[Transform] or Chain, but got "
                            f"{type(transforms)}.")
        if not all(isinstance(t, transform.Transform) for t in transforms):
            raise TypeError("All element of transforms must be Transform type.")
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = transform.ChainTransform(transforms)
        base_shape = base.batch_shape + base.event_shape
        if len(base_shape) < chain._domain.event_rank:
            raise ValueError(f"'base' needs to have shape with size at least {chain._domain.event_rank}, bug got "
                             f"{len(base_shape)}.")
        if chain._domain.event_rank > len(base.event_shape):
            base = independent.Independent(base, chain._domain.event_rank - len(base.event_shape))
        shape = chain.forward_shape(base.batch_shape + base.event_shape)
        event_rank = chain._codomain.event_rank + max(len(base.event_shape) - chain._domain.event_rank, 0)
        super().__init__(shape[:len(shape) - event_rank], shape[len(shape) - event_rank:])

    def sample(self, shape=()):
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape=()):
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        log_prob = 0.0
        y = value
        event_rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            event_rank += t._domain.event_rank - t._codomain.event_rank
            log_prob = log_prob - sum_rightmost(t.forward_log_det_jacobian(x), event_rank - t._domain.event_rank)
            y = x
        return log_prob + sum_rightmost(self._base.log_prob(y), event_rank - len(self._base.event_shape))
