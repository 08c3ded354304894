"""What the model families share: channel rounding, the conv-norm-activation block, pretrained weights."""
from ... import nn
from ...framework.io import load


def _make_divisible(v, divisor=8, min_value=None):
    """v rounded to the nearest multiple of divisor, never more than 10% below v."""
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


class ConvNormActivation(nn.Sequential):
    """Conv2D, then norm_layer and activation_layer when given (paddle.vision.ops.ConvNormActivation)."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2D, activation_layer=nn.ReLU, dilation=1, bias=None):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation,
                            groups=groups, bias_attr=None if bias else False)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def load_pretrained(model, arch, pretrained):
    """pretrained: False (random init), or the path of a .pdparams file holding `arch`'s weights.

    Paddle downloads its weights; paddlelite never reaches the network, so True asks for the path."""
    if pretrained is False or pretrained is None:
        return model
    if pretrained is True:
        raise ValueError(f"paddle.vision.models.{arch}: pretrained=True needs the network to download the "
                         f"weights, which paddlelite does not do; pass pretrained='<path to {arch}.pdparams>' "
                         "(Paddle's file for this architecture) or load them with model.set_dict(paddle.load(path))")
    if not isinstance(pretrained, str):
        raise TypeError(f"paddle.vision.models.{arch}: pretrained must be a bool or a path to .pdparams, "
                        f"got {type(pretrained).__name__}")
    model.set_dict(load(pretrained))
    return model
