"""Activation layers: thin wrappers over nn.functional."""
from .. import functional as F
from .layers import Layer

__all__ = ["ReLU", "ReLU6", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "LeakyReLU", "ELU", "SiLU",
           "Swish", "Hardswish", "Hardsigmoid", "Softplus", "Mish"]


class _Simple(Layer):
    _fn = None

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return getattr(F, self._fn)(x)

    def extra_repr(self):
        return self._name_suffix(sep="")


def _simple(cls_name, fn):
    return type(cls_name, (_Simple,), {"_fn": fn, "__doc__": f"Applies F.{fn} elementwise."})


ReLU = _simple("ReLU", "relu")
ReLU6 = _simple("ReLU6", "relu6")
Sigmoid = _simple("Sigmoid", "sigmoid")
Tanh = _simple("Tanh", "tanh")


class Silu(Layer):  # Paddle's class is called Silu; SiLU is its alias
    """Applies F.silu elementwise (into x's storage with inplace=True)."""

    def __init__(self, inplace=False, name=None):
        super().__init__()
        self._inplace = inplace
        self._name = name

    def forward(self, x):
        return F.silu(x, inplace=self._inplace)

    def extra_repr(self):
        return f"inplace={self._inplace}" + self._name_suffix()


SiLU = Silu
Swish = _simple("Swish", "swish")
Hardswish = _simple("Hardswish", "hardswish")
Hardsigmoid = _simple("Hardsigmoid", "hardsigmoid")
Mish = _simple("Mish", "mish")


class GELU(Layer):
    def __init__(self, approximate=False, name=None):
        super().__init__()
        self._approximate = approximate
        self._name = name

    def forward(self, x):
        return F.gelu(x, approximate=self._approximate)

    def extra_repr(self):
        return f"approximate={self._approximate}" + self._name_suffix()


class Softmax(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.softmax(x, axis=self._axis)

    def extra_repr(self):
        return f"axis={self._axis}" + self._name_suffix()


class LogSoftmax(Softmax):
    def forward(self, x):
        return F.log_softmax(x, axis=self._axis)


class LeakyReLU(Layer):
    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope
        self._name = name

    def forward(self, x):
        return F.leaky_relu(x, self._negative_slope)

    def extra_repr(self):
        return f"negative_slope={self._negative_slope}" + self._name_suffix()


class ELU(Layer):
    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.elu(x, self._alpha)

    def extra_repr(self):
        return f"alpha={self._alpha}" + self._name_suffix()


class Softplus(Layer):
    def __init__(self, beta=1, threshold=20, name=None):
        super().__init__()
        self._beta, self._threshold = beta, threshold
        self._name = name

    def forward(self, x):
        return F.softplus(x, self._beta, self._threshold)

    def extra_repr(self):
        return f"beta={self._beta}, threshold={self._threshold}" + self._name_suffix()
