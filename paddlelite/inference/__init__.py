"""paddle.inference: Paddle Inference's Python API -- a Config naming a saved inference model, create_predictor, and a
Predictor fed and read through named Tensor handles -- serving the `.pdmodel`/`.pdiparams` files of `jit.save` and
`static.save_inference_model` (this library's or real Paddle's) with the static Executor, on the CPU or, after
`Config.enable_use_gpu`, the GPU.

A Predictor loads the model once into a scope of its own; `run()` feeds every input handle's array and leaves each
fetched value in its output handle; `run(inputs)` takes and returns Tensors in input and output order. Paddle's
graph-optimization switches (IR passes, memory optimization, MKLDNN, TensorRT) are recorded as asked and reported by
their getters: the Executor compiles its own plan whatever they say.
"""
import os

import numpy as np

from ..device import is_compiled_with_cuda
from ..device import threads as _threads
from ..device.place import Place
from ..framework.tensor import Tensor as _Tensor
from ..static.executor import Executor, Scope, scope_guard
from ..static.io import _load_persistables, read_model
from ..version import full_version
from .enums import DataType, PlaceType, PrecisionType
from .mixed_precision import convert_to_mixed_precision
from .phi_kernel_names import PHI_KERNEL_NAMES

__all__ = ["Config", "DataType", "PlaceType", "PrecisionType", "Predictor", "PredictorPool", "Tensor", "XpuConfig",
           "convert_to_mixed_precision", "create_predictor", "get_num_bytes_of_data_type", "get_trt_compile_version",
           "get_trt_runtime_version", "get_version"]


_DATA_TYPES = {"float32": DataType.FLOAT32, "int64": DataType.INT64, "int32": DataType.INT32, "uint8": DataType.UINT8,
               "int8": DataType.INT8, "float16": DataType.FLOAT16, "bool": DataType.BOOL, "float64": DataType.FLOAT64,
               "bfloat16": DataType.BFLOAT16}
_ITEM_SIZES = {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1, DataType.INT8: 1,
               DataType.FLOAT16: 2, DataType.BOOL: 1, DataType.FLOAT64: 8, DataType.BFLOAT16: 2}


def get_version():
    return f"version: {full_version}\npaddlelite inference (paddle.inference API)"


def get_num_bytes_of_data_type(dtype):
    return _ITEM_SIZES[DataType(dtype)]


def get_trt_compile_version():
    return (0, 0, 0)  # no TensorRT (as a Paddle built without it reports)


def get_trt_runtime_version():
    return (0, 0, 0)


class Config:
    """Where the model is and how to run it: Config(prog_file, params_file), Config(model_dir) (a directory holding
    inference.pdmodel / inference.json and inference.pdiparams), or Config() then set_model."""

    def __init__(self, prog_file=None, params_file=None):
        self._model_dir, self._prog_file, self._params_file = "", "", ""
        self._gpu, self._device_id, self._pool_mb, self._precision = False, 0, 0, PrecisionType.Float32
        self._switches = {"ir_optim": True, "memory_optim": False, "glog_info_disabled": False, "mkldnn": False,
                          "use_feed_fetch_ops": False}
        self._threads = 1
        if prog_file is not None:
            self.set_model(prog_file, params_file)

    def set_model(self, prog_file, params_file=None):
        api = "paddle.inference.Config"
        for arg, value in (("prog_file", prog_file), ("params_file", params_file)):
            if value is not None and not isinstance(value, (str, os.PathLike)):
                raise TypeError(f"{api}: {arg} must be a str, received {type(value).__name__}")
        if params_file is None:
            self._model_dir = os.fspath(prog_file)
        else:
            self._prog_file, self._params_file = os.fspath(prog_file), os.fspath(params_file)
            if not os.path.isfile(self._prog_file):
                raise RuntimeError(f"{api}: cannot open the model file '{self._prog_file}'")

    def set_prog_file(self, path):
        self._prog_file = os.fspath(path)

    def set_params_file(self, path):
        self._params_file = os.fspath(path)

    def model_dir(self):
        return self._model_dir

    def prog_file(self):
        return self._prog_file

    def params_file(self):
        return self._params_file

    def model_prefix(self, api):
        """The path prefix of the model files (`<prefix>.pdmodel`, `<prefix>.pdiparams`)."""
        if self._prog_file:
            prefix, ext = os.path.splitext(self._prog_file)
            if ext not in (".pdmodel", ".json") or self._params_file != prefix + ".pdiparams":
                raise ValueError(f"{api}: the model files must be <prefix>.pdmodel (or Paddle's PIR <prefix>.json) and "
                                 f"<prefix>.pdiparams, received '{self._prog_file}' and '{self._params_file}'")
            return prefix
        for name in ("inference", "model"):
            prefix = os.path.join(self._model_dir, name)
            if os.path.isfile(prefix + ".pdmodel") or os.path.isfile(prefix + ".json"):
                return prefix
        raise RuntimeError(f"{api}: no model: give Config(prog_file, params_file) or a model_dir holding "
                           f"inference.pdmodel or inference.json (received model_dir '{self._model_dir}')")

    def enable_use_gpu(self, memory_pool_init_size_mb, device_id=0, precision=PrecisionType.Float32):
        """Run on GPU `device_id` (where paddlelite has CUDA; like Paddle's CPU build, the CPU otherwise)."""
        self._gpu = is_compiled_with_cuda()
        self._pool_mb, self._device_id, self._precision = int(memory_pool_init_size_mb), int(device_id), precision

    def disable_gpu(self):
        self._gpu = False

    def use_gpu(self):
        return self._gpu

    def gpu_device_id(self):
        return self._device_id

    def memory_pool_init_size_mb(self):
        return self._pool_mb

    # Kunlun XPU: paddlelite runs on CPUs and NVIDIA GPUs, as a Paddle build without WITH_XPU
    def enable_xpu(self, *args, **kwargs):
        raise RuntimeError("Config.enable_xpu: paddlelite has no XPU support (it runs on CPUs and NVIDIA GPUs), as a "
                           "Paddle build without WITH_XPU")

    def use_xpu(self):
        return False

    def xpu_device_id(self):
        return 0

    def xpu_config(self):
        return XpuConfig()

    def set_xpu_config(self, config):
        raise RuntimeError("Config.set_xpu_config: should call enable_xpu before set_xpu_config (and paddlelite has "
                           "no XPU)")

    def set_xpu_device_id(self, device_id=0):
        raise RuntimeError("Config.set_xpu_device_id: should call enable_xpu before set_xpu_device_id (and "
                           "paddlelite has no XPU)")

    def set_cpu_math_library_num_threads(self, n):
        self._threads = max(1, int(n))

    def cpu_math_library_num_threads(self):
        return self._threads

    def switch_ir_optim(self, x=True):
        self._switches["ir_optim"] = bool(x)

    def ir_optim(self):
        return self._switches["ir_optim"]

    def enable_memory_optim(self, x=True):
        self._switches["memory_optim"] = bool(x)

    def memory_optim_enabled(self):
        return self._switches["memory_optim"]

    def disable_glog_info(self):
        self._switches["glog_info_disabled"] = True

    def glog_info_disabled(self):
        return self._switches["glog_info_disabled"]

    def enable_mkldnn(self):
        self._switches["mkldnn"] = True

    def mkldnn_enabled(self):
        return self._switches["mkldnn"]

    def switch_use_feed_fetch_ops(self, x=True):
        self._switches["use_feed_fetch_ops"] = bool(x)

    def use_feed_fetch_ops_enabled(self):
        return self._switches["use_feed_fetch_ops"]

    def summary(self):
        rows = [("model_dir", self._model_dir), ("prog_file", self._prog_file), ("params_file", self._params_file),
                ("use_gpu", self._gpu), ("gpu_device_id", self._device_id),
                ("cpu_math_thread", self._threads), *self._switches.items()]
        return "\n".join(f"{k}: {v}" for k, v in rows)


class XpuConfig:
    """The settings of a Kunlun XPU run (Paddle's names and defaults). paddlelite has no XPU, so no Config accepts
    one (`Config.set_xpu_config` raises as Paddle's does before `enable_xpu`), but the settings hold and check types
    as Paddle's do, for code that builds them."""

    _DEFAULTS = {"device_id": 0, "l3_size": 0, "l3_ptr": None, "l3_autotune_size": 0, "context_gm_size": -1,
                 "context": None, "stream": None, "conv_autotune_level": 0, "conv_autotune_file": "",
                 "conv_autotune_file_writeback": False, "fc_autotune_level": 0, "fc_autotune_file": "",
                 "fc_autotune_file_writeback": False, "gemm_compute_precision": 1,
                 "transformer_softmax_optimize_level": 0, "transformer_encoder_adaptive_seqlen": True,
                 "quant_post_static_gelu_out_threshold": 10.0, "quant_post_dynamic_activation_method": 0,
                 "quant_post_dynamic_weight_precision": 1, "quant_post_dynamic_op_types": []}
    __slots__ = tuple(_DEFAULTS)

    def __init__(self):
        for name, value in self._DEFAULTS.items():
            object.__setattr__(self, name, list(value) if isinstance(value, list) else value)

    def __setattr__(self, name, value):
        default = self._DEFAULTS.get(name, ...)
        if default is ...:
            raise AttributeError(f"'XpuConfig' object has no attribute '{name}'")
        kind = type(default)
        if default is not None and not (isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
                                        or kind is float and isinstance(value, int) and not isinstance(value, bool)):
            raise TypeError(f"XpuConfig.{name}: expected {kind.__name__}, received {type(value).__name__}")
        object.__setattr__(self, name, float(value) if kind is float else value)


def _get_phi_kernel_name(op_type):
    """The name of the phi kernel that legacy operator type `op_type` runs (Paddle's op-compat table)."""
    if not isinstance(op_type, str):
        raise TypeError(f"_get_phi_kernel_name: op_type must be a str, received {type(op_type).__name__}")
    return PHI_KERNEL_NAMES.get(op_type, op_type)


class Tensor:
    """A named input or output of a Predictor (Paddle's paddle.inference.Tensor)."""

    def __init__(self, name, api):
        self._name, self._api, self._array, self._shape = name, api, None, [0]

    def name(self):
        return self._name

    def reshape(self, shape):
        if not isinstance(shape, (list, tuple)) or not all(isinstance(d, (int, np.integer)) and d >= 0 for d in shape):
            raise TypeError(f"{self._api}.reshape: shape must be a list of non-negative ints, received {shape!r}")
        self._shape = [int(d) for d in shape]

    def copy_from_cpu(self, data):
        if not isinstance(data, np.ndarray):
            raise TypeError(f"{self._api}.copy_from_cpu: data must be a numpy.ndarray, received "
                            f"{type(data).__name__}")
        if str(data.dtype) not in _DATA_TYPES:
            raise TypeError(f"{self._api}.copy_from_cpu: data of dtype {data.dtype} is none of Paddle Inference's "
                            f"{sorted(_DATA_TYPES)}")
        self._array = np.array(data, copy=True)
        self._shape = list(data.shape)

    def copy_to_cpu(self):
        if self._array is None:
            raise RuntimeError(f"{self._api}.copy_to_cpu: '{self._name}' holds no value yet (run the predictor)")
        return np.array(self._array, copy=True)

    def shape(self):
        return list(self._shape)

    def type(self):
        return DataType.FLOAT32 if self._array is None else _DATA_TYPES[str(self._array.dtype)]

    def lod(self):
        return []

    def set_lod(self, lod):
        if lod not in ([], [[]]):
            raise ValueError(f"{self._api}.set_lod: paddlelite's tensors have no level of detail, received {lod!r}")


class Predictor:
    """A loaded inference model, ready to run."""

    def __init__(self, config):
        api = "paddle.inference.create_predictor"
        if not isinstance(config, Config):
            raise TypeError(f"{api}: config must be a paddle.inference.Config, received {type(config).__name__}")
        self._config = config
        self._place = Place("gpu", config.gpu_device_id()) if config.use_gpu() else Place("cpu")
        program, self._feeds, self._fetches, values = read_model(config.model_prefix(api), api)
        self._program, self._scope, self._exe = program, Scope(), Executor(self._place)
        with scope_guard(self._scope):
            _load_persistables(program, values, self._exe, "the parameters", "the model", api)
        self._inputs = {n: Tensor(n, "paddle.inference.Tensor") for n in self._feeds}
        self._outputs = {n: Tensor(n, "paddle.inference.Tensor") for n in self._fetches}

    def get_input_names(self):
        return list(self._feeds)

    def get_output_names(self):
        return list(self._fetches)

    def _handle(self, table, name, what):
        if name not in table:
            raise RuntimeError(f"paddle.inference.Predictor.get_{what}_handle: the model has no {what} '{name}'; its "
                               f"{what}s are {list(table)}")
        return table[name]

    def get_input_handle(self, name):
        return self._handle(self._inputs, name, "input")

    def get_output_handle(self, name):
        return self._handle(self._outputs, name, "output")

    def run(self, inputs=None):
        """Run on the input handles' values (or on `inputs`, Tensors in get_input_names() order, returning the
        outputs as Tensors)."""
        if inputs is not None:
            if not isinstance(inputs, (list, tuple)) or len(inputs) != len(self._feeds) or \
                    not all(isinstance(t, _Tensor) for t in inputs):
                raise TypeError(f"paddle.inference.Predictor.run: inputs must be a list of {len(self._feeds)} "
                                f"Tensors (inputs {self._feeds}), received {inputs!r:.80}")
            for name, t in zip(self._feeds, inputs):
                self._inputs[name].copy_from_cpu(t.numpy())
        missing = [n for n, h in self._inputs.items() if h._array is None]
        if missing:
            raise RuntimeError(f"paddle.inference.Predictor.run: inputs {missing} have no value (copy_from_cpu)")
        before = _threads.num_threads()
        _threads.set_num_threads(self._config.cpu_math_library_num_threads())
        try:
            outs = self._exe.run(self._program, feed={n: h._array for n, h in self._inputs.items()},
                                 fetch_list=list(self._fetches), scope=self._scope)
        finally:
            _threads.set_num_threads(before)
        for name, value in zip(self._fetches, outs):
            self._outputs[name]._array = np.asarray(value)
            self._outputs[name]._shape = list(np.shape(value))
        if inputs is not None:
            return [_Tensor(np.asarray(v)) for v in outs]
        return None

    def clone(self):
        """A predictor of the same model with its own scope and handles."""
        return Predictor(self._config)

    def clear_intermediate_tensor(self):
        """Temporaries live only during run() here: nothing to clear."""

    def try_shrink_memory(self):
        return 0


def create_predictor(config):
    return Predictor(config)


class PredictorPool:
    """`size` predictors of one Config (Paddle's pool for serving threads)."""

    def __init__(self, config, size=1):
        self._predictors = [Predictor(config) for _ in range(int(size))]

    def retrive(self, idx):  # Paddle's spelling
        return self._predictors[idx]

    retrieve = retrive
