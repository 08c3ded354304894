"""Real Paddle 3.3.1's PIR programs (`<prefix>.json`, what its jit.save and save_inference_model write by default) as
static Programs, read by static.load_inference_model, jit.load and paddle.inference.

The file is PIR's JSON serialization: `base_code` (magic "pir", version), then regions of blocks of ops, each op
`{"#": "<dialect>.<name>", "I": [inputs by value id], "O": [outputs with their types], "A": [attributes]}`;
dialect 1 is pd_op, 0 builtin (parameter "p", combine, split), 2 control flow (yield). Each pd_op is rebuilt through
paddlelite's own API in static mode (CONVERTERS: PIR op -> the call with its inputs in PIR's order and its
attributes), so every op is a registry op with its shape rule and attributes as this library builds them; `if` and
`while` become cond / while_loop whose branches and body are built from their regions. Integer-array and scalar
constants (`full_int_array`, `full`) stay constants until an op needs them as tensors.

Untrusted input: the JSON is parsed from bytes bounded by the file (nesting too deep is an error), every id, type and
attribute is checked where used, op types without a converter are all named in one error, and any inconsistency is
an InferenceModelError naming the file and the op.
"""
import json

from .. import tensor as T
from ..framework.mode import static_guard
from ..nn import functional as F
from ..static.control_flow import cond, while_loop
from ..static.framework import Program, default_main_program, program_guard
from ..utils import unique_name
from ..static.input import data as static_data
from ..static.io import install_program_reader
from ..static.program_desc import InferenceModelError

MAGIC, VERSIONS = "pir", (1, 2, 3, 4)
_DTYPES = {"t_f32": "float32", "t_f64": "float64", "t_f16": "float16", "t_bf16": "bfloat16", "t_i64": "int64",
           "t_i32": "int32", "t_i16": "int16", "t_i8": "int8", "t_ui8": "uint8", "t_bool": "bool",
           "t_c64": "complex64", "t_c128": "complex128"}
_SCALAR_ATTRS = {"a_bool": bool, "a_i32": int, "a_i64": int, "a_f32": float, "a_f64": float, "a_str": str,
                 "a_dtype": str}


class _Const:
    """A `full` / `full_int_array` value: a Python constant until an op needs it as a tensor."""

    def __init__(self, value, shape, dtype):
        self.value, self.shape, self.dtype = value, shape, dtype
        self._tensor = None

    def tensor(self):
        if self._tensor is None:
            self._tensor = T.to_tensor(self.value, dtype=self.dtype) if isinstance(self.value, list) else \
                T.full(self.shape, self.value, self.dtype)
        return self._tensor


def _tensor(v):
    return v.tensor() if isinstance(v, _Const) else v


def _scalar(v):
    if isinstance(v, _Const):
        return v.value[0] if isinstance(v.value, list) and len(v.value) == 1 else v.value
    return v


def _ints(v):
    if isinstance(v, _Const):
        return [int(e) for e in (v.value if isinstance(v.value, list) else [v.value])]
    if isinstance(v, list):
        return [_scalar(e) if isinstance(e, _Const) else e for e in v]
    return v


def _padding(a):
    algorithm = a.get("padding_algorithm", "EXPLICIT")
    return a["paddings"] if algorithm == "EXPLICIT" else algorithm


def _conv2d(i, a):
    return F.conv2d(_tensor(i[0]), _tensor(i[1]), stride=a["strides"], padding=_padding(a), dilation=a["dilations"],
                    groups=a["groups"], data_format=a["data_format"])


def _pool2d(i, a):
    x, size = _tensor(i[0]), _ints(i[1])
    kind = a["pooling_type"]
    if a.get("adaptive") or a.get("global_pooling"):
        size = [1, 1] if a.get("global_pooling") else size
        if kind == "max":  # NCHW only, as Paddle's adaptive max pooling
            return F.adaptive_max_pool2d(x, size)
        return F.adaptive_avg_pool2d(x, size, data_format=a["data_format"])
    if kind == "max":
        return F.max_pool2d(x, size, a["strides"], _padding(a), ceil_mode=a["ceil_mode"], data_format=a["data_format"])
    return F.avg_pool2d(x, size, a["strides"], _padding(a), ceil_mode=a["ceil_mode"], exclusive=a["exclusive"],
                        data_format=a["data_format"])


def _batch_norm(i, a):
    x, mean, var, scale, bias = (_tensor(v) for v in i)
    out = F.batch_norm(x, mean, var, scale, bias, training=not a["is_test"], momentum=a["momentum"],
                       epsilon=a["epsilon"], data_format=a["data_format"],
                       use_global_stats=a.get("use_global_stats"))
    return [out, mean, var, None, None, None]


def _layer_norm(i, a):
    x = _tensor(i[0])
    begin = a["begin_norm_axis"]
    return [F.layer_norm(x, list(x.shape[begin:]), _tensor(i[1]), _tensor(i[2]), a["epsilon"]), None, None]


def _slice(i, a):
    out = T.slice(_tensor(i[0]), a["axes"], _ints(i[1]), _ints(i[2]))
    return T.squeeze(out, a["decrease_axis"]) if a.get("decrease_axis") else out


def _rnn(i, a):
    """The `rnn` op as Paddle's RNN layers append it (x time-major; weights in cuDNN order)."""
    x, states, weights = _tensor(i[0]), [_tensor(v) for v in i[1]], [_tensor(v) for v in i[2]]
    block = default_main_program().current_block()
    directions = 2 if a["is_bidirec"] else 1
    out = block.create_var(unique_name.generate("rnn.tmp"), (x.shape[0], x.shape[1], directions * a["hidden_size"]),
                           x.dtype)
    new_states = [block.create_var(unique_name.generate("rnn.tmp"), s.shape, s.dtype) for s in states]
    reserve = block.create_var(unique_name.generate("rnn.tmp"), (), "uint8", stop_gradient=True)
    dropout_state = block.create_var(unique_name.generate("rnn.dropout_state"), (), "uint8", stop_gradient=True)
    sequence_length = _tensor(i[3]) if len(i) > 3 and i[3] is not None else None
    block.append_op("rnn", inputs={"Input": [x], "WeightList": weights, "PreState": states,
                                   "SequenceLength": [] if sequence_length is None else [sequence_length]},
                    outputs={"Out": [out], "State": new_states, "Reserve": [reserve], "DropoutState": [dropout_state]},
                    attrs={k: a[k] for k in ("dropout_prob", "is_bidirec", "input_size", "hidden_size", "num_layers",
                                             "mode", "seed", "is_test")})
    return [out, dropout_state, new_states, reserve]


def _binary(fn):
    return lambda i, a: fn(_tensor(i[0]), _tensor(i[1]))


def _unary(fn):
    return lambda i, a: fn(_tensor(i[0]))


# PIR op -> fn(inputs, attrs) giving its outputs (a list where it has several); `if`, `while` and the builtin ops are
# the reader's own
CONVERTERS = {
    "matmul": lambda i, a: T.matmul(_tensor(i[0]), _tensor(i[1]), a["transpose_x"], a["transpose_y"]),
    "add": _binary(T.add), "subtract": _binary(T.subtract), "multiply": _binary(T.multiply),
    "divide": _binary(T.divide), "maximum": _binary(T.maximum), "minimum": _binary(T.minimum),
    "greater_than": _binary(T.greater_than), "less_than": _binary(T.less_than), "equal": _binary(T.equal),
    "greater_equal": _binary(T.greater_equal), "less_equal": _binary(T.less_equal),
    "not_equal": _binary(T.not_equal),
    "relu": _unary(F.relu), "tanh": _unary(T.tanh), "sigmoid": _unary(F.sigmoid), "hardswish": _unary(F.hardswish),
    "gelu": lambda i, a: F.gelu(_tensor(i[0]), a.get("approximate", False)),
    "exp": _unary(T.exp), "sqrt": _unary(T.sqrt), "rsqrt": _unary(T.rsqrt),
    "hardsigmoid": lambda i, a: F.hardsigmoid(_tensor(i[0]), a["slope"], a["offset"]),
    "softmax": lambda i, a: F.softmax(_tensor(i[0]), a["axis"]),
    "conv2d": _conv2d, "depthwise_conv2d": _conv2d,
    "pool2d": _pool2d,
    "batch_norm_": _batch_norm, "batch_norm": _batch_norm,
    "layer_norm": _layer_norm,
    "dropout": lambda i, a: [F.dropout(_tensor(i[0]), p=_scalar(i[2]), training=not a["is_test"], mode=a["mode"]),
                             None],
    "embedding": lambda i, a: F.embedding(_tensor(i[0]), _tensor(i[1]),
                                          padding_idx=None if a["padding_idx"] == -1 else a["padding_idx"],
                                          sparse=a["sparse"]),
    "flatten": lambda i, a: T.flatten(_tensor(i[0]), a["start_axis"], a["stop_axis"]),
    "reshape": lambda i, a: T.reshape(_tensor(i[0]), _ints(i[1])),
    "transpose": lambda i, a: T.transpose(_tensor(i[0]), a["perm"]),
    "stack": lambda i, a: T.stack([_tensor(v) for v in i[0]], a["axis"]),
    "concat": lambda i, a: T.concat([_tensor(v) for v in i[0]], _scalar(i[1])),
    "slice": _slice,
    "shape64": lambda i, a: T.cast(T.shape(_tensor(i[0])), "int64"),
    "shape": lambda i, a: T.cast(T.shape(_tensor(i[0])), "int32"),
    "scale": lambda i, a: T.scale(_tensor(i[0]), _scalar(i[1]), a["bias"], a["bias_after_scale"]),
    "mean": lambda i, a: T.mean(_tensor(i[0]), _ints(i[1]) or None, a["keepdim"]),
    "sum": lambda i, a: T.sum(_tensor(i[0]), _ints(i[1]) or None, a.get("dtype") or None, a["keepdim"]),
    "full_with_tensor": lambda i, a: T.full(_tensor(i[1]), _tensor(i[0]), a["dtype"]),
    "cast": lambda i, a: T.cast(_tensor(i[0]), a["dtype"]),
    "assign": _unary(T.assign),
    "rnn": _rnn,
}


_OWN_OPS = ("data", "fetch", "if", "while", "full", "full_int_array")  # pd_ops the reader builds itself


class _Reader:
    def __init__(self, where, api):
        self.where, self.api = where, api
        self.values, self.feeds, self.fetches = {}, [], {}

    def fail(self, msg):
        raise InferenceModelError(f"{self.api}: {self.where} {msg}")

    def check(self, ok, msg):
        if not ok:
            self.fail(msg)

    def document(self, data):
        try:
            doc = json.loads(bytes(data).decode("utf-8"))
        except (ValueError, RecursionError) as e:  # also UnicodeDecodeError
            self.fail(f"is not a PIR program: invalid JSON ({type(e).__name__}: {str(e)[:80]})")
        base = doc.get("base_code") if isinstance(doc, dict) else None
        self.check(isinstance(base, dict) and base.get("magic") == MAGIC, "is not a PIR program (no base_code magic "
                   f"'{MAGIC}')")
        self.check(base.get("version") in VERSIONS, f"is a PIR program of version {base.get('version')!r}; this "
                   f"paddlelite reads versions {list(VERSIONS)} (Paddle 3.3.1's)")
        regions = doc.get("program", {}).get("regions") if isinstance(doc.get("program"), dict) else None
        self.check(isinstance(regions, list) and len(regions) == 1, "has no program region")
        return doc

    def ops(self, region_or_block):
        blocks = region_or_block.get("blocks") if isinstance(region_or_block, dict) else None
        self.check(isinstance(blocks, list) and len(blocks) == 1 and isinstance(blocks[0], dict)
                   and isinstance(blocks[0].get("ops"), list), "has a region without exactly one block of ops")
        return blocks[0]

    def unknown_ops(self, ops, out):
        for op in ops:
            self.check(isinstance(op, dict) and isinstance(op.get("#"), str), f"has an op without a type: {op!r:.60}")
            name = op["#"]
            dialect, _, short = name.partition(".")
            if name != "p" and not (dialect == "0" and short in ("combine", "split")) and name != "2.yield" and not (
                    dialect == "1" and (short in CONVERTERS or short in _OWN_OPS)):
                out.add(name.replace("1.", "pd_op.", 1).replace("0.", "builtin.", 1))
            for region in op.get("regions", []) if isinstance(op.get("regions", []), list) else []:
                self.unknown_ops(self.ops(region).get("ops"), out)
        return out

    @staticmethod
    def attr(at):
        kind = at["#"].partition(".")[2]
        value = at["D"]
        if kind in _SCALAR_ATTRS:
            if not isinstance(value, _SCALAR_ATTRS[kind]) and not (_SCALAR_ATTRS[kind] is float and
                                                                 isinstance(value, (int, str))):
                raise TypeError(f"a {kind} attribute holds {value!r:.40}")
            return float(value) if _SCALAR_ATTRS[kind] is float else value
        if kind == "a_array":
            return [_Reader.attr(e) for e in value]
        if kind == "a_intarray":
            if not all(isinstance(e, int) for e in value):
                raise TypeError(f"an int array holds {value!r:.40}")
            return list(value)
        if kind == "a_place":
            return None
        raise TypeError(f"unknown attribute type {kind!r}")

    def attrs(self, op, where):
        raw = op.get("A", [])
        out = {}
        for a in raw if isinstance(raw, list) else ():
            self.check(isinstance(a, dict) and isinstance(a.get("N"), str) and isinstance(a.get("AT"), dict),
                       f"{where} has a malformed attribute {a!r:.60}")
            out[a["N"]] = self.attr(a["AT"])
        return out

    @staticmethod
    def out_types(op):
        outs = op.get("O", [])
        outs = [outs] if isinstance(outs, dict) else outs
        result = []
        for o in outs:
            tt = o.get("TT", {}) if isinstance(o, dict) else {}
            d = tt.get("D") if isinstance(tt, dict) else None
            dtype = _DTYPES.get(d[0].get("#", "").partition(".")[2]) if isinstance(d, list) and d and \
                isinstance(d[0], dict) else None
            shape = d[1] if isinstance(d, list) and len(d) > 1 and isinstance(d[1], list) else None
            result.append((o.get("%") if isinstance(o, dict) else None, dtype, shape))
        return result

    def value(self, ref, where):
        self.check(isinstance(ref, dict) and "%" in ref or ref is None or ref == {}, f"{where} has a malformed "
                   f"input {ref!r:.40}")
        if not ref or ref.get("%") in (None, 0):
            return None
        self.check(ref["%"] in self.values, f"{where} reads value {ref['%']!r:.20}, which no earlier op defines")
        return self.values[ref["%"]]

    def run_ops(self, ops, block_args=()):
        """Build `ops` into the current block; the values `2.yield` gives back (None without one)."""
        for k, op in enumerate(ops):
            name = op["#"]
            where = f"op {k} ('{name}')"
            attrs = self.attrs(op, where) if name != "p" else {}
            inputs = [self.value(r, where) for r in op.get("I", [])] if isinstance(op.get("I", []), list) else \
                self.fail(f"{where} has malformed inputs")
            outs = self.out_types(op)
            if name == "2.yield":
                return inputs
            if name == "p":
                results = [self.parameter(op, outs, where)]
            elif name == "1.data":
                var = static_data(attrs["name"], attrs["shape"], attrs["dtype"])
                self.feeds.append(var.name)
                results = [var]
            elif name == "1.fetch":
                self.check(len(inputs) == 1 and inputs[0] is not None and not isinstance(inputs[0], list),
                           f"{where} fetches no tensor")
                col = attrs.get("col", len(self.fetches))
                self.check(type(col) is int and col not in self.fetches, f"{where} has the invalid column {col!r:.20}")
                self.fetches[col] = _tensor(inputs[0]).name
                results = [None]
            elif name == "0.combine":
                results = [inputs]
            elif name == "0.split":
                self.check(isinstance(inputs[0], list) and len(inputs[0]) == len(outs), f"{where} splits no list")
                results = list(inputs[0])
            elif name == "1.full_int_array":
                results = [_Const(attrs["value"], [len(attrs["value"])], attrs["dtype"])]
            elif name == "1.full":
                results = [_Const(attrs["value"], attrs["shape"], attrs["dtype"])]
            elif name == "1.if":
                results = self.if_op(op, inputs, where)
            elif name == "1.while":
                results = self.while_op(op, inputs, where)
            else:
                results = CONVERTERS[name.partition(".")[2]](inputs, attrs)
                results = results if isinstance(results, (list, tuple)) else [results]
            self.check(len(results) == len(outs), f"{where} defines {len(outs)} values; paddlelite's op gives "
                       f"{len(results)}")
            for (vid, _, _), result in zip(outs, results):
                self.check(isinstance(vid, int) and vid not in self.values, f"{where} defines value {vid!r:.20} "
                           "twice (or without an id)")
                self.values[vid] = result
        return None

    def parameter(self, op, outs, where):
        a, oa = op.get("A"), op.get("OA")
        self.check(isinstance(a, list) and len(a) == 4 and isinstance(a[3], str) and a[3] and len(outs) == 1
                   and outs[0][1] is not None and isinstance(outs[0][2], list) and all(isinstance(d, int) and d >= 0
                                                                                       for d in outs[0][2]),
                   f"{where} is a malformed parameter")
        # its output attributes: persistable (a value the parameter file holds), stop_gradient, trainable
        persistable, stop_gradient, trainable = (bool(f) for f in oa) if isinstance(oa, list) and len(oa) == 3 else \
            (True, False, True)
        block = self.program.global_block()
        self.check(not block.has_var(a[3]), f"{where} declares parameter '{a[3]}' twice")
        if trainable and persistable:
            var = block.create_parameter(a[3], outs[0][2], outs[0][1], trainable=True)
        else:
            var = block.create_var(a[3], outs[0][2], outs[0][1], persistable=persistable)
        var.stop_gradient = stop_gradient
        return var

    def region_fn(self, op, index, where, block_args=()):
        regions = op.get("regions")
        self.check(isinstance(regions, list) and index < len(regions), f"{where} lacks region {index}")
        block = self.ops(regions[index])

        def build(*args):
            params = block.get("args", [])
            self.check(isinstance(params, list) and len(params) == len(args), f"{where} has a block of "
                       f"{len(params)} arguments for {len(args)} values")
            for p, v in zip(params, args):
                self.check(isinstance(p, dict) and isinstance(p.get("#"), int) and p["#"] < 0,
                           f"{where} has a malformed block argument")
                self.values[p["#"]] = v
            out = self.run_ops(block["ops"])
            self.check(out is not None, f"{where} has a block without a yield")
            return [_tensor(v) for v in out]
        return build

    def if_op(self, op, inputs, where):
        true_fn, false_fn = self.region_fn(op, 0, where), self.region_fn(op, 1, where)
        out = cond(_tensor(inputs[0]), true_fn, false_fn)
        return list(out) if isinstance(out, (list, tuple)) else [out]

    def while_op(self, op, inputs, where):
        """PIR's while computes its condition at the end of its body: the condition is carried as the first loop
        variable."""
        body = self.region_fn(op, 0, where)
        loop_vars = [_tensor(v) for v in inputs]
        out = while_loop(lambda c, *vs: c, lambda c, *vs: body(*vs), loop_vars)
        return list(out)[1:]


def is_pir_program(head):
    """Whether a model file starting with `head` is PIR's JSON (its first key is base_code)."""
    return head.lstrip().startswith(b'{"base_code":')


def read_pir_program(data, where, api):
    """(Program, feed names, fetch names) of a PIR program's bytes."""
    reader = _Reader(where, api)
    doc = reader.document(data)
    top = reader.ops(doc["program"]["regions"][0])
    unknown = sorted(reader.unknown_ops(top["ops"], set()))
    if unknown:
        raise InferenceModelError(f"{api}: {where} uses {len(unknown)} op type{'s' if len(unknown) > 1 else ''} "
                                  f"paddlelite has no converter for: {', '.join(unknown)}")
    reader.program = Program()
    try:
        with static_guard(True), program_guard(reader.program, Program()):
            reader.run_ops(top["ops"])
    except InferenceModelError:
        raise
    except Exception as e:  # noqa: BLE001 -- a malformed op or attribute, or an op's own checks refusing it
        raise InferenceModelError(f"{api}: {where} holds a PIR program paddlelite cannot rebuild "
                                  f"({type(e).__name__}: {str(e)[:200]})") from None
    reader.check(sorted(reader.fetches) == list(range(len(reader.fetches))), "numbers its fetch ops "
                 f"{sorted(reader.fetches)}, not 0..n-1")
    return reader.program, reader.feeds, [reader.fetches[i] for i in range(len(reader.fetches))]


install_program_reader(is_pir_program, read_pir_program, ".json")
