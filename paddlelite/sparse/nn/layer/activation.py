"""paddle.sparse.nn's activation layers."""
from ....nn.layer.layers import Layer
from .. import functional as F


class _Activation(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def extra_repr(self):
        return f"name={self._name}" if self._name else ""


class ReLU(_Activation):
    def forward(self, x):
        return F.relu(x, self._name)


class ReLU6(_Activation):
    def forward(self, x):
        return F.relu6(x, self._name)


class LeakyReLU(_Activation):
    def __init__(self, negative_slope=0.01, name=None):
        super().__init__(name)
        self._negative_slope = negative_slope

    def forward(self, x):
        return F.leaky_relu(x, self._negative_slope, self._name)


class Softmax(_Activation):
    def __init__(self, axis=-1, name=None):
        super().__init__(name)
        self._axis = axis

    def forward(self, x):
        return F.softmax(x, self._axis, self._name)
