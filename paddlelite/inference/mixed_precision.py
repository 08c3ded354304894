"""paddle.inference.convert_to_mixed_precision: a saved inference model (.pdmodel/.pdiparams, Paddle's legacy
ProgramDesc) rewritten to compute in float16 or bfloat16, as Paddle's auto_mixed_precision pass rewrites it.

An op runs in the low precision when its registry op accepts low-precision inputs (its shape rule takes them: the
kernels here are the same NumPy/CuPy code in every float dtype), it is not in the black list (the caller's, plus
Paddle's default one: numerically dangerous or slower ops), its dtype attribute (if any) is float32, and no float64
value and no float32-only producer feeds it; the white list forces an op in. The float32 weights such ops read
become low-precision values in the parameter file (the statistics and affine parameters of the norms excepted),
their float32 outputs low-precision variables, and `cast` ops join the two precisions wherever a value crosses
(reusing a cast already there). keep_io_types=True keeps the model's inputs and outputs float32 (casts at both ends);
False makes them the low dtype. The ops inside control-flow blocks are left as they are (as Paddle's pass leaves
the ops that hold blocks). Paddle's constant folding (which precomputes ops on weights alone) is not run here:
the program keeps those ops.
"""
import os

import numpy as np

from ..framework.dtype import DTYPES
from ..framework.framework_proto import DTYPE_NUMBERS
from ..ops.legacy import legacy_type
from ..ops.registry import Meta, get_op
from ..static.io import read_model_files, write_model_files
from .enums import PlaceType, PrecisionType

_API = "paddle.inference.convert_to_mixed_precision"
_LOW = {PrecisionType.Half: "float16", PrecisionType.Bfloat16: "bfloat16"}
_FP32 = DTYPES["float32"]
# Paddle's default black list (auto_mixed_precision_pass.cc SetDefaultBlacklist)
_DEFAULT_BLACK_LIST = frozenset({
    "cast", "exp", "square", "log", "mean", "sum", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
    "c_softmax_with_cross_entropy", "c_softmax_with_multi_label_cross_entropy", "cross_entropy", "cross_entropy2",
    "conv2d_transpose", "reduce_sum"})
# the inputs and outputs of low-precision ops that stay float32 (norm statistics and affine parameters, quantization
# scales), by Paddle's op type
_FP32_INPUTS = {
    "batch_norm": {"Bias", "Mean", "Scale", "Variance"}, "sparse_batch_norm": {"bias", "mean", "scale", "variance"},
    "instance_norm": {"Bias", "Scale"}, "layer_norm": {"Bias", "Scale"},
    "fused_multi_transformer": {"LnScale", "LnBias", "FFNLnScale", "FFNLnBias"},
    "fused_bias_dropout_residual_layer_norm": {"LnScale", "LnBias"},
    "quantize_linear": {"Scale", "ZeroPoint"}, "dequantize_linear": {"Scale", "ZeroPoint"}}
_FP32_OUTPUTS = {
    "batch_norm": {"MeanOut", "VarianceOut", "SavedMean", "SavedVariance"},
    "sparse_batch_norm": {"mean_out", "variance_out", "saved_mean", "saved_variance", "reserve_space"},
    "layer_norm": {"Mean", "Variance"}, "group_norm": {"Mean", "Variance"}}
_FP32_NUMBER = DTYPE_NUMBERS["float32"]  # a desc's dtype attributes are VarType numbers
_ANY_DTYPE_ATTR = frozenset({"arg_max", "arg_min"})  # their dtype attribute is the index dtype


def convert_to_mixed_precision(model_file, params_file, mixed_model_file, mixed_params_file, mixed_precision,
                               backend, keep_io_types=True, black_list=set(), **kwargs):  # noqa: B006 (Paddle's)
    """Write the model at model_file/params_file, converted to mixed_precision (PrecisionType.Half or Bfloat16) for
    backend (PlaceType.GPU; XPU takes Half and has no low-precision kernels here, so its model stays float32), to
    mixed_model_file/mixed_params_file. black_list: op types kept float32; kwargs: white_list, op types forced low."""
    white_list = kwargs.get("white_list", set())
    _check_args(model_file, params_file, mixed_model_file, mixed_params_file, mixed_precision, backend, black_list,
                white_list)
    low = DTYPES[_LOW[mixed_precision]]
    try:
        program, feeds, fetches, values = read_model_files(model_file, params_file or None, _API)
    except FileNotFoundError as e:  # Paddle's loader reports a missing file as unavailable
        raise RuntimeError(f"{_API}: {e}") from e
    rewrite = _Rewrite(program.global_block(), low, backend == PlaceType.GPU, bool(keep_io_types),
                       frozenset(black_list) | _DEFAULT_BLACK_LIST, frozenset(white_list))
    fetches = rewrite.run(feeds, fetches)
    for name in rewrite.converted:
        values[name] = values[name].astype(low.np)
    model_dir = os.path.dirname(mixed_model_file)
    params_dir = os.path.dirname(mixed_params_file) if mixed_params_file else model_dir
    if params_dir:
        os.makedirs(params_dir, exist_ok=True)
    if not mixed_params_file and values:  # Paddle's fallback: the model file's name ending in .pdiparams
        mixed_params_file = mixed_model_file[:-len(".pdmodel")] + ".pdiparams" if mixed_model_file.endswith(
            ".pdmodel") else mixed_model_file + ".pdiparams"
    write_model_files(mixed_model_file, mixed_params_file, program, feeds, fetches, values)


def _check_args(model_file, params_file, mixed_model_file, mixed_params_file, precision, backend, black_list,
                white_list):
    for arg, value in (("model_file", model_file), ("params_file", params_file),
                       ("mixed_model_file", mixed_model_file), ("mixed_params_file", mixed_params_file)):
        if not isinstance(value, str):
            raise TypeError(f"{_API}: {arg} must be a str, received {type(value).__name__}")
    if not isinstance(precision, PrecisionType):
        raise TypeError(f"{_API}: mixed_precision must be a paddle.inference.PrecisionType, received {precision!r}")
    if not isinstance(backend, PlaceType):
        raise TypeError(f"{_API}: backend must be a paddle.inference.PlaceType, received {backend!r}")
    for arg, value in (("black_list", black_list), ("white_list", white_list)):
        if not isinstance(value, (set, frozenset)) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"{_API}: {arg} must be a set of op type names, received {value!r:.80}")
    allowed = {PlaceType.GPU: (PrecisionType.Half, PrecisionType.Bfloat16), PlaceType.XPU: (PrecisionType.Half,)}
    if backend == PlaceType.CUSTOM:
        raise RuntimeError(f"{_API}: backend PlaceType.CUSTOM needs a custom device, which paddlelite has not")
    if backend not in allowed:
        raise ValueError(f"{_API}: backend must be PlaceType.GPU or PlaceType.XPU (mixed precision is a device "
                         f"rewrite), received {backend!r}")
    if precision not in allowed[backend]:
        raise ValueError(f"{_API}: mixed_precision for {backend!r} must be one of "
                         f"{[p.name for p in allowed[backend]]}, received {precision!r}")
    if not mixed_model_file:
        raise ValueError(f"{_API}: mixed_model_file must name the file to write, received ''")


class _Rewrite:
    """The pass over one block: which ops run low (`low_ops`, by index), the variables' new dtypes, the weights to
    convert (`converted`), the casts."""

    def __init__(self, block, low, has_kernels, keep_io_types, black_list, white_list):
        self.block, self.low, self.has_kernels = block, low, has_kernels
        self.io_low = not keep_io_types
        self.black_list, self.white_list = black_list, white_list
        self.converted = set()

    def var(self, name):
        return self.block.var(name)

    def persistable(self, name):
        return self.var(name).persistable

    # ---- which ops run low ------------------------------------------------------------------------------------
    def supports_low(self, op):
        paddle_type = legacy_type(op.type)
        if paddle_type in self.white_list:
            return True
        if paddle_type in self.black_list or not self.has_low_kernel(op):
            return False
        attrs = op.all_attrs()
        fp32 = _FP32_NUMBER
        if "dtype" in attrs and paddle_type not in _ANY_DTYPE_ATTR and attrs["dtype"] != fp32:
            return False
        if "dtype" not in attrs and attrs.get("out_dtype", -1) not in (fp32, -1):
            return False
        if paddle_type == "scale":  # a scale or bias past the low dtype's range stays float32
            with np.errstate(over="ignore"):
                low = np.asarray([attrs.get("scale", 1.0), attrs.get("bias", 0.0)], np.float32).astype(self.low.np)
            if not np.isfinite(low.astype(np.float32)).all():
                return False
        names = [*op.input_arg_names, *op.output_arg_names]
        return all(self.var(n).type == "DENSE_TENSOR" for n in names if not self.persistable(n))

    def has_low_kernel(self, op):
        """Whether the registry op computes in the low dtype: its shape rule accepts the float32 inputs as low."""
        if not self.has_kernels or any(hasattr(v, "ops") for v in op.attrs.values()):  # control flow: sub-blocks
            return False
        opdef = get_op(op.type)
        if opdef.infer is None:
            return False
        metas = []
        for slot in opdef.inputs:
            names = op.input(slot)
            lowered = [self.meta(n) for n in names]
            metas.append(lowered if slot in opdef.variadic_inputs else (lowered[0] if lowered else None))
        try:
            opdef.infer(*metas, **{k: op.attrs.get(k, default) for k, default in opdef.attrs.items()})
        except (TypeError, ValueError, IndexError, KeyError):
            return False
        return True

    def meta(self, name):
        v = self.var(name)
        return Meta(tuple(v.shape), (self.low if v.dtype == _FP32 else v.dtype).np)

    def low_ops(self):
        ops = self.block.ops
        low = {i for i, op in enumerate(ops) if self.supports_low(op)}
        producers, not_low = {}, set()
        for i, op in enumerate(ops):
            for n in op.output_arg_names:
                if not self.persistable(n):
                    producers.setdefault(n, []).append(i)
                    if self.var(n).dtype == DTYPES["float64"]:  # every op touching float64 stays float32
                        not_low.add(n)
        changed = True
        while changed:  # an op stays float32 when it reads such a value, or shares an output with one that does
            changed = False
            for i in sorted(low):
                op = ops[i]
                if any(n in not_low for n in op.input_arg_names if not self.persistable(n)) or any(
                        n in not_low or any(p not in low for p in producers[n])
                        for n in op.output_arg_names if not self.persistable(n)):
                    low.discard(i)
                    changed = True
        return low

    # ---- the rewrite ------------------------------------------------------------------------------------------
    def run(self, feeds, fetches):
        """Rewrite the block; returns the fetch names (a kept-float32 output is fetched through its cast)."""
        ops = list(self.block.ops)
        low = self.low_ops()
        if self.io_low:
            for n in feeds:
                self.set_low(n)
        for i in sorted(low):
            op, paddle_type = ops[i], legacy_type(ops[i].type)
            for slot, names in op._inputs.items():
                for n in names:
                    if self.persistable(n) and self.var(n).dtype == _FP32 and \
                            slot not in _FP32_INPUTS.get(paddle_type, ()):
                        self.set_low(n)
                        self.converted.add(n)
            for slot, names in op._outputs.items():
                for n in names:
                    if self.var(n).dtype == _FP32 and slot not in _FP32_OUTPUTS.get(paddle_type, ()):
                        self.set_low(n)
                        if self.persistable(n):
                            self.converted.add(n)
            attrs = op.all_attrs()
            if "dtype" in op.attrs and (attrs.get("dtype") == _FP32_NUMBER or
                                        attrs.get("out_dtype") == _FP32_NUMBER):
                op._set_attr("dtype", self.low.name)
        casts, low_ops = _Casts(self), {id(ops[i]) for i in low}
        for op in ops:
            if not any(hasattr(v, "ops") for v in op.attrs.values()):  # control flow ops are left as they are
                casts.before(op, id(op) in low_ops)
        return [casts.fetch(n, self.io_low) for n in fetches]

    def set_low(self, name):
        self.var(name)._dtype = self.low


class _Casts:
    """Inserts the casts between the precisions: one per value and target dtype, reused by every later reader of
    that value until it is written again; a value that a cast produced has that cast retargeted instead."""

    def __init__(self, rewrite):
        self.rewrite, self.block = rewrite, rewrite.block
        self.cache, self.suffix = {}, 0

    def target(self, name, low):
        dtype = self.rewrite.var(name).dtype
        if dtype == _FP32 and low:
            return self.rewrite.low
        if dtype in (DTYPES["float16"], DTYPES["bfloat16"]) and not low:
            return _FP32
        return None

    def before(self, op, low):
        for n in dict.fromkeys(op.input_arg_names):
            if self.rewrite.persistable(n):
                continue
            to = self.target(n, low)
            if to is not None:
                op._rename_input(n, self.cast(n, to, self.block.ops.index(op)))
        for n in op.output_arg_names:
            self.cache.pop(n, None)

    def fetch(self, name, io_low):
        """The name a fetch of `name` reads: itself, or its float32 cast at the end of the block."""
        to = self.target(name, io_low)
        return name if to is None else self.cast(name, to, len(self.block.ops))

    def cast(self, name, to, index):
        producer = self.producer(name, index)
        if producer is not None and producer.type == "cast":
            self.rewrite.var(name)._dtype = to
            producer._set_attr("dtype", to.name)
            return name
        if name not in self.cache:
            v = self.rewrite.var(name)
            out = f"{name}_cast_auto_mixed.tmp_{self.suffix}"
            self.suffix += 1
            self.block.create_var(name=out, shape=v.shape, dtype=to, persistable=False)
            self.block._insert_op(index, "cast", inputs={"X": [name]}, outputs={"Out": [out]},
                                  attrs={"dtype": to.name})
            self.cache[name] = out
        return self.cache[name]

    def producer(self, name, index):
        return next((op for op in reversed(self.block.ops[:index]) if name in op.output_arg_names), None)
