"""AlexNet (Krizhevsky et al. 2012), its weights initialised U(-1/sqrt(fan_in), 1/sqrt(fan_in)) as Paddle does."""
import math

from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ...nn.initializer import Uniform
from ...nn.layer.param_attr import ParamAttr
from ._utils import load_pretrained


def _uniform(fan_in):
    stdv = 1.0 / math.sqrt(fan_in)
    return {"weight_attr": ParamAttr(initializer=Uniform(-stdv, stdv)),
            "bias_attr": ParamAttr(initializer=Uniform(-stdv, stdv))}


class ConvPoolLayer(nn.Layer):
    def __init__(self, input_channels, output_channels, filter_size, stride, padding, fan_in, groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, stride=stride, padding=padding,
                               groups=groups, **_uniform(fan_in))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        return self._pool(x if self.relu is None else self.relu(x))


class AlexNet(nn.Layer):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 3 * 11 * 11, act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 64 * 5 * 5, act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, **_uniform(192 * 3 * 3))
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, **_uniform(384 * 3 * 3))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 256 * 3 * 3, act="relu")
        if num_classes > 0:
            fan_in = 256 * 6 * 6
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, **_uniform(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, **_uniform(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, **_uniform(fan_in))

    def forward(self, inputs):
        x = F.relu(self._conv3(self._conv2(self._conv1(inputs))))
        x = self._conv5(F.relu(self._conv4(x)))
        if self.num_classes > 0:
            x = F.relu(self._fc6(self._drop1(T.flatten(x, start_axis=1, stop_axis=-1))))
            x = self._fc8(F.relu(self._fc7(self._drop2(x))))
        return x


def alexnet(pretrained=False, **kwargs):
    return load_pretrained(AlexNet(**kwargs), "alexnet", pretrained)
