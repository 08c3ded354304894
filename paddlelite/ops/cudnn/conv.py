"""Convolutions through cuDNN (paddlelite/device/cudnn.py): fprop, dgrad and wgrad graphs for conv1d/2d/3d (conv1d
reaches them as conv2d), grouped, dilated, strided, asymmetrically padded, channel-first or channel-last, and the
transposed convolution as the dgrad of the convolution it is the adjoint of.

Tensors are described to cuDNN in its logical order [N, C, *spatial] with the strides of the arrays as they lie in
memory, so NCHW and NHWC data need no copy. Filters are Paddle's [O, C/groups, *k] in either data format; for
channel-last data they are handed over channel-last too ([O, *k, C/g] in memory, one small copy per call), the layout
cuDNN's channel-last engines take. float32, float16 and bfloat16; anything else returns None and the op's im2col
forward runs.
"""
from ...device import cudnn as _cudnn
from .common import policy

_FPROP, _DGRAD, _WGRAD = _cudnn.Graphs("conv_fprop"), _cudnn.Graphs("conv_dgrad"), _cudnn.Graphs("conv_wgrad")
_DTYPES = ("float32", "float16", "bfloat16")


def _usable(xp, *arrays):
    return _cudnn.enabled(xp) and all(a.dtype.name in _DTYPES for a in arrays) and arrays[0].dtype == arrays[-1].dtype


def _channels_last(data_format):
    return data_format in ("NHWC", "NDHWC")


def _logical(a, channels_last):
    """(dims, strides) of a [N, C, *S] tensor stored as `a` ([N, *S, C] when channels_last)."""
    strides = _cudnn.element_strides(a)
    if channels_last:
        return [a.shape[0], a.shape[-1], *a.shape[1:-1]], [strides[0], strides[-1], *strides[1:-1]]
    return list(a.shape), strides


def _filter(xp, w, channels_last):
    """The filter as cuDNN gets it: Paddle's [O, C/g, *k], laid out channel-last for channel-last data."""
    if not channels_last:
        return xp.ascontiguousarray(w)
    return xp.ascontiguousarray(xp.moveaxis(w, 1, -1))


def _empty(xp, nchw_shape, dtype, channels_last):
    """A fresh [N, C, *S] result in the data format's layout (the array as the op returns it)."""
    if channels_last:
        return xp.empty((nchw_shape[0], *nchw_shape[2:], nchw_shape[1]), dtype=dtype)
    return xp.empty(nchw_shape, dtype=dtype)


def _tensor(graph, name, a, channels_last):
    dims, strides = _logical(a, channels_last)
    return graph.tensor(name=name, dim=dims, stride=strides, data_type=_cudnn.data_type(a.dtype))


def _signature(*arrays):
    return tuple((a.shape, a.strides, a.dtype.str) for a in arrays)


def _conv_params(pads, strides, dilations):
    return {"pre_padding": [p[0] for p in pads], "post_padding": [p[1] for p in pads], "stride": list(strides),
            "dilation": list(dilations)}


def _run(graphs, op, inputs, output, params, channels_last):
    """Run cuDNN's `op` (conv_fprop / conv_dgrad / conv_wgrad) on `inputs` ({slot: array}) into `output`; False when
    cuDNN declines the configuration."""
    names = list(inputs)

    def build(graph):
        ins = {slot: _tensor(graph, slot, a, channels_last) for slot, a in inputs.items()}
        out = getattr(graph, op)(**ins, **params)
        dims, strides = _logical(output, channels_last)
        out.set_output(True).set_dim(dims).set_stride(strides).set_data_type(_cudnn.data_type(output.dtype))
        return {**ins, "out": out}

    buffers = {**inputs, "out": output}
    key = (_signature(*inputs.values(), output), tuple(names), tuple(map(tuple, params.values())), channels_last)
    graph = graphs.get(key, build, policy(output.dtype), buffers)
    if graph is None:
        return False
    graph.run(buffers)
    return True


def conv_forward(xp, x, w, pads, strides, dilations, out_spatial, data_format):
    """y = conv(x, w) with Paddle's geometry already resolved; None when cuDNN cannot run it."""
    if not _usable(xp, x, w):
        return None
    cl = _channels_last(data_format)
    x = xp.ascontiguousarray(x)
    y = _empty(xp, (x.shape[0], w.shape[0], *out_spatial), x.dtype, cl)
    params = _conv_params(pads, strides, dilations)
    if not _run(_FPROP, "conv_fprop", {"image": x, "weight": _filter(xp, w, cl)}, y, params, cl):
        return None
    return y


def conv_backward(xp, x, w, dy, pads, strides, dilations, data_format, input_grad):
    """(dx, dw) of y = conv(x, w) given dy; dx is None when input_grad is False. None when cuDNN cannot run it."""
    if not _usable(xp, x, w, dy):
        return None
    cl = _channels_last(data_format)
    x, dy, wl = xp.ascontiguousarray(x), xp.ascontiguousarray(dy), _filter(xp, w, cl)
    params = _conv_params(pads, strides, dilations)
    dwl = xp.empty_like(wl)
    if not _run(_WGRAD, "conv_wgrad", {"image": x, "loss": dy}, dwl, params, cl):
        return None
    dw = xp.ascontiguousarray(xp.moveaxis(dwl, -1, 1)) if cl else dwl
    if not input_grad:
        return None, dw
    dx = xp.empty_like(x)
    if not _run(_DGRAD, "conv_dgrad", {"loss": dy, "filter": wl}, dx, params, cl):
        return None
    return dx, dw


def conv_transpose_forward(xp, x, w, pads, strides, dilations, groups, out_spatial, data_format):
    """The transposed convolution of x [N, Cin, *S] by w [Cin, Cout/g, *k]: the input gradient of the convolution of
    a [N, Cout, *out_spatial] image by w, with x as that convolution's output gradient. None when cuDNN cannot run
    it."""
    if not _usable(xp, x, w):
        return None
    cl = _channels_last(data_format)
    x = xp.ascontiguousarray(x)
    y = _empty(xp, (x.shape[0], w.shape[1] * groups, *out_spatial), x.dtype, cl)
    params = _conv_params(pads, strides, dilations)
    if not _run(_DGRAD, "conv_dgrad", {"loss": x, "filter": _filter(xp, w, cl)}, y, params, cl):
        return None
    return y
