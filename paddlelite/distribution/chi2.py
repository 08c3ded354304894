"""Chi2(df): the sum of df squared standard normals, Gamma(df / 2, 1 / 2)."""
from .. import tensor as _pt
from ..framework.mode import in_dynamic_mode
from .gamma import Gamma

__all__ = ["Chi2"]


class Chi2(Gamma):
    """The chi-squared distribution with `df` degrees of freedom (positive)."""

    def __init__(self, df):
        self.df, self.dtype = self._float_parameter(df, "df", "Chi2")
        self.rate = _pt.full_like(self.df, 0.5)
        if in_dynamic_mode() and not bool(_pt.all(self.df > 0)):
            raise ValueError("The arg of `df` must be positive.")
        super().__init__(self.df * 0.5, self.rate)
