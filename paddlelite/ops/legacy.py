"""Paddle's legacy-IR op types: the one table from our registry types to the types Paddle's ProgramDesc
shows (`add` is `elementwise_add`, `matmul` is `matmul_v2`, `embedding` is `lookup_table_v2`, ...).

Static Operators carry the legacy type, so `op.type`, printed programs, append_backward callbacks and
tools that read op descs see what Paddle shows; `registry.get_op` resolves either name to the same op.
The gradient of an op is shown as Paddle names its grad op: `<legacy type>_grad` (see GRAD_OPS). Ops missing here
already have Paddle's name. Slot names are Paddle's in the registry itself.
"""

import numpy as np

from ..framework.framework_proto import DTYPE_BY_NUMBER, DTYPE_NUMBERS

LEGACY_TYPES = {
    "add": "elementwise_add",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "maximum": "elementwise_max",
    "minimum": "elementwise_min",
    "remainder": "elementwise_mod",
    "floor_divide": "elementwise_floordiv",
    "fmax": "elementwise_fmax",
    "fmin": "elementwise_fmin",
    "heaviside": "elementwise_heaviside",
    "matmul": "matmul_v2",
    "mean": "reduce_mean",
    "max": "reduce_max",
    "min": "reduce_min",
    "amax": "reduce_amax",
    "amin": "reduce_amin",
    "prod": "reduce_prod",
    "all": "reduce_all",
    "any": "reduce_any",
    "embedding": "lookup_table_v2",
    "diag": "diag_v2",
    "reshape": "reshape2",
    "transpose": "transpose2",
    "squeeze": "squeeze2",
    "unsqueeze": "unsqueeze2",
    "flatten": "flatten_contiguous_range",
    "expand": "expand_v2",
    "expand_as": "expand_as_v2",
    "argmax": "arg_max",
    "argmin": "arg_min",
    "one_hot": "one_hot_v2",
    "hardswish": "hard_swish",
    "hardsigmoid": "hard_sigmoid",
    "send_u_recv": "graph_send_recv",
    "send_ue_recv": "graph_send_ue_recv",
    "send_uv": "graph_send_uv",
}


# Legacy types Paddle also writes for one of our ops: its conv layers pick the depthwise kernel by op type
LEGACY_ALIASES = {"depthwise_conv2d": "conv2d", "depthwise_conv2d_transpose": "conv2d_transpose"}
REGISTRY_TYPES = {**{legacy: ours for ours, legacy in LEGACY_TYPES.items()}, **LEGACY_ALIASES}  # and back


# The key Paddle's API names an op's temporaries by (LayerHelper(key): `<key>_<n>.tmp_<k>`) where it is not
# our op type, with how many counters of that key one call takes (paddle.full's fill_constant takes two).
NAME_KEYS = {
    "add": ("elementwise_add", 1),
    "subtract": ("elementwise_sub", 1),
    "multiply": ("elementwise_mul", 1),
    "divide": ("elementwise_div", 1),
    "floor_divide": ("elementwise_floordiv", 1),
    "remainder": ("elementwise_mod", 1),
    "fmax": ("elementwise_fmax", 1),
    "fmin": ("elementwise_fmin", 1),
    "heaviside": ("elementwise_heaviside", 1),
    "reshape": ("reshape2", 1),
    "unsqueeze": ("unsqueeze2", 1),
    "one_hot": ("one_hot_v2", 1),
    "fill_any_like": ("full_like", 1),
    "assign_value": ("assign", 1),
    "fill_constant": ("fill_constant", 2),
    "size": ("numel", 1),
    "uniform_random": ("uniform", 1),
    "gaussian_random": ("gaussian", 1),
}


# Ops whose output Paddle's API names by the LayerHelper's own name (`elementwise_div_0`, no `.tmp_0`): the
# API hands its `name=None` argument to the helper, which fills it in before the output is created
HELPER_NAMED_OUTPUTS = {"divide", "floor_divide", "remainder", "fmax", "fmin", "heaviside"}


def name_key(type):
    """(key, counters taken) Paddle's API names the outputs of registry op `type` by."""
    return NAME_KEYS.get(type, (type, 1))


def legacy_type(type):
    """The op type Paddle's legacy IR shows for our registry type `type`."""
    return LEGACY_TYPES.get(type, type)


# Gradients Paddle builds as a forward op (split's is the concat of its outputs' gradients, cast's a cast back,
# scale's a scale without the bias, flip's a flip, assign's an assign): forward type -> (grad op type, {our grad op's slot: Paddle's},
# fn(desc attrs) -> the grad op's desc attrs or None for the forward op's)
_AS_FORWARD = {"Out@GRAD": "X", "X@GRAD": "Out"}
GRAD_OPS = {
    "split": ("concat", _AS_FORWARD, None),
    # built as bare descs by Paddle's grad makers: no name scope
    "cast": ("cast", _AS_FORWARD,
             lambda a: {**a, "in_dtype": a["out_dtype"], "out_dtype": a["in_dtype"], "op_namescope": ""}),
    "scale": ("scale", _AS_FORWARD, lambda a: {**a, "bias": 0.0, "op_namescope": ""}),
    "flip": ("flip", _AS_FORWARD, lambda a: {**a, "op_namescope": ""}),
    "assign": ("assign", _AS_FORWARD, lambda a: {**a, "op_namescope": ""}),
}


# Gradients Paddle builds as several bare forward ops (its `sum` grad maker: one `scale` per input): the ops our
# grad maker records stay ops of their own instead of one grad op
GRAD_AS_OPS = {"sum"}


def grad_op(forward_type, inputs, outputs):
    """(type, inputs, outputs, desc attrs fn or None) Paddle gives the gradient of a forward op (whose type is
    already the legacy one): `<type>_grad` reading `<output slot>@GRAD`, writing `<input slot>@GRAD` and showing
    the forward op's attributes, unless GRAD_OPS says otherwise."""
    type, slots, desc = GRAD_OPS.get(forward_type, (forward_type + "_grad", {}, None))
    return (type, {slots.get(k, k): v for k, v in inputs.items()},
            {slots.get(k, k): v for k, v in outputs.items()}, desc)


# ---- op descs as Paddle shows them -------------------------------------------------------------------
# Our ops keep their own attribute names (the executor and grad makers read those); `legacy_desc` gives the
# attributes and the always-listed optional input slots that Paddle's legacy-IR op desc of the same op has,
# for printing and for `op.attr(name)` / `op.all_attrs()` / `op.input_names`.

# Paddle's VarDesc.VarType numbers, which legacy op descs store for dtype attributes
VAR_TYPE = DTYPE_NUMBERS
DTYPE_ATTRS = ("dtype", "in_dtype", "out_dtype")  # attributes a desc holds as a VarType number (-1: none given)


def _dtype_number(dtype):
    return -1 if dtype is None else VAR_TYPE.get(str(dtype), -1)


def _dtype_name(number):
    return DTYPE_BY_NUMBER.get(number) if isinstance(number, int) else number


# Each conversion below gives Paddle's desc attributes of our op's; its `back` (set by `_back`) gives ours from a
# desc's (what a Paddle file holds), leaving out what the op's defaults fill in. A conversion without one renames
# nothing: the desc's attributes are ours (less those the op does not have, dropped by `attrs_from_desc`).
def _back(inverse):
    def attach(fn):
        fn.back = inverse
        return fn
    return attach


def _renamed(**names):
    back = {v: k for k, v in names.items()}
    return _back(lambda attrs, x: {back.get(k, k): v for k, v in attrs.items()})(
        lambda attrs, x: {names.get(k, k): v for k, v in attrs.items()})


def _as_list(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


def _reduce_back(attrs, x):
    dims = attrs.get("dim", [])
    return {**attrs, "axis": None if attrs.get("reduce_all") or not dims else list(dims),
            "keepdim": attrs.get("keep_dim", False), "dtype": _dtype_name(attrs.get("out_dtype", -1))}


@_back(_reduce_back)
def _reduce_desc(attrs, x):  # reduce_sum's requested dtype shows as Paddle's in_dtype/out_dtype pair
    out = {k: v for k, v in attrs.items() if k not in ("axis", "keepdim", "dtype")}
    axis, dtype = attrs["axis"], attrs.get("dtype")
    out.update(dim=[] if axis is None else _as_list(axis), keep_dim=attrs["keepdim"],
               in_dtype=-1 if dtype is None else VAR_TYPE.get(x.dtype.name, -1),
               out_dtype=-1 if dtype is None else VAR_TYPE.get(str(dtype), -1), reduce_all=axis is None)
    return out


@_back(lambda attrs, x: {**attrs, "dtype": _dtype_name(attrs["out_dtype"])})
def _cast_desc(attrs, x):
    out = {k: v for k, v in attrs.items() if k != "dtype"}
    out.update(in_dtype=VAR_TYPE.get(x.dtype.name, -1), out_dtype=VAR_TYPE.get(str(attrs["dtype"]), -1))
    return out


def _fill_constant_back(attrs, x):  # str_value, when given, holds the exact value (an int64's every digit)
    dtype = _dtype_name(attrs.get("dtype", VAR_TYPE["float32"]))
    text, value = attrs.get("str_value", ""), attrs.get("value", 0.0)
    integral = dtype is not None and dtype.startswith(("int", "uint"))
    if text:
        try:
            value = int(text) if integral else float(text)
        except ValueError:
            value = float(text)
    elif integral or dtype == "bool":
        value = int(value)
    return {**attrs, "dtype": dtype, "value": bool(value) if dtype == "bool" else value}


@_back(_fill_constant_back)
def _fill_constant_desc(attrs, x):  # Paddle's value attr is a float; str_value an int's digits for int dtypes
    out = {k: v for k, v in attrs.items() if k not in ("dtype", "place")}
    value, dtype = attrs["value"], str(attrs["dtype"])
    if value is None:  # given by its ValueTensor
        value, text = 0.0, ""
    elif isinstance(value, (int, float)):
        text = str(int(value)) if dtype.startswith(("int", "uint")) else str(float(value))
        value = float(value)
    else:
        text = str(value)
    out.update(dtype=VAR_TYPE.get(dtype, -1), force_cpu=attrs.get("force_cpu", False), place_type=-1,
               str_value=attrs.get("str_value", text), value=value)
    return out


def _fill_any_like_desc(attrs, x):  # dtype None (x's: backward's zero gradients) shows as -1; the value a float
    value = attrs["value"]
    return {**attrs, "dtype": VAR_TYPE.get(str(attrs["dtype"]), -1),
            "value": float(value) if isinstance(value, (int, float)) else value}


class Scalar:
    """A value of a SCALAR attribute (assign_value's `values`), shown as Paddle's paddle::experimental::Scalar prints it:
    Scalar(float64(1.5)), Scalar(int64(3)), Scalar(bool(1)) (C++ stream formatting of the value); `value()` gives
    the value, as core.Scalar's."""

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value

    def value(self):
        return self._value

    def __repr__(self):
        v = self._value
        if isinstance(v, bool):
            return f"Scalar(bool({int(v)}))"
        return f"Scalar(int64({v}))" if isinstance(v, int) else f"Scalar(float64({v:g}))"


@_back(lambda attrs, x: {**attrs, "values": [v.value() if isinstance(v, Scalar) else v for v in attrs.get("values", [])]})
def _assign_value_desc(attrs, x):  # the values as Scalars, the dtype as a VarType number; no place attr
    return {**_without("place")(attrs, x), "dtype": VAR_TYPE.get(str(attrs["dtype"]), -1),
            "values": [Scalar(v) for v in attrs["values"]]}


def _random_desc(**extra):  # the initializers' random ops: dtype as a VarType number, no place
    return lambda attrs, x: {**extra, **_without("place")(attrs, x), "dtype": VAR_TYPE.get(str(attrs["dtype"]), -1)}


@_back(lambda attrs, x: {**attrs, "axis": None if attrs.get("flatten") else attrs.get("axis", -1),
                         "keepdim": attrs.get("keepdims", False)})
def _arg_extreme_desc(attrs, x):  # argmax/argmin over all elements: Paddle's flatten flag, axis 0
    out = {k: v for k, v in attrs.items() if k != "keepdim"}
    return {**out, "axis": 0 if attrs["axis"] is None else attrs["axis"], "flatten": attrs["axis"] is None,
            "keepdims": attrs["keepdim"]}


@_back(lambda attrs, x: {**attrs, "axis": None if attrs.get("flatten") else attrs.get("axis", -1)})
def _cumsum_desc(attrs, x):  # a cumsum over all elements: Paddle's flatten flag, axis -1
    return {**attrs, "axis": -1 if attrs["axis"] is None else attrs["axis"], "flatten": attrs["axis"] is None,
            "exclusive": False}


def _flatten_desc(attrs, x):
    ndim = max(len(x.shape), 1)
    return {**attrs, "start_axis": attrs["start_axis"] % ndim, "stop_axis": attrs["stop_axis"] % ndim}


def _paired_paddings(attrs, x):
    """Paddle's conv/pool APIs store paddings [before, after, ...] as one value per dim when each pair is equal (paddings
    read from a file in that form already stay as they are)."""
    p = attrs["paddings"]
    pairs = x is None or len(p) == 2 * (len(x.shape) - 2)
    return {**attrs, "paddings": list(p[::2])} if pairs and list(p[::2]) == list(p[1::2]) else attrs


def _conv_transpose_desc(attrs, x):  # Paddle's API leaves a zero output_padding and the output_size unset
    attrs = _paired_paddings(attrs, x)
    return {**attrs, "output_padding": [] if not any(attrs["output_padding"]) else attrs["output_padding"],
            "output_size": []}


def _pool_desc(attrs, x):  # the adaptive pooling APIs leave use_cudnn off and paddings per side
    if attrs.get("adaptive"):
        return {"use_cudnn": False, **attrs}
    return {"use_cudnn": True, **_paired_paddings(attrs, x)}


def _batch_norm_desc(attrs, x):  # Paddle's BatchNorm1D/3D store their layout as the 2-D one (NCL -> NCHW)
    layout = attrs["data_layout"]
    return {**attrs, "data_layout": "NHWC" if layout in ("NLC", "NHWC", "NDHWC") else "NCHW"}


def _with(**extra):
    return lambda attrs, x: {**extra, **attrs}


def _without(*names):
    return lambda attrs, x: {k: v for k, v in attrs.items() if k not in names}


def _nce_desc(attrs, x):  # custom_neg_classes is an extra (test-only) attr Paddle's desc hides
    return {"is_test": False, **_without("custom_neg_classes")(attrs, x)}


# a range's dtype is its bounds' (its inputs)
_RANGE_DESC = _back(lambda attrs, x: {**attrs, "dtype": None if x is None else x.dtype.name})(
    _without("start", "end", "step", "dtype", "place"))


_ELEMENTWISE = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "remainder", "floor_divide",
                "elementwise_pow")
_ELEMENTWISE_WITHOUT_AXIS = ("fmax", "fmin", "heaviside")  # newer ops: no axis attribute
_COMPARE = ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal")
_REDUCE = ("reduce_sum", "mean", "max", "min", "amax", "amin", "prod", "all", "any")

# the slice ops' bounds given as tensors (x[i:j] with Variable bounds), empty for constant bounds
_SLICE_TENSORS = ("EndsTensor", "EndsTensorList", "StartsTensor", "StartsTensorList")
_STRIDED_SLICE_TENSORS = (*_SLICE_TENSORS, "StridesTensor", "StridesTensorList")

# our type -> (fn(attrs, the first input Variable) -> Paddle's attrs, optional input slots Paddle lists empty)
LEGACY_DESC = {
    "matmul": (_renamed(transpose_x="trans_x", transpose_y="trans_y"), ()),
    "transpose": (_renamed(perm="axis"), ()),
    # Paddle shows a frequency-scaled lookup as its own op type, whose desc has only padding_idx too; is_sparse is
    # one of its runtime-only (extra) attrs
    "embedding": (_without("scale_grad_by_freq", "is_sparse"), ()),
    "unsqueeze": (_renamed(axis="axes"), ("AxesTensor", "AxesTensorList")),
    "squeeze": (_renamed(axis="axes"), ()),
    "reshape": (_with(mkldnn_data_type="float32", use_quantizer=False), ("Shape", "ShapeTensor")),
    "cast": (_cast_desc, ()),
    "fill_any_like": (_fill_any_like_desc, ()),
    "assign_value": (_assign_value_desc, ()),
    "fill_constant": (_fill_constant_desc, ("ShapeTensor", "ShapeTensorList", "ValueTensor")),
    "scale": (None, ("BiasTensor", "ScaleTensor")),
    "concat": (None, ("AxisTensor",)),
    "clip": (None, ("Max", "Min")),
    "dropout": (_without("seed"), ("Seed",)),
    "expand": (None, ("Shape", "expand_shapes_tensor")),
    "gather": (None, ("Axis",)),
    "one_hot": (_with(allow_out_of_range=False, dtype=VAR_TYPE["float32"]), ("depth_tensor",)),
    "split": (None, ("AxisTensor", "SectionsTensorList")),
    "tile": (None, ("RepeatTimes", "repeat_times_tensor")),
    "top_k_v2": (None, ("K",)),
    "cumsum": (_cumsum_desc, ()),
    "argmax": (_arg_extreme_desc, ()),
    "argmin": (_arg_extreme_desc, ()),
    "flatten": (_flatten_desc, ()),
    "nce": (_nce_desc, ()),
    "batch_norm": (_batch_norm_desc, ("MomentumTensor",)),
    "lamb": (None, ("SkipUpdate",)),
    "relu6": (_without("threshold"), ()),  # Paddle's relu6 op has its threshold fixed at 6
    "hardswish": (_with(offset=3.0, scale=6.0, threshold=6.0), ()),
    "range": (_RANGE_DESC, ()),  # the bounds are its inputs
    "slice": (None, _SLICE_TENSORS),
    "strided_slice": (None, _STRIDED_SLICE_TENSORS),
    "uniform_random": (_random_desc(diag_num=0, diag_step=0, diag_val=1.0), ("ShapeTensor", "ShapeTensorList")),
    "gaussian_random": (_random_desc(), ()),
    "truncated_gaussian_random": (_random_desc(), ()),
    "pad3d": (None, ("Paddings",)),
    **{f"{m}_interp_v2": (None, ("OutSize", "Scale", "SizeTensor"))
       for m in ("nearest", "linear", "bilinear", "bicubic", "trilinear")},
    **{f"conv{n}d": (_paired_paddings, ()) for n in (1, 2, 3)},
    **{f"pool{n}d": (_pool_desc, ()) for n in (1, 2, 3)},
    **{f"conv{n}d_transpose": (_conv_transpose_desc, ("Bias",)) for n in (2, 3)},
    # sparse_grad: ours picks the kernel Paddle picks by the Grad variable's type
    **{t: (lambda attrs, x: {"amsgrad": False, **_without("sparse_grad")(attrs, x)},
           ("Beta1Tensor", "Beta2Tensor", "EpsilonTensor", "Moment2Max", "SkipUpdate")) for t in ("adam", "adamw")},
    **{t: (_with(axis=-1, force_cpu=False), ()) for t in _COMPARE},
    **{t: (_reduce_desc, ()) for t in _REDUCE},
    "while_grad": (_without("inner_grads"), ()),
    # made by Paddle's C++ grad maker: only the attrs it copies
    "conditional_block_grad": (_without("inner_grads", "op_namescope", "op_role_var", "with_quant_attr"), ()),
    "coalesce_tensor": (_random_desc(), ()),  # the names its block gives the gradients: our runner's
}


# Outputs Paddle's op has beyond ours: the view ops' XShape, a variable of shape (0, *x.shape) that carries
# x's shape to the grad op (it holds no data; nothing reads it but the grad op's desc)
_XSHAPE_OPS = ("reshape", "transpose", "squeeze", "unsqueeze", "flatten")


def extra_outputs(type, x, attrs):
    """{slot: shape} of the outputs Paddle's legacy op `type` has that the registry op lacks (`x`: the
    meta of its first input, `attrs` the op's); batch_norm's ReserveSpace is cuDNN's workspace in training,
    which no kernel of ours needs."""
    if type == "batch_norm":
        return {"ReserveSpace": (-1,)} if not attrs["is_test"] or attrs["trainable_statistics"] else {}
    return {"XShape": (0, *x.shape)} if type in _XSHAPE_OPS else {}


# Outputs Paddle's static op writes in place into the variable of an input (output slot: input slot): batch_norm's
# running statistics, a fake quanter's moving scale, as an optimizer's ParamOut is its Param. The op's value is the
# same either way; a program then has no temporaries and assign ops for them.
_RUNNING_STATS = {"MeanOut": "Mean", "VarianceOut": "Variance"}
INPLACE_OUTPUTS = {"batch_norm": _RUNNING_STATS, "sync_batch_norm": _RUNNING_STATS,
                   "fake_quantize_dequantize_moving_average_abs_max": {"OutScale": "InScale", "OutState": "InState",
                                                                       "OutAccum": "InAccum"}}


# Outputs Paddle's API creates in another order than the op's slots (so its temporaries are numbered so), and
# outputs it marks stop_gradient=True
_BN_ORDER = ("MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "Y")
OUTPUT_ORDER = {"layer_norm": ("Mean", "Variance", "Y"), "instance_norm": ("SavedMean", "SavedVariance", "Y"), "group_norm": ("Mean", "Variance", "Y"), "batch_norm": _BN_ORDER, "sync_batch_norm": _BN_ORDER,
                "huber_loss": ("Residual", "Out")}
# Ops without a gradient whose outputs Paddle's API leaves stop_gradient=False when an input needs gradients
# (its static APIs mark outputs by their inputs alone); others' outputs stop gradients
NO_GRAD_OUTPUTS_KEPT = {"floor_divide", "remainder", "clip_by_norm"}
STOP_GRADIENT_OUTPUTS = {"layer_norm": ("Mean", "Variance"), "instance_norm": ("SavedMean", "SavedVariance"), "group_norm": ("Mean", "Variance"), "dropout": ("Mask",),
                         "batch_norm": ("SavedMean", "SavedVariance", "ReserveSpace"),
                         "sync_batch_norm": ("SavedMean", "SavedVariance"), "top_k_v2": ("Indices",)}


# The forward slots Paddle's grad op of these ops lists as inputs (empty ones too), where that is not just the
# slots our grad maker reads: the view ops' grad ops read XShape, elementwise grad ops always read X and Y.
GRAD_INPUTS = {
    **{t: ("XShape",) for t in _XSHAPE_OPS},
    "unsqueeze": ("AxesTensor", "AxesTensorList", "XShape"),
    **{t: ("X", "Y") for t in _ELEMENTWISE + _ELEMENTWISE_WITHOUT_AXIS},
    "divide": ("Out", "X", "Y"),
    "split": ("AxisTensor",),
    "gather": ("Axis", "Index", "X"),
    "sigmoid_cross_entropy_with_logits": ("Label", "X", "pos_weight"),
    "nll_loss": ("Label", "Total_weight", "Weight", "X"),
    "tile": ("RepeatTimes", "X", "repeat_times_tensor"),
    "expand": ("Shape", "X", "expand_shapes_tensor"),
    "cumsum": ("X",),
    "group_norm": ("Bias", "Mean", "Scale", "Variance", "X", "Y"),
    "silu": ("Out", "X"),
    "elu": ("Out", "X"),
    **{f"conv{n}d_transpose": ("Bias", "Filter", "Input") for n in (2, 3)},
    "layer_norm": ("Bias", "Mean", "Scale", "Variance", "X"),
    "instance_norm": ("Bias", "SavedMean", "Scale", "SavedVariance", "X"),
    "pad3d": ("Paddings", "X"),
    "top_k_v2": ("Indices", "K", "X"),
    **{f"{m}_interp_v2": ("OutSize", "Scale", "SizeTensor", "X")
       for m in ("nearest", "linear", "bilinear", "bicubic", "trilinear")},
    "clip": ("Max", "Min", "X"),
    "scale": ("BiasTensor", "ScaleTensor"),  # its grad op is a scale op, which lists them empty
    "stack": ("X",),
    "concat": ("AxisTensor", "X"),
    "slice": ("Input", *_SLICE_TENSORS),
    "strided_slice": ("Input", *_STRIDED_SLICE_TENSORS),
    "batch_norm": ("Bias", "MeanOut", "ReserveSpace", "SavedMean", "SavedVariance", "Scale", "VarianceOut", "X"),
    "rnn": ("DropoutState", "Input", "Out", "PreState", "Reserve", "SequenceLength", "WeightList"),
}


# Input slots whose grad op output Paddle lists one entry per input, `@EMPTY@` where no gradient is computed (its
# grad maker keeps the empty ones: InputGrad(slot, false)); other slots list the computed gradients only
EMPTY_GRAD_SLOTS = {"rnn": ("PreState",)}


# Gradients Paddle's grad op writes as a SELECTED_ROWS variable (the rows an op touched, Paddle's sparse gradient)
# rather than a DENSE_TENSOR: our type -> fn(attrs) -> the input slots whose gradient is one
SELECTED_ROWS_GRADS = {"embedding": lambda attrs: ("W",) if attrs["is_sparse"] else ()}


def legacy_desc(type, attrs, x):
    """(attrs, empty input slots) of registry op `type` as Paddle's legacy op desc shows them (`x`: the op's
    first input Variable)."""
    fn, empty_slots = LEGACY_DESC.get(type, (None, ()))
    attrs = attrs if fn is None else fn(attrs, x)
    # a legacy op desc keeps float attributes in float32 (epsilon 1e-5 reads back as 9.999999747378752e-06) and
    # dtypes as VarType numbers
    return {k: float(np.float32(v)) if v.__class__ is float else
            _dtype_number(v) if k in DTYPE_ATTRS and isinstance(v, str) else v for k, v in attrs.items()}, empty_slots


def attrs_from_desc(type, attrs, x, defaults):
    """Our attrs of registry op `type` from the attrs of Paddle's legacy op desc (what a Paddle file holds; `x`: the
    op's first input Variable, `defaults`: the op's declared attrs): the inverse of `legacy_desc`. Attributes the op
    does not declare are passed through; its defaults fill those the desc lacks."""
    attrs = {k: _dtype_name(v) if k in DTYPE_ATTRS and isinstance(v, int) and not isinstance(defaults.get(k, 0), int)
             else v for k, v in attrs.items()}
    back = getattr(LEGACY_DESC.get(type, (None, ()))[0], "back", None)
    return attrs if back is None else back(attrs, x)


# The AttrType of the attributes whose value cannot tell it (an empty list, an integer Paddle keeps in 64 bits, a
# double): op type -> {attribute: AttrType name}; "*": every op's. Other attributes take their value's type (bool
# BOOLEAN, int INT, float FLOAT, str STRING, lists of those INTS/FLOATS/STRINGS/BOOLEANS, a block BLOCK).
_LONG_SHAPE = {"shape": "LONGS"}
DECLARED_ATTR_TYPES = {
    "*": {"op_role_var": "STRINGS", "op_callstack": "STRINGS"},
    **{t: {"min_row_size_to_use_multithread": "LONG"} for t in ("adam", "adamw")},
    **{t: {"dim": "LONGS"} for t in ("reduce_all", "reduce_any", "reduce_amax", "reduce_amin")},
    **{t: {"axis": "LONG"} for t in ("arg_max", "arg_min")},
    "as_strided": {"dims": "LONGS", "stride": "LONGS", "offset": "LONG"},
    "assign_value": {"values": "SCALARS"},
    **{f"{m}_interp_v2": {"scale": "FLOATS"} for m in ("nearest", "linear", "bilinear", "bicubic", "trilinear")},
    "coalesce_tensor": {"concated_shapes": "LONGS", "concated_ranks": "LONGS"},
    "lookup_table_v2": {"padding_idx": "LONG"},
    "eye": {"num_rows": "LONG", "num_columns": "LONG"},
    **{t: {"axes": "LONGS"} for t in ("fft_c2c", "fft_r2c")},
    "fft_c2r": {"axes": "LONGS", "last_dim_size": "LONG"},
    **{t: _LONG_SHAPE for t in ("fill_constant", "gaussian_random", "uniform_random", "randint")},
    "histogram": {"bins": "LONG"},
    "nll_loss": {"ignore_index": "LONG"},
    "py_func": {"backward_skip_vars": "STRINGS"},
    "roll": {"shifts": "LONGS", "axis": "LONGS"},
    "set_value": {k: "LONGS" for k in ("axes", "starts", "ends", "steps", "decrease_axes", "none_axes", "shape")},
    "var": {"axis": "LONGS", "correction": "FLOAT64"},
}


# Paddle 3.3.1's op versions (its op_version_map: how many times an op's definition changed since its first), of the
# legacy types our ops have; a ProgramDesc records them for the op types it holds
OP_VERSIONS = {
    **dict.fromkeys(("argsort", "assign_value", "auc", "clip", "conv2d", "conv3d", "conv3d_transpose", "cumprod",
                     "cumsum", "depthwise_conv2d", "depthwise_conv2d_transpose", "elementwise_add", "elementwise_div",
                     "elementwise_mul", "elementwise_pow", "elementwise_sub", "equal", "flip", "gather", "greater_equal",
                     "greater_than", "histogram", "instance_norm", "kldiv_loss", "lamb", "leaky_relu", "less_equal",
                     "less_than", "linspace", "lookup_table_v2", "lstsq", "max_pool2d_with_index",
                     "max_pool3d_with_index", "momentum", "not_equal", "print", "round", "softplus", "trace",
                     "truncated_gaussian_random", "unique_consecutive"), 1),
    **dict.fromkeys(("coalesce_tensor", "conv2d_transpose", "fill_constant", "roll"), 2),
    "set_value": 4,
}
