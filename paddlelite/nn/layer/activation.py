"""Activation layers: thin wrappers over nn.functional."""
from .. import functional as F
from ..initializer import Constant
from .layers import Layer

__all__ = ["ReLU", "ReLU6", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "LeakyReLU", "ELU", "SiLU",
           "Swish", "Hardswish", "Hardsigmoid", "Softplus", "Mish", "Silu", "LogSigmoid", "Softsign", "Tanhshrink",
           "Softmax2D", "CELU", "Hardshrink", "Softshrink", "ThresholdedReLU", "GLU", "Maxout", "Hardtanh", "SELU",
           "PReLU", "RReLU"]


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


LogSigmoid = _simple("LogSigmoid", "log_sigmoid")
Softsign = _simple("Softsign", "softsign")
Tanhshrink = _simple("Tanhshrink", "tanhshrink")


class Softmax2D(_Simple):
    """Softmax over the channel axis of a [C, H, W] or [N, C, H, W] input."""

    def forward(self, x):
        if len(x.shape) not in (3, 4):
            raise AssertionError(f"Softmax2D requires a 3D or 4D tensor as input. Received: {len(x.shape)}D.")
        return F.softmax(x, axis=-3)


class _Configured(Layer):
    """An activation with keyword settings: forward calls F.<_fn>(x, **settings); printed as Paddle prints it."""
    _fn = None

    def __init__(self, name=None, **settings):
        super().__init__()
        self._settings = settings
        self._name = name

    def forward(self, x):
        return getattr(F, self._fn)(x, **self._settings)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._settings.items()) + self._name_suffix()


class CELU(_Configured):
    _fn = "celu"

    def __init__(self, alpha=1.0, name=None):
        super().__init__(name, alpha=alpha)


class Hardshrink(_Configured):
    _fn = "hardshrink"

    def __init__(self, threshold=0.5, name=None):
        super().__init__(name, threshold=threshold)


class Softshrink(Hardshrink):
    _fn = "softshrink"


class ThresholdedReLU(_Configured):
    _fn = "thresholded_relu"

    def __init__(self, threshold=1.0, value=0.0, name=None):
        super().__init__(name, threshold=threshold, value=value)


class GLU(_Configured):
    _fn = "glu"

    def __init__(self, axis=-1, name=None):
        super().__init__(name, axis=axis)


class Maxout(_Configured):
    _fn = "maxout"

    def __init__(self, groups, axis=1, name=None):
        super().__init__(name, groups=groups, axis=axis)


class Hardtanh(_Configured):
    _fn = "hardtanh"

    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__(name, min=min, max=max)


class SELU(_Configured):
    _fn = "selu"

    def __init__(self, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717, name=None):
        super().__init__(name, scale=scale, alpha=alpha)


class PReLU(Layer):
    """prelu with a learnable slope: one value, or one per channel (num_parameters), initialised to init."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW", name=None):
        super().__init__(dtype=None)  # the slope takes the default dtype, as in Paddle
        self._num_parameters, self._init, self._data_format = num_parameters, init, data_format
        self._name = name
        self._weight_attr = weight_attr
        self._weight = self.create_parameter([num_parameters], attr=weight_attr,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, "
                f"dtype={self._dtype}" + self._name_suffix())


class RReLU(Layer):
    """rrelu: random negative slopes in [lower, upper] while training, their mean in eval mode."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self._lower, self._upper = lower, upper
        self._name = name

    def forward(self, x):
        return F.rrelu(x, lower=self._lower, upper=self._upper, training=self.training)

    def extra_repr(self):
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, dtype={self._dtype}"
                + self._name_suffix())
