"""save_inference_model / load_inference_model (paddle.static.io).

`<prefix>.pdmodel` is a JSON document: the program pruned to what the fetch variables need from the
feed variables (a `clone(for_test=True)`, so no backward/optimizer ops and test-mode attrs), its blocks'
variables and ops with plain-data attrs, the feed and fetch names, and the SHA-256 of its canonical
form. `<prefix>.pdiparams` holds the persistable values in paddlelite's pickle-free checkpoint format
(framework/io.py). Loading checks both files and rebuilds the Program through the Block API.
"""
import hashlib
import json
import math
import os
import tempfile

import numpy as np

from ..device.place import Place
from ..framework import dtype as _dtype
from ..framework.paddle_pickle import BFLOAT16_BITS
from ..framework.io import (CheckpointError, atomic_file, install_format, open_regular, read_archive, write_archive,
                            write_file)
from ..framework.tensor import wrap_array
from ..ops.legacy import LEGACY_TYPES
from ..ops.registry import all_ops
from .callables import NO_FUNCTION
from .executor import Executor, LoDTensor, global_scope, op_io
from .framework import Block, Operator, Parameter, Program, Variable, default_main_program

__all__ = ["save_inference_model", "load_inference_model", "normalize_program", "InferenceModelError",
           "serialize_program", "deserialize_program", "serialize_persistables", "deserialize_persistables",
           "save_to_file", "load_from_file"]

MODEL_FORMAT = "paddlelite-inference-program"
MODEL_VERSION = 1
_PICKLE_MAGIC = (b"\x80", b"(", b"]", b"}", b"c")


class InferenceModelError(CheckpointError):
    """A .pdmodel/.pdiparams pair that cannot be loaded (truncated, edited, not ours, inconsistent)."""


def _var_list(value, what, api):
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not items:
        raise ValueError(f"{api}: {what} must not be empty")
    for v in items:
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: {what} must be a Variable or a list of Variables, received "
                            f"{type(v).__name__}")
    return items


# ---- pruning --------------------------------------------------------------------------------------
def normalize_program(program, feed_vars, fetch_vars):
    """The inference form of `program`: a test-mode clone holding only the ops the fetch variables
    need, given the feed variables, and only the blocks and variables those ops use."""
    api = "paddle.static.normalize_program"
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a Program, received {type(program).__name__}")
    feed_names = [v.name for v in _var_list(feed_vars, "feed_vars", api)]
    fetch_names = [v.name for v in _var_list(fetch_vars, "fetch_vars", api)]
    test = program.clone(for_test=True)
    block = test.global_block()
    for n in feed_names + fetch_names:
        if block._lookup(n) is None:
            raise ValueError(f"{api}: variable '{n}' is not in the program")
    fed = set(feed_names)
    needed = set(fetch_names) - fed
    kept = []
    for op in reversed(block.ops):
        reads, writes = op_io(op)
        if any(n in needed for n in writes):
            kept.append(op)
            needed.update(n for n in reads if n not in fed)
    kept.reverse()
    produced = {n for op in kept for n in op_io(op)[1]}
    for n in sorted(needed - produced):
        v = block._lookup(n)
        if v is None or not v.persistable:
            raise ValueError(f"{api}: the fetch variables need variable '{n}', which is neither in feed_vars, "
                             "a persistable variable, nor computed from them")
    # keep the blocks the kept ops reach (through sub_block attrs), renumbered in their old order
    reach, stack = {0}, list(kept)
    while stack:
        op = stack.pop()
        for v in op._attrs.values():
            if isinstance(v, Block) and v.idx not in reach:
                reach.add(v.idx)
                stack.extend(v.ops)
    order = sorted(reach)
    new_idx = {old: i for i, old in enumerate(order)}
    out = Program()
    out.random_seed = program.random_seed
    out.blocks = []
    for old in order:
        ob = test.blocks[old]
        nb = Block(out, new_idx[old], new_idx.get(ob.parent_idx, -1))
        out.blocks.append(nb)
    used = set(feed_names) | set(fetch_names)
    for op in kept:
        r, w = op_io(op)
        used.update(r)
        used.update(w)
    for old, nb in zip(order, out.blocks):
        ob = test.blocks[old]
        ops = kept if old == 0 else ob.ops
        for name, v in ob.vars.items():
            if old == 0 and name not in used:
                continue
            nv = object.__new__(type(v))
            nv.__dict__.update(v.__dict__)
            nv.block, nv.op = nb, None
            nb.vars[name] = nv
        for op in ops:
            attrs = {k: (out.blocks[new_idx[v.idx]] if isinstance(v, Block) else v) for k, v in op._attrs.items()}
            nop = Operator(nb, op.type, op._inputs, op._outputs, attrs)
            nop._where = op._where
            nb._append_operator(nop)
    return out


# ---- attrs <-> JSON --------------------------------------------------------------------------------
def _attr_to_json(value, where):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else {"__float__": value.hex()}
    if isinstance(value, Block):
        return {"__block__": value.idx}
    if isinstance(value, list):
        return [_attr_to_json(v, where) for v in value]
    if isinstance(value, tuple):
        return {"__tuple__": [_attr_to_json(v, where) for v in value]}
    raise TypeError(f"paddle.static.save_inference_model: {where} is a {type(value).__name__}, which cannot be "
                    "saved; op attributes must be None, bool, int, float, str, a sub-block, or lists/tuples of "
                    "those")


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


# ---- program <-> JSON ------------------------------------------------------------------------------
def _program_to_doc(program):
    blocks = []
    for b in program.blocks:
        vars_ = []
        for v in b.vars.values():
            vars_.append({"name": v.name, "shape": list(v._shape), "dtype": v.dtype.name, "type": v.type,
                          "persistable": v.persistable, "stop_gradient": v.stop_gradient,
                          "is_data": bool(v.is_data), "parameter": isinstance(v, Parameter),
                          "trainable": bool(v.trainable)})
        ops = []
        for i, op in enumerate(b.ops):
            attrs = {k: _attr_to_json(v, f"attribute '{k}' of op '{op.type}' (block {b.idx}, op {i})")
                     for k, v in op._attrs.items()}
            ops.append({"type": op.type, "inputs": op._inputs, "outputs": op._outputs, "attrs": attrs})
        blocks.append({"idx": b.idx, "parent_idx": b.parent_idx, "vars": vars_, "ops": ops})
    return {"blocks": blocks}


def _canonical_sha(doc):
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _check(cond, fail, msg):
    if not cond:
        fail(msg)


def _doc_to_program(doc, fail):
    known = all_ops()
    known.update({legacy: known[ours] for ours, legacy in LEGACY_TYPES.items() if ours in known})
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


# ---- save / load -----------------------------------------------------------------------------------
def _check_prefix(path_prefix, api, arg="path_prefix", example="./infer/model"):
    if not isinstance(path_prefix, (str, os.PathLike)):
        raise TypeError(f"{api}: {arg} must be a str, received {type(path_prefix).__name__}")
    path_prefix = os.fspath(path_prefix)
    if not path_prefix or os.path.isdir(path_prefix) or path_prefix.endswith(("/", os.sep)):
        raise ValueError(f"{api}: {arg} '{path_prefix}' should be a file prefix such as "
                         f"'{example}', not a directory")
    return path_prefix


def _program_arg(program, api):
    if program is None:
        program = default_main_program()
    program = getattr(program, "_program", program)  # a CompiledProgram
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a Program, received {type(program).__name__}")
    return program


def _pruned(program, feed_vars, fetch_vars, api):
    """Check the arguments; the part of `program` that computes fetch_vars from feed_vars."""
    feed_vars = _var_list(feed_vars, "feed_vars", api)
    fetch_vars = _var_list(fetch_vars, "fetch_vars", api)
    program = _program_arg(program, api)
    for v in feed_vars + fetch_vars:  # matched by name, like Paddle: vars of the program a clone came from work
        if program.global_block()._lookup(v.name) is None:
            raise ValueError(f"{api}: variable '{v.name}' is not in the program being saved")
    return normalize_program(program, feed_vars, fetch_vars), feed_vars, fetch_vars


def _model_bytes(pruned, feed_vars, fetch_vars, api):
    """The .pdmodel document of a pruned program."""
    body = _program_to_doc(pruned)
    body["feed"] = [v.name for v in feed_vars]
    body["fetch"] = [v.name for v in fetch_vars]
    doc = {"format": MODEL_FORMAT, "version": MODEL_VERSION, "sha256": _canonical_sha(body), "program": body}
    try:
        return json.dumps(doc, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise TypeError(f"{api}: the program cannot be written as JSON ({e})") from None


def _persistable_values(program, api):
    """name -> array of the program's persistable dense variables, read from the global scope."""
    scope = global_scope()
    params = {}
    for v in program.list_vars():
        if v.persistable and v.type == "DENSE_TENSOR":
            slot = scope.find_var(v.name)
            if slot is None or not slot.is_initialized():
                raise RuntimeError(f"{api}: persistable variable '{v.name}' has no value in the scope; run the "
                                   "startup program (and train) with this executor before saving")
            params[v.name] = np.array(slot.get_tensor())
    return params


def _check_executor(executor, api):
    if not isinstance(executor, Executor):
        raise TypeError(f"{api}: executor must be a paddle.static.Executor, received {type(executor).__name__}")


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, program=None, **kwargs):
    """Save the part of `program` (default: the main program) that computes `fetch_vars` from
    `feed_vars` to `<path_prefix>.pdmodel`, and the persistable values it reads (from the global scope,
    where `executor` ran the startup program) to `<path_prefix>.pdiparams`."""
    api = "paddle.static.save_inference_model"
    path_prefix = _check_prefix(path_prefix, api)
    feed_vars = _var_list(feed_vars, "feed_vars", api)
    fetch_vars = _var_list(fetch_vars, "fetch_vars", api)
    _check_executor(executor, api)
    pruned, feed_vars, fetch_vars = _pruned(kwargs.get("main_program", program), feed_vars, fetch_vars, api)
    text = _model_bytes(pruned, feed_vars, fetch_vars, api)
    params = _persistable_values(pruned, api)
    d = os.path.dirname(path_prefix)
    if d:
        os.makedirs(d, exist_ok=True)
    write_archive(params, path_prefix + ".pdiparams", api)
    with atomic_file(path_prefix + ".pdmodel") as f:
        f.write(text)


def _read_model(path, api):
    path, f = open_regular(path, api)
    with f:
        return _parse_model(f.read(), f"'{path}'", api)


def _parse_model(raw, where, api):
    """(program, feed names, fetch names) of a .pdmodel document; `where` names its source in errors."""
    def fail(msg):
        raise InferenceModelError(f"{api}: {where} {msg}")

    if raw[:1] in _PICKLE_MAGIC:
        fail("looks like a pickle file; paddlelite never unpickles (it can run arbitrary code)")
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


def load_inference_model(path_prefix, executor, **kwargs):
    """Load what save_inference_model wrote: returns [inference_program, feed_target_names,
    fetch_targets]; the parameters go into the global scope (the one `executor.run` uses by default)."""
    api = "paddle.static.load_inference_model"
    path_prefix = _check_prefix(path_prefix, api)
    _check_executor(executor, api)
    model_path = path_prefix + ".pdmodel"
    params_path = path_prefix + ".pdiparams"
    program, feed_names, fetch_names = _read_model(model_path, api)
    values = read_archive(params_path, api, return_numpy=True)
    _load_persistables(program, values, executor, f"'{params_path}'", f"'{model_path}'", api)
    block = program.global_block()
    return [program, list(feed_names), [block.var(n) for n in fetch_names]]


def _load_persistables(program, values, executor, source, model, api):
    """Check that `values` holds exactly the program's persistables with their declared dtypes and shapes,
    then put them into the global scope."""
    if not isinstance(values, dict) or not all(isinstance(k, str) and isinstance(a, np.ndarray)
                                               for k, a in values.items()):
        raise InferenceModelError(f"{api}: {source} does not hold a name -> array mapping")
    wanted = {v.name: v for v in program.list_vars() if v.persistable and v.type == "DENSE_TENSOR"}
    missing = sorted(set(wanted) - set(values))
    extra = sorted(set(values) - set(wanted))
    if missing or extra:
        raise InferenceModelError(f"{api}: {source} does not match {model}: missing {missing}, unexpected {extra}")
    for name, arr in values.items():
        v = wanted[name]
        shape_ok = len(v._shape) == arr.ndim and all(d in (-1, s) for d, s in zip(v._shape, arr.shape))
        if arr.dtype != v.dtype.np or not shape_ok:
            raise InferenceModelError(f"{api}: {source} holds '{name}' as {arr.dtype}{list(arr.shape)}, but "
                                      f"{model} declares {v.dtype.name}{list(v.shape)}")
    scope = global_scope()
    xp = executor.place.xp
    for name, arr in values.items():
        scope._values[name] = arr if xp is np else xp.asarray(arr)


# ---- in-memory models: serialize_* / deserialize_*, save_to_file / load_from_file -----------------
def serialize_program(feed_vars, fetch_vars, **kwargs):
    """The bytes of the .pdmodel document save_inference_model writes (the program pruned to what fetch_vars
    need from feed_vars; kwargs: program)."""
    api = "paddle.static.serialize_program"
    pruned, feed_vars, fetch_vars = _pruned(kwargs.get("program"), feed_vars, fetch_vars, api)
    return _model_bytes(pruned, feed_vars, fetch_vars, api)


def deserialize_program(data):
    """The Program serialize_program's bytes describe (checked as load_inference_model checks a file)."""
    api = "paddle.static.deserialize_program"
    if not isinstance(data, bytes):
        raise TypeError(f"{api}: data must be bytes, received {type(data).__name__}")
    return _parse_model(data, "data", api)[0]


# paddle.save of a Program writes its whole program document (no feeds, no fetches), which paddle.load reads back as
# a Program; a LoDTensor is saved as the Tensor of its value, and as the NumPy array of its value inside a container
# (Program.state_dict()'s values), as Paddle pickles it there
install_format(Program, lambda program: _model_bytes(program, [], [], "paddle.save"),
               sniff=lambda head: head[:1] == b"{",
               decode=lambda data, where: _parse_model(data, where, "paddle.load")[0])
install_format(LoDTensor, lambda t: wrap_array(np.array(t), Place("cpu"), True), nested=np.array)


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """The bytes of the .pdiparams archive save_inference_model writes: the persistable values the pruned
    program reads, from the global scope."""
    api = "paddle.static.serialize_persistables"
    _check_executor(executor, api)
    pruned = _pruned(kwargs.get("program"), feed_vars, fetch_vars, api)[0]
    params = _persistable_values(pruned, api)
    with tempfile.TemporaryDirectory() as d:  # the archive writer's verified format, kept in memory
        path = os.path.join(d, "persistables.pdiparams")
        write_archive(params, path, api)
        with open(path, "rb") as f:
            return f.read()


def deserialize_persistables(program, data, executor):
    """Load serialize_persistables' bytes into the global scope; they must hold exactly `program`'s
    persistables with its dtypes and shapes."""
    api = "paddle.static.deserialize_persistables"
    if not isinstance(program, Program):
        raise TypeError(f"program type must be `base.Program`, but received `{type(program)}`")
    if not isinstance(data, bytes):
        raise TypeError(f"{api}: data must be bytes, received {type(data).__name__}")
    _check_executor(executor, api)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "persistables.pdiparams")
        with open(path, "wb") as f:
            f.write(data)
        values = read_archive(path, api, return_numpy=True)
    _load_persistables(program, values, executor, "data", "the program", api)
    return program


def save_to_file(path, content):
    """Write bytes (serialize_program's / serialize_persistables') to `path`."""
    if not isinstance(content, bytes):
        raise ValueError("'content' type should be bytes.")
    with atomic_file(os.fspath(path)) as f:
        f.write(content)


def load_from_file(path):
    """The bytes save_to_file wrote."""
    with open(path, "rb") as f:
        return f.read()


# ---- paddle.static.save / load: a program's persistable values ------------------------------------
def _persistables(program, api):
    program = getattr(program, "_program", program)
    if not isinstance(program, Program):
        raise TypeError(f"{api}: program must be a Program, received {type(program).__name__}")
    params, others = [], []
    for v in program.list_vars():
        if v.persistable and v.type == "DENSE_TENSOR" and not getattr(v, "is_data", False):
            (params if isinstance(v, Parameter) else others).append(v)
    return params, others


def _check_model_path(model_path, api):
    model_path = _check_prefix(model_path, api, "model_path", "./ckpt/model")
    for ext in (".pdparams", ".pdopt", ".pdmodel"):
        if model_path.endswith(ext):
            model_path = model_path[:-len(ext)]
    return model_path


def save(program, model_path, protocol=4, **configs):
    """Write the program's parameters to `<model_path>.pdparams` and its other persistable variables
    (optimizer moments, learning rate, ...) to `<model_path>.pdopt`, reading values from the global scope, as
    real Paddle writes them ({name: ndarray} pickles; format="paddlelite": paddlelite's pickle-free format)."""
    api = "paddle.static.save"
    model_path = _check_model_path(model_path, api)
    params, others = _persistables(program, api)
    scope = global_scope()

    def values(vs):
        out = {}
        for v in vs:
            slot = scope.find_var(v.name)
            if slot is None or not slot.is_initialized():
                raise RuntimeError(f"{api}: persistable variable '{v.name}' has no value in the scope; run the "
                                   "startup program (and train) before saving")
            out[v.name] = np.array(slot.get_tensor())
        return out

    param_values, other_values = values(params), values(others)
    d = os.path.dirname(model_path)
    if d:
        os.makedirs(d, exist_ok=True)
    fmt = configs.get("format", "paddle")
    write_file(param_values, model_path + ".pdparams", api, fmt, protocol)
    write_file(other_values, model_path + ".pdopt", api, fmt, protocol)


def load_program_state(model_path, var_list=None):
    """The saved values as {name: ndarray} (parameters and, when present, the .pdopt file's variables)."""
    api = "paddle.static.load_program_state"
    model_path = _check_model_path(model_path, api)
    state = dict(read_archive(model_path + ".pdparams", api, return_numpy=True))
    if os.path.exists(model_path + ".pdopt"):
        state.update(read_archive(model_path + ".pdopt", api, return_numpy=True))
    if var_list is not None:
        names = {v if isinstance(v, str) else v.name for v in var_list}
        state = {k: a for k, a in state.items() if k in names}
    return state


def set_program_state(program, state_dict):
    """Put the values of `state_dict` into the global scope for the program's persistable variables of
    the same name (shape and dtype must match); returns nothing. Unknown names are ignored."""
    api = "paddle.static.set_program_state"
    if not isinstance(state_dict, dict):
        raise TypeError(f"{api}: state_dict must be a dict of name -> array, received {type(state_dict).__name__}")
    params, others = _persistables(program, api)
    _assign_values(params + others, state_dict, api, "state_dict", require=False)


def _assign_values(variables, values, api, source, require):
    from .executor import global_scope as _gs
    scope = _gs()
    checked = []
    for v in variables:
        if v.name not in values:
            if require:
                raise ValueError(f"{api}: variable '{v.name}' of the program is not in {source}")
            continue
        arr = np.asarray(values[v.name])
        if arr.dtype == BFLOAT16_BITS and v.dtype == "bfloat16":  # Paddle's files hold bfloat16 as its bits
            arr = arr.view(v.dtype.np)
        shape_ok = len(v._shape) == arr.ndim and all(d in (-1, s) for d, s in zip(v._shape, arr.shape))
        if arr.dtype != v.dtype.np or not shape_ok:
            raise ValueError(f"{api}: {source} holds '{v.name}' as {arr.dtype}{list(arr.shape)}, but the program "
                             f"declares {v.dtype.name}{list(v.shape)}")
        checked.append((v.name, arr))
    for name, arr in checked:
        scope.var(name).get_tensor().set(arr)


def load(program, model_path, executor=None, var_list=None):
    """Load what paddle.static.save wrote into the global scope: every parameter of `program` must be in
    `<model_path>.pdparams`; when `<model_path>.pdopt` exists, its other persistables must be there too."""
    api = "paddle.static.load"
    model_path = _check_model_path(model_path, api)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"{api}: executor must be a paddle.static.Executor, received {type(executor).__name__}")
    params, others = _persistables(program, api)
    if var_list is not None:
        names = {v if isinstance(v, str) else v.name for v in var_list}
        params = [v for v in params if v.name in names]
        others = [v for v in others if v.name in names]
    param_file = model_path + ".pdparams"
    if not os.path.exists(param_file):
        raise FileNotFoundError(f"{api}: no parameter file '{param_file}' (written by paddle.static.save)")
    _assign_values(params, read_archive(param_file, api, return_numpy=True), api, f"'{param_file}'", True)
    opt_file = model_path + ".pdopt"
    if others and os.path.exists(opt_file):
        _assign_values(others, read_archive(opt_file, api, return_numpy=True), api, f"'{opt_file}'", True)


# ---- the fluid-era directory spellings (paddle.fluid.io, paddle.distributed.io) --------------------
def dir_prefix(dirname, filename, default, api):
    """`<dirname>/<filename or default>`: where the fluid-era APIs keep a program or its values."""
    if not isinstance(dirname, (str, os.PathLike)):
        raise TypeError(f"{api}: dirname must be a str, received {type(dirname).__name__}")
    return os.path.join(os.fspath(dirname), filename or default)


def save_persistables(executor, dirname, main_program=None, filename=None):
    """The program's persistable values under `<dirname>/<filename or __persistables__>`."""
    save(main_program or default_main_program(),
         dir_prefix(dirname, filename, "__persistables__", "save_persistables"))


def load_persistables(executor, dirname, main_program=None, filename=None):
    load(main_program or default_main_program(),
         dir_prefix(dirname, filename, "__persistables__", "load_persistables"), executor)
