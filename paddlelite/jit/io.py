"""paddle.jit.save / load: a traced model as an inference model, and TranslatedLayer to run it eagerly.

`save` writes the traced forward in paddle.static.save_inference_model's format (the program as JSON,
parameters in the pickle-free archive); `load` reads it back into a TranslatedLayer, a Layer whose
forward runs the loaded program as one run_program op -- so it also trains (its backward is appended
on load, its parameters are ordinary eager Parameters).
"""
import inspect
import os
import warnings

from ..device.place import current_place
from ..framework.tensor import Parameter, Tensor
from ..nn.layer.layers import Layer
from ..ops import apply
from ..ops.run_program import RUN_PROGRAM
from ..static.executor import Executor, Scope, scope_guard
from ..static.framework import Parameter as StaticParameter
from ..static.input import InputSpec
from ..static.io import InferenceModelError, load_inference_model, save_inference_model
from ..utils.layers_utils import flatten, pack_sequence_as
from .api import StaticFunction
from .program import partial_program

# the suffix of Paddle's file of extra variable facts beside `<path>.pdiparams` (jit.translated_layer's name; Paddle
# code imports it from there). paddlelite writes no such file: what it records stays in the program.
INFER_PARAMS_INFO_SUFFIX = ".pdiparams.info"


def save(layer, path, input_spec=None, **configs):
    """Trace `layer` (a Layer or a to_static function) with `input_spec` (or its last traced program) and write
    `<path>.pdmodel` / `<path>.pdiparams`."""
    api = "paddle.jit.save"
    if isinstance(layer, Layer) and input_spec is not None and _other_static_methods(layer):
        raise ValueError("If there are static functions other than 'forward' that need to be saved, the input "
                         f"'input_spec' should be None, but received the type of 'input_spec' is {type(input_spec)}.")
    if not os.path.basename(path):
        raise ValueError(f"{api}: the path must be dirname/file_prefix, received {path!r} (an empty file prefix)")
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    if configs.get("skip_forward", False):  # nothing else is saved: the other to_static methods are not written
        return
    partial, inputs = traced_program(layer, input_spec, api, configs.get("input_names_after_prune"))
    outputs = selected_outputs(partial.outputs, configs.get("output_spec"), api)
    scope = Scope()
    for v, t in partial.captures:
        scope._values[v.name] = t._host()
    with scope_guard(scope):
        save_inference_model(path, inputs, outputs, Executor("cpu"), program=partial.program)


def _other_static_methods(layer):
    """The names of `layer`'s to_static methods other than forward."""
    names = {n for n, v in vars(layer).items() if isinstance(v, StaticFunction)}
    names |= {n for klass in type(layer).__mro__ for n, v in vars(klass).items() if isinstance(v, StaticFunction)}
    return sorted(names - {"forward"})


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


def traced_program(layer, input_spec, api, names_after_prune=None):
    """(the PartialProgram of `layer` -- a Layer, a DataParallel of one, a to_static function or a plain one -- traced
    as Paddle's jit.save traces it, the program inputs to keep): what jit.save and onnx.export write.

    A forward already given to to_static is traced for its own input_spec (a compatible jit.save input_spec is then
    ignored, an incompatible one is a ValueError), else for jit.save's, else its last traced program is taken; jit.save's
    input_spec then picks the inputs to keep by name (only those in `names_after_prune` when it is given). Any other
    forward is traced for jit.save's input_spec."""
    from ..distributed.parallel import DataParallel
    inner = layer._layers if isinstance(layer, DataParallel) else layer
    specs = None if input_spec is None else _save_specs(input_spec, api)
    kept = specs if names_after_prune is None else \
        [s for s in specs or () if isinstance(s, InputSpec) and s.name in names_after_prune]
    if isinstance(inner, Layer):
        forward = inner.forward
        if isinstance(forward, StaticFunction):
            return _keep_inputs(forward.program_for_save(specs, api), kept, api)
        static = StaticFunction(type(inner).forward, _packed(input_spec, specs)).__get__(inner)
    elif isinstance(inner, StaticFunction):
        return _keep_inputs(inner.program_for_save(specs, api), kept, api)
    elif inspect.isfunction(inner):
        static = StaticFunction(inner, _packed(input_spec, specs))
    else:
        raise TypeError(f"{api}: layer must be a Layer or a function, received {type(layer).__name__}")
    partial = static.program_for_save(None, api)
    return partial, list(partial.inputs)


def _save_specs(input_spec, api):
    """jit.save's input_spec flattened, its Tensors and Variables as InputSpecs named after them."""
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"{api}: input_spec must be a list, received {type(input_spec).__name__}")
    return [InputSpec.from_tensor(v) if isinstance(v, Tensor) or getattr(v, "_is_variable", False) else v
            for v in flatten(list(input_spec))]


def _packed(input_spec, specs):
    return None if specs is None else pack_sequence_as(list(input_spec), specs)


_NAME_NONE = ("The %s's name is None. When using jit.save, please set InputSpec's name in to_static(input_spec=[]) "
              "and jit.save(input_spec=[]) and make sure they are consistent.")
_NAME_UNKNOWN = ("The tensor `%s` does not exists. Please make sure the name of InputSpec or example Tensor in "
                 "input_spec is the same as the name of InputSpec in `to_static` decorated on the Layer.forward "
                 "method.")


def _keep_inputs(partial, specs, api):
    """(partial, the inputs jit.save's InputSpecs keep): all of them when there are as many specs as inputs (names
    that match none only warn), else those the specs name."""
    inputs = list(partial.inputs)
    if specs is None:
        return partial, inputs
    specs = [s for s in specs if isinstance(s, InputSpec)]
    by_name = {v.name: v for v in inputs}
    if len(specs) == len(inputs):
        for s in specs:
            if s.name is None or s.name not in by_name:
                warnings.warn(_NAME_NONE % s if s.name is None else _NAME_UNKNOWN % s.name, stacklevel=4)
        return partial, inputs
    for s in specs:
        if s.name is None or s.name not in by_name:
            raise ValueError(f"{api}: " + (_NAME_NONE % s if s.name is None else _NAME_UNKNOWN % s.name))
    return partial, [by_name[s.name] for s in specs]


_LOAD_CONFIGS = ("model_filename", "params_filename")


def _check_load_configs(configs):
    """Paddle's checks of jit.load's configs; returns the keys given."""
    for key, value in configs.items():
        if key not in _LOAD_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.jit.load` is not supported.")
        if value is None:
            continue
        if not isinstance(value, str):
            raise TypeError(f"The config `{key}` should be str, but received input's type is {type(value)}.")
        if not value:
            raise ValueError(f"The config `{key}` is empty string.")
    return [key for key, value in configs.items() if value is not None]


def load(path, **configs):
    """The model `save` wrote, as a TranslatedLayer whose parameters are on the current device (as Paddle's)."""
    given = _check_load_configs(configs)
    scope = Scope()
    with scope_guard(scope):
        program, feed_names, fetch_vars = load_inference_model(path, Executor())
    for key in given:  # the files are the `path` prefix's, the one form `save` writes
        warnings.warn(f"When loading the result saved with the specified file prefix, the ``{key}`` config does "
                      "not take effect.")
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

    def _method(self, method_name):
        if method_name != "forward":  # save writes the forward only
            raise ValueError(f"The method `{method_name}` does not exist in loaded TranslatedLayer.")
        return self._program

    def program(self, method_name="forward"):
        """The loaded program of `method_name` (Paddle's infer program)."""
        return self._method(method_name).program

    def _input_spec(self, method_name="forward"):
        """InputSpecs of the loaded method's inputs (Paddle's TranslatedLayer._input_spec)."""
        return [InputSpec(v.shape, v.dtype, v.name) for v in self._method(method_name).inputs]

    def _output_spec(self, method_name="forward"):
        """InputSpecs of the loaded method's outputs (Paddle's TranslatedLayer._output_spec)."""
        return [InputSpec(v.shape, v.dtype, v.name) for v in self._method(method_name).outputs]
