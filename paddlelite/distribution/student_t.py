"""StudentT(df, loc, scale)."""
import math

from .. import tensor as _pt
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..static.framework import Variable
from . import distribution
from .distribution import check_sample_shape, check_type
from .gamma import Gamma


class StudentT(distribution.Distribution):
    """Student's t distribution, loc + scale * z / sqrt(chi2 / df), z standard normal, chi2 ~ Chi2(df)."""

    def __init__(self, df, loc, scale, name=None):
        if not in_dynamic_mode():
            for value, arg in ((df, "df"), (loc, "loc"), (scale, "scale")):
                check_type(value, arg, (float, Tensor, Variable), "StudentT")
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = self._broadcast_all(df, loc, scale)
        for value, arg in ((self.df, "df"), (self.scale, "scale")):
            if not bool((value >= 0.0).all()):
                raise ValueError(f"Every element of input parameter `{arg}` should be nonnegative.")
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, _pt.full_like(self.df, 0.5))

    @property
    def mean(self):
        return _pt.where(self.df > 1.0, self.loc, _pt.full_like(self.loc, fill_value=float("nan")))

    @property
    def variance(self):
        df = self.df.clone().detach()
        var = _pt.where(df > 2.0, self.scale.pow(2) * df / (df - 2), _pt.full_like(df, fill_value=float("nan")))
        return _pt.where((self.df <= 2.0).logical_and(self.df > 1.0), _pt.full_like(var, fill_value=float("inf")),
                         var)

    def _draw(self, shape, chi2):
        z = _pt.normal(shape=list(self._extend_shape(shape)))
        return self.loc + self.scale * z * _pt.rsqrt(chi2 / self.df)

    def sample(self, shape=()):
        check_sample_shape(shape)
        return self._draw(shape, self._chi2.sample(shape))

    def rsample(self, shape=()):
        """Reparameterised draws (the chi-squared part through the gamma's): gradients reach df, loc and scale."""
        check_sample_shape(shape)
        return self._draw(shape, self._chi2.rsample(shape))

    def entropy(self):
        df = self.df
        lbeta = _pt.lgamma(0.5 * df) + math.lgamma(0.5) - _pt.lgamma(0.5 * (df + 1))
        return (self.scale.log() + 0.5 * (df + 1) * (_pt.digamma(0.5 * (df + 1)) - _pt.digamma(0.5 * df))
                + 0.5 * df.log() + lbeta)

    def log_prob(self, value):
        value = self._check_values_dtype_in_probs(self.df, value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + _pt.lgamma(0.5 * self.df)
             - _pt.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * _pt.log1p(y ** 2.0 / self.df) - z

    def prob(self, value):
        return _pt.exp(self.log_prob(value))
