"""Gumbel(loc, scale): the law of the maximum of many draws (type-I extreme value)."""
import math

import numpy as np

from .. import tensor as _pt
from .cauchy import location_scale
from .transform import AffineTransform, ExpTransform
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .distribution import sample_by_rsample

_EULER = float(np.euler_gamma)


class Gumbel(TransformedDistribution):
    """The Gumbel distribution with cdf exp(-exp(-(x - loc) / scale)), as transforms of a uniform draw."""

    def __init__(self, loc, scale):
        self.loc, self.scale = location_scale(loc, scale)
        finfo = np.finfo(np.float32)
        self.base_dist = Uniform(_pt.full_like(self.loc, float(finfo.tiny)), _pt.full_like(self.loc,
                                                                                          float(1 - finfo.eps)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def variance(self):
        return _pt.pow(self.scale, 2) * _pt.full(self.loc.shape, math.pi * math.pi, dtype=self.scale.dtype) / 6

    @property
    def stddev(self):
        return _pt.sqrt(self.variance)

    def prob(self, value):
        y = (self.loc - value.astype(self.loc.dtype)) / self.scale.astype(self.loc.dtype)
        return _pt.exp(y - _pt.exp(y)) / self.scale.astype(y.dtype)

    def log_prob(self, value):
        return _pt.log(self.prob(value))

    def cdf(self, value):
        return _pt.exp(-_pt.exp(-(value - self.loc.astype(value.dtype)) / self.scale.astype(value.dtype)))

    def entropy(self):
        return _pt.log(self.scale) + 1 + _EULER

    sample = sample_by_rsample

    def rsample(self, shape=()):
        """loc - scale log(-log(u)), u the base uniform's draw: gradients reach loc and scale."""
        exp = ExpTransform()
        negate = AffineTransform(_pt.full(self.scale.shape, 0, dtype=self.loc.dtype), -_pt.ones_like(self.scale))
        to_gumbel = AffineTransform(self.loc, -self.scale)
        return to_gumbel.forward(exp.inverse(negate.forward(exp.inverse(self._base.sample(shape)))))
