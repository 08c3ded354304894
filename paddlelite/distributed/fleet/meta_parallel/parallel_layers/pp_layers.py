"""Descriptions of a pipeline's layers (LayerDesc, SharedLayerDesc: a layer class and its arguments, built where the
layer is placed) and PipelineLayer, which places them on pipeline stages: pipeline parallelism, which paddlelite
does not implement (unsupported.py)."""
from ....unsupported import PIPELINE, unsupported_class
from .....nn.layer.layers import Layer

__all__ = []


def _call_text(name, *args, **kwargs):
    """`name(arg, ..., key=value)`, Paddle's layer_to_str."""
    return f"{name}({', '.join([str(a) for a in args] + [f'{k}={v}' for k, v in kwargs.items()])})"


class LayerDesc:
    """A Layer subclass and the arguments to build it with (build_layer)."""

    def __init__(self, layer_func, *inputs, **kwargs):
        if not (isinstance(layer_func, type) and issubclass(layer_func, Layer)):
            raise TypeError("The input(layer_func) should be a derived class of Layer.")
        self.layer_func, self.inputs, self.kwargs = layer_func, inputs, kwargs

    def build_layer(self, **extra_kwargs):
        return self.layer_func(*self.inputs, **{**self.kwargs, **extra_kwargs})

    def __repr__(self):
        return _call_text(self.layer_func.__name__, *self.inputs, **self.kwargs)


class SharedLayerDesc(LayerDesc):
    """A layer built once under `key` and used wherever the key appears (through `forward_func(layer, x)` when
    given); `shared_weight_attr` names the parameters the uses share."""

    def __init__(self, key, layer_func, forward_func=None, shared_weight_attr="weight", *inputs, **kwargs):
        super().__init__(layer_func, *inputs, **kwargs)
        self.layer_name = key
        self.forward_func = forward_func
        if isinstance(shared_weight_attr, str):
            shared_weight_attr = [shared_weight_attr]
        if not isinstance(shared_weight_attr, list) or not all(isinstance(a, str) for a in shared_weight_attr):
            raise AssertionError(f"shared_weight_attr must be a str or a list of str, received {shared_weight_attr!r}")
        self.shared_weight_attr = shared_weight_attr


class LocalSharedLayerDesc(SharedLayerDesc):
    """Paddle's SharedLayerDesc for layers shared within one stage (the dualpipev schedule)."""


PipelineLayer = unsupported_class("paddle.distributed.fleet.meta_parallel", "PipelineLayer", PIPELINE)
