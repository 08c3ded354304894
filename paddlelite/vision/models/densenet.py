"""DenseNet (Huang et al. 2016): 121/161/169/201/264 layers, pre-activation (BN-ReLU-conv) dense layers."""
import math

from ... import nn
from ... import tensor as T
from ...nn.initializer import Uniform
from ...nn.layer.param_attr import ParamAttr
from ._utils import load_pretrained


class BNACConvLayer(nn.Layer):
    """BatchNorm with activation, then a bias-free convolution."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return T.concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = [
            self.add_sublayer(f"{name}_{i + 1}", DenseLayer(num_channels + i * growth_rate, growth_rate, bn_size,
                                                             dropout)) for i in range(num_layers)]

    def forward(self, input):
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(nn.Layer):
    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """A bias-free convolution, then BatchNorm with activation."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


# layers: (initial features, growth rate, dense layers per block)
_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
          201: (64, 32, [6, 12, 48, 32]), 264: (64, 32, [6, 12, 64, 48])}


class DenseNet(nn.Layer):
    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        supported_layers = list(_SPECS)
        assert layers in supported_layers, f"supported layers are {supported_layers} but input layer is {layers}"
        num_features, growth_rate, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(3, num_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list, self.transition_func_list = [], []
        for i, num_layers in enumerate(block_config):
            self.dense_block_func_list.append(self.add_sublayer(
                f"db_conv_{i + 2}", DenseBlock(num_features, num_layers, bn_size, growth_rate, dropout,
                                               name=f"conv{i + 2}")))
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                self.transition_func_list.append(self.add_sublayer(
                    f"tr_conv{i + 2}_blk", TransitionLayer(num_features, num_features // 2)))
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(num_features, num_classes, weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)))

    def forward(self, input):
        conv = self.pool2d_max(self.conv1_func(input))
        for i, block in enumerate(self.dense_block_func_list):
            conv = block(conv)
            if i < len(self.transition_func_list):
                conv = self.transition_func_list[i](conv)
        y = self.batch_norm(conv)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(T.flatten(y, start_axis=1, stop_axis=-1))
        return y


def _densenet(layers):
    arch = f"densenet{layers}"

    def build(pretrained=False, **kwargs):
        return load_pretrained(DenseNet(layers=layers, **kwargs), arch, pretrained)
    build.__name__ = build.__qualname__ = arch
    build.__doc__ = f"DenseNet-{layers}."
    return build


densenet121, densenet161, densenet169 = _densenet(121), _densenet(161), _densenet(169)
densenet201, densenet264 = _densenet(201), _densenet(264)
