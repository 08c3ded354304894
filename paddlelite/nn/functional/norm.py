"""Normalisation: layer_norm, batch_norm, group_norm and instance_norm (each its op); local_response_norm is
composed."""
import numbers

from ... import tensor as T
from ...framework.mode import in_static_mode, no_grad
from ...ops import dispatch
from ...ops import norm as _norm
from ...static.appender import as_variable, layer_helper
from ...tensor.creation import assign
from ...tensor.manipulation import pad as _pad
from ...tensor.math import _check_tensor

__all__ = ["layer_norm", "batch_norm", "group_norm", "instance_norm", "local_response_norm", "rms_norm"]

apply = dispatch.apply


def _check_eps(epsilon, api):
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or epsilon < 0:
        raise ValueError(f"{api}: epsilon must be a non-negative number, received {epsilon!r}")


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalise over the trailing dims given by normalized_shape; weight/bias hold prod(normalized_shape) values."""
    if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
        normalized_shape = [int(normalized_shape)]
    if not isinstance(normalized_shape, (list, tuple)) or not normalized_shape:  # (checked before x, as Paddle)
        raise ValueError(f"layer_norm: normalized_shape must be an int or a non-empty list of ints, received "
                         f"{normalized_shape!r}")
    _check_tensor(x, "layer_norm")
    shape = list(x.shape)
    k = len(normalized_shape)
    if k >= len(shape) + 1 or [int(d) for d in normalized_shape] != shape[len(shape) - k:]:
        raise ValueError(f"layer_norm: normalized_shape {list(normalized_shape)} must equal the trailing dims of "
                         f"x, received x of shape {shape}")
    if k == len(shape):
        raise ValueError(f"layer_norm: normalized_shape {list(normalized_shape)} covers every dim of x {shape}; "
                         "x needs at least one leading (batch) dim")
    _check_eps(epsilon, "layer_norm")
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _check_tensor(t, "layer_norm", arg)
    return apply(_norm.LAYER_NORM, x, weight, bias, epsilon=float(epsilon), begin_norm_axis=len(shape) - k)[0]


_LAYOUTS = ("NC", "NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-05,
               data_format="NCHW", use_global_stats=None, name=None):
    """Batch normalisation. In training (unless use_global_stats) the batch statistics normalise x and the
    running statistics are updated in place: running = momentum * running + (1 - momentum) * batch
    (batch variance is the biased one, as Paddle's)."""
    _check_tensor(x, "batch_norm")
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        _check_tensor(t, "batch_norm", arg)
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            _check_tensor(t, "batch_norm", arg)
    if data_format not in _LAYOUTS:
        raise ValueError(f"batch_norm: data_format must be one of {list(_LAYOUTS)}, received {data_format!r}")
    if data_format == "NCHW" and len(x.shape) != 4:
        data_format = {2: "NC", 3: "NCL", 5: "NCDHW"}.get(len(x.shape), data_format)
    if isinstance(momentum, bool) or not isinstance(momentum, numbers.Real):
        raise TypeError(f"batch_norm: momentum must be a number, received {momentum!r}")
    _check_eps(epsilon, "batch_norm")
    return _apply_batch_norm(_norm.BATCH_NORM, x, running_mean, running_var, weight, bias, training, momentum,
                             epsilon, data_format, use_global_stats)


def _apply_batch_norm(op, x, running_mean, running_var, weight, bias, training, momentum, epsilon, data_format,
                      use_global_stats=None, trainable_statistics=None):
    """Apply batch_norm-like `op` (batch_norm, sync_batch_norm: nn.SyncBatchNorm) to checked arguments and write
    the running statistics back when it updates them. `trainable_statistics` given (the fluid-era nn.BatchNorm):
    both flags go to the op as they are; else they follow from use_global_stats as in F.batch_norm."""
    if trainable_statistics is not None:
        use_global_stats, trainable_statistics = bool(use_global_stats), bool(trainable_statistics)
    elif use_global_stats is None:
        use_global_stats, trainable_statistics = not training, False
    else:
        use_global_stats, trainable_statistics = bool(use_global_stats), not use_global_stats
    outs = apply(op, x, weight, bias, running_mean, running_var, momentum=float(momentum),
                 epsilon=float(epsilon), is_test=not training, data_layout=data_format,
                 use_global_stats=use_global_stats, trainable_statistics=trainable_statistics)
    y, mean_out, var_out = outs[0], outs[1], outs[2]
    test_mode = not training and not trainable_statistics
    if not (test_mode or use_global_stats):  # the op used the batch's statistics: the running ones are updated
        with no_grad():
            for buf, new in ((running_mean, mean_out), (running_var, var_out)):
                if in_static_mode() and new is as_variable(buf):  # the static op wrote them in place
                    continue
                if in_static_mode():
                    assign(new if new.dtype == buf.dtype else new.astype(buf.dtype), output=buf)
                else:  # the op's fresh result becomes the buffer's values: one copy at most (none on the CPU)
                    buf._take((new if new.dtype == buf.dtype else new.astype(buf.dtype))._data)
    return y


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW", name=None):
    """Normalise each group of num_groups channel groups over its channels and positions, then scale/shift per
    channel."""
    api = "group_norm"
    _check_tensor(x, api)
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"{api}: data_format must be one of NC, NCL, NCHW, NCDHW, NLC, NHWC, NDHWC, received "
                         f"{data_format!r}")
    if len(x.shape) < 2:
        raise ValueError(f"{api}: x must be at least 2-D [N, C, ...], received shape {x.shape}")
    _check_eps(epsilon, api)
    channel_last = data_format[-1] == "C" and data_format != "NC"
    channels = x.shape[-1 if channel_last else 1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, numbers.Integral) or num_groups < 1 or \
            channels % num_groups:
        raise ValueError(f"{api}: num_groups must be a positive int dividing the {channels} channels, received "
                         f"{num_groups!r}")
    with layer_helper("group_norm"):
        return apply(_norm.GROUP_NORM, x, weight, bias, epsilon=float(epsilon), groups=int(num_groups),
                     data_layout="NHWC" if channel_last else "NCHW")[0]


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Normalise every channel of every sample over its positions (the input's statistics), then scale/shift
    per channel. running_mean, running_var, use_input_stats and momentum are accepted and unused, as in Paddle."""
    api = "instance_norm"
    _check_tensor(x, api)
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW"):
        raise ValueError(f"{api}: data_format must be one of NC, NCL, NCHW, NCDHW, received {data_format!r}")
    if len(x.shape) < 2:
        raise ValueError(f"{api}: x must be at least 2-D [N, C, ...], received shape {x.shape}")
    _check_eps(eps, api)
    # Paddle's API normalises by the input's statistics whatever use_input_stats says, the running ones unused
    with layer_helper("instance_norm"):
        return apply(_norm.INSTANCE_NORM, x, weight, bias, epsilon=float(eps))[0]


def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW", name=None):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels (zero padded)) ** beta."""
    api = "local_response_norm"
    _check_tensor(x, api)
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError(f"{api}: data_format must be one of NCL, NCHW, NCDHW, NLC, NHWC, NDHWC, received "
                         f"{data_format!r}")
    if len(x.shape) < 3:
        raise ValueError(f"{api}: x must be at least 3-D, received {len(x.shape)} dims")
    if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 1:
        raise ValueError(f"{api}: size must be a positive int, received {size!r}")
    axis = len(x.shape) - 1 if data_format[-1] == "C" else 1
    channels = x.shape[axis]
    pad = [0, 0] * len(x.shape)
    pad[2 * axis], pad[2 * axis + 1] = size // 2, (size - 1) // 2
    sq = _pad(x * x, pad)
    window = T.slice(sq, [axis], [0], [channels])
    for j in range(1, size):
        window = window + T.slice(sq, [axis], [j], [j + channels])
    div = T.pow(T.scale(window, float(alpha) / size, float(k)), float(beta))
    return x / div


def rms_norm(input, normalized_shape, weight=None, eps=1e-5, name=None):
    """(input / sqrt(mean(input^2 over the trailing normalized_shape dims) + eps) * weight, invvar), invvar the
    float32 inverse root mean square of each of the flattened leading rows (Paddle's two outputs)."""
    api = "rms_norm"
    _check_tensor(input, api)
    if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
        normalized_shape = [int(normalized_shape)]
    k = len(normalized_shape)
    if not k or k >= len(input.shape) + 1 or list(input.shape[len(input.shape) - k:]) != list(normalized_shape):
        raise ValueError(f"{api}: normalized_shape {list(normalized_shape)} must equal the trailing dims of input "
                         f"{input.shape}")
    _check_eps(eps, api)
    if weight is not None:
        _check_tensor(weight, api, "weight")
    rows = input if k < len(input.shape) else T.reshape(input, [1, -1])  # the op keeps a leading (row) dim
    out, _, inv = apply(_norm.RMS_NORM, rows, None, None, weight, None, epsilon=float(eps),
                        begin_norm_axis=len(rows.shape) - min(k, len(rows.shape) - 1))
    inv = T.reshape(inv, [-1])  # float32, but float64 for a float64 input: Paddle's invvar is float32
    return (T.reshape(out, input.shape) if rows is not input else out,
            inv if inv.dtype.name == "float32" else T.cast(inv, "float32"))
