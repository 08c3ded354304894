"""paddle.jit.save / load: a traced model as an inference model, and TranslatedLayer to run it eagerly.

`save` writes the traced forward in paddle.static.save_inference_model's format (the program as JSON,
parameters in the pickle-free archive); `load` reads it back into a TranslatedLayer, a Layer whose
forward runs the loaded program as one run_program op -- so it also trains (its backward is appended
on load, its parameters are ordinary eager Parameters).
"""
import warnings

from ..device.place import current_place
from ..framework.tensor import Parameter, Tensor
from ..nn.layer.layers import Layer
from ..ops import apply
from ..ops.run_program import RUN_PROGRAM
from ..static.executor import Executor, Scope, scope_guard
from ..static.framework import Parameter as StaticParameter
from ..static.io import InferenceModelError, load_inference_model, save_inference_model
from .api import StaticFunction
from .program import partial_program

# the suffix of Paddle's file of extra variable facts beside `<path>.pdiparams` (jit.translated_layer's name; Paddle
# code imports it from there). paddlelite writes no such file: what it records stays in the program.
INFER_PARAMS_INFO_SUFFIX = ".pdiparams.info"


def save(layer, path, input_spec=None, **configs):
    """Trace `layer` (a Layer or a to_static function) with `input_spec` (or its last traced program) and write
    `<path>.pdmodel` / `<path>.pdiparams`."""
    api = "paddle.jit.save"
    partial = traced_program(layer, input_spec, api)
    outputs = selected_outputs(partial.outputs, configs.get("output_spec"), api)
    scope = Scope()
    for v, t in partial.captures:
        scope._values[v.name] = t._host()
    with scope_guard(scope):
        save_inference_model(path, partial.inputs, outputs, Executor("cpu"), program=partial.program)


def selected_outputs(outputs, output_spec, api):
    """The traced program's `outputs` that configs' `output_spec` keeps, as Paddle's jit.save picks them: each entry
    an output Tensor of the to_static forward (found by its name) or an output's position; a spec naming every
    output keeps them all in the program's order (warning of names it does not know)."""
    if output_spec is None:
        return list(outputs)
    if not isinstance(output_spec, (list, tuple)):
        raise TypeError(f"{api}: configs output_spec must be a list of output Tensors or positions, received "
                        f"{type(output_spec).__name__}")
    by_name = {v.name: v for v in outputs}
    if len(output_spec) == len(outputs) and not any(isinstance(s, int) for s in output_spec):
        for spec in output_spec:
            if getattr(spec, "name", None) not in by_name:
                warnings.warn(_UNKNOWN_OUTPUT % getattr(spec, "name", spec), stacklevel=3)
        return list(outputs)
    chosen = []
    for spec in output_spec:
        if isinstance(spec, int) and not isinstance(spec, bool):
            if not -len(outputs) <= spec < len(outputs):
                raise ValueError(f"{api}: output_spec position {spec} is out of range for the {len(outputs)} "
                                 "outputs of the forward")
            chosen.append(outputs[spec])
        elif getattr(spec, "name", None) in by_name:
            chosen.append(by_name[spec.name])
        else:
            raise ValueError(_UNKNOWN_OUTPUT % getattr(spec, "name", spec))
    return chosen


_UNKNOWN_OUTPUT = ("The tensor `%s` does not exists. Please make sure the name of example Tensor in configs.output_spec "
                   "is the output tensor of Layer.forward method.")


def traced_program(layer, input_spec, api):
    """The PartialProgram of `layer` (a Layer or a to_static function) traced for `input_spec`, or its last traced
    program when there is no input_spec: what jit.save and onnx.export write."""
    if isinstance(layer, Layer):
        static = layer.forward if isinstance(layer.forward, StaticFunction) else \
            StaticFunction(type(layer).forward).__get__(layer)
    elif isinstance(layer, StaticFunction):
        static = layer
    else:
        raise TypeError(f"{api}: layer must be a Layer or a to_static function, received {type(layer).__name__}")
    specs = input_spec if input_spec is not None else static.input_spec
    if specs is not None:
        return static.trace_specs(list(specs), api)
    if static._programs:
        return static.concrete_program
    raise ValueError(f"{api}: give input_spec (or call the model once) so there is a program to save")


def load(path, **configs):
    """The model `save` wrote, as a TranslatedLayer whose parameters are on the current device (as Paddle's)."""
    scope = Scope()
    with scope_guard(scope):
        program, feed_names, fetch_vars = load_inference_model(path, Executor())
    try:
        return TranslatedLayer(program, feed_names, [v.name for v in fetch_vars], scope._values)
    except Exception as e:  # noqa: BLE001 -- each op was checked as it was read; the whole still is no layer
        raise InferenceModelError(f"paddle.jit.load: '{path}.pdmodel' holds a program that cannot run as a layer "
                                  f"(its backward or parameters fail: {type(e).__name__}: {e})") from e


class TranslatedLayer(Layer):
    """A loaded inference program as a Layer: its persistable values are the Layer's parameters/buffers."""

    def __init__(self, program, feed_names, fetch_names, values):
        super().__init__()
        block = program.global_block()
        captures = []
        for name, array in values.items():
            var = block.var(name)
            attr = name.replace(".", "_")
            if isinstance(var, StaticParameter) and var.trainable:
                t = self.add_parameter(attr, Parameter(array, name))
            else:
                t = Tensor(array)
                t.name = name
                self.register_buffer(attr, t)
            captures.append((var, t))
        outputs = [block.var(n) for n in fetch_names]
        inputs = [block.var(n) for n in feed_names]
        for v in inputs:
            v.stop_gradient = False  # gradients reach the inputs that want them (program inputs: data vars)
        self._program = partial_program(program, inputs, captures, outputs, current_place())
        self._feed_names = list(feed_names)

    def forward(self, *inputs):
        if len(inputs) != len(self._feed_names):
            raise TypeError(f"TranslatedLayer: expected {len(self._feed_names)} inputs {self._feed_names}, "
                            f"received {len(inputs)}")
        for name, t in zip(self._feed_names, inputs):
            if not isinstance(t, Tensor):
                raise TypeError(f"TranslatedLayer: input '{name}' must be a Tensor, received {type(t).__name__}")
        params = [t for _, t in self._program.captures]
        outs, _ = apply(RUN_PROGRAM, list(inputs), params, program=self._program)
        return outs[0] if len(outs) == 1 else outs

    def program(self, method_name="forward"):
        return self._program.program
