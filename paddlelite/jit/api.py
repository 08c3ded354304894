"""paddle.jit.to_static and its switches: functions and Layers traced once per input signature.

The first call with a new signature (Tensor shapes/dtypes/stop_gradient, or the InputSpecs given,
the other arguments' values and the Layer's training flag) converts the function's Python control
flow (jit/convert.py) and traces it into a static program (jit/program.py); every call runs the
cached program as one `run_program` op, reading the Layer's parameters' current storage (shared, never
copied) and recording one grad node, so `loss.backward(); opt.step()` works as in eager mode.
"""
import contextlib
import functools
import inspect
import logging
import os
import threading
import weakref

import numpy as np

from ..device.graph_capture import replay_enabled
from ..device.place import current_place
from ..framework import mode as _mode
from ..framework.tensor import Tensor
from ..ops import apply
from ..ops import autocast as _autocast
from ..ops.run_program import RUN_PROGRAM
from ..static.input import InputSpec
from .dy2static.utils import _compatible_non_tensor_spec
from .convert import convert_function, explain_untraceable, ignored_modules, mark_not_to_static
from .program import trace
from ..utils import layers_utils
from ..utils.structure import flatten

_enabled = [True]
SOT_VARIABLE = "ENABLE_FALL_BACK"  # Paddle's name of its SOT switch
_log = logging.getLogger("paddlelite.jit")


def enable_to_static(enable_to_static_bool):
    """Turn to_static on or off globally: off, decorated functions run eagerly as written."""
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError("enable_to_static: enable_to_static_bool must be a bool, received "
                        f"{type(enable_to_static_bool).__name__}")
    _enabled[0] = enable_to_static_bool


@contextlib.contextmanager
def sot_mode_guard(value):
    """Paddle's switch between its bytecode tracer (SOT, value True) and AST conversion (False) inside the block, kept
    in Paddle's environment variable ENABLE_FALL_BACK. paddlelite converts by AST alone (full_graph=True's way) in
    either case: with value False the block runs as in Paddle; with True, as Paddle's full-graph mode."""
    if not isinstance(value, bool):
        raise TypeError(f"sot_mode_guard: value must be a bool, received {type(value).__name__}")
    before = os.environ.get(SOT_VARIABLE)
    os.environ[SOT_VARIABLE] = str(value)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SOT_VARIABLE, None)
        else:
            os.environ[SOT_VARIABLE] = before


def not_to_static(func=None):
    """Leave `func` as written: its Python control flow is not converted when a traced function calls it."""
    if func is None:
        return not_to_static
    return mark_not_to_static(func)


class StaticFunction:
    """A function (or a Layer's forward) run through its traced static programs."""

    def __init__(self, function, input_spec=None, build_strategy=None, backend=None, full_graph=True, **kwargs):
        if input_spec is not None:
            if not isinstance(input_spec, (list, tuple)):
                raise TypeError(f"to_static: input_spec must be a list or tuple of InputSpec, received "
                                f"{type(input_spec).__name__}")
            for k, s in enumerate(flatten(list(input_spec), lambda v: not isinstance(v, (list, tuple, dict)))[0]):
                if not isinstance(s, (InputSpec, Tensor, bool, int, float, str)) and s is not None:
                    raise TypeError(f"to_static: input_spec[{k}] must be an InputSpec, a Tensor or a constant (bool, "
                                    f"int, float, str, None), received {type(s).__name__}")
        self._function = function
        self._input_spec = None if input_spec is None else [
            InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in input_spec]
        self._instance = None
        self._programs = {}  # (signature key, n): (PartialProgram, rebuild), in the order traced
        self._recent = {}    # signature key: the entry its last call ran
        self._tracing = threading.RLock()  # threads calling with a new signature at once trace it once
        self._bound = weakref.WeakKeyDictionary()
        self.full_graph = full_graph
        self._build_strategy = build_strategy
        functools.update_wrapper(self, function)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = StaticFunction(self._function, self._input_spec, self._build_strategy, full_graph=self.full_graph)
            bound._instance = instance
            self._bound[instance] = bound
        return bound

    @property
    def dygraph_function(self):
        return self._function if self._instance is None else self._function.__get__(self._instance)

    @property
    def input_spec(self):
        return self._input_spec

    def __call__(self, *args, **kwargs):
        if not _enabled[0] or _mode.static_state.on:  # in static mode the function builds its ops directly
            return self.dygraph_function(*args, **kwargs)
        tensors, rebuild_args = _tensor_arguments(args, kwargs)
        specs = self._specs_for(args, tensors)
        key = self._key(rebuild_args, tensors, specs)
        entry = self._recent.get(key)
        if entry is None or not entry[0].traced_with_current_stop_gradients():
            entry = self._recent[key] = self._variant(key, args, kwargs, specs)
        partial, rebuild = entry
        outs, _saved = apply(RUN_PROGRAM, tensors, partial.capture_tensors, program=partial)
        for t, v in zip(outs, partial.outputs):  # as Paddle's: jit.save(output_spec=) finds outputs by these names
            t._name = v.name
        for t, value in partial.take_written():  # buffers the program updated (BatchNorm's running statistics)
            if value is t._data:  # updated in place (a GPU step: static.executor.FixedStep)
                t._bump_version()
            else:
                t._write(value)
        return rebuild(outs)

    def _variant(self, key, args, kwargs, specs):
        """The program traced for `key` whose captures (parameters, buffers, constants) still have the stop_gradient
        they had when it was traced (freezing a parameter changes the backward), traced now if there is none."""
        with self._tracing:
            for (k, _), entry in self._programs.items():
                if k == key and entry[0].traced_with_current_stop_gradients():
                    return entry
            entry = self._programs[key, len(self._programs)] = self._trace(args, kwargs, specs)
            return entry

    def _specs_for(self, args, tensors):
        if self._input_spec is None:
            return [None] * len(tensors)
        specs = [s for s in flatten(list(self._input_spec), lambda v: isinstance(v, InputSpec))[0]
                 if s is None or isinstance(s, InputSpec)]  # (constants in the spec are arguments, not Tensors)
        specs = specs + [None] * (len(tensors) - len(specs))
        for k, (t, s) in enumerate(zip(tensors, specs)):
            if s is None:
                continue
            shape = tuple(t._data.shape)
            if len(shape) != len(s.shape) or any(d not in (-1, n) for d, n in zip(s.shape, shape)):
                raise ValueError(f"to_static: Tensor argument {k} has shape {list(shape)}, which does not match "
                                 f"input_spec[{k}] shape {list(s.shape)} (-1 = any size)")
            if t.dtype != s.dtype:
                raise ValueError(f"to_static: Tensor argument {k} has dtype {t.dtype.name}, but input_spec[{k}] "
                                 f"says {s.dtype.name}")
        return specs

    def _key(self, rebuild_args, tensors, specs):
        sig = tuple((s.shape if s is not None else t._data.shape, t._data.dtype, t.stop_gradient)
                    for t, s in zip(tensors, specs))
        # the arguments that are no Tensors (None: Tensors only, a different key from any structure's)
        others = None if rebuild_args is None else repr(rebuild_args([None] * len(tensors)))
        # a Layer's mode changes the program (dropout, BatchNorm); which parameters train is checked on the
        # program found (_variant)
        training = getattr(self._instance, "training", None)
        # a program traced under auto_cast holds its casts: one program per autocast rule
        return sig, others, training, tensors[0]._place if tensors else None, _autocast.active_key()

    def _trace(self, args, kwargs, specs):
        fn = convert_function(self._function)
        if self._instance is not None:
            fn = fn.__get__(self._instance)
        place = args and isinstance(args[0], Tensor) and args[0]._place
        _log.info("to_static: tracing %s", getattr(self._function, "__qualname__", self._function))
        try:
            # BuildStrategy.allow_cuda_graph_capture (Paddle's switch) replays each GPU step from a CUDA graph; without
            # a BuildStrategy, graph_capture.REPLAY_BY_DEFAULT decides (PADDLELITE_CUDA_GRAPH=0 turns replays off)
            strategy = self._build_strategy
            cuda_graph = replay_enabled(None if strategy is None else getattr(strategy, "allow_cuda_graph_capture", False))
            return trace(fn, args, kwargs, specs, place or current_place(), cuda_graph)
        except TypeError as e:
            if _from_truth_value(e.__traceback__):
                raise explain_untraceable(e, e.__traceback__) from e
            raise

    def trace_specs(self, specs, api):
        """The program traced for `specs` (InputSpecs or Tensors for the Tensor arguments, also inside lists, tuples
        and dicts; other values -- a bool, an int, a str, None -- are passed to the function as they are, as
        Paddle's input_spec allows)."""
        leaves, rebuild = flatten(list(specs), lambda v: not isinstance(v, (list, tuple, dict)))
        values = []
        for k, s in enumerate(leaves):
            if isinstance(s, Tensor):
                s = InputSpec.from_tensor(s)
            if isinstance(s, InputSpec):
                values.append(Tensor(np.zeros([max(d, 1) for d in s.shape], dtype=s.dtype.np)))
            elif s is None or isinstance(s, (bool, int, float, str)):
                values.append(s)
            else:
                raise TypeError(f"{api}: input_spec entry {k} must be an InputSpec, a Tensor or a constant (bool, "
                                f"int, float, str, None), received {type(s).__name__}")
        args = rebuild(values)
        specs = leaves
        try:  # Paddle's FunctionSpec: arguments the specs leave out are a ValueError before any tracing
            inspect.signature(self.dygraph_function).bind(*args)
        except TypeError as e:
            raise ValueError(f"{api}: the input_spec does not fit `{self._function.__name__}()`: {e}") from None
        tensor_specs = [InputSpec.from_tensor(s) if isinstance(s, Tensor) else s for s in specs
                        if isinstance(s, (InputSpec, Tensor))]
        tensors, rebuild_args = _tensor_arguments(tuple(args), {})
        return self._variant(self._key(rebuild_args, tensors, tensor_specs), tuple(args), {}, tensor_specs)[0]

    def program_for_save(self, specs, api):
        """The program jit.save writes (Paddle's concrete_program_specify_input_spec): traced for the to_static
        input_spec when there is one (`specs`, jit.save's flattened input_spec, must be compatible with it), else for
        `specs`, else the last traced program."""
        if self._input_spec is not None:
            partial = self.trace_specs(list(self._input_spec), api)
            if specs is not None:
                # to_static's InputSpecs without a name are named after their arguments, as the program's inputs
                names = iter(v.name for v in partial.inputs)
                own = [InputSpec(s.shape, s.dtype, s.name or next(names), s.stop_gradient)
                       if isinstance(s, InputSpec) else s for s in layers_utils.flatten(list(self._input_spec))]
                if not _specs_compatible(specs, own):
                    raise ValueError(f"The `input_spec`: {specs} used to construct concrete_program is conflict with "
                                     f"the `input_spec`: {self._input_spec} in `@paddle.jit.to_static`")
            return partial
        if specs is not None:
            return self.trace_specs(specs, api)
        if self._programs:
            return next(reversed(self._programs.values()))[0]
        raise ValueError(f"{api}: no program to save for {getattr(self._function, '__qualname__', self._function)}: "
                         "give input_spec (to to_static or jit.save) or call the function once")

    @property
    def concrete_program(self):
        """The most recently traced program (Paddle's concrete_program.main_program); with an input_spec and nothing
        traced yet, the program traced for it."""
        if not self._programs:
            if self._input_spec is None:
                raise RuntimeError("to_static: call the function once (or give input_spec) before asking for its "
                                   "program")
            return self.trace_specs(self._input_spec, "to_static")
        return next(reversed(self._programs.values()))[0]

    @property
    def inputs(self):
        """The input variables of the traced program (Paddle's StaticFunction.inputs)."""
        return list(self.concrete_program.inputs)

    @property
    def outputs(self):
        """The output variables of the traced program (Paddle's StaticFunction.outputs)."""
        return list(self.concrete_program.outputs)

    def host_syncs(self):
        """A paddlelite extension (Paddle has no such inspection): the ops of the most recently traced program's
        forward and backward steps that read device values on the host, as [HostSync(op_type, reason, where)].
        Empty means a call runs its steps with no host synchronisation: each can be captured as a CUDA graph."""
        return self.concrete_program.host_syncs()

    def rollback(self):
        return self.dygraph_function


def _specs_compatible(specs, own):
    """Paddle's input_specs_compatible: jit.save's specs against to_static's (both flat). As many: each pair alike
    (InputSpecs of one rank and dtype whose known dims agree; other values equal); fewer or more: each of jit.save's
    is one of to_static's."""
    if len(specs) != len(own):
        return all(s in own for s in specs)
    for s, o in zip(specs, own):
        if isinstance(s, InputSpec) or isinstance(o, InputSpec):
            if not (isinstance(s, InputSpec) and isinstance(o, InputSpec) and len(s.shape) == len(o.shape)
                    and s.dtype == o.dtype
                    and all(a is None or b is None or a < 0 or b < 0 or a == b for a, b in zip(s.shape, o.shape))):
                return False
        elif not _compatible_non_tensor_spec(s, o):
            return False
    return True


def _tensor_arguments(args, kwargs):
    """(the Tensors among the arguments, flattened; the function rebuilding the arguments from them, None when the
    arguments are those Tensors alone)."""
    if not kwargs and all(isinstance(a, Tensor) for a in args):  # the usual call: no structure to flatten
        return list(args), None
    return flatten((args, kwargs), lambda v: isinstance(v, Tensor))


def _from_truth_value(tb):
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_name == "__bool__"


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, full_graph=True, **kwargs):
    """Trace `function` (a function, a method, or a Layer whose forward is replaced) into static programs."""
    def decorate(fn):
        from ..nn.layer.layers import Layer
        if isinstance(fn, Layer):
            forward = type(fn).forward
            forward = getattr(forward, "_function", forward)
            static = StaticFunction(forward, input_spec, build_strategy, backend, full_graph)
            fn.forward = static.__get__(fn)
            return fn
        if isinstance(fn, StaticFunction):
            if input_spec is None:
                return fn
            # a to_static function given an input_spec (net.forward = to_static(net.forward, input_spec=...))
            static = StaticFunction(fn._function, input_spec, build_strategy, backend, full_graph)
            return static if fn._instance is None else static.__get__(fn._instance)
        if not callable(fn):
            raise TypeError(f"to_static: expected a function or a Layer, received {type(fn).__name__}")
        return StaticFunction(fn, input_spec, build_strategy, backend, full_graph)
    return decorate if function is None else decorate(function)


def ignore_module(modules):
    """Functions of these modules are never converted (their Python control flow runs as written)."""
    if not isinstance(modules, (list, tuple)):
        raise TypeError(f"ignore_module: modules must be a list of modules, received {type(modules).__name__}")
    ignored_modules.extend(modules)


def set_code_level(level=100, also_to_stdout=False):
    """Log the converted source of each function to_static transforms (level > 0), as Paddle."""
    from . import convert
    convert.code_level[0] = int(level)
    convert.code_to_stdout[0] = bool(also_to_stdout)


def set_verbosity(level=0, also_to_stdout=False):
    """Log what to_static does (tracing, retracing) at `level` > 0."""
    _log.setLevel(logging.INFO if level > 0 else logging.WARNING)
    if also_to_stdout and not _log.handlers:
        _log.addHandler(logging.StreamHandler())
