"""Convolution (conv2d / conv3d and their grads, conv2d_transpose / conv3d_transpose) by im2col + matmul, plus
the sliding-window helpers pooling shares; every helper works for any number of spatial dims. On a GPU with cuDNN
Frontend installed (the `[cudnn]` extra) each op's binding runs cuDNN's fprop / dgrad / wgrad graphs
(ops/cudnn/conv.py); im2col stays the fallback and the reference.

Windows are gathered with one strided view, which works unchanged on NumPy and CuPy; the adjoint (col2im)
adds one strided slice per kernel offset back. Within one kernel offset the slices do not overlap, so a plain
`+=` on the view accumulates correctly without a scatter. Stride-1 convolutions (the common case) gather and
fold over the flattened padded input instead (GemmWindows), so every copy and add runs along long rows.
"""
import itertools

import numpy as np

from ..device.cuda import cupyx_for
from .cudnn import conv as _cudnn_conv
from .math import matmul_array
from .registry import Meta, register_op
from .shape_rules import known_shapes_differ

_TF32 = "cudnn"  # Paddle's convolutions run in cuDNN: their float32 GEMMs follow its TF32 switch (set_cudnn_switch)


# ---- geometry (any number of spatial dims: 2 for conv2d/pool2d, 3 for conv3d/pool3d) ----------------------
_FORMATS = {2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}  # channel-first, channel-last


def ints(op, name, value, n):
    """An int or an n-sequence of ints -> a list of n ints."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)] * n
    if isinstance(value, (list, tuple)) and len(value) == n and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return [int(v) for v in value]
    raise ValueError(f"op '{op}': {name} must be an int or a list of {n} ints, received {value!r}")


def pair(op, name, value):
    """An int or a 2-sequence of ints -> [a, b]."""
    return ints(op, name, value, 2)


def resolve_pads(op, paddings, padding_algorithm, in_sizes, ksize, strides, dilations):
    """Paddle's padding rule -> ([(before, after)] per spatial dim, effective dilations).

    paddings: n entries (symmetric) or 2n ([before, after] per dim); padding_algorithm 'EXPLICIT', 'SAME'
    (output = ceil(in / stride), dilation reset to 1 as Paddle does) or 'VALID' (no padding).
    """
    nd = len(strides)
    if padding_algorithm == "VALID":
        return [(0, 0)] * nd, list(dilations)
    if padding_algorithm == "SAME":
        pads = []
        for n, k, s in zip(in_sizes, ksize, strides):
            if n == -1:
                pads.append((-1, -1))
                continue
            out = -(-n // s)
            total = max((out - 1) * s + k - n, 0)
            pads.append((total // 2, total - total // 2))
        return pads, [1] * nd
    if padding_algorithm != "EXPLICIT":
        raise ValueError(f"op '{op}': padding_algorithm must be 'EXPLICIT', 'SAME' or 'VALID', "
                         f"received {padding_algorithm!r}")
    p = [int(v) for v in paddings]
    if len(p) == nd:
        pads = [(v, v) for v in p]
    elif len(p) == 2 * nd:
        pads = [(p[2 * i], p[2 * i + 1]) for i in range(nd)]
    else:
        raise ValueError(f"op '{op}': paddings must have {nd} (symmetric) or {2 * nd} ([before, after] per "
                         f"spatial dim) entries, received {list(paddings)}")
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


def _channel_last(data_format):
    return data_format in ("NHWC", "NDHWC")


def to_nchw(x, data_format):
    """A channel-last array viewed channel-first (NHWC -> NCHW, NDHWC -> NCDHW)."""
    return x.transpose(0, x.ndim - 1, *range(1, x.ndim - 1)) if _channel_last(data_format) else x


def from_nchw(xp, x, data_format):
    return xp.ascontiguousarray(x.transpose(0, *range(2, x.ndim), 1) if _channel_last(data_format) else x)


def nchw_shape(shape, data_format):
    return (shape[0], shape[-1], *shape[1:-1]) if _channel_last(data_format) else tuple(shape)


def nchw_out_shape(n, c, spatial, data_format):
    return (n, *spatial, c) if _channel_last(data_format) else (n, c, *spatial)


def check_data_format(op, data_format, nd=2):
    if data_format not in _FORMATS[nd]:
        raise ValueError(f"op '{op}': data_format must be '{_FORMATS[nd][0]}' or '{_FORMATS[nd][1]}', "
                         f"received {data_format!r}")


# ---- window gather / scatter (im2col / col2im) ----------------------------------------------------
def pad_hw(xp, x, pads, value=0.0):
    """Pad the spatial dims of a channel-first array by [(before, after)] per dim."""
    if not any(a or b for a, b in pads):
        return x
    return xp.pad(x, ((0, 0), (0, 0), *pads), mode="constant", constant_values=value)


def window_view(xp, x, ksize, strides, dilations, out_sizes):
    """x [N, C, *padded] viewed as [N, C, *ksize, *out_sizes]: every window, without a copy (strides step by the
    dilation within a window and by the stride between windows)."""
    sp = x.strides[2:]
    return xp.lib.stride_tricks.as_strided(
        x, x.shape[:2] + tuple(ksize) + tuple(out_sizes),
        x.strides[:2] + tuple(d * st for d, st in zip(dilations, sp)) + tuple(s * st for s, st in zip(strides, sp)))


def extract_windows(xp, x, ksize, strides, dilations, out_sizes):
    """x [N, C, *padded] -> [N, C, *ksize, *out_sizes]: every window, gathered by one strided copy."""
    return xp.ascontiguousarray(window_view(xp, x, ksize, strides, dilations, out_sizes))


def fold_windows(xp, cols, padded, strides, dilations):
    """The adjoint of extract_windows: add every window back into a zero [N, C, *padded] array."""
    nd = len(strides)
    ksize, outs = cols.shape[2:2 + nd], cols.shape[2 + nd:]
    out = xp.zeros(cols.shape[:2] + tuple(padded), dtype=cols.dtype)
    # windows that do not overlap write each element once: assign instead of adding
    disjoint = all(s >= d * (k - 1) + 1 for k, s, d in zip(ksize, strides, dilations))
    for offset in itertools.product(*(range(k) for k in ksize)):
        region = (slice(None), slice(None), *(slice(i * d, i * d + s * (o - 1) + 1, s)
                                              for i, d, s, o in zip(offset, dilations, strides, outs)))
        window_slot = cols[(slice(None), slice(None), *offset)]
        if disjoint:
            out[region] = window_slot
        else:
            out[region] += window_slot
    return out


class GemmWindows:
    """The windows of a convolution as GEMM columns, and their adjoint.

    `columns(x)` gives [N, C, *ksize, L]: for every kernel offset, the input under it at each of the L output
    positions. With stride 1 in every dim the positions run over `grid`: the output sizes with every dim after
    the first widened to the padded input's size, so that each kernel offset reads one contiguous run of the
    flattened padded input (one copy with long rows); the extra positions are junk that `from_grid` cuts off.
    `fold` takes columns over the whole padded input (`to_grid` gives output gradients there, zeros at the junk
    positions; their first L positions are `grid`'s), so it adds each kernel offset's columns of all images and
    channels as one run. Otherwise `grid` is the output sizes and the windows come from extract_windows.
    """

    def __init__(self, n, c, sizes, ksize, strides, dilations, pads, outs):
        self.n, self.c, self.sizes, self.ksize = n, c, list(sizes), list(ksize)
        self.strides, self.dilations, self.pads, self.outs = strides, dilations, pads, list(outs)
        self.padded = [size + a + b for size, (a, b) in zip(sizes, pads)]
        self.flat = all(s == 1 for s in strides)
        self.grid = [self.outs[0], *self.padded[1:]] if self.flat else self.outs
        self.length = int(np.prod(self.grid))
        self.volume = int(np.prod(self.padded))
        self.fold_length = self.volume if self.flat else self.length
        rows = [int(np.prod(self.padded[t + 1:])) for t in range(len(sizes))]
        self.offset_steps = [d * r for d, r in zip(dilations, rows)]
        # the junk positions of the last kernel offset run past the last image by this much
        self.tail = sum(st * (k - 1) for st, k in zip(self.offset_steps, ksize))

    def _padded_buffer(self, xp, dtype):
        buf = xp.zeros(self.n * self.c * self.volume + self.tail, dtype=dtype)
        return buf, buf[:self.n * self.c * self.volume].reshape(self.n, self.c, *self.padded)

    def _runs(self, xp, buf, shape, steps, start=0):
        e = buf.itemsize
        return xp.lib.stride_tricks.as_strided(buf[start:], (self.n, self.c, *shape),
                                               (self.c * self.volume * e, self.volume * e, *(st * e for st in steps)))

    def columns(self, xp, x):
        """x [N, C, *sizes] -> [N, C, *ksize, L]."""
        if not self.flat:
            cols = extract_windows(xp, pad_hw(xp, x, self.pads), self.ksize, self.strides, self.dilations, self.outs)
            return cols.reshape(self.n, self.c, *self.ksize, self.length)
        buf, padded = self._padded_buffer(xp, x.dtype)
        padded[crop_index(self.pads, self.sizes)] = x
        return xp.ascontiguousarray(self._runs(xp, buf, (*self.ksize, self.length), (*self.offset_steps, 1)))

    def fold(self, xp, cols):
        """The adjoint of columns, from columns over `fold_length` positions, kernel offset first:
        [N, prod(ksize), C, fold_length] -> [N, C, *sizes] (the junk positions of cols must be zero)."""
        if not self.flat:
            nd = len(self.ksize)
            cols = xp.moveaxis(cols.reshape(self.n, *self.ksize, self.c, *self.outs), 1 + nd, 1)
            return crop_hw(fold_windows(xp, cols, self.padded, self.strides, self.dilations), self.pads, self.sizes)
        buf, padded = self._padded_buffer(xp, cols.dtype)
        size = self.n * self.c * self.volume
        for j, offset in enumerate(itertools.product(*(range(k) for k in self.ksize))):
            start = sum(i * st for i, st in zip(offset, self.offset_steps))
            run = buf[start:start + size].reshape(self.n, self.c, self.volume)
            run += cols[:, j]
        return padded[crop_index(self.pads, self.sizes)]

    def to_grid(self, xp, y):
        """[N, O, *outs] -> [N, O, fold_length], zeros at the junk positions."""
        if not self.flat:
            return y.reshape(*y.shape[:2], self.length)
        out = xp.zeros((*y.shape[:2], *self.padded), dtype=y.dtype)
        out[(slice(None), slice(None), *(slice(o) for o in self.outs))] = y
        return out.reshape(*y.shape[:2], self.volume)

    def from_grid(self, y):
        """[N, O, L] -> [N, O, *outs] (a view)."""
        return y.reshape(*y.shape[:2], *self.grid)[(slice(None), slice(None), *(slice(o) for o in self.outs))]


def crop_index(pads, sizes):
    return (slice(None), slice(None), *(slice(a, a + n) for (a, _), n in zip(pads, sizes)))


def crop_hw(x, pads, sizes):
    return x[crop_index(pads, sizes)]


def scatter_add(xp, target, indices, values):
    """target[indices] += values with repeated indices accumulating, on NumPy or CuPy (in place)."""
    if xp is np:
        np.add.at(target, indices, values)
    else:
        cupyx_for(xp).scatter_add(target, indices, values)
    return target


# ---- conv2d / conv3d -----------------------------------------------------------------------------
def _conv_attrs(nd):
    return {"strides": [1] * nd, "paddings": [0] * nd, "padding_algorithm": "EXPLICIT", "dilations": [1] * nd,
            "groups": 1, "data_format": _FORMATS[nd][0]}


def _check_groups(op, groups):
    if not isinstance(groups, (int, np.integer)) or isinstance(groups, bool) or groups < 1:
        raise ValueError(f"op '{op}': groups must be a positive int, received {groups!r}")


def _conv_geometry(op, nd, x_shape, w_shape, strides, paddings, padding_algorithm, dilations, groups, data_format):
    """Validate shapes/attrs -> (N, C, *sizes), (O, Cg, *ksize), pads, strides, dilations, out_sizes."""
    check_data_format(op, data_format, nd)
    if len(x_shape) != nd + 2:
        raise ValueError(f"op '{op}': Input must be {nd + 2}-D ({data_format}), received shape {list(x_shape)}")
    if len(w_shape) != nd + 2:
        raise ValueError(f"op '{op}': Filter must be {nd + 2}-D [out_channels, in_channels/groups, *kernel], "
                         f"received shape {list(w_shape)}")
    _check_groups(op, groups)
    n, c, *sizes = nchw_shape(x_shape, data_format)
    o, cg, *ksize = w_shape
    if c != -1 and c != cg * groups:
        raise ValueError(f"op '{op}': Input has {c} channels but Filter {list(w_shape)} with groups={groups} "
                         f"expects {cg * groups} (in_channels/groups = {cg})")
    if o % groups:
        raise ValueError(f"op '{op}': Filter's out_channels {o} must be divisible by groups={groups}")
    strides = ints(op, "strides", strides, nd)
    dilations = ints(op, "dilations", dilations, nd)
    if min(strides) < 1 or min(dilations) < 1:
        raise ValueError(f"op '{op}': strides and dilations must be >= 1, received {strides}, {dilations}")
    pads, dilations = resolve_pads(op, paddings, padding_algorithm, sizes, ksize, strides, dilations)
    outs = [out_size(*a) for a in zip(sizes, pads, ksize, strides, dilations)]
    if any(v != -1 and v < 1 for v in outs):
        raise ValueError(f"op '{op}': the output would be empty ({outs}): Input spatial size {sizes} with "
                         f"paddings {pads} is smaller than the dilated kernel {ksize} (dilations {dilations})")
    return (n, c, *sizes), (o, cg, *ksize), pads, strides, dilations, outs


def _cudnn_bindings(nd, name, grad_name):
    """The GPU bindings of conv<nd>d (cuDNN's fprop) and of its grad op (wgrad, and dgrad when DInput is wanted)."""
    def gpu(xp, x, w, **attrs):
        _, _, pads, strides, dils, outs = _conv_geometry(name, nd, x.shape, w.shape, **attrs)
        return _cudnn_conv.conv_forward(xp, x, w, pads, strides, dils, outs, attrs["data_format"])

    def grad_gpu(xp, x, w, dout, input_grad, **attrs):
        _, _, pads, strides, dils, _ = _conv_geometry(grad_name, nd, x.shape, w.shape, **attrs)
        got = _cudnn_conv.conv_backward(xp, x, w, dout, pads, strides, dils, attrs["data_format"], input_grad)
        if got is None or input_grad:
            return got
        return xp.broadcast_to(xp.zeros((), dtype=x.dtype), x.shape), got[1]  # as the reference: no DInput storage

    return gpu, grad_gpu


def _register_conv(nd):
    """conv<nd>d and conv<nd>d_grad: the forward is one batched matmul of the filter with the windows."""
    name, grad_name = f"conv{nd}d", f"conv{nd}d_grad"
    attrs_default = _conv_attrs(nd)

    def infer(x, w, **attrs):
        if x.dtype != w.dtype:
            raise ValueError(f"op '{name}': Filter has dtype {w.dtype} but Input has {x.dtype}; cast one explicitly")
        (n, *_), (o, *_), _, _, _, outs = _conv_geometry(name, nd, x.shape, w.shape, **attrs)
        return Meta(nchw_out_shape(n, o, outs, attrs["data_format"]), x.dtype)

    def windows_of(xp, x, w_shape, attrs, op):
        (n, c, *sizes), (o, cg, *ksize), pads, strides, dils, outs = _conv_geometry(op, nd, x.shape, w_shape, **attrs)
        windows = GemmWindows(n, c, sizes, ksize, strides, dils, pads, outs)
        return windows, windows.columns(xp, to_nchw(x, attrs["data_format"])), o, cg * int(np.prod(ksize))

    def forward(xp, x, w, **attrs):
        windows, cols, o, k = windows_of(xp, x, w.shape, attrs, name)
        g, n = attrs["groups"], windows.n
        out = matmul_array(xp, w.reshape(g, o // g, k), cols.reshape(n, g, k, -1), _TF32)  # [N, G, O/G, L]
        return from_nchw(xp, windows.from_grid(out.reshape(n, o, -1)), attrs["data_format"])

    def grad_forward(xp, x, w, dout, input_grad, **attrs):
        windows, cols, o, k = windows_of(xp, x, w.shape, attrs, grad_name)
        g, n = attrs["groups"], windows.n
        d = windows.to_grid(xp, to_nchw(dout, attrs["data_format"])).reshape(n, g, o // g, -1)
        cols = cols.reshape(n, g, k, -1)
        dw = matmul_array(xp, d[..., :windows.length], cols.swapaxes(-1, -2), _TF32).sum(axis=0).reshape(w.shape)
        if not input_grad:  # nothing reads DInput: zeros without storage
            return xp.broadcast_to(xp.zeros((), dtype=x.dtype), x.shape), xp.ascontiguousarray(dw)
        # the filter's rows kernel offset first, so fold adds each offset's [C, L] block as one run
        cg, taps = w.shape[1], k // w.shape[1]
        wt = w.reshape(g, o // g, cg, taps).transpose(0, 3, 2, 1).reshape(g, k, o // g)
        dcols = matmul_array(xp, wt, d, _TF32).reshape(n, g, taps, cg, -1)                # [N, G, taps, Cg, L]
        dx = windows.fold(xp, dcols.swapaxes(1, 2).reshape(n, taps, windows.c, -1))
        return from_nchw(xp, dx, attrs["data_format"]), xp.ascontiguousarray(dw)

    def grad_infer(x, w, dout, input_grad, **attrs):
        expected = infer(x, w, **attrs).shape
        if known_shapes_differ(dout.shape, expected):
            raise ValueError(f"op '{grad_name}': DOutput has shape {list(dout.shape)} but the convolution of Input "
                             f"{list(x.shape)} by Filter {list(w.shape)} has shape {list(expected)}")
        return Meta(x.shape, x.dtype), Meta(w.shape, w.dtype)

    def grad(g):
        if g.needs_any("Input", "Filter"):
            g.set_input_grads(("Input", "Filter"), g.op(grad_name, g.input("Input"), g.input("Filter"),
                                                        g.output_grad("Output"), input_grad=g.needs("Input"),
                                                        **g.attrs))

    def grad_grad(g):
        # dInput = A_W^T dOut (linear in dOut, linear in W); dFilter = bilinear in (Input, dOut).
        x, w, dout = g.input("Input"), g.input("Filter"), g.input("DOutput")
        ddx, ddw = g.output_grad("DInput"), g.output_grad("DFilter")
        attrs = {k: v for k, v in g.attrs.items() if k != "input_grad"}  # the convolution's
        if g.needs("Input") and ddw is not None:
            g.set_input_grad("Input", g.op(grad_name, x, ddw, dout, **attrs)[0])
        if g.needs("Filter") and ddx is not None:
            g.set_input_grad("Filter", g.op(grad_name, ddx, w, dout, input_grad=False, **attrs)[1])
        if g.needs("DOutput"):
            terms = []
            if ddx is not None:
                terms.append(g.op(name, ddx, w, **attrs))
            if ddw is not None:
                terms.append(g.op(name, x, ddw, **attrs))
            if terms:
                g.set_input_grad("DOutput", terms[0] if len(terms) == 1 else terms[0] + terms[1])

    gpu, grad_gpu = _cudnn_bindings(nd, name, grad_name)
    conv = register_op(name, inputs=("Input", "Filter"), outputs=("Output",), forward=forward, infer=infer,
                       grad=grad, attrs=attrs_default, same_dtype=("Input", "Filter"), double_grad=True, gpu=gpu)
    # input_grad=False: the caller takes DFilter only (the data Input of a first layer needs no gradient)
    conv_grad = register_op(grad_name, inputs=("Input", "Filter", "DOutput"), outputs=("DInput", "DFilter"),
                            forward=grad_forward, infer=grad_infer, grad=grad_grad,
                            attrs={**attrs_default, "input_grad": True},
                            same_dtype=("Input", "Filter", "DOutput"), double_grad=True, gpu=grad_gpu)
    return conv, conv_grad


CONV2D, CONV2D_GRAD = _register_conv(2)
CONV3D, CONV3D_GRAD = _register_conv(3)


# ---- conv2d_transpose / conv3d_transpose: the adjoint of the convolution in its input ---------------------
# Output [N, Cout, *O] from Input [N, Cin, *S] and Filter [Cin, Cout/groups, *k] (Paddle's layout),
# O = (S - 1) * stride - pad_before - pad_after + dilation * (k - 1) + 1 + output_padding. The forward is
# the convolution's input gradient (fold the filter-weighted windows back); its gradients are the convolution
# and its grad op.
def _conv_t_geometry(op, nd, x_shape, w_shape, strides, paddings, padding_algorithm, dilations, groups, data_format,
                     output_padding):
    check_data_format(op, data_format, nd)
    if len(x_shape) != nd + 2 or len(w_shape) != nd + 2:
        raise ValueError(f"op '{op}': Input and Filter must be {nd + 2}-D, received shapes {list(x_shape)} and "
                         f"{list(w_shape)}")
    if padding_algorithm == "SAME":
        raise ValueError(f"op '{op}': resolve 'SAME' padding to explicit paddings before building the op")
    _check_groups(op, groups)
    n, c, *sizes = nchw_shape(x_shape, data_format)
    cin, cout_g, *ksize = w_shape
    if c != -1 and c != cin:
        raise ValueError(f"op '{op}': Input has {c} channels but Filter {list(w_shape)} expects {cin}")
    if cin % groups:
        raise ValueError(f"op '{op}': Filter's in_channels {cin} must be divisible by groups={groups}")
    strides, dilations = ints(op, "strides", strides, nd), ints(op, "dilations", dilations, nd)
    extra = ints(op, "output_padding", output_padding, nd)
    pads, dilations = resolve_pads(op, paddings, padding_algorithm, sizes, ksize, strides, dilations)
    if any(not 0 <= e < max(s, d) for e, s, d in zip(extra, strides, dilations)):
        raise ValueError(f"op '{op}': output_padding {extra} must be smaller than the stride {strides} or the "
                         f"dilation {dilations}")
    outs = [-1 if size == -1 else (size - 1) * s - p0 - p1 + d * (k - 1) + 1 + e
            for size, s, (p0, p1), d, k, e in zip(sizes, strides, pads, dilations, ksize, extra)]
    if any(v != -1 and v < 1 for v in outs):
        raise ValueError(f"op '{op}': the output would be empty ({outs}): paddings {pads} exceed the output")
    return (n, c, *sizes), (cin, cout_g, *ksize), pads, strides, dilations, outs


def _register_conv_transpose(nd):
    name, conv_name, conv_grad_name = f"conv{nd}d_transpose", f"conv{nd}d", f"conv{nd}d_grad"
    conv_keys = tuple(_conv_attrs(nd))

    def infer(x, w, **attrs):
        if x.dtype != w.dtype:
            raise ValueError(f"op '{name}': Filter has dtype {w.dtype} but Input has {x.dtype}; cast one explicitly")
        (n, *_), (_, cout_g, *_), _, _, _, outs = _conv_t_geometry(name, nd, x.shape, w.shape, **attrs)
        return Meta(nchw_out_shape(n, cout_g * attrs["groups"], outs, attrs["data_format"]), x.dtype)

    def forward(xp, x, w, **attrs):
        (n, c, *sizes), (cin, cout_g, *ksize), pads, strides, dils, outs = _conv_t_geometry(
            name, nd, x.shape, w.shape, **attrs)
        g = attrs["groups"]
        d = to_nchw(x, attrs["data_format"]).reshape(n, g, cin // g, -1)
        cols = matmul_array(xp, w.reshape(g, cin // g, -1).swapaxes(-1, -2), d, _TF32)  # [N, G, K, prod(sizes)]
        padded = [o + a + b for o, (a, b) in zip(outs, pads)]
        out = fold_windows(xp, cols.reshape(n, g * cout_g, *ksize, *sizes), padded, strides, dils)
        return from_nchw(xp, xp.ascontiguousarray(crop_hw(out, pads, outs)), attrs["data_format"])

    def gpu(xp, x, w, **attrs):
        _, _, pads, strides, dils, outs = _conv_t_geometry(name, nd, x.shape, w.shape, **attrs)
        return _cudnn_conv.conv_transpose_forward(xp, x, w, pads, strides, dils, attrs["groups"], outs,
                                                  attrs["data_format"])

    def grad(g):
        conv = {k: g.attrs[k] for k in conv_keys}  # the convolution this op is the adjoint of
        x, w, dout = g.input("Input"), g.input("Filter"), g.output_grad("Output")
        if g.needs("Input"):
            g.set_input_grad("Input", g.op(conv_name, dout, w, **conv))
        if g.needs("Filter"):
            g.set_input_grad("Filter", g.op(conv_grad_name, dout, w, x, input_grad=False, **conv)[1])

    return register_op(name, inputs=("Input", "Filter"), outputs=("Output",), forward=forward, infer=infer,
                       grad=grad, attrs={**_conv_attrs(nd), "output_padding": [0] * nd},
                       same_dtype=("Input", "Filter"), double_grad=True, gpu=gpu)


CONV2D_TRANSPOSE = _register_conv_transpose(2)
CONV3D_TRANSPOSE = _register_conv_transpose(3)
