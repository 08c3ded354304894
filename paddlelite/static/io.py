"""Models and their values in files (paddle.static.io): save_inference_model / load_inference_model,
serialize_* / deserialize_*, static.save / load and the fluid-era save_persistables / load_persistables, in Paddle's
formats.

An inference model is `<prefix>.pdmodel`, the program pruned to what the fetch variables need from the feed
variables (a `clone(for_test=True)`: no backward or optimizer ops, test-mode attrs) with Paddle's feed and fetch ops,
as a legacy-IR ProgramDesc (program_desc.py), and `<prefix>.pdiparams`, its persistable values as Paddle's combined
tensor stream in sorted name order (framework/tensor_stream.py): the files real Paddle's save_inference_model and
jit.save write, which its load_inference_model, jit.load and Paddle Inference read. Loading reads those, the formats
installed from above (real Paddle 3.3.1's PIR programs, `<prefix>.json`: jit/pir_program.py) and paddlelite's first
format (a JSON program document and a zip checkpoint of the values: v1_model.py) where files of it exist. Every reader checks what it reads; a file that is
not a valid model is an InferenceModelError (a CheckpointError) naming it.
"""
import io
import os
import warnings

import numpy as np

from ..device.place import Place
from ..framework.io import ModelNotFoundError, atomic_file, install_format, open_regular, read_archive, write_file
from ..framework.paddle_pickle import BFLOAT16_BITS
from ..framework.tensor import wrap_array
from ..framework.tensor_stream import combined_bytes, read_combined, read_one, tensor_bytes
from . import v1_model
from .executor import Executor, LoDTensor, global_scope, op_io
from .framework import Parameter, Program, Variable, default_main_program
from .program_desc import InferenceModelError, is_program_desc, program_bytes, read_program

__all__ = ["save_inference_model", "load_inference_model", "normalize_program", "InferenceModelError",
           "serialize_program", "deserialize_program", "serialize_persistables", "deserialize_persistables",
           "save_to_file", "load_from_file", "save_vars", "load_vars", "is_persistable", "save_persistables",
           "load_persistables"]

_PICKLE_MAGIC = (b"\x80", b"(", b"]", b"}", b"c")


def _var_list(value, what, api):
    """The Variables of `value` (one or a list; an empty list too: with no feed and fetch variables a saved model is
    the program pruned to nothing, as in Paddle)."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
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
    out = test._prune_with_input(feed_names, fetch_names)
    kept = out.global_block().ops
    used = {n for op in kept for n in op_io(op)[0]} | set(fetch_names)
    for i, n in enumerate(feed_names):
        if n not in used:  # Paddle's pruning drops it, then refuses the feed name
            raise ValueError(f"{api}: The feeded_var_names[{i}]: '{n}' doesn't exist in pruned inference program. "
                             f"Please check whether '{n}' is a valid feed_var name, or remove it from "
                             f"feeded_var_names if '{n}' is not involved in the target_vars calculation.")
    produced = {n for op in kept for n in op_io(op)[1]} | set(feed_names)
    for n in sorted(used - produced):
        v = block._lookup(n)
        if v is None or not v.persistable:
            raise ValueError(f"{api}: the fetch variables need variable '{n}', which is neither in feed_vars, "
                             "a persistable variable, nor computed from them")
    return out


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



# ---- reading and writing models --------------------------------------------------------------------
def is_persistable(v):
    """A variable whose value a parameter file holds: a persistable dense tensor (Paddle's is_persistable, less the
    kinds its load_combine skips)."""
    return v.persistable and v.type == "DENSE_TENSOR"


def persistable_names(program):
    """The names of `program`'s persistable values, in the order Paddle's parameter files hold them."""
    return sorted({v.name for v in program.list_vars() if is_persistable(v)})


def _persistable_values(program, api):
    """name -> array of the program's persistable dense variables, read from the global scope."""
    return _values_of([v for v in program.list_vars() if is_persistable(v)], api)


# program formats read by the floors above (paddle.jit's reader of real Paddle's PIR programs): (sniff(first bytes),
# read(data, where, api) -> (program, feed names, fetch names), file extension)
_PROGRAM_READERS = []


def install_program_reader(sniff, read, extension):
    """Teach the model loaders a program format: files `<prefix><extension>` whose first 64 bytes `sniff` accepts."""
    _PROGRAM_READERS.append((sniff, read, extension))


def parse_model(data, where, api):
    """(program, feed names, fetch names) of a model file's bytes, in whichever format it is written."""
    for sniff, read, _ in _PROGRAM_READERS:
        if sniff(bytes(data[:64])):
            return read(data, where, api)
    if v1_model.is_v1_model(data[:1]):
        return v1_model.parse_model(data, where, api)
    if data[:1] in _PICKLE_MAGIC:
        raise InferenceModelError(f"{api}: {where} looks like a pickle file; paddlelite never unpickles a model (it "
                                  "can run arbitrary code)")
    return read_program(data, where, api)


def _read_bytes(path, api):
    path, f = open_regular(path, api)
    with f:
        return path, f.read()


def read_params(data, program, where, api):
    """{name: array} of a parameter file's bytes for `program`: Paddle's combined tensor stream, or paddlelite's first
    format (a zip checkpoint of {name: array})."""
    if data[:4] == b"PK\x03\x04" or data[:1] in _PICKLE_MAGIC:
        return read_archive(io.BytesIO(data), api, return_numpy=True, name=where.strip("'"))
    return read_combined(data, persistable_names(program), where, api)


def model_paths(path_prefix, api):
    """(model file, parameter file) of the inference model at `path_prefix`: `<prefix>.pdmodel`, or a program of
    another format (real Paddle 3.3.1's PIR `<prefix>.json`) where that is the one there."""
    model = path_prefix + ".pdmodel"
    if not os.path.exists(model):
        model = next((path_prefix + ext for _, _, ext in _PROGRAM_READERS if os.path.exists(path_prefix + ext)), model)
    if not os.path.exists(model):
        raise ModelNotFoundError(f"{api}: no model file '{path_prefix}.pdmodel' (or "
                                f"{[path_prefix + ext for _, _, ext in _PROGRAM_READERS]})")
    return model, path_prefix + ".pdiparams"


def read_model(path_prefix, api):
    """(program, feed names, fetch names, {name: array}) of the inference model at `path_prefix`."""
    model_path, params_path = model_paths(path_prefix, api)
    return read_model_files(model_path, params_path, api)


def read_model_files(model_path, params_path, api):
    """read_model of a model file and its parameter file (read when it exists or the program has persistable
    values; None: there is none, which a model with persistable values refuses)."""
    model_path, data = _read_bytes(model_path, api)
    program, feeds, fetches = parse_model(data, f"'{model_path}'", api)
    if params_path is None and persistable_names(program):
        raise InferenceModelError(f"{api}: the model '{model_path}' has persistable values "
                                  f"{persistable_names(program)[:5]} and no parameter file was given")
    if params_path is not None and (persistable_names(program) or os.path.exists(params_path)):
        params_path, data = _read_bytes(params_path, api)
        values = read_params(data, program, f"'{params_path}'", api)
    else:
        values = {}
    return program, feeds, fetches, values


def write_model(path_prefix, program, feed_names, fetch_names, values):
    """Write `<path_prefix>.pdmodel` and `<path_prefix>.pdiparams` (each atomically); a model without persistable
    values has no .pdiparams, as Paddle writes it."""
    if not values:
        warnings.warn("no variable in your model, please ensure there are any variables in your model to save")
    write_model_files(path_prefix + ".pdmodel", path_prefix + ".pdiparams", program, feed_names, fetch_names, values)


def write_model_files(model_path, params_path, program, feed_names, fetch_names, values):
    """write_model to the files named (the parameter file only when there are values)."""
    model = program_bytes(program, feed_names, fetch_names)
    if values:
        params = combined_bytes(values)
        with atomic_file(params_path) as f:
            f.write(params)
    with atomic_file(model_path) as f:
        f.write(model)


def _check_executor(executor, api):
    if not isinstance(executor, Executor):
        raise TypeError(f"{api}: executor must be a paddle.static.Executor, received {type(executor).__name__}")


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, program=None, **kwargs):
    """Save the part of `program` (default: the main program) that computes `fetch_vars` from `feed_vars` to
    `<path_prefix>.pdmodel`, and the persistable values it reads (from the global scope, where `executor` ran the
    startup program) to `<path_prefix>.pdiparams`, in Paddle's formats."""
    api = "paddle.static.save_inference_model"
    path_prefix = _check_prefix(path_prefix, api)
    feed_vars = _var_list(feed_vars, "feed_vars", api)
    fetch_vars = _var_list(fetch_vars, "fetch_vars", api)
    _check_executor(executor, api)
    pruned, feed_vars, fetch_vars = _pruned(kwargs.get("main_program", program), feed_vars, fetch_vars, api)
    write_model(path_prefix, pruned, [v.name for v in feed_vars], [v.name for v in fetch_vars],
                _persistable_values(pruned, api))


def load_inference_model(path_prefix, executor, **kwargs):
    """Load an inference model (Paddle's legacy or PIR program, or paddlelite's first format): returns
    [inference_program, feed_target_names, fetch_targets]; the parameters go into the global scope (the one
    `executor.run` uses by default)."""
    api = "paddle.static.load_inference_model"
    path_prefix = _check_prefix(path_prefix, api)
    _check_executor(executor, api)
    program, feed_names, fetch_names, values = read_model(path_prefix, api)
    _load_persistables(program, values, executor, f"'{path_prefix}.pdiparams'", "the model", api)
    block = program.global_block()
    return [program, list(feed_names), [block.var(n) for n in fetch_names]]


def _load_persistables(program, values, executor, source, model, api):
    """Check that `values` holds exactly the program's persistables with their declared dtypes and shapes,
    then put them into the global scope."""
    if not isinstance(values, dict) or not all(isinstance(k, str) and isinstance(a, np.ndarray)
                                               for k, a in values.items()):
        raise InferenceModelError(f"{api}: {source} does not hold a name -> array mapping")
    wanted = {v.name: v for v in program.list_vars() if is_persistable(v)}
    missing = sorted(set(wanted) - set(values))
    extra = sorted(set(values) - set(wanted))
    if missing or extra:
        raise InferenceModelError(f"{api}: {source} does not match {model}: missing {missing}, unexpected {extra}")
    for name, arr in values.items():
        v = wanted[name]
        if arr.dtype == BFLOAT16_BITS and v.dtype == "bfloat16":  # paddlelite's first format: bfloat16 as its bits
            values[name] = arr = arr.view(v.dtype.np)
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
    """The bytes of the .pdmodel save_inference_model writes (the program pruned to what fetch_vars need from
    feed_vars, with feed and fetch ops; kwargs: program)."""
    api = "paddle.static.serialize_program"
    pruned, feed_vars, fetch_vars = _pruned(kwargs.get("program"), feed_vars, fetch_vars, api)
    return program_bytes(pruned, [v.name for v in feed_vars], [v.name for v in fetch_vars])


def deserialize_program(data):
    """The Program of serialize_program's bytes (or any .pdmodel's), checked as load_inference_model checks a file."""
    api = "paddle.static.deserialize_program"
    if not isinstance(data, bytes):
        raise TypeError(f"{api}: data must be bytes, received {type(data).__name__}")
    return parse_model(data, "data", api)[0]


# paddle.save of a Program writes its ProgramDesc (the whole program: no feeds, no fetches), which paddle.load reads
# back as a Program (and paddlelite's first program documents); a LoDTensor is saved as the Tensor of its value, and as
# the NumPy array of its value inside a container (Program.state_dict()'s values), as Paddle pickles it there
install_format(Program, lambda program: program_bytes(program),
               sniff=lambda head: is_program_desc(head) or v1_model.is_v1_model(head),
               decode=lambda data, where, return_numpy: parse_model(data, where, "paddle.load")[0])
install_format(LoDTensor, lambda t: wrap_array(np.array(t), Place("cpu"), True), nested=np.array)


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """The bytes of the .pdiparams save_inference_model writes: the persistable values the pruned program reads,
    from the global scope, as Paddle's combined tensor stream."""
    api = "paddle.static.serialize_persistables"
    _check_executor(executor, api)
    pruned = _pruned(kwargs.get("program"), feed_vars, fetch_vars, api)[0]
    return combined_bytes(_persistable_values(pruned, api))


def deserialize_persistables(program, data, executor):
    """Load serialize_persistables' bytes into the global scope; they must hold exactly `program`'s
    persistables with its dtypes and shapes."""
    api = "paddle.static.deserialize_persistables"
    if not isinstance(program, Program):
        raise TypeError(f"program type must be `base.Program`, but received `{type(program)}`")
    if not isinstance(data, bytes):
        raise TypeError(f"{api}: data must be bytes, received {type(data).__name__}")
    _check_executor(executor, api)
    values = read_params(data, program, "data", api)
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
    """Write the program's parameters to `<model_path>.pdparams`, its other persistable variables (optimizer
    moments, learning rate, ...) to `<model_path>.pdopt` -- reading values from the global scope, as real Paddle
    writes them ({name: ndarray} pickles; format="paddlelite": paddlelite's pickle-free format) -- and the program
    itself to `<model_path>.pdmodel` (its ProgramDesc)."""
    api = "paddle.static.save"
    model_path = _check_model_path(model_path, api)
    params, others = _persistables(program, api)
    param_values, other_values = _values_of(params, api), _values_of(others, api)
    fmt = configs.get("format", "paddle")
    write_file(param_values, model_path + ".pdparams", api, fmt, protocol)
    write_file(other_values, model_path + ".pdopt", api, fmt, protocol)
    with atomic_file(model_path + ".pdmodel") as f:
        f.write(program_bytes(getattr(program, "_program", program)))


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
    scope = global_scope()
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
        raise ModelNotFoundError(f"{api}: no parameter file '{param_file}' (written by paddle.static.save)")
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


def _values_of(variables, api):
    """name -> array of `variables`, read from the global scope."""
    scope = global_scope()
    values = {}
    for v in variables:
        slot = scope.find_var(v.name)
        if slot is None or not slot.is_initialized():
            raise RuntimeError(f"{api}: variable '{v.name}' has no value in the scope; run the startup program (and "
                               "train) with this executor before saving")
        values[v.name] = np.array(slot.get_tensor())
    return values


def _selected_vars(main_program, vars, predicate, api):
    """(program, the variables `vars` names or `predicate` selects from it -- RAW ones left out, as Paddle's
    save_vars leaves them -- sorted by name)."""
    program = getattr(main_program, "_program", main_program) or default_main_program()
    if not isinstance(program, Program):
        raise TypeError(f"{api}: main_program must be a Program, received {type(program).__name__}")
    if vars is None:
        if predicate is not None and not callable(predicate):
            raise TypeError(f"{api}: predicate must be callable, received {type(predicate).__name__}")
        vars = [v for v in program.list_vars() if predicate is None or predicate(v)]
    chosen = []
    for v in vars:
        if not isinstance(v, Variable):
            raise TypeError(f"{api}: vars must hold Variables, received {type(v).__name__}")
        if v.type != "RAW":
            chosen.append(v)
    return program, sorted(chosen, key=lambda v: v.name)


def save_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """Save variables' values (from the global scope) as Paddle's save_vars does: `vars`, or those of `main_program`
    `predicate` selects; one file per variable in `dirname` (named as it, one tensor each), or all in
    `<dirname>/<filename>` as a combined tensor stream in name order -- or, without dirname and filename, returned as
    that stream's bytes."""
    api = "paddle.static.save_vars"
    program, variables = _selected_vars(main_program, vars, predicate, api)
    values = _values_of(variables, api)
    if dirname is None and filename is None:
        return combined_bytes(values)
    os.makedirs(os.fspath(dirname), exist_ok=True)
    if filename is not None:
        with atomic_file(dir_prefix(dirname, filename, None, api)) as f:
            f.write(combined_bytes(values))
        return None
    for v in variables:
        with atomic_file(dir_prefix(dirname, v.name, None, api)) as f:
            f.write(tensor_bytes(values[v.name]))
    return None


def load_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """Load what save_vars wrote (this library's or real Paddle's) into the global scope, checking each value
    against its variable."""
    api = "paddle.static.load_vars"
    program, variables = _selected_vars(main_program, vars, predicate, api)
    if filename is not None:
        path, data = _read_bytes(dir_prefix(dirname, filename, None, api), api)
        values = read_combined(data, [v.name for v in variables], f"'{path}'", api)
    else:
        values = {}
        for v in variables:
            path, data = _read_bytes(dir_prefix(dirname, v.name, None, api), api)
            values[v.name] = read_one(data, f"'{path}'", api)
    _assign_values(variables, values, api, f"'{dirname}'", True)


def save_persistables(executor, dirname, main_program=None, filename=None):
    """The program's persistable values in `dirname` (save_vars of the persistable variables)."""
    return save_vars(executor, dirname, main_program, predicate=is_persistable, filename=filename)


def load_persistables(executor, dirname, main_program=None, filename=None):
    """Load what save_persistables wrote (or Paddle's save_persistables) into the global scope."""
    load_vars(executor, dirname, main_program, predicate=is_persistable, filename=filename)
