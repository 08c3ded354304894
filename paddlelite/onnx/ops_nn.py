"""Converters of the network ops: convolutions, pooling, the norms, dropout, softmax, embedding and the fused `rnn`
op (LSTM / GRU / SimpleRNN, one ONNX recurrent node per layer with the weights in ONNX's gate order)."""
import numpy as np

from ..ops.conv import resolve_pads
from ..ops.rnn import rnn_cells
from .graph import Unsupported, converter


# ---- channel-last layouts: ONNX's conv, pool and norm ops are channel-first --------------------------------------
def _channel_last(data_format):
    return data_format[1] != "C"


def _to_channel_first(g, x, rank):
    return g.node("Transpose", [x], perm=[0, rank - 1, *range(1, rank - 1)])


def _from_channel_first(g, y, rank, out):
    return g.node("Transpose", [y], out, perm=[0, *range(2, rank), 1])


def _channel_first_op(g, x, out, data_format, build):
    """`build(x_channel_first, out_name_or_None)` on x, transposed there and back when data_format is channel-last."""
    if not _channel_last(data_format):
        return build(x, out)
    rank = g.rank(x)
    return _from_channel_first(g, build(_to_channel_first(g, x, rank), None), rank, out)


def _spatial(g, x, data_format):
    shape = g.shape(x)
    return list(shape[1:-1] if _channel_last(data_format) else shape[2:])


def _pads(g, op, x, ksize, strides, dilations):
    """(ONNX pads [begins..., ends...] or None, auto_pad or None, dilations) of Paddle's padding attributes."""
    a = op.attrs
    sizes = _spatial(g, x, a["data_format"])
    if a["padding_algorithm"] == "SAME" and -1 in sizes:  # Paddle's SAME puts the odd pad after: SAME_UPPER
        return None, "SAME_UPPER", [1] * len(sizes)
    pads, dilations = resolve_pads(op.type, a["paddings"], a["padding_algorithm"], sizes, ksize, strides, dilations)
    return [p for p, _ in pads] + [p for _, p in pads], None, dilations


# ---- convolutions -------------------------------------------------------------------------------------------------
@converter("conv2d", "conv3d")
def _conv(g, op):
    x, w, a = op.input("Input"), op.input("Filter"), op.attrs
    ksize = list(g.shape(w)[2:])
    pads, auto_pad, dilations = _pads(g, op, x, ksize, a["strides"], a["dilations"])
    _channel_first_op(g, x, op.output("Output"), a["data_format"], lambda xc, out: g.node(
        "Conv", [xc, w], out, kernel_shape=ksize, strides=list(a["strides"]), dilations=list(dilations),
        group=int(a["groups"]), pads=pads, auto_pad=auto_pad))


@converter("conv2d_transpose", "conv3d_transpose")
def _conv_transpose(g, op):
    """Paddle's Filter [C_in, C_out / groups, *k] is ONNX's W; the output size rule is the same (pads taken off,
    output_padding added at the end)."""
    x, w, a = op.input("Input"), op.input("Filter"), op.attrs
    ksize = list(g.shape(w)[2:])
    if a["padding_algorithm"] == "SAME":
        raise Unsupported("padding_algorithm='SAME' (a transposed convolution's SAME output size has no ONNX form)")
    pads, _, dilations = _pads(g, op, x, ksize, a["strides"], a["dilations"])
    nd = len(ksize)
    output_padding = list(a["output_padding"]) or [0] * nd
    _channel_first_op(g, x, op.output("Output"), a["data_format"], lambda xc, out: g.node(
        "ConvTranspose", [xc, w], out, kernel_shape=ksize, strides=list(a["strides"]), dilations=list(dilations),
        group=int(a["groups"]), pads=pads, output_padding=output_padding if any(output_padding) else None))


# ---- pooling ------------------------------------------------------------------------------------------------------
@converter("pool2d", "pool3d")
def _pool(g, op):
    x, a = op.input("X"), op.attrs
    sizes = _spatial(g, x, a["data_format"])
    nd = len(sizes)
    kind = "Max" if a["pooling_type"] == "max" else "Average"
    ksize = list(a["ksize"]) if len(a["ksize"]) == nd else list(a["ksize"]) * nd
    if a["global_pooling"] or a["adaptive"] and all(k == 1 for k in ksize):
        _channel_first_op(g, x, op.output("Out"), a["data_format"],
                          lambda xc, out: g.node(f"Global{kind}Pool", [xc], out))
        return
    if a["adaptive"]:  # fixed windows when every output cell covers the same number of inputs
        if -1 in sizes or any(n % k for n, k in zip(sizes, ksize)):
            raise Unsupported(f"adaptive pooling of spatial size {sizes} to {ksize} (expressible when the sizes are "
                              "known and divide evenly)")
        ksize = strides = [n // k for n, k in zip(sizes, ksize)]
        pads, auto_pad, ceil = [0] * (2 * nd), None, False
    else:
        strides = list(a["strides"])
        pads, auto_pad, _ = _pads(g, op, x, ksize, strides, [1] * nd)
        ceil = bool(a["ceil_mode"])
    if ceil and pads is not None and -1 not in sizes:
        # the windows ceil mode adds run past the padding: pad them in, as Paddle counts them (a non-exclusive
        # average divides by the whole window, which ONNX's ceil_mode does not)
        for d, (n, k, s) in enumerate(zip(sizes, ksize, strides)):
            covered = n + pads[d] + pads[nd + d]
            pads[nd + d] += (-(-(covered - k) // s) * s + k - covered)
        ceil = False
    if ceil:
        if kind == "Average" and not a["exclusive"]:
            raise Unsupported("a non-exclusive average pool in ceil mode over sizes known only when the model runs")
        g.require(10, "pooling with ceil_mode=True")
    extra = {"count_include_pad": int(not a["exclusive"])} if kind == "Average" else {}
    _channel_first_op(g, x, op.output("Out"), a["data_format"], lambda xc, out: g.node(
        f"{kind}Pool", [xc], out, kernel_shape=ksize, strides=strides, pads=pads, auto_pad=auto_pad,
        ceil_mode=int(ceil) if ceil else None, **extra))


# ---- norms --------------------------------------------------------------------------------------------------------
@converter("batch_norm")
def _batch_norm(g, op):
    a = op.attrs
    if not (a["is_test"] or a["use_global_stats"]):
        raise Unsupported("batch statistics (a training-mode batch_norm; export a model in eval mode)")
    x = op.input("X")
    layout = a["data_layout"] if g.rank(x) > 2 else "NC"
    _channel_first_op(g, x, op.output("Y"), layout, lambda xc, out: g.node(
        "BatchNormalization", [xc, op.input("Scale"), op.input("Bias"), op.input("Mean"), op.input("Variance")],
        out, epsilon=float(a["epsilon"])))


def _normalized(g, x, axes, epsilon, dtype):
    """(x - mean) / sqrt(var + epsilon) over `axes` (the biased variance, as Paddle's norms); x holds `dtype`."""
    centred = g.node("Sub", [x, g.reduce("ReduceMean", x, axes, True)])
    var = g.reduce("ReduceMean", g.node("Mul", [centred, centred]), axes, True)
    return g.node("Div", [centred, g.node("Sqrt", [g.node("Add", [var, g.scalar(epsilon, dtype)])])])


def _affine(g, y, scale, bias, shape, out):
    """y * scale + bias, each reshaped to `shape` (either may be None)."""
    for name, onnx_op in ((scale, "Mul"), (bias, "Add")):
        if name is not None:
            last = onnx_op == "Add" or bias is None
            y = g.node(onnx_op, [y, g.node("Reshape", [name, g.const(shape, np.int64)])], out if last else None)
    return y if y == out else g.identity(y, out)


@converter("layer_norm")
def _layer_norm(g, op):
    """Normalize the dims from begin_norm_axis on; Scale and Bias hold their product of elements, shaped back."""
    x, out, a = op.input("X"), op.output("Y"), op.attrs
    rank = g.rank(x)
    begin = a["begin_norm_axis"] % rank
    normalized = list(g.shape(x)[begin:])
    scale, bias = op.input("Scale"), op.input("Bias")
    if g.opset >= 17 and scale is not None and -1 not in normalized:
        shape = g.const(normalized, np.int64)
        inputs = [x, g.node("Reshape", [scale, shape]), None if bias is None else g.node("Reshape", [bias, shape])]
        g.node("LayerNormalization", inputs, out, axis=begin, epsilon=float(a["epsilon"]))
        return
    if -1 in normalized and (scale or bias):
        raise Unsupported(f"normalized dims {normalized} known only when the model runs")
    y = _normalized(g, x, list(range(begin, rank)), float(a["epsilon"]), g.dtype(x))
    _affine(g, y, scale, bias, normalized, out)


@converter("group_norm")
def _group_norm(g, op):
    x, a = op.input("X"), op.attrs
    rank = g.rank(x)

    def build(xc, out):
        grouped = g.node("Reshape", [xc, g.const([0, int(a["groups"]), -1], np.int64)])
        y = g.node("Reshape", [_normalized(g, grouped, [2], float(a["epsilon"]), g.dtype(x)), g.shape_of(xc)])
        return _affine(g, y, op.input("Scale"), op.input("Bias"), [1, -1] + [1] * (rank - 2), out)
    _channel_first_op(g, x, op.output("Y"), a["data_layout"], build)


@converter("instance_norm")
def _instance_norm(g, op):
    x, a = op.input("X"), op.attrs
    channels = g.shape(x)[1]
    scale, bias = op.input("Scale"), op.input("Bias")
    if (scale is None or bias is None) and channels == -1:
        raise Unsupported("an instance_norm without Scale/Bias over a channel count known only when the model runs")
    dtype = g.dtype(x)
    scale = scale or g.const(np.ones(channels, dtype))
    bias = bias or g.const(np.zeros(channels, dtype))
    g.node("InstanceNormalization", [x, scale, bias], op.output("Y"), epsilon=float(a["epsilon"]))


# ---- dropout, softmax, embedding ----------------------------------------------------------------------------------
@converter("dropout")
def _dropout(g, op):
    """Inference: 'upscale_in_train' passes x through, 'downgrade_in_infer' scales it by 1 - p."""
    x, out, a = op.input("X"), op.output("Out"), op.attrs
    if not a["is_test"] and a["dropout_prob"] > 0:
        raise Unsupported("a training-mode dropout (export a model in eval mode)")
    if a["dropout_implementation"] == "downgrade_in_infer" and a["is_test"]:
        g.node("Mul", [x, g.scalar(1.0 - float(a["dropout_prob"]), g.dtype(x))], out)
    else:
        g.identity(x, out)


@converter("softmax", "log_softmax")
def _softmax(g, op):
    x = op.input("X")
    g.softmax("Softmax" if op.type == "softmax" else "LogSoftmax", x, op.attrs["axis"], g.rank(x), op.output("Out"))


@converter("embedding")
def _embedding(g, op):
    """A row of W per id (padding_idx only changes the gradient)."""
    g.node("Gather", [op.input("W"), op.input("Ids")], op.output("Out"), axis=0)


# ---- rnn ----------------------------------------------------------------------------------------------------------
# Paddle's gate blocks (rows of W_ih / W_hh) in ONNX's order: LSTM i f c o -> i o f c; GRU r z c -> z r h
_GATE_ORDER = {"LSTM": [0, 3, 1, 2], "GRU": [1, 0, 2], "RNN_TANH": [0], "RNN_RELU": [0]}


def _reordered(w, mode):
    blocks = np.split(w, len(_GATE_ORDER[mode]))
    return np.concatenate([blocks[i] for i in _GATE_ORDER[mode]])


@converter("rnn")
def _rnn(g, op):
    """One ONNX LSTM / GRU / RNN node per layer (both directions in it), the layers chained through their outputs
    [T, D, B, H] -> [T, B, D*H]; the final states of the layers concatenated as Paddle's State."""
    a = op.attrs
    mode, layers, dirs = a["mode"], int(a["num_layers"]), 2 if a["is_bidirec"] else 1
    if mode not in _GATE_ORDER:
        raise Unsupported(f"mode={mode!r}")
    weights = op.inputs("WeightList")
    unknown = [w for w in weights if w not in g.known]
    if unknown:
        raise Unsupported(f"weights {unknown} that are not parameters (computed when the model runs)")
    cells = rnn_cells([g.known[w] for w in weights], layers, a["is_bidirec"])
    onnx_op = {"LSTM": "LSTM", "GRU": "GRU"}.get(mode, "RNN")
    extra = {"linear_before_reset": 1} if mode == "GRU" else {"activations": ["Relu"] * dirs} \
        if mode == "RNN_RELU" else {}
    pre = op.inputs("PreState")
    seq = op.input("SequenceLength")
    seq = None if seq is None else g.cast(seq, np.int32)
    x = op.input("Input")
    finals = [[] for _ in pre]
    out = op.output("Out")
    for layer in range(layers):
        mine = cells[layer * dirs:(layer + 1) * dirs]
        w = g.const(np.stack([_reordered(c[0], mode) for c in mine]))
        r = g.const(np.stack([_reordered(c[1], mode) for c in mine]))
        b = g.const(np.stack([np.concatenate([_reordered(c[2], mode), _reordered(c[3], mode)]) for c in mine]))
        states = [g.slice(s, [layer * dirs], [(layer + 1) * dirs], [0]) for s in pre]
        ys = g.node(onnx_op, [x, w, r, b, seq, *states], 1 + len(pre), hidden_size=int(a["hidden_size"]),
                    direction="bidirectional" if dirs == 2 else "forward", **extra)
        for k in range(len(pre)):
            finals[k].append(ys[1 + k])
        merged = g.node("Transpose", [ys[0]], perm=[0, 2, 1, 3])
        x = g.node("Reshape", [merged, g.const([0, 0, -1], np.int64)], out if layer == layers - 1 else None)
    for names, state in zip(finals, op.outputs("State")):
        if len(names) > 1:
            g.node("Concat", names, state, axis=0)
        else:
            g.identity(names[0], state)


# ---- interpolation ------------------------------------------------------------------------------------------------
def _resize_mode(method, align_corners, align_mode):
    """(ONNX Resize's mode, its coordinate_transformation_mode) of Paddle's interpolation: nearest takes the floor of
    dst / scale; linear modes with align_mode 0 and bicubic sample at half pixels (clamped at the edge)."""
    if method == "nearest":
        return "nearest", "asymmetric"
    mode = "cubic" if method == "bicubic" else "linear"
    if align_corners:
        return mode, "align_corners"
    return mode, "asymmetric" if align_mode == 1 and mode == "linear" else "half_pixel"


@converter("nearest_interp_v2", "linear_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2", "trilinear_interp_v2")
def _interp(g, op):
    """ONNX Resize with sizes when Paddle has an output size (OutSize, SizeTensor, out_*), with scales when it has a
    scale (which also sets Paddle's source-coordinate ratio, as ONNX's scales do)."""
    g.require(11, f"op {op.type}")
    x, a = op.input("X"), op.attrs
    method = op.type[:-len("_interp_v2")]
    nd = g.rank(x) - 2
    mode, transform = _resize_mode(method, a["align_corners"], a["align_mode"])
    given_size = op.input("OutSize") is not None or op.inputs("SizeTensor")
    sizes = scales = None
    if given_size:
        sizes = g.int_arg(op, "OutSize", "SizeTensor", [])
    elif op.input("Scale") is not None:
        factor = g.node("Expand", [g.node("Reshape", [g.cast(op.input("Scale"), np.float32), g.const([-1], np.int64)]),
                                   g.const([nd], np.int64)])
        scales = g.node("Concat", [g.const([1.0, 1.0], np.float32), factor], axis=0)
    elif a["scale"]:
        factor = list(a["scale"]) * nd if len(a["scale"]) == 1 else list(a["scale"])
        scales = g.const([1.0, 1.0, *factor], np.float32)
    else:
        sizes = [a["out_d"], a["out_h"], a["out_w"]][3 - nd:]
    if isinstance(sizes, list):
        spatial = _spatial(g, x, a["data_layout"])
        if method in ("nearest", "bilinear", "bicubic") and not a["align_corners"] and \
                any(o == 1 and n != 1 for o, n in zip(sizes, spatial)):
            raise Unsupported(f"an output size of 1 from {spatial} (Paddle reads the first input, ONNX's "
                              f"{transform} the middle)")
        sizes = g.const(sizes, np.int64)

    def build(xc, out):
        full = None if sizes is None else g.node("Concat", [g.slice(g.node("Shape", [xc]), [0], [2], [0]), sizes],
                                                 axis=0)
        empty = g.const(np.zeros(0, np.float32)) if g.opset < 13 else None
        extra = {"nearest_mode": "floor"} if mode == "nearest" else {"cubic_coeff_a": -0.75} if mode == "cubic" else {}
        return g.node("Resize", [xc, empty, scales if scales is not None else empty, full], out, mode=mode,
                      coordinate_transformation_mode=transform, **extra)
    _channel_first_op(g, x, op.output("Out"), a["data_layout"], build)
