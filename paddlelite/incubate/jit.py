"""paddle.incubate.jit.inference: run a Layer's forward (or a function) through an inference Predictor.

The first call traces the function for the shapes it is given (jit.to_static, saved by jit.save under
`save_model_dir/<function name>/infer`) and builds a paddle.inference Predictor over the files; later calls feed the
Predictor. A call whose tensor shapes differ from the traced ones re-traces with the differing dims made dynamic (-1),
as Paddle's engine does. With cache_static_model=True a model saved earlier (its traced shapes are recorded beside
it, in Paddle's `infer_d2s_input_info.txt`) is served without tracing. TensorRT, CINN and the IR-pass switches are
accepted and recorded (paddlelite's Executor compiles its own plan); float16/bfloat16 precision applies on the GPU.
"""
import functools
import inspect
import os
from pathlib import Path

from .. import inference as _inference
from ..device import is_compiled_with_cuda
from ..framework.tensor import Tensor
from ..jit.io import save
from ..nn.layer.layers import Layer
from ..static.input import InputSpec

__all__ = ["inference"]

_FIXED = (type(None), bool)  # arguments traced as constants (as Paddle, which takes no other)
_PRECISIONS = {"float32": _inference.PrecisionType.Float32, "float16": _inference.PrecisionType.Half,
               "bfloat16": _inference.PrecisionType.Bfloat16}


def _tensors(value, name):
    """The tensors argument `name` feeds (a Tensor, a list/tuple of them), or [value] for a constant."""
    if isinstance(value, Tensor) or isinstance(value, _FIXED):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, Tensor) for v in value):
        return list(value)
    raise TypeError(f"paddle.incubate.jit.inference: argument '{name}' must be a Tensor, a list or tuple of "
                    f"Tensors, None or a bool, received {type(value).__name__}")


class _Engine:
    """The traced shapes, the saved model and the Predictor of one decorated function."""

    def __init__(self, func, bound_to_layer, options):
        signature = inspect.signature(func)
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values()):
            raise ValueError(f"paddle.incubate.jit.inference: {func.__name__} must not take *args or **kwargs")
        self.func, self.bound_to_layer, self.options = func, bound_to_layer, options
        self.parameters = list(signature.parameters.values())
        directory = options["save_model_dir"] or os.path.join(Path.home(), ".cache", "paddle", "inference_models")
        self.directory = os.path.join(directory, func.__name__)
        self.path = os.path.join(self.directory, "infer")
        self.info_path = self.path + "_d2s_input_info.txt"
        self.shapes = self._recorded_shapes() if options["cache_static_model"] else None
        self.predictor = None

    def _recorded_shapes(self):
        if not (os.path.isfile(self.info_path) and os.path.isfile(self.path + ".pdmodel")):
            return None
        with open(self.info_path) as f:
            return [[int(d) for d in line.split(":", 1)[1].split(",") if d.strip()] for line in f if line.strip()]

    def arguments(self, args, kwargs):
        """[(parameter name, value)] of a call, the Layer of a decorated method left out."""
        bound = inspect.Signature(self.parameters).bind(*args, **kwargs)
        bound.apply_defaults()
        named = list(bound.arguments.items())
        return named[1:] if self.bound_to_layer else named

    def __call__(self, args, kwargs):
        named = self.arguments(args, kwargs)
        flat = [t for name, value in named for t in _tensors(value, name)]
        shapes = [list(t.shape) if isinstance(t, Tensor) else [] for t in flat]
        if self.shapes is None or self._widen(shapes):
            self.shapes = self.shapes or shapes
            self._trace(args, named)
            self.predictor = None
        if self.predictor is None:
            self.predictor = self._predictor()
        results = self.predictor.run([t for t in flat if isinstance(t, Tensor)])
        return results if len(results) > 1 else results[0]

    def _widen(self, shapes):
        """Make the traced dims that `shapes` differ in dynamic; True when the model must be traced again."""
        changed = False
        for traced, now in zip(self.shapes, shapes):
            if len(traced) != len(now):
                traced[:] = now
                changed = True
            for i, d in enumerate(now):
                if traced[i] not in (-1, d):
                    traced[i] = -1
                    changed = True
        return changed

    def _trace(self, args, named):
        """Trace the function over its arguments flattened (a list argument gives one input per Tensor) and save it."""
        shapes = iter(self.shapes)
        specs = []
        for name, value in named:
            if isinstance(value, Tensor):
                specs.append(InputSpec(next(shapes), value.dtype, name))
            elif isinstance(value, (list, tuple)):
                specs += [InputSpec(next(shapes), v.dtype, f"{name}_{i}") for i, v in enumerate(value)]
            else:
                next(shapes)
                specs.append(value)
        func, layer = self.func, args[0] if self.bound_to_layer else None
        sizes = [len(value) if isinstance(value, (list, tuple)) else None for _, value in named]

        class Flat(Layer):
            """The function over flat inputs, the decorated method's Layer held so its parameters are the model's."""

            def __init__(self):
                super().__init__()
                self.layer = layer

            def forward(self, *flat):
                rest, rebuilt = list(flat), []
                for size in sizes:
                    rebuilt.append(rest.pop(0) if size is None else [rest.pop(0) for _ in range(size)])
                return func(*([self.layer] if self.layer is not None else []), *rebuilt)
        os.makedirs(self.directory, exist_ok=True)
        save(Flat(), self.path, input_spec=specs)
        with open(self.info_path, "w") as f:
            f.writelines(f"{name}:{','.join(map(str, shape))}\n" for name, shape in zip(self._names(named), self.shapes))

    @staticmethod
    def _names(named):
        return [f"{name}_{i}" if isinstance(value, (list, tuple)) else name
                for name, value in named for i in range(len(_tensors(value, name)))]

    def _predictor(self):
        config = _inference.Config(self.path + ".pdmodel", self.path + ".pdiparams")
        config.enable_memory_optim(False)
        config.switch_ir_optim(self.options["switch_ir_optim"])
        if is_compiled_with_cuda():
            config.enable_use_gpu(self.options["memory_pool_init_size_mb"], 0,
                                  _PRECISIONS[self.options["precision_mode"]])
        return _inference.create_predictor(config)


def inference(function=None, cache_static_model=False, save_model_dir=None, memory_pool_init_size_mb=1000,
              precision_mode="float32", switch_ir_optim=True, switch_ir_debug=False, enable_cinn=False, with_trt=False,
              trt_precision_mode="float32", trt_use_static=False, collect_shape=False, enable_new_ir=False,
              exp_enable_use_cutlass=False, delete_pass_lists=None, skip_prune_program=False):
    """Serve `function` (a Layer, whose forward is replaced; a function; or, with no function, a decorator of a
    Layer's method) through a Predictor over its traced, saved model. Calls take Tensors, lists of Tensors and
    constants, as the function does, and return the Predictor's outputs (one Tensor, or the list of them)."""
    for arg, value in (("precision_mode", precision_mode), ("trt_precision_mode", trt_precision_mode)):
        if value not in _PRECISIONS:
            raise ValueError(f"paddle.incubate.jit.inference: {arg} must be one of {list(_PRECISIONS)}, "
                             f"received {value!r}")
    if getattr(function, "_paddlelite_inference", False):
        return function
    options = {"cache_static_model": bool(cache_static_model), "save_model_dir": save_model_dir,
               "memory_pool_init_size_mb": int(memory_pool_init_size_mb), "precision_mode": precision_mode,
               "switch_ir_optim": bool(switch_ir_optim)}

    def decorate(func, bound_to_layer):
        engine = _Engine(func, bound_to_layer, options)

        @functools.wraps(func)
        def served(*args, **kwargs):
            return engine(args, kwargs)
        served._paddlelite_inference = True
        return served

    if function is None:  # @inference(...) over a Layer's method: the Layer comes as the first argument
        return lambda func: decorate(func, bound_to_layer=True)
    if isinstance(function, Layer):
        function.forward = decorate(type(function).forward.__get__(function), bound_to_layer=False)
        return function
    return decorate(function, bound_to_layer=False)
