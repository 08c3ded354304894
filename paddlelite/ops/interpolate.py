"""Paddle's resampling ops, `<method>_interp_v2` (nearest, linear, bilinear, bicubic, trilinear): each spatial dim
resampled in turn, every output position a weighted sum of a few input taps along that dim (Paddle's coordinate
rules); the gradient adds each output's gradient back into its taps. Sizes come from out_d/out_h/out_w, or from
the `scale` list when it is given (which also sets the source-coordinate ratio)."""
import numpy as np

from .conv import scatter_add
from .registry import Meta, register_op
from .tensor_args import int_values
from .shape_rules import check_float

_CUBIC_A = -0.75  # Paddle's (and OpenCV's) cubic convolution constant
_FIRST_FOR_ONE = ("nearest", "bilinear", "bicubic")  # Paddle's kernels that read it for a single output
_DIMS = {"nearest": (2, 3), "linear": (1,), "bilinear": (2,), "bicubic": (2,), "trilinear": (3,)}


def _cubic_weights(t):
    """The four taps' weights at offsets -1, 0, 1, 2 from floor(src), t = src - floor(src) (Keys' kernel)."""
    def near(d):  # |d| <= 1
        return ((_CUBIC_A + 2) * d - (_CUBIC_A + 3)) * d * d + 1

    def far(d):  # 1 < |d| < 2
        return ((_CUBIC_A * d - 5 * _CUBIC_A) * d + 8 * _CUBIC_A) * d - 4 * _CUBIC_A
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(n_in, n_out, scale, method, align_corners, align_mode):
    """[(input index, weight or None)] per tap, each an array over the n_out output positions."""
    dst = np.arange(n_out, dtype=np.float64)
    if n_out == 1 and (align_corners or method in _FIRST_FOR_ONE):  # the first source position
        ratio = 0.0
    elif align_corners:
        ratio = (n_in - 1) / (n_out - 1)
    else:
        ratio = 1.0 / scale if scale else n_in / n_out
    if method == "nearest":
        src = np.round(dst * ratio) if align_corners else np.floor(dst * ratio)
        return [(np.minimum(src.astype(np.int64), n_in - 1), None)]
    if method == "bicubic":  # unclamped source coordinate; the taps are clamped into [0, n_in - 1]
        src = dst * ratio if align_corners else (dst + 0.5) * ratio - 0.5
        base = np.floor(src).astype(np.int64)
        return [(np.clip(base + offset, 0, n_in - 1), weight)
                for offset, weight in zip(range(-1, 3), _cubic_weights(src - base))]
    src = dst * ratio if align_corners or align_mode == 1 else np.maximum((dst + 0.5) * ratio - 0.5, 0.0)
    low = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    frac = src - low
    return [(low, 1.0 - frac), (np.minimum(low + 1, n_in - 1), frac)]


def _geometry(method, x_shape, out_d, out_h, out_w, scale, interp_method, align_corners, align_mode, data_layout):
    """[(axis, input size, output size, scale or None)] of the spatial dims."""
    name = f"{method}_interp_v2"
    nd = len(x_shape) - 2
    if nd not in _DIMS[method]:
        raise ValueError(f"op '{name}': X must be {' or '.join(str(d + 2) for d in _DIMS[method])}-D, "
                         f"received shape {list(x_shape)}")
    if interp_method != method or data_layout not in ("NCHW", "NHWC") or align_mode not in (0, 1):
        raise ValueError(f"op '{name}': interp_method must be {method!r}, data_layout 'NCHW' or 'NHWC' and "
                         f"align_mode 0 or 1, received {interp_method!r}, {data_layout!r}, {align_mode!r}")
    if align_corners and method == "nearest":
        raise ValueError(f"op '{name}': align_corners must be False for nearest interpolation")
    axes = list(range(1, nd + 1)) if data_layout == "NHWC" else list(range(2, nd + 2))
    sizes = [x_shape[a] for a in axes]
    if scale:
        scales = list(scale) * nd if len(scale) == 1 else list(scale)
        if len(scales) != nd or min(scales) <= 0:
            raise ValueError(f"op '{name}': scale must hold {nd} positive numbers, received {list(scale)}")
        outs = [-1 if n == -1 else int(np.floor(n * s)) for n, s in zip(sizes, scales)]
    else:
        scales, outs = [None] * nd, [out_d, out_h, out_w][3 - nd:]
    if any(o != -1 and o < 1 for o in outs):
        raise ValueError(f"op '{name}': the output size must be positive, received {outs} for X of shape "
                         f"{list(x_shape)}")
    return list(zip(axes, sizes, outs, scales))


_SIZE_TENSORS = ("OutSize", "SizeTensor", "Scale")


def _sized(attrs, nd, out_size, size_tensor, scale_t):
    """`attrs` with the output size or scale the op's tensors give: OutSize (a 1-D int tensor), SizeTensor (one
    tensor per spatial dim) or Scale (a 1-D float tensor), read when it runs."""
    sizes = int_values(out_size, size_tensor, None)
    if sizes is not None:
        return {**attrs, **dict(zip(("out_d", "out_h", "out_w")[3 - nd:], sizes)), "scale": []}
    if scale_t is not None:
        return {**attrs, "scale": [float(v) for v in scale_t.reshape(-1).tolist()]}
    return attrs


def _register(method):
    name = f"{method}_interp_v2"

    def geometry(x_shape, **attrs):
        return _geometry(method, x_shape, **attrs)

    def infer(x, out_size, size_tensor, scale_t, **attrs):
        check_float(name, x, real=True)
        shape = list(x.shape)
        unknown = out_size is not None or scale_t is not None  # sizes known when the op runs
        if unknown:  # (a SizeTensor's entries are -1 in the attrs already)
            attrs = {**attrs, "out_d": -1, "out_h": -1, "out_w": -1, "scale": []}
        for axis, _, n_out, _ in geometry(x.shape, **attrs):
            shape[axis] = n_out
        return Meta(tuple(shape), x.dtype)

    def taps(n_in, n_out, scale, attrs):
        return _taps(n_in, n_out, scale, method, attrs["align_corners"], attrs["align_mode"])

    def weighted(xp, t, weight):
        return t if weight is None else t * xp.asarray(weight.astype(t.dtype)).reshape((-1,) + (1,) * (t.ndim - 1))

    def forward(xp, x, out_size, size_tensor, scale_t, **attrs):
        attrs = _sized(attrs, x.ndim - 2, out_size, size_tensor, scale_t)
        for axis, n_in, n_out, scale in geometry(x.shape, **attrs):
            moved = xp.moveaxis(x, axis, 0)
            out = None
            for index, weight in taps(n_in, n_out, scale, attrs):
                term = weighted(xp, moved[xp.asarray(index)], weight)
                out = term if out is None else out + term
            x = xp.moveaxis(out, 0, axis)
        return xp.ascontiguousarray(x)

    def grad_forward(xp, x, dout, out_size, size_tensor, scale_t, **attrs):
        attrs = _sized(attrs, x.ndim - 2, out_size, size_tensor, scale_t)
        g = dout
        for axis, n_in, n_out, scale in reversed(geometry(x.shape, **attrs)):
            moved = xp.moveaxis(g, axis, 0)
            dx = xp.zeros((n_in,) + moved.shape[1:], dtype=dout.dtype)
            for index, weight in taps(n_in, n_out, scale, attrs):
                scatter_add(xp, dx, (xp.asarray(index),), weighted(xp, moved, weight))
            g = xp.moveaxis(dx, 0, axis)
        return xp.ascontiguousarray(g)

    def grad(g):
        if g.needs("X"):
            g.set_input_grad("X", g.op(name + "_grad", g.input("X"), g.output_grad("Out"),
                                       *[g.input(slot) for slot in _SIZE_TENSORS], **g.attrs))

    def grad_grad(g):  # the grad op is linear in DOut: its gradient resamples again
        if g.needs("DOut"):
            g.set_input_grad("DOut", g.op(name, g.output_grad("DX"), *[g.input(slot) for slot in _SIZE_TENSORS],
                                          **g.attrs))

    attrs = {"out_d": -1, "out_h": -1, "out_w": -1, "scale": [], "interp_method": method, "align_corners": False,
             "align_mode": 0, "data_layout": "NCHW"}
    op = register_op(name, inputs=("X", *_SIZE_TENSORS), outputs=("Out",), variadic_inputs=("SizeTensor",),
                     host_inputs=_SIZE_TENSORS, forward=forward, infer=infer, grad=grad, attrs=attrs,
                     double_grad=True)
    grad_op = register_op(name + "_grad", inputs=("X", "DOut", *_SIZE_TENSORS), meta_inputs=("X",), outputs=("DX",),
                          variadic_inputs=("SizeTensor",), host_inputs=_SIZE_TENSORS, forward=grad_forward,
                          infer=lambda x, dout, *sizes, **a: Meta(x.shape, dout.dtype), grad=grad_grad,
                          attrs=attrs, double_grad=True)
    return op, grad_op


NEAREST_INTERP_V2, NEAREST_INTERP_V2_GRAD = _register("nearest")
LINEAR_INTERP_V2, LINEAR_INTERP_V2_GRAD = _register("linear")
BILINEAR_INTERP_V2, BILINEAR_INTERP_V2_GRAD = _register("bilinear")
BICUBIC_INTERP_V2, BICUBIC_INTERP_V2_GRAD = _register("bicubic")
TRILINEAR_INTERP_V2, TRILINEAR_INTERP_V2_GRAD = _register("trilinear")
