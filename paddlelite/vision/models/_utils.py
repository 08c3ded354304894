"""What the model families share: channel rounding, the conv-norm-activation block, pretrained weights."""
import collections

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


class IntermediateLayerGetter(nn.LayerDict):
    """The direct children of `model` up to the last one `return_layers` names, run in registration order: the
    forward returns an OrderedDict {return_layers[name]: that child's output}. A Linear child (or one whose first
    sublayer is a Linear) gets its 4-D input flattened from dim 1, as Paddle's wrapper does."""

    def __init__(self, model, return_layers):
        if not set(return_layers).issubset(name for name, _ in model.named_children()):
            raise ValueError("return_layers are not present in model")
        wanted = {str(k) for k in return_layers}
        layers = collections.OrderedDict()
        for name, child in model.named_children():
            layers[name] = child
            wanted.discard(name)
            if not wanted:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x):
        out = collections.OrderedDict()
        for name, child in self.items():
            first = child.sublayers()[0] if child.sublayers() else None
            if x.ndim == 4 and (isinstance(child, nn.Linear) or isinstance(first, nn.Linear)):
                x = x.flatten(1)
            x = child(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
