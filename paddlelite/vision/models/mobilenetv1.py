"""MobileNetV1 (Howard et al. 2017): depthwise-separable convolutions, width multiplier `scale`."""
from ... import nn
from ... import tensor as T
from ._utils import ConvNormActivation, load_pretrained


class DepthwiseSeparable(nn.Layer):
    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, input channels, depthwise channels, output channels, stride), before `scale`
_BLOCKS = ([("conv2_1", 32, 32, 64, 1), ("conv2_2", 64, 64, 128, 2), ("conv3_1", 128, 128, 128, 1),
            ("conv3_2", 128, 128, 256, 2), ("conv4_1", 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 2)]
           + [(f"conv5_{i}", 512, 512, 512, 1) for i in range(1, 6)]
           + [("conv5_6", 512, 512, 1024, 2), ("conv6", 1024, 1024, 1024, 1)])


class MobileNetV1(nn.Layer):
    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2,
                                        padding=1)
        self.dwsl = [self.add_sublayer(name, DepthwiseSeparable(int(cin * scale), c1, c2, c1, stride, scale))
                     for name, cin, c1, c2, stride in _BLOCKS]
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(T.flatten(x, 1))
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs):
    return load_pretrained(MobileNetV1(scale=scale, **kwargs), f"mobilenetv1_{scale}", pretrained)
