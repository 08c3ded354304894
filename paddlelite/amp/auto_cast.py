"""paddle.amp.auto_cast and paddle.amp.decorate, with Paddle 3.3.1's signatures and checks.

auto_cast installs an `ops.autocast.Autocast` rule for its block: the dispatcher then casts every op's
inputs to the dtype the op computes in, in eager mode and while building static programs alike (as
Paddle's PIR does). decorate(level='O2') casts a model's parameters to the low dtype, except the layers
Paddle keeps in float32, and turns on the optimizers' float32 master weights.
"""
import contextlib

from ..device.place import current_place, parse_place
from ..framework import dtype as _dtype
from ..ops import autocast as _autocast
from .amp_lists import black_list, white_list

__all__ = ["auto_cast", "autocast", "decorate", "is_autocast_enabled", "get_autocast_dtype",
           "is_float16_supported", "is_bfloat16_supported"]


class _AmpGlobalState:
    # the dtype of the last auto_cast entered ('float32' before any): GradScaler.scale reads it, as Paddle's does
    amp_dtype = "float32"


amp_global_state = _AmpGlobalState()

_LEVELS = ("O0", "OD", "O1", "O2")
_amp_state = [None]  # the arguments of the innermost auto_cast block running (amp_state)


def amp_state():
    """The arguments of the innermost auto_cast block this code runs in (a dict: enable, level, dtype, ...), None
    outside any -- Paddle's test for "is AMP on" (a block with enable=False counts, as Paddle's)."""
    return _amp_state[0]


def _dtype_name(dtype):
    return _dtype.convert_dtype(dtype).name if isinstance(dtype, _dtype.DType) else str(dtype).lower()


def _update_list(custom_white_list, custom_black_list, level, dtype):
    """Paddle's lists for (dtype, level) with the custom lists applied, as op types (a list may name an op by
    Paddle's op type or legacy type: matmul or matmul_v2); an op in both custom lists is an error."""
    if level == "O0":
        return set(), set()
    white = {_autocast.op_type(n) for n in white_list()[dtype][level]}
    black = {_autocast.op_type(n) for n in black_list()[dtype][level]}
    custom_white_list = [_autocast.op_type(n) for n in custom_white_list or ()]
    custom_black_list = [_autocast.op_type(n) for n in custom_black_list or ()]
    for name in custom_white_list:
        if name in custom_black_list:
            raise ValueError("Custom white list overlap custom black list")
    for name in custom_white_list:
        black.discard(name)
        white.add(name)
    for name in custom_black_list:
        white.discard(name)
        black.add(name)
    return white, black


@contextlib.contextmanager
def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1", dtype="float16",
              use_promote=True):
    """Run the block with automatic mixed precision.

    level 'O1': white-list ops compute in `dtype`, black-list ops in float32, the others in float32 when an
    input is float32 and in `dtype` otherwise. 'O2': every op but the (short) O2 black list follows its
    inputs that way (use_promote=False: they run in the dtype given); with decorate(level='O2') the
    parameters are already low precision. 'OD': white-list ops in `dtype`, all others in float32.
    'O0' or enable=False: no casting (also inside an enclosing auto_cast)."""
    arguments = dict(enable=enable, custom_white_list=custom_white_list, custom_black_list=custom_black_list,
                     level=level, dtype=dtype, use_promote=use_promote)
    level = str(level).upper()
    if level not in _LEVELS:
        raise ValueError("level should be O0, OD, O1 or O2.")
    dtype = _dtype_name(dtype)
    if enable and dtype not in ("float16", "bfloat16"):
        raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
    amp_global_state.amp_dtype = dtype
    white, black = _update_list(custom_white_list, custom_black_list, level, dtype)
    rule = _autocast.Autocast(dtype, white, black, level, use_promote) if enable and level != "O0" else None
    previous = _amp_state[0]
    _amp_state[0] = arguments
    try:
        with _autocast.using(rule):
            yield
    finally:
        _amp_state[0] = previous


amp_guard = auto_cast


def autocast(device_type=None, dtype="float16", enabled=True, cache_enabled=True):
    """PyTorch's spelling: auto_cast(enable=enabled, dtype=dtype); device_type and cache_enabled are ignored,
    as in Paddle."""
    return auto_cast(enable=enabled, dtype=dtype)


class _AutocastMode:
    """paddle.device.amp / paddle.cuda.amp: torch.cuda.amp's `autocast(enabled, dtype, cache_enabled)`."""

    @staticmethod
    def autocast(enabled=True, dtype="float16", cache_enabled=True):
        return autocast(device_type="cuda", enabled=enabled, dtype=dtype)


def is_autocast_enabled(device_type=None):
    """Whether an auto_cast block (of a level other than O0) is active."""
    return _autocast.active() is not None


def get_autocast_dtype(device_type=None):
    """The active auto_cast dtype ('float16' or 'bfloat16'); 'float16' when none is active."""
    rule = _autocast.active()
    return "float16" if rule is None else rule.low_name


def _place(device, api):
    return current_place() if device is None else parse_place(device, api)


def _compute_capability(place):
    from ..device.cuda import cupy
    return int(cupy().cuda.Device(place.index).compute_capability) // 10


def is_float16_supported(device=None):
    """Whether `device` (default: the current one) trains in float16 under AMP: a GPU of compute capability
    7.0 or higher; not the CPU (Paddle's answer, although paddlelite computes float16 on the CPU too)."""
    place = _place(device, "is_float16_supported")
    return place.kind == "gpu" and _compute_capability(place) >= 7


def is_bfloat16_supported(device=None):
    """Whether `device` (default: the current one) trains in bfloat16 under AMP: the CPU, or a GPU of
    compute capability 8.0 or higher."""
    place = _place(device, "is_bfloat16_supported")
    return place.kind != "gpu" or _compute_capability(place) >= 8


# ---- decorate ----------------------------------------------------------------------------------------
def _need_keep_fp32(layer, dtype):
    """Paddle's rule: excluded layers and batch norms stay float32; layer/instance norms too for float16."""
    from .. import nn
    if not layer._cast_to_low_precision:
        return True
    if isinstance(layer, (nn.BatchNorm, nn.BatchNorm1D, nn.BatchNorm2D, nn.BatchNorm3D)):
        return True
    return layer._dtype == "float16" or (
        dtype == "float16" and isinstance(layer, (nn.LayerNorm, nn.InstanceNorm1D, nn.InstanceNorm2D,
                                                  nn.InstanceNorm3D)))


def _set_excluded_layers(models, excluded_layers):
    from ..nn import Layer
    message = "excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer instances/types."
    if excluded_layers is None:
        items = []
    elif isinstance(excluded_layers, list):
        items = excluded_layers
    else:
        items = [excluded_layers]
    instances, types = [], []
    for item in items:
        if isinstance(item, Layer):
            instances.append(item)
        elif isinstance(item, type) and issubclass(item, Layer):
            types.append(item)
        else:
            raise TypeError(message)
    for layer in instances:
        for sub in layer.sublayers(include_self=True):
            sub._cast_to_low_precision = False
    for model in models:
        for sub in model.sublayers(include_self=True):
            if isinstance(sub, tuple(types)):
                sub._cast_to_low_precision = False


class _StateDictHook:
    """Casts the floating point entries of a state_dict to `save_dtype` (the parameters keep their own)."""

    def __init__(self, save_dtype):
        self._save_dtype = save_dtype

    def __call__(self, state_dict):
        from ..tensor.manipulation import cast
        from ..tensor.attribute import is_floating_point
        for key, value in state_dict.items():
            if is_floating_point(value) and value.dtype.name != self._save_dtype:
                casted = cast(value, self._save_dtype)
                casted.name = value.name
                state_dict[key] = casted


class _MasterGrad:
    """After each backward, the parameter's gradient in float32 (decorate's master_grad): later passes add
    into it in float32, and clipping, decay and the update read float32."""

    def __init__(self, param):
        self._param = param

    def __call__(self):
        from ..tensor.manipulation import cast
        grad = self._param._grad
        if grad is not None and grad.dtype.name != "float32":
            self._param._grad = cast(grad, "float32")


def _as_list(values, is_one, what, kind):
    """([values], False) for one, (values, True) for a list; Paddle's errors otherwise."""
    if is_one(values):
        return [values], False
    if not isinstance(values, list):
        raise TypeError(f"{what} must be either a single {kind} or a list of {what}.")
    for v in values:
        if not is_one(v):
            raise RuntimeError(f"Current train mode is pure fp16, {what} should be {kind}s, but receive {type(v)}.")
    return values, True


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None, save_dtype=None,
             master_grad=False, excluded_layers=None):
    """Prepare models (and optimizers) for mixed precision. level 'O1' changes nothing. 'O2' casts the
    floating point parameters and buffers of every layer to `dtype` except batch norms (and, for float16,
    layer/instance norms) and `excluded_layers`, and gives the optimizers float32 master weights unless
    master_weight=False. save_dtype: the dtype state_dict() gives floating point entries (the parameters
    themselves keep theirs). master_grad=True: the low precision parameters' gradients are float32 after each
backward. Returns what it was given: models, or (models, optimizers)."""
    from ..distributed.parallel import DataParallel
    from ..nn import Layer
    from ..optimizer import Optimizer
    if level not in ("O1", "O2"):
        raise ValueError("level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure fp16 train mode.")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("dtype only support float16 or bfloat16.")
    if level == "O1":
        return models if optimizers is None else (models, optimizers)
    model_list, models_is_list = _as_list(models, lambda m: isinstance(m, Layer), "models", "model")
    for model in model_list:
        if isinstance(model, DataParallel):
            raise RuntimeError("For distributed AMP training, you should first use paddle.amp.decorate() to "
                               "decorate origin model, and then call paddle.DataParallel get distributed model.")
    _set_excluded_layers(model_list, excluded_layers)
    for model in model_list:
        for layer in model.sublayers(include_self=True):
            if not _need_keep_fp32(layer, dtype):
                layer._to_impl(dtype=dtype, include_sublayers=False)
    if optimizers is not None:
        opt_list, optimizers_is_list = _as_list(optimizers, lambda o: isinstance(o, Optimizer), "optimizers",
                                                "optimizer")
        for opt in opt_list:
            opt._multi_precision = master_weight is not False
    if master_grad:
        for model in model_list:
            for p in model.parameters():
                if p._data.dtype in _dtype.LOW_PRECISION and not p.stop_gradient:  # (hooks need a trainable leaf)
                    p._register_backward_hook(_MasterGrad(p))
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError(f"save_dtype can only be float16 float32 or float64, but your input save_dtype is "
                             f"{save_dtype}.")
        for model in model_list:
            for layer in model.sublayers(include_self=True):
                layer.register_state_dict_hook(_StateDictHook(save_dtype))
    models = model_list if models_is_list else model_list[0]
    if optimizers is None:
        return models
    return models, (opt_list if optimizers_is_list else opt_list[0])
