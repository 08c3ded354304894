"""SqueezeNet 1.0 and 1.1 (Iandola et al. 2016): fire modules of 1x1 squeezes and 1x1/3x3 expansions."""
from ... import nn
from ... import tensor as T
from ...nn import functional as F
from ._utils import load_pretrained


class MakeFireConv(nn.Layer):
    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    def __init__(self, input_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return T.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# the fire modules (input, squeeze, expand 1x1, expand 3x3) and where each version pools between them
_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192), (48, 192, 192),
          (64, 256, 256), (64, 256, 256)]
_POOL_BEFORE = {"1.0": (4, 8), "1.1": (3, 5)}


class SqueezeNet(nn.Layer):
    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        self.version, self.num_classes, self.with_pool = version, num_classes, with_pool
        supported_versions = ["1.0", "1.1"]
        assert version in supported_versions, \
            f"supported versions are {supported_versions} but input version is {version}"
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2)
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        channels = 96 if version == "1.0" else 64
        for i, (squeeze, e1, e3) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{i}", MakeFire(channels, squeeze, e1, e3))
            channels = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        for i in range(1, 9):
            if i in _POOL_BEFORE[self.version]:
                x = self._pool(x)
            x = getattr(self, f"_conv{i}")(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = T.squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def squeezenet1_0(pretrained=False, **kwargs):
    return load_pretrained(SqueezeNet("1.0", **kwargs), "squeezenet1_0", pretrained)


def squeezenet1_1(pretrained=False, **kwargs):
    return load_pretrained(SqueezeNet("1.1", **kwargs), "squeezenet1_1", pretrained)
