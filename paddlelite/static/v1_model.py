"""paddlelite's first inference-model format, read where such files exist (it is no longer written):
`<prefix>.pdmodel` a JSON document -- the program's blocks, variables and ops with plain-data attrs, the feed and
fetch names, the SHA-256 of its canonical form -- and `<prefix>.pdiparams` a pickle-free checkpoint
(framework/io.py). The document is checked entry by entry and rebuilt through the Block API."""
import hashlib
import json

from ..framework import dtype as _dtype
from ..ops.legacy import REGISTRY_TYPES
from ..ops.registry import all_ops
from .callables import NO_FUNCTION
from .framework import Block, Operator, Program
from .program_desc import InferenceModelError

MODEL_FORMAT = "paddlelite-inference-program"
MODEL_VERSION = 1


def is_v1_model(head):
    """Whether a model file starting with `head` is a JSON document (this format)."""
    return head[:1] == b"{"


def _attr_from_json(value, program, where, fail):
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, list):
        return [_attr_from_json(v, program, where, fail) for v in value]
    if isinstance(value, dict) and len(value) == 1:
        (tag, body), = value.items()
        if tag == "__tuple__" and isinstance(body, list):
            return tuple(_attr_from_json(v, program, where, fail) for v in body)
        if tag == "__float__" and isinstance(body, str):
            try:
                return float.fromhex(body)
            except ValueError:
                pass
        if tag == "__block__" and isinstance(body, int) and 0 < body < len(program.blocks):
            return program.blocks[body]
    fail(f"{where} has an invalid value {value!r:.80}")


def _canonical_sha(doc):
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _check(cond, fail, msg):
    if not cond:
        fail(msg)


def _doc_to_program(doc, fail):
    known = all_ops()
    known.update({legacy: known[ours] for legacy, ours in REGISTRY_TYPES.items() if ours in known})
    blocks = doc.get("blocks") if isinstance(doc, dict) else None
    _check(isinstance(blocks, list) and blocks, fail, "has no 'blocks' list")
    program = Program()
    for i, bd in enumerate(blocks):
        _check(isinstance(bd, dict) and bd.get("idx") == i, fail, f"block {i} is malformed")
        parent = bd.get("parent_idx")
        _check(isinstance(parent, int) and (parent == -1 if i == 0 else 0 <= parent < i), fail,
               f"block {i} has an invalid parent_idx {parent!r}")
        if i:
            program.blocks.append(Block(program, i, parent))
    for i, bd in enumerate(blocks):
        block = program.blocks[i]
        _check(isinstance(bd.get("vars"), list) and isinstance(bd.get("ops"), list), fail,
               f"block {i} needs 'vars' and 'ops' lists")
        for vd in bd["vars"]:
            _check(isinstance(vd, dict) and isinstance(vd.get("name"), str) and vd["name"], fail,
                   f"block {i} has a variable without a name: {vd!r:.80}")
            name = vd["name"]
            _check(name not in block.vars, fail, f"block {i} declares variable '{name}' twice")
            try:
                shape = vd["shape"]
                dtype = _dtype.convert_dtype(vd["dtype"])
                flags = {k: vd[k] for k in ("persistable", "stop_gradient", "is_data", "parameter", "trainable")}
                vtype = vd["type"]
                if not isinstance(shape, list) or not all(isinstance(f, bool) for f in flags.values()) \
                        or not isinstance(vtype, str):
                    raise TypeError("wrong field types")
                if flags["parameter"]:
                    v = block.create_parameter(name, shape, dtype, trainable=flags["trainable"])
                else:
                    v = block.create_var(name=name, shape=shape, dtype=dtype, persistable=flags["persistable"],
                                         stop_gradient=flags["stop_gradient"], type=vtype,
                                         is_data=flags["is_data"])
                v.stop_gradient = flags["stop_gradient"]
            except (KeyError, TypeError, ValueError) as e:
                fail(f"variable '{name}' of block {i} is malformed ({type(e).__name__}: {e})")
    for i, bd in enumerate(blocks):
        block = program.blocks[i]
        for k, od in enumerate(bd["ops"]):
            where = f"op {k} of block {i}"
            _check(isinstance(od, dict) and isinstance(od.get("type"), str), fail, f"{where} has no type")
            t = od["type"]
            _check(t in known, fail, f"{where} has unknown op type '{t}' (not registered in paddlelite)")
            slots = {}
            for key in ("inputs", "outputs"):
                m = od.get(key)
                _check(isinstance(m, dict) and all(isinstance(s, str) and isinstance(ns, list)
                                                   and all(isinstance(n, str) for n in ns)
                                                   for s, ns in m.items()),
                       fail, f"{where} ('{t}') has malformed {key}")
                for ns in m.values():
                    for n in ns:
                        _check(block._lookup(n) is not None, fail,
                               f"{where} ('{t}') names variable '{n}', which no block declares")
                slots[key] = m
            _check(isinstance(od.get("attrs"), dict), fail, f"{where} ('{t}') has no attrs object")
            attrs = {a: _attr_from_json(v, program, f"attribute '{a}' of {where} ('{t}')", fail)
                     for a, v in od["attrs"].items()}
            for a in known[t].callable_attrs:
                fn_id = attrs.get(a, NO_FUNCTION)
                _check(type(fn_id) is int and fn_id == NO_FUNCTION, fail,
                       f"{where} ('{t}') calls Python function {fn_id!r:.40} (attribute '{a}') of the process that "
                       "built it; a program read from a file cannot choose Python code to run")
            try:
                if known[t].block_runner is not None:  # a structural op: built as it was saved, no shape inference
                    block._append_operator(Operator(block, t, slots["inputs"], slots["outputs"], attrs))
                else:
                    block.append_op(type=t, inputs=slots["inputs"], outputs=slots["outputs"], attrs=attrs)
            except Exception as e:  # noqa: BLE001 -- the op's own checks and shape rule refused what the file says
                fail(f"{where} ('{t}') cannot be built from its slots and attrs ({type(e).__name__}: {e})")
    return program


def parse_model(raw, where, api):
    """(program, feed names, fetch names) of a .pdmodel document; `where` names its source in errors."""
    def fail(msg):
        raise InferenceModelError(f"{api}: {where} {msg}")

    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError as e:  # also UnicodeDecodeError, and an int of more digits than Python converts
        fail(f"is not valid JSON; it is truncated or not a paddlelite inference model ({e})")
    except RecursionError:
        fail("nests its JSON too deeply to be a paddlelite inference model")
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        fail(f"is not a paddlelite inference model (no '\"format\": \"{MODEL_FORMAT}\"')")
    if doc.get("version") != MODEL_VERSION:
        fail(f"has format version {doc.get('version')!r}; this paddlelite reads version {MODEL_VERSION}")
    body = doc.get("program")
    _check(isinstance(body, dict), fail, "has no 'program' object")
    if _canonical_sha(body) != doc.get("sha256"):
        fail("does not match its recorded SHA-256; the file was modified or corrupted")
    program = _doc_to_program(body, fail)
    names = {}
    for key in ("feed", "fetch"):
        ns = body.get(key)
        _check(isinstance(ns, list) and all(isinstance(n, str) for n in ns), fail, f"has no valid '{key}' list")
        for n in ns:
            _check(program.global_block()._lookup(n) is not None, fail,
                   f"names {key} variable '{n}', which the program does not declare")
        names[key] = ns
    return program, names["feed"], names["fetch"]
