"""Batch normalisation through cuDNN (paddlelite/device/cudnn.py): the training forward (batch statistics), the
inference forward (given statistics) and the backward of the training forward, each one cuDNN graph.

X of any rank 2-5 and layout is described to cuDNN as [N, C, *S] (at least two spatial dims, padded with ones) with
its own strides, so channel-first and channel-last data need no copy. cuDNN works on float32 scale, bias and
statistics: other parameter dtypes are cast. The running statistics are Paddle's (momentum * running + (1 -
momentum) * batch, with the batch's biased variance) and computed here from the saved mean and inverse deviation,
so every path of the op -- cuDNN, CuPy, NumPy -- updates them alike. float32, float16 and bfloat16 X.
"""
import numpy as np

from ...device import cudnn as _cudnn
from .common import policy

_TRAIN, _INFER, _BACKWARD = _cudnn.Graphs("bn_train"), _cudnn.Graphs("bn_infer"), _cudnn.Graphs("bn_backward")
_F32 = np.dtype(np.float32)


def _usable(xp, x):
    return _cudnn.enabled(xp) and x.dtype.name in ("float32", "float16", "bfloat16")


def _logical(x, channel_axis):
    """(dims, strides) of x as [N, C, *S] with at least two spatial dims."""
    strides = _cudnn.element_strides(x)
    order = [0, channel_axis, *(i for i in range(1, x.ndim) if i != channel_axis)]
    dims, strides = [x.shape[i] for i in order], [strides[i] for i in order]
    while len(dims) < 4:
        dims.append(1)
        strides.append(1)
    return dims, strides


def _param_desc(c, ndim):
    return [1, c] + [1] * (ndim - 2), [c] + [1] * (ndim - 1)


def _f32(xp, a, c, fill):
    """A float32 [C] parameter (`fill` where the op has none)."""
    if a is None:
        return xp.full((c,), fill, dtype=_F32)
    return xp.ascontiguousarray(a, dtype=_F32)


class _Builder:
    """The tensors of one batch-norm graph: X-like tensors and [1, C, 1, ...] float32 parameters."""

    def __init__(self, graph, x, channel_axis):
        self.graph = graph
        self.dims, self.strides = _logical(x, channel_axis)
        self.pdims, self.pstrides = _param_desc(self.dims[1], len(self.dims))
        self.dtype = _cudnn.data_type(x.dtype)
        self.tensors = {}

    def like_x(self, name):
        t = self.graph.tensor(name=name, dim=self.dims, stride=self.strides, data_type=self.dtype)
        self.tensors[name] = t
        return t

    def param(self, name):
        t = self.graph.tensor(name=name, dim=self.pdims, stride=self.pstrides, data_type=_cudnn.data_type(_F32))
        self.tensors[name] = t
        return t

    def output(self, name, t, is_param):
        dims, strides = (self.pdims, self.pstrides) if is_param else (self.dims, self.strides)
        t.set_output(True).set_dim(dims).set_stride(strides).set_data_type(
            _cudnn.data_type(_F32) if is_param else self.dtype)
        self.tensors[name] = t


def _key(x, channel_axis, *extra):
    return (x.shape, x.strides, x.dtype.str, channel_axis, *extra)


def _run(graphs, key, build, buffers):
    graph = graphs.get(key, build, policy(), buffers)
    if graph is None:
        return False
    graph.run(buffers)
    return True


def batch_norm_train(xp, x, scale, bias, mean, var, channel_axis, epsilon, momentum):
    """(Y, MeanOut, VarianceOut, SavedMean, SavedVariance) of batch_norm with batch statistics (float32 statistics);
    None when cuDNN cannot run it."""
    if not _usable(xp, x):
        return None
    c = x.shape[channel_axis]

    def build(graph):
        b = _Builder(graph, x, channel_axis)
        eps = graph.tensor_scalar(float(epsilon), _cudnn.data_type(_F32))
        y, m, inv, _, _ = graph.batchnorm(input=b.like_x("x"), scale=b.param("scale"), bias=b.param("bias"),
                                          in_running_mean=None, in_running_var=None, epsilon=eps, momentum=None)
        b.output("y", y, False)
        b.output("saved_mean", m, True)
        b.output("saved_inv_std", inv, True)
        return b.tensors

    y, saved_mean, saved_inv = xp.empty_like(x), xp.empty((c,), _F32), xp.empty((c,), _F32)
    buffers = {"x": x, "scale": _f32(xp, scale, c, 1.0), "bias": _f32(xp, bias, c, 0.0), "y": y,
               "saved_mean": saved_mean, "saved_inv_std": saved_inv}
    if not _run(_TRAIN, _key(x, channel_axis, float(epsilon)), build, buffers):
        return None
    batch_var = 1.0 / (saved_inv * saved_inv) - _F32.type(epsilon)
    mom = _F32.type(momentum)
    mean_out = mean.astype(_F32) * mom + saved_mean * (1 - mom)
    var_out = var.astype(_F32) * mom + batch_var * (1 - mom)
    return y, mean_out, var_out, saved_mean, saved_inv


def batch_norm_infer(xp, x, scale, bias, mean, var, channel_axis, epsilon):
    """(Y, MeanOut, VarianceOut, SavedMean, SavedVariance) of batch_norm with the given statistics (float32
    statistics); None when cuDNN cannot run it."""
    if not _usable(xp, x):
        return None
    c = x.shape[channel_axis]

    def build(graph):
        b = _Builder(graph, x, channel_axis)
        y = graph.batchnorm_inference(input=b.like_x("x"), mean=b.param("mean"), inv_variance=b.param("inv_std"),
                                      scale=b.param("scale"), bias=b.param("bias"))
        b.output("y", y, False)
        return b.tensors

    m, v = mean.astype(_F32), var.astype(_F32)
    inv = 1.0 / xp.sqrt(v + _F32.type(epsilon))
    y = xp.empty_like(x)
    buffers = {"x": x, "mean": m, "inv_std": inv, "scale": _f32(xp, scale, c, 1.0), "bias": _f32(xp, bias, c, 0.0),
               "y": y}
    if not _run(_INFER, _key(x, channel_axis), build, buffers):
        return None
    return y, m.copy(), v.copy(), m, inv


def batch_norm_backward(xp, x, scale, saved_mean, saved_inv_std, dy, channel_axis):
    """(DX, DScale, DBias) of batch_norm with batch statistics; None when cuDNN cannot run it."""
    if not _usable(xp, x) or dy.dtype != x.dtype or dy.strides != x.strides:
        return None
    c = x.shape[channel_axis]

    def build(graph):
        b = _Builder(graph, x, channel_axis)
        dx, dscale, dbias = graph.batchnorm_backward(grad=b.like_x("dy"), input=b.like_x("x"),
                                                     scale=b.param("scale"), mean=b.param("saved_mean"),
                                                     inv_variance=b.param("saved_inv_std"))
        b.output("dx", dx, False)
        b.output("dscale", dscale, True)
        b.output("dbias", dbias, True)
        return b.tensors

    dx, dscale, dbias = xp.empty_like(x), xp.empty((c,), _F32), xp.empty((c,), _F32)
    buffers = {"dy": dy, "x": x, "scale": _f32(xp, scale, c, 1.0),
               "saved_mean": xp.ascontiguousarray(saved_mean, dtype=_F32),
               "saved_inv_std": xp.ascontiguousarray(saved_inv_std, dtype=_F32), "dx": dx, "dscale": dscale,
               "dbias": dbias}
    if not _run(_BACKWARD, _key(x, channel_axis), build, buffers):
        return None
    pdt = scale.dtype if scale is not None else x.dtype
    return dx, dscale.astype(pdt, copy=False), dbias.astype(pdt, copy=False)
