"""paddle.flops: the multiply-accumulate count of a network's forward, layer by layer (Paddle's counting rules)."""
import numpy as np

from .. import nn
from .. import tensor as T
from ..autograd import no_grad

__all__ = ["flops"]


def _numel(x):
    return int(np.prod(x.shape))


# Paddle's counting protocol: fn(layer, inputs, output) adds the layer's FLOPs to `layer.total_ops` (a buffer
# flops() gives each counted layer), so user `custom_ops` written for Paddle count here too.
def count_convNd(m, x, y):
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    m.total_ops += abs(int(_numel(y) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)))


def count_leaky_relu(m, x, y):
    m.total_ops += _numel(x[0])


def count_bn(m, x, y):
    if not m.training:
        m.total_ops += abs(2 * _numel(x[0]))


def count_linear(m, x, y):
    m.total_ops += abs(m.weight.shape[0] * _numel(y))


def count_avgpool(m, x, y):
    m.total_ops += _numel(y)


def count_adap_avgpool(m, x, y):
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * _numel(y)))


def count_zero_ops(m, x, y):
    m.total_ops += 0


register_hooks = {
    nn.Conv1D: count_convNd, nn.Conv2D: count_convNd, nn.Conv3D: count_convNd, nn.Conv1DTranspose: count_convNd,
    nn.Conv2DTranspose: count_convNd, nn.Conv3DTranspose: count_convNd, nn.BatchNorm2D: count_bn,
    nn.BatchNorm: count_bn, nn.ReLU: count_zero_ops, nn.ReLU6: count_zero_ops, nn.LeakyReLU: count_leaky_relu,
    nn.Linear: count_linear, nn.Dropout: count_zero_ops, nn.AvgPool1D: count_avgpool, nn.AvgPool2D: count_avgpool,
    nn.AvgPool3D: count_avgpool, nn.AdaptiveAvgPool1D: count_adap_avgpool, nn.AdaptiveAvgPool2D: count_adap_avgpool,
    nn.AdaptiveAvgPool3D: count_adap_avgpool,
}


def _table(rows):
    """Paddle's flops detail table: +---+ shelves, cells centred with str.center."""
    header = ["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"]
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) + 2 for i in range(len(header))]
    shelf = "".join("+" + "-" * w for w in widths) + "+"
    lines = ["".join("|" + c.center(w) for c, w in zip(row, widths)) + "|" for row in cells]
    return "\n".join([shelf, lines[0], shelf, *lines[1:], shelf])


def flops(net, input_size, custom_ops=None, print_detail=False):
    """Count the forward's FLOPs for an input of `input_size` (random normal); returns the total.

    Leaf layers of the types in `register_hooks` (or `custom_ops`: {Layer type: fn(layer, inputs, output)}
    adding to layer.total_ops, as in Paddle) are counted; others count as zero, with a note."""
    if not isinstance(net, nn.Layer):
        raise TypeError(f"paddle.flops: net must be a paddle.nn.Layer, got {type(net).__name__}")
    custom_ops = custom_ops or {}
    counted, hooks, seen = {}, [], set()

    def watch(layer):
        kind = type(layer)
        count = custom_ops.get(kind) or register_hooks.get(kind)
        if kind not in seen:
            seen.add(kind)
            if kind in custom_ops:
                print(f"Customize Function has been applied to {kind}")
            elif count is not None:
                print(f"{kind}'s flops has been counted")
            else:
                print(f"Cannot find suitable count function for {kind}. Treat it as zero FLOPs.")
        layer.register_buffer("total_ops", T.zeros([1], dtype="int64"))

        def hook(m, x, y):
            if count is not None:
                count(m, x, y)
            out = y[0] if isinstance(y, (list, tuple)) else y
            counted[id(m)] = [list(x[0].shape), list(out.shape), sum(_numel(p) for p in m.parameters())]
        hooks.append(layer.register_forward_post_hook(hook))

    leaves = [m for _, m in net.named_sublayers() if not list(m.children())] or [net]
    for m in leaves:
        watch(m)
    training = net.training
    net.eval()
    try:
        with no_grad():
            net(T.randn(input_size))
    finally:
        for h in hooks:
            h.remove()
        ops = {id(m): int(m.total_ops.numpy().sum()) for m in leaves}
        for m in leaves:
            delattr(m, "total_ops")
        if training:
            net.train()
    rows = [[m.full_name(), *counted[id(m)], ops[id(m)]] for m in leaves if id(m) in counted]
    total_ops = sum(r[4] for r in rows)
    total_params = sum(r[3] for r in rows)
    if print_detail:
        print(_table(rows))
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
