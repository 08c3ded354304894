"""2-D convolution (conv2d / conv2d_grad) by im2col + matmul, plus the sliding-window helpers pooling shares.

Windows are gathered with one strided slice per kernel offset (kh * kw slices), which works unchanged on
NumPy and CuPy; the adjoint (col2im) adds the same slices back. Within one kernel offset the slices do
not overlap, so a plain `+=` on the view accumulates correctly without a scatter.
"""
import numpy as np

from .math import matmul_array
from .registry import Meta, register_op


# ---- geometry -------------------------------------------------------------------------------------
def pair(op, name, value):
    """An int or a 2-sequence of ints -> [a, b]."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value), int(value)]
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return [int(v) for v in value]
    raise ValueError(f"op '{op}': {name} must be an int or a list of 2 ints, received {value!r}")


def resolve_pads(op, paddings, padding_algorithm, in_hw, ksize, strides, dilations):
    """Paddle's padding rule -> ([(top, bottom), (left, right)], effective dilations).

    paddings: [ph, pw] or [top, bottom, left, right]; padding_algorithm 'EXPLICIT', 'SAME' (output =
    ceil(in / stride), dilation reset to 1 as Paddle does) or 'VALID' (no padding).
    """
    if padding_algorithm == "VALID":
        return [(0, 0), (0, 0)], list(dilations)
    if padding_algorithm == "SAME":
        pads = []
        for n, k, s in zip(in_hw, ksize, strides):
            if n == -1:
                pads.append((-1, -1))
                continue
            out = -(-n // s)
            total = max((out - 1) * s + k - n, 0)
            pads.append((total // 2, total - total // 2))
        return pads, [1, 1]
    if padding_algorithm != "EXPLICIT":
        raise ValueError(f"op '{op}': padding_algorithm must be 'EXPLICIT', 'SAME' or 'VALID', "
                         f"received {padding_algorithm!r}")
    p = [int(v) for v in paddings]
    if len(p) == 2:
        pads = [(p[0], p[0]), (p[1], p[1])]
    elif len(p) == 4:
        pads = [(p[0], p[1]), (p[2], p[3])]
    else:
        raise ValueError(f"op '{op}': paddings must have 2 ([ph, pw]) or 4 ([top, bottom, left, right]) "
                         f"entries, received {list(paddings)}")
    if any(v < 0 for v in p):
        raise ValueError(f"op '{op}': paddings must be non-negative, received {p}")
    return pads, list(dilations)


def out_size(n, pad, k, s, d, ceil_mode=False):
    """Output length of a window sweep over n (+ pad) with kernel k, stride s, dilation d (-1: unknown)."""
    if n == -1 or pad[0] == -1:
        return -1
    span = d * (k - 1) + 1
    extent = n + pad[0] + pad[1] - span
    return (extent + (s - 1 if ceil_mode else 0)) // s + 1


def to_nchw(x, data_format):
    return x.transpose(0, 3, 1, 2) if data_format == "NHWC" else x


def from_nchw(xp, x, data_format):
    return xp.ascontiguousarray(x.transpose(0, 2, 3, 1) if data_format == "NHWC" else x)


def nchw_shape(shape, data_format):
    return (shape[0], shape[3], shape[1], shape[2]) if data_format == "NHWC" else tuple(shape)


def nchw_out_shape(n, c, h, w, data_format):
    return (n, h, w, c) if data_format == "NHWC" else (n, c, h, w)


def check_data_format(op, data_format):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"op '{op}': data_format must be 'NCHW' or 'NHWC', received {data_format!r}")


# ---- window gather / scatter (im2col / col2im) ----------------------------------------------------
def pad_hw(xp, x, pads, value=0.0):
    (pt, pb), (pl, pr) = pads
    if pt == pb == pl == pr == 0:
        return x
    return xp.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), mode="constant", constant_values=value)


def extract_windows(xp, x, ksize, strides, dilations, out_hw):
    """x [N, C, Hp, Wp] (already padded) -> [N, C, kh, kw, OH, OW]: every window, gathered by one strided copy
    (a view whose strides step by the dilation within a window and by the stride between windows)."""
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = ksize, strides, dilations, out_hw
    s0, s1, s2, s3 = x.strides
    view = xp.lib.stride_tricks.as_strided(x, x.shape[:2] + (kh, kw, oh, ow),
                                           (s0, s1, dh * s2, dw * s3, sh * s2, sw * s3))
    return xp.ascontiguousarray(view)


def fold_windows(xp, cols, padded_hw, strides, dilations):
    """The adjoint of extract_windows: add every window back into a zero [N, C, Hp, Wp] array."""
    n, c, kh, kw, oh, ow = cols.shape
    (sh, sw), (dh, dw) = strides, dilations
    out = xp.zeros((n, c) + tuple(padded_hw), dtype=cols.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    return out


def crop_hw(x, pads, hw):
    (pt, _), (pl, _) = pads
    return x[:, :, pt:pt + hw[0], pl:pl + hw[1]]


def scatter_add(xp, target, indices, values):
    """target[indices] += values with repeated indices accumulating, on NumPy or CuPy (in place)."""
    if xp is np:
        np.add.at(target, indices, values)
    else:
        import cupyx
        cupyx.scatter_add(target, indices, values)
    return target


# ---- conv2d ---------------------------------------------------------------------------------------
_CONV_ATTRS = {"strides": [1, 1], "paddings": [0, 0], "padding_algorithm": "EXPLICIT", "dilations": [1, 1],
               "groups": 1, "data_format": "NCHW"}


def _conv_geometry(op, x_shape, w_shape, strides, paddings, padding_algorithm, dilations, groups, data_format):
    """Validate shapes/attrs -> (N, C, H, W), (O, Cg, kh, kw), pads, strides, dilations, (OH, OW)."""
    check_data_format(op, data_format)
    if len(x_shape) != 4:
        raise ValueError(f"op '{op}': Input must be 4-D ({data_format}), received shape {list(x_shape)}")
    if len(w_shape) != 4:
        raise ValueError(f"op '{op}': Filter must be 4-D [out_channels, in_channels/groups, kh, kw], "
                         f"received shape {list(w_shape)}")
    if not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"op '{op}': groups must be a positive int, received {groups!r}")
    n, c, h, w = nchw_shape(x_shape, data_format)
    o, cg, kh, kw = w_shape
    if c != -1 and c != cg * groups:
        raise ValueError(f"op '{op}': Input has {c} channels but Filter {list(w_shape)} with groups={groups} "
                         f"expects {cg * groups} (in_channels/groups = {cg})")
    if o % groups:
        raise ValueError(f"op '{op}': Filter's out_channels {o} must be divisible by groups={groups}")
    strides = pair(op, "strides", strides)
    dilations = pair(op, "dilations", dilations)
    if min(strides) < 1 or min(dilations) < 1:
        raise ValueError(f"op '{op}': strides and dilations must be >= 1, received {strides}, {dilations}")
    pads, dilations = resolve_pads(op, paddings, padding_algorithm, (h, w), (kh, kw), strides, dilations)
    oh = out_size(h, pads[0], kh, strides[0], dilations[0])
    ow = out_size(w, pads[1], kw, strides[1], dilations[1])
    if (oh != -1 and oh < 1) or (ow != -1 and ow < 1):
        raise ValueError(f"op '{op}': the output would be empty ({oh}x{ow}): Input spatial size {[h, w]} with "
                         f"paddings {pads} is smaller than the dilated kernel {[kh, kw]} (dilations {dilations})")
    return (n, c, h, w), (o, cg, kh, kw), pads, strides, dilations, (oh, ow)


def _conv2d_infer(x, w, **attrs):
    if x.dtype != w.dtype:
        raise TypeError(f"op 'conv2d': Filter has dtype {w.dtype} but Input has {x.dtype}; cast one explicitly")
    (n, _, _, _), (o, _, _, _), _, _, _, (oh, ow) = _conv_geometry("conv2d", x.shape, w.shape, **attrs)
    return Meta(nchw_out_shape(n, o, oh, ow, attrs["data_format"]), x.dtype)


def _conv_cols(xp, x, w_shape, attrs, op="conv2d"):
    (n, c, h, wd), (o, cg, kh, kw), pads, strides, dils, (oh, ow) = _conv_geometry(op, x.shape, w_shape, **attrs)
    xpad = pad_hw(xp, to_nchw(x, attrs["data_format"]), pads)
    cols = extract_windows(xp, xpad, (kh, kw), strides, dils, (oh, ow))
    return cols, (n, c, h, wd), (o, cg, kh, kw), pads, strides, dils, (oh, ow), xpad.shape[2:]


def _conv2d_forward(xp, x, w, **attrs):
    cols, (n, c, _, _), (o, cg, kh, kw), _, _, _, (oh, ow), _ = _conv_cols(xp, x, w.shape, attrs)
    g = attrs["groups"]
    cols = cols.reshape(n, g, cg * kh * kw, oh * ow)
    out = matmul_array(xp, w.reshape(g, o // g, cg * kh * kw), cols)       # [N, G, O/G, OH*OW]
    return from_nchw(xp, out.reshape(n, o, oh, ow), attrs["data_format"])


def _conv2d_grad_forward(xp, x, w, dout, **attrs):
    cols, (n, c, h, wd), (o, cg, kh, kw), pads, strides, dils, (oh, ow), padded_hw = _conv_cols(
        xp, x, w.shape, attrs, "conv2d_grad")
    g = attrs["groups"]
    k = cg * kh * kw
    d = to_nchw(dout, attrs["data_format"]).reshape(n, g, o // g, oh * ow)
    cols = cols.reshape(n, g, k, oh * ow)
    dw = matmul_array(xp, d, cols.swapaxes(-1, -2)).sum(axis=0).reshape(w.shape)   # [G, O/G, K] summed over N
    dcols = matmul_array(xp, w.reshape(g, o // g, k).swapaxes(-1, -2), d)         # [N, G, K, OH*OW]
    dxpad = fold_windows(xp, dcols.reshape(n, c, kh, kw, oh, ow), padded_hw, strides, dils)
    dx = from_nchw(xp, crop_hw(dxpad, pads, (h, wd)), attrs["data_format"])
    return dx, xp.ascontiguousarray(dw)


def _conv2d_grad_infer(x, w, dout, **attrs):
    expected = _conv2d_infer(x, w, **attrs).shape
    if len(dout.shape) != len(expected) or any(a != b and -1 not in (a, b) for a, b in zip(dout.shape, expected)):
        raise ValueError(f"op 'conv2d_grad': DOutput has shape {list(dout.shape)} but the convolution of Input "
                         f"{list(x.shape)} by Filter {list(w.shape)} has shape {list(expected)}")
    return Meta(x.shape, x.dtype), Meta(w.shape, w.dtype)


def _conv2d_grad(g):
    if g.needs_any("Input", "Filter"):
        g.set_input_grads(("Input", "Filter"), g.op("conv2d_grad", g.input("Input"), g.input("Filter"),
                                                    g.output_grad("Output"), **g.attrs))


def _conv2d_grad_grad(g):
    # dInput = A_W^T dOut (linear in dOut, linear in W); dFilter = bilinear in (Input, dOut).
    x, w, dout = g.input("Input"), g.input("Filter"), g.input("DOutput")
    ddx, ddw = g.output_grad("DInput"), g.output_grad("DFilter")
    if g.needs("Input") and ddw is not None:
        g.set_input_grad("Input", g.op("conv2d_grad", x, ddw, dout, **g.attrs)[0])
    if g.needs("Filter") and ddx is not None:
        g.set_input_grad("Filter", g.op("conv2d_grad", ddx, w, dout, **g.attrs)[1])
    if g.needs("DOutput"):
        terms = []
        if ddx is not None:
            terms.append(g.op("conv2d", ddx, w, **g.attrs))
        if ddw is not None:
            terms.append(g.op("conv2d", x, ddw, **g.attrs))
        if terms:
            g.set_input_grad("DOutput", terms[0] if len(terms) == 1 else terms[0] + terms[1])


CONV2D = register_op("conv2d", inputs=("Input", "Filter"), outputs=("Output",), forward=_conv2d_forward,
                     infer=_conv2d_infer, grad=_conv2d_grad, attrs=_CONV_ATTRS, same_dtype=("Input", "Filter"),
                     double_grad=True)

CONV2D_GRAD = register_op("conv2d_grad", inputs=("Input", "Filter", "DOutput"), outputs=("DInput", "DFilter"),
                          forward=_conv2d_grad_forward, infer=_conv2d_grad_infer, grad=_conv2d_grad_grad,
                          attrs=_CONV_ATTRS, same_dtype=("Input", "Filter", "DOutput"), double_grad=True)


# ---- conv2d_transpose: the adjoint of conv2d in its input ---------------------------------------------
# Output [N, Cout, OH, OW] from Input [N, Cin, H, W] and Filter [Cin, Cout/groups, kh, kw] (Paddle's layout),
# OH = (H - 1) * stride - pad_top - pad_bottom + dilation * (kh - 1) + 1 + output_padding. The forward is
# conv2d's input gradient (fold the filter-weighted windows back); its gradients are conv2d and conv2d_grad.
_CONV_T_ATTRS = {**_CONV_ATTRS, "output_padding": [0, 0]}


def _conv_t_geometry(op, x_shape, w_shape, strides, paddings, padding_algorithm, dilations, groups, data_format,
                     output_padding):
    check_data_format(op, data_format)
    if len(x_shape) != 4 or len(w_shape) != 4:
        raise ValueError(f"op '{op}': Input and Filter must be 4-D, received shapes {list(x_shape)} and "
                         f"{list(w_shape)}")
    if padding_algorithm == "SAME":
        raise ValueError(f"op '{op}': resolve 'SAME' padding to explicit paddings before building the op")
    if not isinstance(groups, (int, np.integer)) or groups < 1:
        raise ValueError(f"op '{op}': groups must be a positive int, received {groups!r}")
    n, c, h, w = nchw_shape(x_shape, data_format)
    cin, cout_g, kh, kw = w_shape
    if c != -1 and c != cin:
        raise ValueError(f"op '{op}': Input has {c} channels but Filter {list(w_shape)} expects {cin}")
    if cin % groups:
        raise ValueError(f"op '{op}': Filter's in_channels {cin} must be divisible by groups={groups}")
    strides, dilations = pair(op, "strides", strides), pair(op, "dilations", dilations)
    extra = pair(op, "output_padding", output_padding)
    pads, dilations = resolve_pads(op, paddings, padding_algorithm, (h, w), (kh, kw), strides, dilations)
    if any(not 0 <= e < max(s, d) for e, s, d in zip(extra, strides, dilations)):
        raise ValueError(f"op '{op}': output_padding {extra} must be smaller than the stride {strides} or the "
                         f"dilation {dilations}")
    out_hw = [-1 if size == -1 else (size - 1) * s - p0 - p1 + d * (k - 1) + 1 + e
              for size, s, (p0, p1), d, k, e in zip((h, w), strides, pads, dilations, (kh, kw), extra)]
    if any(v != -1 and v < 1 for v in out_hw):
        raise ValueError(f"op '{op}': the output would be empty ({out_hw}): paddings {pads} exceed the output")
    return (n, c, h, w), (cin, cout_g, kh, kw), pads, strides, dilations, out_hw


def _conv_t_infer(x, w, **attrs):
    if x.dtype != w.dtype:
        raise TypeError(f"op 'conv2d_transpose': Filter has dtype {w.dtype} but Input has {x.dtype}; cast one "
                        f"explicitly")
    (n, _, _, _), (_, cout_g, _, _), _, _, _, (oh, ow) = _conv_t_geometry("conv2d_transpose", x.shape, w.shape,
                                                                         **attrs)
    return Meta(nchw_out_shape(n, cout_g * attrs["groups"], oh, ow, attrs["data_format"]), x.dtype)


def _conv_t_forward(xp, x, w, **attrs):
    (n, c, h, wd), (cin, cout_g, kh, kw), pads, strides, dils, (oh, ow) = _conv_t_geometry(
        "conv2d_transpose", x.shape, w.shape, **attrs)
    g = attrs["groups"]
    d = to_nchw(x, attrs["data_format"]).reshape(n, g, cin // g, h * wd)
    cols = xp.matmul(w.reshape(g, cin // g, cout_g * kh * kw).swapaxes(-1, -2), d)   # [N, G, K, H*W]
    padded = (oh + pads[0][0] + pads[0][1], ow + pads[1][0] + pads[1][1])
    out = fold_windows(xp, cols.reshape(n, g * cout_g, kh, kw, h, wd), padded, strides, dils)
    return from_nchw(xp, xp.ascontiguousarray(crop_hw(out, pads, (oh, ow))), attrs["data_format"])


def _conv_t_grad(g):
    conv = {k: g.attrs[k] for k in _CONV_ATTRS}  # the convolution this op is the adjoint of
    x, w, dout = g.input("Input"), g.input("Filter"), g.output_grad("Output")
    if g.needs("Input"):
        g.set_input_grad("Input", g.op("conv2d", dout, w, **conv))
    if g.needs("Filter"):
        g.set_input_grad("Filter", g.op("conv2d_grad", dout, w, x, **conv)[1])


CONV2D_TRANSPOSE = register_op("conv2d_transpose", inputs=("Input", "Filter"), outputs=("Output",),
                               forward=_conv_t_forward, infer=_conv_t_infer, grad=_conv_t_grad, attrs=_CONV_T_ATTRS,
                               same_dtype=("Input", "Filter"), double_grad=True)
