"""Normalisation: layer_norm (op 'layer_norm'), batch_norm (op 'batch_norm')."""
import numbers

from ...framework.mode import no_grad
from ...ops import dispatch
from ...ops import norm as _norm
from ...tensor.creation import assign
from ...tensor.math import _check_tensor

__all__ = ["layer_norm", "batch_norm"]

apply = dispatch.apply


def _check_eps(epsilon, api):
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or epsilon < 0:
        raise ValueError(f"{api}: epsilon must be a non-negative number, received {epsilon!r}")


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalise over the trailing dims given by normalized_shape; weight/bias hold prod(normalized_shape) values."""
    _check_tensor(x, "layer_norm")
    if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
        normalized_shape = [int(normalized_shape)]
    if not isinstance(normalized_shape, (list, tuple)) or not normalized_shape:
        raise TypeError(f"layer_norm: normalized_shape must be an int or a non-empty list of ints, received "
                        f"{normalized_shape!r}")
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
    if use_global_stats is None:
        use_global_stats, trainable_statistics = not training, False
    else:
        use_global_stats, trainable_statistics = bool(use_global_stats), not use_global_stats
    outs = apply(_norm.BATCH_NORM, x, weight, bias, running_mean, running_var, momentum=float(momentum),
                 epsilon=float(epsilon), is_test=not training, data_layout=data_format,
                 use_global_stats=use_global_stats, trainable_statistics=trainable_statistics)
    y, mean_out, var_out = outs[0], outs[1], outs[2]
    if training and not use_global_stats:  # running statistics are written back, in either mode
        with no_grad():
            for buf, new in ((running_mean, mean_out), (running_var, var_out)):
                assign(new if new.dtype == buf.dtype else new.astype(buf.dtype), output=buf)
    return y
