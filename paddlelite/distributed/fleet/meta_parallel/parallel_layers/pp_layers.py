"""Descriptions of a pipeline's layers (LayerDesc, SharedLayerDesc: a layer class and its arguments, built where the
layer is placed) and PipelineLayer, which builds them for its stage and runs them in order. paddlelite has one
pipeline stage (pipeline parallelism is not implemented: unsupported.py), so a PipelineLayer holds and runs every
layer, as Paddle's does with one stage; a model written for pipeline parallelism trains here as one Layer."""
import functools

from ....unsupported import PIPELINE, _message
from .....framework.random import seed as _seed
from .....framework.tensor import Tensor
from .....nn.layer.container import LayerDict
from .....nn.layer.layers import Layer
from ...recompute import recompute

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


def _not_implemented(what):
    return NotImplementedError(_message(f"paddle.distributed.fleet.meta_parallel.PipelineLayer with {what}", PIPELINE))


class PipelineLayer(Layer):
    """`layers` (Layers, LayerDescs, SharedLayerDescs, functions) run one after another on one stage: a Layer or a
    built LayerDesc is sublayer `str(index)`, a SharedLayerDesc's layer is built once under its key in
    `shared_layers` (later uses call `forward_func(layer, x)` when given); each built layer's parameters are drawn
    after paddle.seed(1234 + index), as Paddle's. `loss_fn` is kept for the training loop; `recompute_interval` k
    recomputes each run of k layers in backward (fleet.recompute)."""

    def __init__(self, layers, num_stages=None, topology=None, loss_fn=None, seg_method="uniform", recompute_interval=0,
                 recompute_ctx=None, num_virtual_pipeline_stages=None, use_cudagraph=False, use_dualpipev=False):
        super().__init__()
        if num_stages is None and topology is None:
            raise ValueError("should provide num_stages or topology")
        if topology is not None or num_stages != 1:
            raise _not_implemented(f"num_stages={num_stages}" if topology is None else "a topology")
        if (num_virtual_pipeline_stages or 1) > 1 or use_dualpipev:
            raise _not_implemented("virtual pipeline stages" if not use_dualpipev else "the dualpipev schedule")
        if recompute_interval > 0:
            if recompute_ctx is None:
                raise AssertionError("recompute_ctx must be not None for recompute.")
            if recompute_ctx.get("offload", False):
                raise _not_implemented("recompute_ctx offload (activations kept on the host)")
        self._loss_fn = loss_fn if isinstance(loss_fn, list) else [loss_fn]
        self._topo = None
        self._recompute_interval = recompute_interval
        self.recompute_ctx = recompute_ctx
        self.use_cudagraph = use_cudagraph
        self._base_seed = 1234
        self._num_stages, self._stage_id = 1, 0
        self._num_virtual_pipeline_stages = 1
        self._layers_desc = list(layers)
        self._num_layers = len(self._layers_desc)
        self._start_pos, self._end_pos = 0, self._num_layers - 1
        self.segment_parts = [0, self._num_layers]
        self.shared_layers = LayerDict()
        self.run_function = []
        for index, layer in enumerate(self._layers_desc):
            _seed(self._base_seed + index)
            if isinstance(layer, LocalSharedLayerDesc):
                raise _not_implemented("LocalSharedLayerDesc (the dualpipev schedule)")
            if isinstance(layer, Layer):
                self.add_sublayer(str(index), layer)
                self.run_function.append(layer)
            elif isinstance(layer, SharedLayerDesc):
                if layer.layer_name not in self.shared_layers:
                    self.shared_layers[layer.layer_name] = layer.build_layer()
                    for param in self.shared_layers[layer.layer_name].parameters():
                        if param.name in layer.shared_weight_attr:
                            param.is_firstly_shared = True
                shared = self.shared_layers[layer.layer_name]
                self.run_function.append(shared if layer.forward_func is None
                                         else functools.partial(layer.forward_func, shared))
            elif isinstance(layer, LayerDesc):
                model = layer.build_layer()
                self.add_sublayer(str(index), model)
                self.run_function.append(model)
            else:
                self.run_function.append(layer)

    def get_stage_from_index(self, layer_idx):
        if not 0 <= layer_idx < self._num_layers:
            raise AssertionError("layer_idx is out of bound")
        return 0

    def get_num_virtual_stages(self):
        return 1

    def get_model_chunks(self):
        return None

    def forward_function(self, start, end):
        def execute(*x):
            x = x[0] if len(x) == 1 else x
            for layer in self.run_function[start:end]:
                x = layer(x)
            return x
        return execute

    def forward(self, input, chunk_id=None):
        if chunk_id is not None:
            raise _not_implemented("model chunks (virtual pipeline stages)")
        if self._recompute_interval == 0:
            return self.forward_function(0, len(self.run_function))(input)
        for start in range(0, len(self.run_function), self._recompute_interval):
            end = min(start + self._recompute_interval, len(self.run_function))
            input = input if isinstance(input, tuple) else (input,)
            if self._need_recompute(self.run_function[start:end], input):
                input = recompute(self.forward_function(start, end), *input)
            else:
                input = self.forward_function(start, end)(*input)
        return input

    @staticmethod
    def _need_recompute(funcs, inputs):
        if not any(not x.stop_gradient for x in inputs if isinstance(x, Tensor)):
            return False
        return any(list(f.parameters()) for f in funcs if isinstance(f, Layer))
