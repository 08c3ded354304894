"""Paddle's `framework.proto` (package `paddle.framework.proto`, proto2): the legacy IR's ProgramDesc that `.pdmodel`
files hold, and the TensorDesc each tensor of a `.pdiparams` stream starts with.

The schema is written out below from Paddle's published format -- message by message, field numbers, labels, types
and defaults as Paddle 3.3.1 declares them (tests/test_paddle_formats.py compares it with the descriptors of the
installed Paddle's framework_pb2 when it is importable) -- and compiled at first use by the `protobuf` runtime into
message classes of a private descriptor pool (so it never meets the pool of a Paddle imported in the same process).
The enums' numbers are plain data here, for code that needs them without protobuf (var_type.py, the dtype tables).
"""
import functools
import types

# VarType.Type: the element types, then the kinds of variable
DTYPE_NUMBERS = {"bool": 0, "int16": 1, "int32": 2, "int64": 3, "float16": 4, "float32": 5, "float64": 6, "uint8": 20,
                 "int8": 21, "bfloat16": 22, "complex64": 23, "complex128": 24, "float8_e4m3fn": 32,
                 "float8_e5m2": 33}
_OTHER_ELEMENT_TYPES = {"SIZE_T": 19, "UINT16": 36, "UINT32": 37, "UINT64": 38}
KIND_NUMBERS = {"DENSE_TENSOR": 7, "SELECTED_ROWS": 8, "FEED_MINIBATCH": 9, "FETCH_LIST": 10, "STEP_SCOPES": 11,
                "LOD_RANK_TABLE": 12, "DENSE_TENSOR_ARRAY": 13, "PLACE_LIST": 14, "READER": 15, "RAW": 17, "TUPLE": 18,
                "STRING": 25, "STRINGS": 26, "VOCAB": 27, "FEED_LIST": 28, "PSTRING": 29, "SPARSE_COO": 30,
                "SPARSE_CSR": 31}
_DTYPE_ENUM_NAMES = {"bool": "BOOL", "int16": "INT16", "int32": "INT32", "int64": "INT64", "float16": "FP16",
                     "float32": "FP32", "float64": "FP64", "uint8": "UINT8", "int8": "INT8", "bfloat16": "BF16",
                     "complex64": "COMPLEX64", "complex128": "COMPLEX128", "float8_e4m3fn": "FP8_E4M3FN",
                     "float8_e5m2": "FP8_E5M2"}
VAR_TYPE_ENUM = {**{_DTYPE_ENUM_NAMES[n]: v for n, v in DTYPE_NUMBERS.items()}, **_OTHER_ELEMENT_TYPES, **KIND_NUMBERS}
DTYPE_BY_NUMBER = {v: n for n, v in DTYPE_NUMBERS.items()}

# AttrType: how an op attribute's value is stored (which field of OpDesc.Attr holds it)
ATTR_TYPES = {"INT": 0, "FLOAT": 1, "STRING": 2, "INTS": 3, "FLOATS": 4, "STRINGS": 5, "BOOLEAN": 6, "BOOLEANS": 7,
              "BLOCK": 8, "LONG": 9, "BLOCKS": 10, "LONGS": 11, "FLOAT64S": 12, "VAR": 13, "VARS": 14, "FLOAT64": 15,
              "SCALAR": 16, "SCALARS": 17}
ATTR_TYPE_NAMES = {v: n for n, v in ATTR_TYPES.items()}
SCALAR_TYPES = {"BOOLEAN": 1, "LONG": 2, "FLOAT64": 3, "COMPLEX128": 4}  # Scalar.Type

# message -> its fields (name, number, label, type: a scalar type, an enum or a message, default or None), and the
# messages and enums nested in it; names resolve as protobuf resolves them (innermost scope first)
_R, _O, _REP = "required", "optional", "repeated"
_SCHEMA = {
    "Version": [("version", 1, _O, "int64", "0")],
    "Complex": [("r", 1, _R, "double", None), ("i", 2, _R, "double", None)],
    "Scalar": ({"Type": SCALAR_TYPES},
               [("type", 1, _R, "Type", None), ("b", 2, _O, "bool", None), ("i", 3, _O, "int64", None),
                ("r", 4, _O, "double", None), ("c", 5, _O, "Complex", None)]),
    "OpDesc": ({"Attr": [("name", 1, _R, "string", None), ("type", 2, _R, "AttrType", None),
                         ("i", 3, _O, "int32", None), ("f", 4, _O, "float", None), ("s", 5, _O, "string", None),
                         ("ints", 6, _REP, "int32", None), ("floats", 7, _REP, "float", None),
                         ("strings", 8, _REP, "string", None), ("b", 10, _O, "bool", None),
                         ("bools", 11, _REP, "bool", None), ("block_idx", 12, _O, "int32", None),
                         ("l", 13, _O, "int64", None), ("blocks_idx", 14, _REP, "int32", None),
                         ("longs", 15, _REP, "int64", None), ("float64s", 16, _REP, "double", None),
                         ("var_name", 17, _O, "string", None), ("vars_name", 18, _REP, "string", None),
                         ("float64", 19, _O, "double", None), ("scalar", 20, _O, "Scalar", None),
                         ("scalars", 21, _REP, "Scalar", None)],
                "Var": [("parameter", 1, _R, "string", None), ("arguments", 2, _REP, "string", None)]},
               [("type", 3, _R, "string", None), ("inputs", 1, _REP, "Var", None), ("outputs", 2, _REP, "Var", None),
                ("attrs", 4, _REP, "Attr", None), ("is_target", 5, _O, "bool", "false")]),
    "VarType": ({"Type": VAR_TYPE_ENUM,
                 "TensorDesc": [("data_type", 1, _R, "Type", None), ("dims", 2, _REP, "int64", None)],
                 "DenseTensorDesc": [("tensor", 1, _R, "TensorDesc", None), ("legacy_lod_level", 2, _O, "int32", "0")],
                 "DenseTensorArrayDesc": [("tensor", 1, _R, "TensorDesc", None),
                                          ("legacy_lod_level", 2, _O, "int32", "0")],
                 "ReaderDesc": [("dense_tensor", 1, _REP, "DenseTensorDesc", None)],
                 "Tuple": [("element_type", 1, _REP, "Type", None)]},
                [("type", 1, _R, "Type", None), ("selected_rows", 2, _O, "TensorDesc", None),
                 ("dense_tensor", 3, _O, "DenseTensorDesc", None), ("tensor_array", 4, _O, "DenseTensorArrayDesc", None),
                 ("reader", 5, _O, "ReaderDesc", None), ("tuple", 7, _O, "Tuple", None),
                 ("string", 8, _O, "TensorDesc", None), ("strings", 9, _O, "TensorDesc", None),
                 ("vocab", 10, _O, "TensorDesc", None), ("sparse_coo", 11, _O, "TensorDesc", None),
                 ("sparse_csr", 12, _O, "TensorDesc", None)]),
    "VarDesc": ({"Attr": [("name", 1, _R, "string", None), ("type", 2, _R, "AttrType", None),
                          ("i", 3, _O, "int32", None), ("s", 4, _O, "string", None), ("ints", 5, _REP, "int32", None)]},
                [("name", 1, _R, "string", None), ("type", 2, _R, "VarType", None),
                 ("persistable", 3, _O, "bool", "false"), ("need_check_feed", 4, _O, "bool", "false"),
                 ("is_parameter", 5, _O, "bool", "false"), ("stop_gradient", 6, _O, "bool", "false"),
                 ("attrs", 7, _REP, "Attr", None)]),
    "BlockDesc": [("idx", 1, _R, "int32", None), ("parent_idx", 2, _R, "int32", None), ("vars", 3, _REP, "VarDesc", None),
                  ("ops", 4, _REP, "OpDesc", None), ("forward_block_idx", 5, _O, "int32", "-1")],
    "OpVersion": [("version", 1, _R, "int32", None)],
    "OpVersionMap": ({"OpVersionPair": [("op_name", 1, _R, "string", None), ("op_version", 2, _R, "OpVersion", None)]},
                     [("pair", 1, _REP, "OpVersionPair", None)]),
    "ProgramDesc": [("blocks", 1, _REP, "BlockDesc", None), ("version", 4, _O, "Version", None),
                    ("op_version_map", 5, _O, "OpVersionMap", None)],
}
_TOP_ENUMS = {"AttrType": ATTR_TYPES}
PACKAGE = "paddle.framework.proto"


def _declared(scope, name, spec, enums, message_names):
    """Collect the full names of the message `name` (in `scope`) and of the messages and enums nested in it."""
    full = f"{scope}.{name}"
    message_names.add(full)
    for n, s in (spec[0] if isinstance(spec, tuple) else {}).items():
        if isinstance(s, dict):
            enums.add(f"{full}.{n}")
        else:
            _declared(full, n, s, enums, message_names)


def _resolve(scope, type_name, known):
    """protobuf's scoping: the type `type_name` as seen from `scope`, the innermost enclosing scope declaring it."""
    parts = scope.split(".")
    while parts:
        candidate = ".".join(parts + [type_name])
        if candidate in known:
            return candidate
        parts.pop()
    raise KeyError(type_name)


def _add_enum(target, name, values):
    e = target.add(name=name)
    for n, v in values.items():
        e.value.add(name=n, number=v)


def _add_message(target, scope, name, spec, enums, message_names):
    from google.protobuf import descriptor_pb2
    F = descriptor_pb2.FieldDescriptorProto
    labels = {_R: F.LABEL_REQUIRED, _O: F.LABEL_OPTIONAL, _REP: F.LABEL_REPEATED}
    scalars = {"int32": F.TYPE_INT32, "int64": F.TYPE_INT64, "float": F.TYPE_FLOAT, "double": F.TYPE_DOUBLE,
               "bool": F.TYPE_BOOL, "string": F.TYPE_STRING}
    nested, fields = spec if isinstance(spec, tuple) else ({}, spec)
    m = target.add(name=name)
    full = f"{scope}.{name}"
    for n, s in nested.items():
        if isinstance(s, dict):
            _add_enum(m.enum_type, n, s)
        else:
            _add_message(m.nested_type, full, n, s, enums, message_names)
    for fname, number, label, ftype, default in fields:
        f = m.field.add(name=fname, number=number, label=labels[label])
        if ftype in scalars:
            f.type = scalars[ftype]
        else:
            f.type_name = _resolve(full, ftype, enums | message_names)
            f.type = F.TYPE_ENUM if f.type_name in enums else F.TYPE_MESSAGE
        if default is not None:
            f.default_value = default


def file_descriptor_proto():
    """The schema as a FileDescriptorProto (what protoc would make of Paddle's framework.proto)."""
    from google.protobuf import descriptor_pb2
    enums, message_names = {f".{PACKAGE}.{n}" for n in _TOP_ENUMS}, set()
    for name, spec in _SCHEMA.items():
        _declared(f".{PACKAGE}", name, spec, enums, message_names)
    fdp = descriptor_pb2.FileDescriptorProto(name="paddlelite/framework.proto", package=PACKAGE, syntax="proto2")
    for name, values in _TOP_ENUMS.items():
        _add_enum(fdp.enum_type, name, values)
    for name, spec in _SCHEMA.items():
        _add_message(fdp.message_type, f".{PACKAGE}", name, spec, enums, message_names)
    return fdp


@functools.cache
def messages():
    """The schema's message classes (ProgramDesc, BlockDesc, VarDesc, OpDesc, VarType, ...; nested ones as attributes
    of their parent: VarType.TensorDesc, OpDesc.Attr), compiled once by the protobuf runtime."""
    try:
        from google.protobuf import descriptor_pool, message_factory
    except ImportError:
        raise ImportError("Paddle's model files (.pdmodel, .pdiparams) are protobuf messages: install the protobuf "
                          "package (pip install protobuf)") from None
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file_descriptor_proto())
    return types.SimpleNamespace(**{name: message_factory.GetMessageClass(pool.FindMessageTypeByName(
        f"{PACKAGE}.{name}")) for name in _SCHEMA})
