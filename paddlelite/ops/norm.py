"""Normalisation ops: layer_norm, rms_norm, instance_norm, batch_norm and sync_batch_norm, each with its grad op.

Each backward is ONE dedicated op computing every input gradient in a pass (a fused GPU kernel replaces it
by op type). Statistics are computed in float32 for float16 inputs, else in the input's dtype.
"""
import numpy as np

from .formula import reduce_sum, reshape_as
from .collective import ring_communicator
from .cudnn import batch_norm as _cudnn_bn
from .launch import layer_norm as _launch
from .launch import rms_norm as _rms_launch
from .registry import Meta, register_op
from .shape_rules import check_float


def _compute_dtype(dtype):
    return np.dtype(np.float32) if dtype == np.float16 else np.dtype(dtype)


def _rows_dot(xp, a, b):
    """Each row of a [rows, n] dotted with the same row of b [rows, n], or with b [n]: on NumPy no product array
    for BLAS dtypes (einsum, GEMV); float16/bfloat16, and CuPy (whose BLAS wrapper a CUDA-graph capture refuses),
    multiply and sum."""
    if a.dtype.char not in "fd" or xp is not np:
        return (a * b).sum(axis=1)
    return a @ b if b.ndim == 1 else xp.einsum("ij,ij->i", a, b)


def _column_sums(xp, a):
    """a [rows, n] summed over its rows: on NumPy one GEMV (ones @ a) for BLAS dtypes, ~2.5x faster than its sum;
    on CuPy one reduction kernel (its GEMV goes through the BLAS wrapper a CUDA-graph capture refuses)."""
    if a.dtype.char not in "fd" or xp is not np:
        return a.sum(axis=0)
    return xp.ones(a.shape[0], a.dtype) @ a


def _normalized_input_grad(dxhat, xhat, rstd):
    """d loss / d x of xhat = (x - mean) rstd over the last axis, given d loss / d xhat: instance_norm's and
    group_norm's rule (layer_norm's is fused with its affine grads)."""
    return rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True) - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))


def _numel(shape):
    return -1 if -1 in shape else int(np.prod(shape, dtype=np.int64))


# ---- layer_norm -----------------------------------------------------------------------------------
def _ln_split(op, shape, begin_norm_axis):
    """-> (left, right): rows before begin_norm_axis, features from it on (-1 where unknown)."""
    nd = len(shape)
    if not isinstance(begin_norm_axis, (int, np.integer)) or not 1 <= begin_norm_axis < max(nd, 2):
        raise ValueError(f"op '{op}': begin_norm_axis must be in [1, {nd - 1}] for a {nd}-D X of shape "
                         f"{list(shape)}, received {begin_norm_axis!r}")
    return _numel(shape[:begin_norm_axis]), _numel(shape[begin_norm_axis:])


def _check_affine(op, slot, meta, right, x):
    if meta is None:
        return
    if meta.dtype != _compute_dtype(x.dtype) and meta.dtype != x.dtype:
        raise ValueError(f"op '{op}': {slot} has dtype {meta.dtype} but X has {x.dtype}")
    n = _numel(meta.shape)
    if right != -1 and n != -1 and n != right:
        raise ValueError(f"op '{op}': {slot} must have {right} elements (the product of X's dims from "
                         f"begin_norm_axis on), received shape {list(meta.shape)}")


def _layer_norm_infer(x, scale, bias, epsilon, begin_norm_axis):
    check_float("layer_norm", x, real=True)
    left, right = _ln_split("layer_norm", x.shape, begin_norm_axis)
    _check_affine("layer_norm", "Scale", scale, right, x)
    _check_affine("layer_norm", "Bias", bias, right, x)
    stat = Meta(tuple(x.shape[:begin_norm_axis]), _compute_dtype(x.dtype))  # Paddle keeps the leading dims
    return Meta(x.shape, x.dtype), stat, stat


def _layer_norm_forward(xp, x, scale, bias, epsilon, begin_norm_axis):
    # Paddle's order, (x - mean) / sqrt(var + eps) * scale + bias, worked in place on one fresh array
    left, right = _ln_split("layer_norm", x.shape, begin_norm_axis)
    cdt = _compute_dtype(x.dtype)
    x2 = x.reshape(left, right).astype(cdt, copy=False)
    mean = _rows_dot(xp, x2, xp.ones(right, cdt))  # NumPy's sum over many short rows costs 4x more
    mean /= right
    y = x2 - mean[:, None]
    var = _rows_dot(xp, y, y)
    var /= right
    y /= xp.sqrt(var + cdt.type(epsilon))[:, None]
    if scale is not None:
        y *= scale.reshape(1, right)
    if bias is not None:
        y += bias.reshape(1, right)
    stats = x.shape[:begin_norm_axis]
    return y.astype(x.dtype, copy=False).reshape(x.shape), mean.reshape(stats), var.reshape(stats)


def _layer_norm_grad_forward(xp, x, scale, mean, var, dy, epsilon, begin_norm_axis):
    # dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) with dxhat = dy scale; the row means of dxhat
    # and dxhat xhat are GEMVs with scale, so only xhat, dy xhat and dx are full-size arrays
    left, right = _ln_split("layer_norm_grad", x.shape, begin_norm_axis)
    cdt = _compute_dtype(x.dtype)
    x2 = x.reshape(left, right).astype(cdt, copy=False)
    d2 = dy.reshape(left, right).astype(cdt, copy=False)
    rstd = (1.0 / xp.sqrt(var.reshape(left).astype(cdt) + cdt.type(epsilon)))[:, None]
    xhat = x2 - mean.reshape(left).astype(cdt)[:, None]
    xhat *= rstd
    d_xhat = d2 * xhat
    dbias = _column_sums(xp, d2)
    dscale = _column_sums(xp, d_xhat)
    s = scale.reshape(right).astype(cdt, copy=False) if scale is not None else xp.ones(right, cdt)
    mean_dxhat = _rows_dot(xp, d2, s)
    mean_dxhat_xhat = _rows_dot(xp, d_xhat, s)
    dx = d2 * s
    mean_dxhat /= right
    mean_dxhat_xhat /= right
    xhat *= mean_dxhat_xhat[:, None]
    dx -= mean_dxhat[:, None]
    dx -= xhat
    dx *= rstd
    pshape = scale.shape if scale is not None else (right,)
    pdt = scale.dtype if scale is not None else x.dtype
    return (dx.astype(x.dtype, copy=False).reshape(x.shape), dscale.astype(pdt, copy=False).reshape(pshape),
            dbias.astype(pdt, copy=False).reshape(pshape))


def _layer_norm_grad_infer(x, scale, mean, var, dy, epsilon, begin_norm_axis):
    _, right = _ln_split("layer_norm_grad", x.shape, begin_norm_axis)
    if tuple(dy.shape) != tuple(x.shape) and -1 not in x.shape + dy.shape:
        raise ValueError(f"op 'layer_norm_grad': DY has shape {list(dy.shape)} but X has {list(x.shape)}")
    p = Meta(scale.shape, scale.dtype) if scale is not None else Meta((right,), x.dtype)
    return Meta(x.shape, x.dtype), p, p


def _fused_norm_grad(grad_type, stat_slots):
    """Grad maker: ONE dedicated grad op gives DX, DScale, DBias from X, Scale, the saved stats and DY."""
    def grad(g):
        dy = g.output_grad("Y")
        if dy is None or not g.needs_any("X", "Scale", "Bias"):
            return
        dx, dscale, dbias = g.op(grad_type, g.input("X"), g.input("Scale"), *[g.output(s) for s in stat_slots],
                                 dy, **g.attrs)
        if g.needs("Bias"):
            dbias = reshape_as(dbias, g.input("Bias"))
        g.set_input_grads(("X", "Scale", "Bias"), (dx, dscale, dbias))
    return grad


_layer_norm_grad = _fused_norm_grad("layer_norm_grad", ("Mean", "Variance"))


LAYER_NORM = register_op("layer_norm", inputs=("X", "Scale", "Bias"), outputs=("Y", "Mean", "Variance"),
                         forward=_layer_norm_forward, infer=_layer_norm_infer, grad=_layer_norm_grad,
                         attrs={"epsilon": 1e-5, "begin_norm_axis": 1}, optional_inputs=("Scale", "Bias"),
                         intermediate_outputs=("Mean", "Variance"), gpu=_launch.layer_norm)

# No grad maker: double backward through layer_norm is not supported.
LAYER_NORM_GRAD = register_op("layer_norm_grad", inputs=("X", "Scale", "Mean", "Variance", "DY"),
                              outputs=("DX", "DScale", "DBias"), forward=_layer_norm_grad_forward,
                              infer=_layer_norm_grad_infer, attrs={"epsilon": 1e-5, "begin_norm_axis": 1},
                              optional_inputs=("Scale",), gpu=_launch.layer_norm_grad)


# ---- what the fused norms share: the pre-norm sum h = X + Bias + alpha * Residual --------------------------
def _stat_dtype(dtype):
    """float32 for 16-bit floats (Paddle's InvVar and accumulation), else the input's dtype."""
    return np.dtype(np.float32) if np.dtype(dtype).itemsize <= 2 else np.dtype(dtype)


def _pre_norm_infer(op, x, bias, residual, norm_weight, norm_bias, begin_norm_axis):
    """The checks of the fused norms' inputs; -> the Meta of their ResidualOut (h, or empty without bias and
    residual)."""
    check_float(op, x, real=True)
    _, right = _ln_split(op, x.shape, begin_norm_axis)
    for slot, meta, dtypes in (("Bias", bias, (x.dtype,)), ("NormWeight", norm_weight, (x.dtype, _stat_dtype(x.dtype))),
                               ("NormBias", norm_bias, (x.dtype, _stat_dtype(x.dtype)))):
        if meta is not None and meta.dtype not in dtypes:
            raise ValueError(f"op '{op}': {slot} has dtype {meta.dtype} but X has {x.dtype}")
        _check_affine(op, slot, meta, right, x if meta is None or meta.dtype == x.dtype else meta)
    if residual is not None and (residual.dtype != x.dtype or tuple(residual.shape) != tuple(x.shape)):
        raise ValueError(f"op '{op}': Residual must be like X ({list(x.shape)}, {x.dtype}), received "
                         f"{list(residual.shape)}, {residual.dtype}")
    return Meta(x.shape, x.dtype) if bias is not None or residual is not None else Meta((0,), x.dtype)


def _pre_norm_sum(xp, op, x, bias, residual, alpha, begin_norm_axis):
    """h = X + Bias + alpha * Residual as [rows, features] in the statistics' dtype, and the ResidualOut to return
    (h in X's dtype, or empty without bias and residual)."""
    left, right = _ln_split(op, x.shape, begin_norm_axis)
    h = x.reshape(left, right).astype(_stat_dtype(x.dtype))
    if bias is not None:
        h += bias.reshape(1, right)
    if residual is not None:
        h += residual.reshape(left, right) if alpha == 1 else h.dtype.type(alpha) * residual.reshape(left, right)
    with_h = bias is not None or residual is not None
    return h, h.astype(x.dtype).reshape(x.shape) if with_h else xp.empty((0,), x.dtype)


def _pre_norm_grad_inputs(g):
    """(h, ResidualOut's gradient or None) for a fused norm's grad maker; (None, None) when no gradient is asked or
    none reaches the outputs."""
    with_h = g.input("Bias") is not None or g.input("Residual") is not None
    dres = g.output_grad("ResidualOut") if with_h else None
    if g.output_grad("Out") is None and dres is None or not g.needs_any("X", "Bias", "Residual", "NormWeight",
                                                                         "NormBias"):
        return None, None
    return g.output("ResidualOut") if with_h else g.input("X"), dres


# ---- fused_bias_residual_layernorm: layer_norm over h = X + Bias + residual_alpha * Residual (Paddle's
# fused_layer_norm), h returned as ResidualOut, InvVar = 1 / sqrt(Variance + epsilon) beside Variance ------------
def _fused_ln_infer(x, bias, residual, norm_weight, norm_bias, epsilon, residual_alpha, begin_norm_axis):
    h = _pre_norm_infer("fused_bias_residual_layernorm", x, bias, residual, norm_weight, norm_bias, begin_norm_axis)
    stat = Meta(tuple(x.shape[:begin_norm_axis]), _stat_dtype(x.dtype))
    return Meta(x.shape, x.dtype), h, stat, stat, stat


def _fused_ln_forward(xp, x, bias, residual, norm_weight, norm_bias, epsilon, residual_alpha, begin_norm_axis):
    h, h_out = _pre_norm_sum(xp, "fused_bias_residual_layernorm", x, bias, residual, residual_alpha, begin_norm_axis)
    y, mean, var = _layer_norm_forward(xp, h, norm_weight, norm_bias, epsilon, 1)
    stats = x.shape[:begin_norm_axis]
    inv = 1 / xp.sqrt(var + var.dtype.type(epsilon))
    return (y.astype(x.dtype, copy=False).reshape(x.shape), h_out, mean.reshape(stats), var.reshape(stats),
            inv.reshape(stats))


def _fused_ln_grad(g):
    """layer_norm_grad over h, then h's gradient (with ResidualOut's) to X, Residual (times residual_alpha) and
    Bias (summed over the rows)."""
    h, dres = _pre_norm_grad_inputs(g)
    if h is None:
        return
    axis = g.attrs["begin_norm_axis"]
    dh, dweight, dnorm_bias = g.op("layer_norm_grad", h, g.input("NormWeight"), g.output("Mean"), g.output("Variance"),
                                   g.output_grad_or_zeros("Out"), epsilon=g.attrs["epsilon"], begin_norm_axis=axis)
    if dres is not None:
        dh = dh + dres
    alpha = g.attrs["residual_alpha"]
    if g.needs("NormBias"):
        g.set_input_grad("NormBias", reshape_as(dnorm_bias, g.input("NormBias")))
    if g.needs("Bias"):
        g.set_input_grad("Bias", reshape_as(reduce_sum(dh, axis=list(range(axis))), g.input("Bias")))
    g.set_input_grads(("X", "Residual", "NormWeight"), (dh, dh if alpha == 1 else dh * alpha, dweight))


FUSED_LAYER_NORM = register_op(
    "fused_bias_residual_layernorm", inputs=("X", "Bias", "Residual", "NormWeight", "NormBias"),
    outputs=("Out", "ResidualOut", "Mean", "Variance", "InvVar"), forward=_fused_ln_forward, infer=_fused_ln_infer,
    grad=_fused_ln_grad, attrs={"epsilon": 1e-5, "residual_alpha": 1.0, "begin_norm_axis": 1},
    optional_inputs=("Bias", "Residual", "NormWeight", "NormBias"), intermediate_outputs=("Mean", "Variance", "InvVar"),
    gpu=_launch.fused_layer_norm)


# ---- rms_norm: Paddle's fused_rms_norm (h = X + Bias + Residual, Out = h * InvVar * NormWeight + NormBias) ----
def _rms_norm_infer(x, bias, residual, norm_weight, norm_bias, epsilon, begin_norm_axis):
    h = _pre_norm_infer("rms_norm", x, bias, residual, norm_weight, norm_bias, begin_norm_axis)
    return Meta(x.shape, x.dtype), h, Meta(tuple(x.shape[:begin_norm_axis]), _stat_dtype(x.dtype))


def _rms_norm_forward(xp, x, bias, residual, norm_weight, norm_bias, epsilon, begin_norm_axis):
    h, h_out = _pre_norm_sum(xp, "rms_norm", x, bias, residual, 1, begin_norm_axis)
    right, cdt = h.shape[1], h.dtype
    inv = _rows_dot(xp, h, h)
    inv /= right
    inv = 1 / xp.sqrt(inv + cdt.type(epsilon))
    y = h * inv[:, None]
    if norm_weight is not None:
        y *= norm_weight.reshape(1, right)
    if norm_bias is not None:
        y += norm_bias.reshape(1, right)
    return y.astype(x.dtype, copy=False).reshape(x.shape), h_out, inv.reshape(x.shape[:begin_norm_axis])


def _rms_norm_grad_forward(xp, h, norm_weight, inv_var, dout, dresidual_out, begin_norm_axis):
    # dh = r g - h r^3 mean(g h) with g = dout * NormWeight, r = InvVar; plus ResidualOut's own gradient
    left, right = _ln_split("rms_norm_grad", h.shape, begin_norm_axis)
    cdt = _stat_dtype(h.dtype)
    h2 = h.reshape(left, right).astype(cdt, copy=False)
    d2 = dout.reshape(left, right).astype(cdt, copy=False)
    r = inv_var.reshape(left, 1).astype(cdt, copy=False)
    w = norm_weight.reshape(right).astype(cdt, copy=False) if norm_weight is not None else xp.ones(right, cdt)
    hr = h2 * r
    dnorm_weight = _column_sums(xp, d2 * hr)
    dnorm_bias = _column_sums(xp, d2)
    dh = d2 * w
    dh -= hr * (_rows_dot(xp, dh, hr) / right)[:, None]
    dh *= r
    if dresidual_out is not None:
        dh += dresidual_out.reshape(left, right)
    pshape = norm_weight.shape if norm_weight is not None else (right,)
    pdt = norm_weight.dtype if norm_weight is not None else h.dtype
    return (dh.astype(h.dtype, copy=False).reshape(h.shape), dnorm_weight.astype(pdt, copy=False).reshape(pshape),
            dnorm_bias.astype(pdt, copy=False).reshape(pshape), _column_sums(xp, dh).astype(h.dtype, copy=False))


def _rms_norm_grad_infer(h, norm_weight, inv_var, dout, dresidual_out, begin_norm_axis):
    _, right = _ln_split("rms_norm_grad", h.shape, begin_norm_axis)
    for slot, meta in (("DOut", dout), ("DResidualOut", dresidual_out)):
        if meta is not None and tuple(meta.shape) != tuple(h.shape) and -1 not in h.shape + meta.shape:
            raise ValueError(f"op 'rms_norm_grad': {slot} has shape {list(meta.shape)} but H has {list(h.shape)}")
    p = Meta(norm_weight.shape, norm_weight.dtype) if norm_weight is not None else Meta((right,), h.dtype)
    return Meta(h.shape, h.dtype), p, p, Meta((right,), h.dtype)


def _rms_norm_grad(g):
    """ONE grad op gives the gradient of h (X's and Residual's), of the weights and of Bias (h's column sums)."""
    h, dres = _pre_norm_grad_inputs(g)
    if h is None:
        return
    dh, dweight, dnorm_bias, dbias = g.op("rms_norm_grad", h, g.input("NormWeight"), g.output("InvVar"),
                                          g.output_grad_or_zeros("Out"), dres,
                                          begin_norm_axis=g.attrs["begin_norm_axis"])
    for slot, grad in (("NormBias", dnorm_bias), ("Bias", dbias)):
        if g.needs(slot):
            g.set_input_grad(slot, reshape_as(grad, g.input(slot)))
    g.set_input_grads(("X", "Residual", "NormWeight"), (dh, dh, dweight))


RMS_NORM = register_op("rms_norm", inputs=("X", "Bias", "Residual", "NormWeight", "NormBias"),
                       outputs=("Out", "ResidualOut", "InvVar"), forward=_rms_norm_forward, infer=_rms_norm_infer,
                       grad=_rms_norm_grad, attrs={"epsilon": 1e-5, "begin_norm_axis": 1},
                       optional_inputs=("Bias", "Residual", "NormWeight", "NormBias"),
                       intermediate_outputs=("InvVar",), gpu=_rms_launch.rms_norm)

# No grad maker: double backward through rms_norm is not supported.
RMS_NORM_GRAD = register_op("rms_norm_grad", inputs=("H", "NormWeight", "InvVar", "DOut", "DResidualOut"),
                            outputs=("DH", "DNormWeight", "DNormBias", "DBias"), forward=_rms_norm_grad_forward,
                            infer=_rms_norm_grad_infer, attrs={"begin_norm_axis": 1},
                            optional_inputs=("NormWeight", "DResidualOut"), gpu=_rms_launch.rms_norm_grad)

# ---- instance_norm --------------------------------------------------------------------------------
def _in_channels(op, x, scale, bias):
    if not 2 <= len(x.shape) <= 5:
        raise ValueError(f"op '{op}': X must be 2-D to 5-D [N, C, ...], received shape {list(x.shape)}")
    c = x.shape[1]
    for slot, meta in (("Scale", scale), ("Bias", bias)):
        if meta is not None and c != -1 and tuple(meta.shape) != (c,):
            raise ValueError(f"op '{op}': {slot} must have shape [{c}] (X's channels), received {list(meta.shape)}")
    return c


def _instance_norm_infer(x, scale, bias, epsilon):
    check_float("instance_norm", x, real=True)
    _in_channels("instance_norm", x, scale, bias)
    # Paddle's rule multiplies N * C as they stand: an unknown batch (-1) of 3 channels shows as (-3,)
    stat = Meta((x.shape[0] * x.shape[1],), _compute_dtype(x.dtype))
    return Meta(x.shape, x.dtype), stat, stat


def _instance_norm_forward(xp, x, scale, bias, epsilon):
    # every (sample, channel) row normalised over its positions by layer_norm's forward; SavedVariance holds
    # 1 / sqrt(var + epsilon), as Paddle's
    n, c = x.shape[:2]
    y, mean, var = _layer_norm_forward(xp, x.reshape(n * c, -1), None, None, epsilon, 1)
    y = y.reshape(x.shape)
    channels = (1, c) + (1,) * (x.ndim - 2)
    if scale is not None:
        y = y * scale.reshape(channels).astype(x.dtype, copy=False)
    if bias is not None:
        y = y + bias.reshape(channels).astype(x.dtype, copy=False)
    return y, mean, 1.0 / xp.sqrt(var + var.dtype.type(epsilon))


def _instance_norm_grad_forward(xp, x, scale, mean, inv_std, dy, epsilon):
    # dx = inv_std (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) over each row, dxhat = dy scale[c]
    n, c = x.shape[:2]
    cdt = _compute_dtype(x.dtype)
    x2 = x.reshape(n * c, -1).astype(cdt, copy=False)
    d2 = dy.reshape(n * c, -1).astype(cdt, copy=False)
    rstd = inv_std.astype(cdt, copy=False)[:, None]
    xhat = (x2 - mean.astype(cdt, copy=False)[:, None]) * rstd
    dbias = d2.sum(axis=1).reshape(n, c).sum(axis=0)
    dscale = (d2 * xhat).sum(axis=1).reshape(n, c).sum(axis=0)
    dxhat = d2 if scale is None else d2 * xp.tile(scale.astype(cdt, copy=False), n)[:, None]
    dx = _normalized_input_grad(dxhat, xhat, rstd)
    pdt = scale.dtype if scale is not None else x.dtype
    return dx.astype(x.dtype, copy=False).reshape(x.shape), dscale.astype(pdt), dbias.astype(pdt)


def _instance_norm_grad_infer(x, scale, mean, inv_std, dy, epsilon):
    c = _in_channels("instance_norm_grad", x, scale, None)
    p = Meta((c,), scale.dtype if scale is not None else x.dtype)
    return Meta(x.shape, x.dtype), p, p


INSTANCE_NORM = register_op("instance_norm", inputs=("X", "Scale", "Bias"), outputs=("Y", "SavedMean", "SavedVariance"),
                            forward=_instance_norm_forward, infer=_instance_norm_infer,
                            grad=_fused_norm_grad("instance_norm_grad", ("SavedMean", "SavedVariance")),
                            attrs={"epsilon": 1e-5}, optional_inputs=("Scale", "Bias"),
                            intermediate_outputs=("SavedMean", "SavedVariance"))

# No grad maker: double backward through instance_norm is not supported.
INSTANCE_NORM_GRAD = register_op("instance_norm_grad", inputs=("X", "Scale", "SavedMean", "SavedVariance", "DY"),
                                 outputs=("DX", "DScale", "DBias"), forward=_instance_norm_grad_forward,
                                 infer=_instance_norm_grad_infer, attrs={"epsilon": 1e-5}, optional_inputs=("Scale",))


# ---- batch_norm -----------------------------------------------------------------------------------
_BN_ATTRS = {"momentum": 0.9, "epsilon": 1e-5, "is_test": False, "data_layout": "NCHW",
             "use_global_stats": False, "trainable_statistics": False}
_CHANNELS_LAST = ("NHWC", "NLC", "NDHWC")
_LAYOUTS = ("NC", "NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC", "AnyLayout")


def _bn_channel_axis(op, shape, data_layout):
    if data_layout not in _LAYOUTS:
        raise ValueError(f"op '{op}': data_layout must be one of {list(_LAYOUTS)}, received {data_layout!r}")
    if not 2 <= len(shape) <= 5:
        raise ValueError(f"op '{op}': X must be 2-D to 5-D, received shape {list(shape)}")
    return len(shape) - 1 if data_layout in _CHANNELS_LAST else 1


def _uses_batch_stats(attrs):
    """Paddle's kernel rule: test mode is is_test unless trainable_statistics; the running statistics are used in
    test mode or with use_global_stats, the batch's otherwise."""
    test_mode = attrs["is_test"] and not attrs["trainable_statistics"]
    return not (test_mode or attrs["use_global_stats"])


def _batch_norm_infer(op):
    def infer(x, scale, bias, mean, var, **attrs):
        check_float(op, x, real=True)
        c = x.shape[_bn_channel_axis(op, x.shape, attrs["data_layout"])]
        for slot, m in (("Scale", scale), ("Bias", bias), ("Mean", mean), ("Variance", var)):
            if m is None:
                continue
            if len(m.shape) != 1 or (c != -1 and m.shape[0] != c):
                raise ValueError(f"op '{op}': {slot} must have shape [{c}] (X's channels), received "
                                 f"{list(m.shape)}")
        stat = Meta((c,), _compute_dtype(x.dtype))
        # Paddle's legacy shape rule sizes SavedMean / SavedVariance in training only; in test mode they show as ()
        saved = stat if _uses_batch_stats(attrs) else Meta((), stat.dtype)
        return Meta(x.shape, x.dtype), stat, stat, saved, saved
    return infer


def _bcast(v, ndim, axis):
    shape = [1] * ndim
    shape[axis] = -1
    return v.reshape(shape)


def _local_stats(xp, xc, axis, axes):
    """(mean, biased variance, xc - mean) per channel of this process's batch."""
    m = xc.mean(axis=axes)
    centered = xc - _bcast(m, xc.ndim, axis)
    return m, (centered * centered).mean(axis=axes), centered


def _global_stats(xp, xc, axis, axes):
    """_local_stats over the batches of every rank of the world: each rank's count, mean and centred sum of
    squares are all-gathered and combined (Chan et al.), so the result is the global batch's, whatever
    each rank's batch size (an empty one included), without the cancellation of sum(x^2)/n - mean^2."""
    comm = ring_communicator(0, xp)
    if comm is None:
        return _local_stats(xp, xc, axis, axes)
    n = xc.size // xc.shape[axis]
    m = xc.sum(axis=axes) / max(n, 1)
    centered = xc - _bcast(m, xc.ndim, axis)
    local = xp.concatenate([xp.full((1,), n, dtype=xc.dtype), m, (centered * centered).sum(axis=axes)])[None]
    every = xp.empty((comm.nranks, local.shape[1]), dtype=xc.dtype)
    comm.all_gather(local, every, True).wait()
    counts, means, m2s = every[:, :1], every[:, 1:1 + m.size], every[:, 1 + m.size:]
    total = counts.sum()
    mean = (counts * means).sum(axis=0) / total
    var = (m2s + counts * (means - mean) ** 2).sum(axis=0) / total
    return mean, var, xc - _bcast(mean, xc.ndim, axis)


def _bn_forward(op, stats):
    """The forward of batch_norm-like `op` with batch statistics from `stats(xp, xc, axis, axes)`."""
    def forward(xp, x, scale, bias, mean, var, **attrs):
        axis = _bn_channel_axis(op, x.shape, attrs["data_layout"])
        cdt = _compute_dtype(x.dtype)
        xc = x.astype(cdt, copy=False)
        eps, mom = cdt.type(attrs["epsilon"]), cdt.type(attrs["momentum"])
        if _uses_batch_stats(attrs):
            m, v, centered = stats(xp, xc, axis, tuple(i for i in range(x.ndim) if i != axis))
            mean_out = mean.astype(cdt) * mom + m * (1 - mom)
            var_out = var.astype(cdt) * mom + v * (1 - mom)
        else:
            m, v = mean.astype(cdt), var.astype(cdt)
            centered = xc - _bcast(m, x.ndim, axis)
            mean_out, var_out = m.copy(), v.copy()
        inv_std = 1.0 / xp.sqrt(v + eps)
        y = centered * _bcast(inv_std, x.ndim, axis)
        if scale is not None:
            y = y * _bcast(scale.astype(cdt, copy=False), x.ndim, axis)
        if bias is not None:
            y = y + _bcast(bias.astype(cdt, copy=False), x.ndim, axis)
        return y.astype(x.dtype, copy=False), mean_out, var_out, m, inv_std
    return forward


def _local_sums(xp, dbias, dscale, count):
    return dbias, dscale, count


def _global_sums(xp, dbias, dscale, count):
    """The per-channel sums of dy and dy * x_hat, and the count, over every rank of the world."""
    comm = ring_communicator(0, xp)
    if comm is None:
        return dbias, dscale, count
    local = xp.concatenate([dbias, dscale, xp.full((1,), count, dtype=dbias.dtype)])
    total = xp.empty_like(local)
    comm.all_reduce(local, total, "sum", True).wait()
    c = dbias.size
    return total[:c], total[c:2 * c], total[2 * c]


def _bn_grad_forward(op, sums):
    """The backward of batch_norm-like `op`; in batch-statistics mode the sums dX needs come from `sums` (DScale and DBias
    stay this process's own: the data-parallel all-reduce of parameter gradients adds them up)."""
    def forward(xp, x, scale, saved_mean, saved_inv_std, dy, **attrs):
        """SavedVariance holds 1/sqrt(var + eps) (as Paddle's does); in global-stats mode, of the running var."""
        axis = _bn_channel_axis(op, x.shape, attrs["data_layout"])
        cdt = _compute_dtype(x.dtype)
        axes = tuple(i for i in range(x.ndim) if i != axis)
        xc, d = x.astype(cdt, copy=False), dy.astype(cdt, copy=False)
        inv = _bcast(saved_inv_std.astype(cdt), x.ndim, axis)
        xhat = (xc - _bcast(saved_mean.astype(cdt), x.ndim, axis)) * inv
        dbias = d.sum(axis=axes)
        dscale = (d * xhat).sum(axis=axes)
        s = _bcast(scale.astype(cdt), x.ndim, axis) if scale is not None else cdt.type(1)
        if _uses_batch_stats(attrs):
            sum_dy, sum_dy_xhat, count = sums(xp, dbias, dscale, x.size // x.shape[axis])
            dx = s * inv / count * (count * d - _bcast(sum_dy, x.ndim, axis) -
                                    xhat * _bcast(sum_dy_xhat, x.ndim, axis))
        else:
            dx = d * s * inv
        pdt = scale.dtype if scale is not None else x.dtype
        return dx.astype(x.dtype, copy=False), dscale.astype(pdt, copy=False), dbias.astype(pdt, copy=False)
    return forward


def _bn_gpu(xp, x, scale, bias, mean, var, **attrs):
    """batch_norm through cuDNN (ops/cudnn/batch_norm.py), statistics in the op's dtype for them."""
    axis = _bn_channel_axis("batch_norm", x.shape, attrs["data_layout"])
    if _uses_batch_stats(attrs):
        got = _cudnn_bn.batch_norm_train(xp, x, scale, bias, mean, var, axis, attrs["epsilon"], attrs["momentum"])
    else:
        got = _cudnn_bn.batch_norm_infer(xp, x, scale, bias, mean, var, axis, attrs["epsilon"])
    if got is None:
        return None
    sdt = _compute_dtype(x.dtype)
    return (got[0], *(a.astype(sdt, copy=False) for a in got[1:]))


def _bn_grad_gpu(xp, x, scale, saved_mean, saved_inv_std, dy, **attrs):
    """batch_norm_grad through cuDNN, for batch statistics (global statistics make dX a plain scaling)."""
    if not _uses_batch_stats(attrs):
        return None
    axis = _bn_channel_axis("batch_norm_grad", x.shape, attrs["data_layout"])
    return _cudnn_bn.batch_norm_backward(xp, x, scale, saved_mean, saved_inv_std, dy, axis)


def _batch_norm_grad_infer(op):
    def infer(x, scale, saved_mean, saved_var, dy, **attrs):
        c = x.shape[_bn_channel_axis(op, x.shape, attrs["data_layout"])]
        if tuple(dy.shape) != tuple(x.shape) and -1 not in x.shape + dy.shape:
            raise ValueError(f"op '{op}': DY has shape {list(dy.shape)} but X has {list(x.shape)}")
        p = Meta((c,), scale.dtype if scale is not None else x.dtype)
        return Meta(x.shape, x.dtype), p, p
    return infer


def _batch_norm_ops(type, stats, sums, gpu=None, grad_gpu=None):
    """batch_norm-like op `type` and its grad op (no grad maker: double backward is not supported)."""
    forward = register_op(type, inputs=("X", "Scale", "Bias", "Mean", "Variance"),
                          outputs=("Y", "MeanOut", "VarianceOut", "SavedMean", "SavedVariance"),
                          forward=_bn_forward(type, stats), infer=_batch_norm_infer(type),
                          grad=_fused_norm_grad(f"{type}_grad", ("SavedMean", "SavedVariance")),
                          attrs=_BN_ATTRS, optional_inputs=("Scale", "Bias"), nondiff_inputs=("Mean", "Variance"),
                          intermediate_outputs=("MeanOut", "VarianceOut", "SavedMean", "SavedVariance"), gpu=gpu)
    grad = register_op(f"{type}_grad", inputs=("X", "Scale", "SavedMean", "SavedVariance", "DY"),
                       outputs=("DX", "DScale", "DBias"), forward=_bn_grad_forward(f"{type}_grad", sums),
                       infer=_batch_norm_grad_infer(f"{type}_grad"), attrs=_BN_ATTRS, optional_inputs=("Scale",),
                       gpu=grad_gpu)
    return forward, grad


BATCH_NORM, BATCH_NORM_GRAD = _batch_norm_ops("batch_norm", _local_stats, _local_sums, _bn_gpu, _bn_grad_gpu)
# Paddle's sync_batch_norm: the statistics (and in backward the sums dX needs) of the batch of every rank of
# the world; before a process group exists, batch_norm's numbers.
SYNC_BATCH_NORM, SYNC_BATCH_NORM_GRAD = _batch_norm_ops("sync_batch_norm", _global_stats, _global_sums)


# ---- group_norm: each sample's `groups` channel groups normalised over their channels and positions, then a
# per-channel Scale / Bias; Mean and Variance (biased) are [N, groups]. data_layout NCHW (channel axis 1, any
# rank) or NHWC (channel last).
def _groups_view(xp, a, groups, data_layout):
    """a with the channel axis at 1, and its [N, groups, rest] view."""
    first = xp.moveaxis(a, -1, 1) if data_layout == "NHWC" else a
    return first, first.reshape(first.shape[0], groups, -1)


def _group_norm_forward(xp, x, scale, bias, epsilon, groups, data_layout):
    cdt = _compute_dtype(x.dtype)
    first, xg = _groups_view(xp, x.astype(cdt, copy=False), groups, data_layout)
    mean = xg.mean(axis=-1)
    centered = xg - mean[..., None]
    var = (centered * centered).mean(axis=-1)  # xg.var's own steps, without centring xg a second time
    y = (centered / xp.sqrt(var + cdt.type(epsilon))[..., None]).reshape(first.shape)
    channels = [1, first.shape[1]] + [1] * (first.ndim - 2)
    if scale is not None:
        y *= scale.reshape(channels)
    if bias is not None:
        y += bias.reshape(channels)
    y = xp.moveaxis(y, 1, -1) if data_layout == "NHWC" else y
    return y.astype(x.dtype, copy=False), mean, var


def _group_norm_infer(x, scale, bias, epsilon, groups, data_layout):
    check_float("group_norm", x, real=True)
    if data_layout not in ("NCHW", "NHWC") or len(x.shape) < 2:
        raise ValueError(f"op 'group_norm': X must be [N, C, ...] with data_layout 'NCHW' or 'NHWC', received "
                         f"shape {list(x.shape)} and {data_layout!r}")
    c = x.shape[-1 if data_layout == "NHWC" else 1]
    if groups < 1 or c != -1 and c % groups:
        raise ValueError(f"op 'group_norm': groups ({groups}) must divide the {c} channels")
    for slot, m in (("Scale", scale), ("Bias", bias)):
        if m is not None and tuple(m.shape) != (c,) and c != -1:
            raise ValueError(f"op 'group_norm': {slot} must have shape [{c}], received {list(m.shape)}")
    stat = Meta((x.shape[0], groups), _compute_dtype(x.dtype))
    return Meta(x.shape, x.dtype), stat, stat


def _group_norm_grad_forward(xp, x, scale, mean, var, dy, epsilon, groups, data_layout):
    cdt = _compute_dtype(x.dtype)
    first, xg = _groups_view(xp, x.astype(cdt, copy=False), groups, data_layout)
    dfirst, _ = _groups_view(xp, dy.astype(cdt, copy=False), groups, data_layout)
    rstd = (1.0 / xp.sqrt(var.astype(cdt) + cdt.type(epsilon)))[..., None]
    xhat = ((xg - mean.astype(cdt)[..., None]) * rstd).reshape(first.shape)
    others = tuple(i for i in range(first.ndim) if i != 1)
    dbias = dfirst.sum(axis=others)
    dscale = (dfirst * xhat).sum(axis=others)
    channels = [1, first.shape[1]] + [1] * (first.ndim - 2)
    dxhat = (dfirst * scale.reshape(channels) if scale is not None else dfirst).reshape(xg.shape)
    xhat = xhat.reshape(xg.shape)
    dx = _normalized_input_grad(dxhat, xhat, rstd)
    dx = dx.reshape(first.shape)
    dx = xp.moveaxis(dx, 1, -1) if data_layout == "NHWC" else dx
    wdt = scale.dtype if scale is not None else x.dtype
    return dx.astype(x.dtype, copy=False), dscale.astype(wdt, copy=False), dbias.astype(wdt, copy=False)


def _group_norm_grad_infer(x, scale, mean, var, dy, epsilon, groups, data_layout):
    c = x.shape[-1 if data_layout == "NHWC" else 1]
    wdt = scale.dtype if scale is not None else x.dtype
    return Meta(x.shape, x.dtype), Meta((c,), wdt), Meta((c,), wdt)


_GROUP_NORM_ATTRS = {"epsilon": 1e-5, "groups": 1, "data_layout": "NCHW"}
GROUP_NORM = register_op("group_norm", inputs=("X", "Scale", "Bias"), outputs=("Y", "Mean", "Variance"),
                         forward=_group_norm_forward, infer=_group_norm_infer,
                         grad=_fused_norm_grad("group_norm_grad", ("Mean", "Variance")), attrs=_GROUP_NORM_ATTRS,
                         optional_inputs=("Scale", "Bias"), intermediate_outputs=("Mean", "Variance"))
# No grad maker: double backward through group_norm is not supported.
GROUP_NORM_GRAD = register_op("group_norm_grad", inputs=("X", "Scale", "Mean", "Variance", "DY"),
                              outputs=("DX", "DScale", "DBias"), forward=_group_norm_grad_forward,
                              infer=_group_norm_grad_infer, attrs=_GROUP_NORM_ATTRS, optional_inputs=("Scale",))
