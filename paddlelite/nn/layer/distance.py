"""PairwiseDistance: a layer over F.pairwise_distance."""
from .. import functional as F
from .layers import Layer

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Layer):
    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self):
        text = f"p={self.p}"
        if self.epsilon != 1e-6:
            text += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            text += f", keepdim={self.keepdim}"
        return text + (f", name={self.name}" if self.name is not None else "")
