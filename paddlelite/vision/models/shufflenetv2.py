"""ShuffleNetV2 (Ma et al. 2018): channel split, shuffle, and downsampling blocks, at six widths."""
from ... import nn
from ... import tensor as T
from ._utils import ConvNormActivation, load_pretrained


def create_activation_layer(act):
    if act not in (None, "relu", "swish"):
        raise RuntimeError(f"The activation function is not supported: {act}")
    return {None: None, "relu": nn.ReLU, "swish": nn.Swish}[act]


def channel_shuffle(x, groups):
    n, c, h, w = x.shape[0:4]
    x = T.transpose(T.reshape(x, shape=[n, groups, c // groups, h, w]), perm=[0, 2, 1, 3, 4])
    return T.reshape(x, shape=[n, c, h, w])


def _cna(cin, cout, kernel_size, stride, groups, activation_layer):
    return ConvNormActivation(cin, cout, kernel_size=kernel_size, stride=stride, padding=(kernel_size - 1) // 2,
                              groups=groups, activation_layer=activation_layer)


class InvertedResidual(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = _cna(in_channels // 2, half, 1, 1, 1, activation_layer)
        self._conv_dw = _cna(half, half, 3, stride, half, None)
        self._conv_linear = _cna(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs):
        x1, x2 = T.split(inputs, num_or_sections=[inputs.shape[1] // 2, inputs.shape[1] // 2], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(T.concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = _cna(in_channels, in_channels, 3, stride, in_channels, None)
        self._conv_linear_1 = _cna(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_pw_2 = _cna(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_dw_2 = _cna(half, half, 3, stride, half, None)
        self._conv_linear_2 = _cna(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(T.concat([x1, x2], axis=1), 2)


_STAGE_CHANNELS = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512],
                   0.5: [-1, 24, 48, 96, 192, 1024], 1.0: [-1, 24, 116, 232, 464, 1024],
                   1.5: [-1, 24, 176, 352, 704, 1024], 2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(nn.Layer):
    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        activation_layer = create_activation_layer(act)
        if scale not in _STAGE_CHANNELS:
            raise NotImplementedError("This scale size:[" + str(scale) + "] is not implemented!")
        channels = _STAGE_CHANNELS[scale]
        self._conv1 = ConvNormActivation(3, channels[1], kernel_size=3, stride=2, padding=1,
                                         activation_layer=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                block = (InvertedResidualDS(channels[stage + 1], channels[stage + 2], 2, activation_layer) if i == 0
                         else InvertedResidual(channels[stage + 2], channels[stage + 2], 1, activation_layer))
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(channels[-2], channels[-1], kernel_size=1, stride=1, padding=0,
                                             activation_layer=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(T.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet(arch, scale, act="relu"):
    def build(pretrained=False, **kwargs):
        return load_pretrained(ShuffleNetV2(scale=scale, act=act, **kwargs), arch, pretrained)
    build.__name__ = build.__qualname__ = arch
    build.__doc__ = f"ShuffleNetV2 at width {scale}" + (f" with {act}" if act != "relu" else "") + "."
    return build


shufflenet_v2_x0_25 = _shufflenet("shufflenet_v2_x0_25", 0.25)
shufflenet_v2_x0_33 = _shufflenet("shufflenet_v2_x0_33", 0.33)
shufflenet_v2_x0_5 = _shufflenet("shufflenet_v2_x0_5", 0.5)
shufflenet_v2_x1_0 = _shufflenet("shufflenet_v2_x1_0", 1.0)
shufflenet_v2_x1_5 = _shufflenet("shufflenet_v2_x1_5", 1.5)
shufflenet_v2_x2_0 = _shufflenet("shufflenet_v2_x2_0", 2.0)
shufflenet_v2_swish = _shufflenet("shufflenet_v2_swish", 1.0, "swish")
