"""Paddle's legacy-IR op types: the one table from our registry types to the types Paddle's ProgramDesc
shows (`add` is `elementwise_add`, `matmul` is `matmul_v2`, `embedding` is `lookup_table_v2`, ...).

Static Operators carry the legacy type, so `op.type`, printed programs, append_backward callbacks and
tools that read op descs see what Paddle shows; `registry.get_op` resolves either name to the same op.
The gradient of an op is shown as Paddle names its grad op: `<legacy type>_grad`. Ops missing here
already have Paddle's name. Slot names are Paddle's in the registry itself.
"""

import numpy as np

LEGACY_TYPES = {
    "add": "elementwise_add",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "maximum": "elementwise_max",
    "minimum": "elementwise_min",
    "remainder": "elementwise_mod",
    "floor_divide": "elementwise_floordiv",
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
}


REGISTRY_TYPES = {legacy: ours for ours, legacy in LEGACY_TYPES.items()}  # and back


def legacy_type(type):
    """The op type Paddle's legacy IR shows for our registry type `type`."""
    return LEGACY_TYPES.get(type, type)


def grad_type(forward_type):
    """The type Paddle gives the gradient of a forward op (whose type is already the legacy one)."""
    return forward_type + "_grad"


# ---- op descs as Paddle shows them -------------------------------------------------------------------
# Our ops keep their own attribute names (the executor and grad makers read those); `legacy_desc` gives the
# attributes and the always-listed optional input slots that Paddle's legacy-IR op desc of the same op has,
# for printing and for `op.attr(name)` / `op.all_attrs()` / `op.input_names`.

# Paddle's VarDesc.VarType numbers, which legacy op descs store for dtype attributes
VAR_TYPE = {"bool": 0, "int16": 1, "int32": 2, "int64": 3, "float16": 4, "float32": 5, "float64": 6, "uint8": 20,
            "int8": 21, "bfloat16": 22, "complex64": 23, "complex128": 24}


def _renamed(**names):
    return lambda attrs, in_dtype: {names.get(k, k): v for k, v in attrs.items()}


def _as_list(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


def _reduce_desc(attrs, in_dtype):
    out = {k: v for k, v in attrs.items() if k not in ("axis", "keepdim")}
    axis = attrs["axis"]
    out.update(dim=[] if axis is None else _as_list(axis), keep_dim=attrs["keepdim"], in_dtype=-1, out_dtype=-1,
               reduce_all=axis is None)
    return out


def _cast_desc(attrs, in_dtype):
    out = {k: v for k, v in attrs.items() if k != "dtype"}
    out.update(in_dtype=VAR_TYPE.get(in_dtype, -1), out_dtype=VAR_TYPE.get(str(attrs["dtype"]), -1))
    return out


def _fill_constant_desc(attrs, in_dtype):
    out = {k: v for k, v in attrs.items() if k not in ("dtype", "place")}
    value = attrs["value"]
    out.update(dtype=VAR_TYPE.get(str(attrs["dtype"]), -1), force_cpu=False, place_type=-1,
               str_value=str(float(value)) if isinstance(value, (int, float)) else str(value))
    return out


def _with(**extra):
    return lambda attrs, in_dtype: {**extra, **attrs}


def _without(*names):
    return lambda attrs, in_dtype: {k: v for k, v in attrs.items() if k not in names}


def _nce_desc(attrs, in_dtype):  # custom_neg_classes is an extra (test-only) attr Paddle's desc hides
    return {"is_test": False, **_without("custom_neg_classes")(attrs, in_dtype)}


_ELEMENTWISE = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "remainder", "floor_divide",
                "elementwise_pow")
_REDUCE = ("reduce_sum", "mean", "max", "min", "amax", "amin", "prod", "all", "any")

# our type -> (fn(attrs, dtype name of the first input) -> Paddle's attrs, optional input slots Paddle lists empty)
LEGACY_DESC = {
    "matmul": (_renamed(transpose_x="trans_x", transpose_y="trans_y"), ()),
    "transpose": (_renamed(perm="axis"), ()),
    "unsqueeze": (_renamed(axis="axes"), ("AxesTensor", "AxesTensorList")),
    "squeeze": (_renamed(axis="axes"), ()),
    "reshape": (_with(mkldnn_data_type="float32", use_quantizer=False), ("Shape", "ShapeTensor")),
    "cast": (_cast_desc, ()),
    "fill_constant": (_fill_constant_desc, ("ShapeTensor", "ShapeTensorList", "ValueTensor")),
    "scale": (None, ("BiasTensor", "ScaleTensor")),
    "concat": (None, ("AxisTensor",)),
    "softmax_with_cross_entropy": (_with(use_softmax=True), ()),
    "clip": (None, ("Max", "Min")),
    "dropout": (_without("seed"), ("Seed",)),
    "expand": (None, ("Shape", "expand_shapes_tensor")),
    "gather": (None, ("Axis",)),
    "one_hot": (_with(allow_out_of_range=False, dtype=VAR_TYPE["float32"]), ("depth_tensor",)),
    "split": (None, ("AxisTensor", "SectionsTensorList")),
    "tile": (None, ("RepeatTimes", "repeat_times_tensor")),
    "top_k_v2": (None, ("K",)),
    "cumsum": (_with(flatten=False, exclusive=False), ()),
    "nce": (_nce_desc, ()),
    **{t: (_with(axis=-1), ()) for t in _ELEMENTWISE},
    **{t: (_reduce_desc, ()) for t in _REDUCE},
}


def legacy_desc(type, attrs, in_dtype):
    """(attrs, empty input slots) of registry op `type` as Paddle's legacy op desc shows them."""
    fn, empty_slots = LEGACY_DESC.get(type, (None, ()))
    attrs = attrs if fn is None else fn(attrs, in_dtype)
    # a legacy op desc keeps float attributes in float32 (epsilon 1e-5 reads back as 9.999999747378752e-06)
    return {k: float(np.float32(v)) if v.__class__ is float else v for k, v in attrs.items()}, empty_slots
