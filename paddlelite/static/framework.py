"""The static program model: Program > Block > (Variable, Operator), Paddle's legacy IR shapes.

Operators reference their inputs and outputs by variable *name* (as Paddle's OpDesc does), so the
backward pass can rename gradient variables; `Block.var(name)` resolves a name through the block's
ancestors. Every structural change bumps `Program._version`, which invalidates executor plans.
"""
import contextlib
import os
import sys
import threading
import warnings
from types import MappingProxyType

import numpy as np

from ..framework import dtype as _dtype
from ..framework.mode import in_static_mode
from ..framework.var_type import VarKind, var_kind
from ..ops.legacy import (EMPTY_GRAD_SLOTS, GRAD_AS_OPS, GRAD_INPUTS, REGISTRY_TYPES, SELECTED_ROWS_GRADS, grad_op,
                          legacy_desc)
from ..ops.registry import OPS, get_op
from ..utils import unique_name
from .dot import program_to_dot
from .op_role import (OP_DEVICE_ATTR, OP_NAMESCOPE_ATTR, OP_ROLE_ATTR, OP_ROLE_BACKWARD,  # noqa: F401  (re-exported)
                      OP_ROLE_FORWARD, OP_ROLE_LOSS, OP_ROLE_OPTIMIZE, OP_ROLE_VAR_ATTR, WITH_QUANT_ATTR)
GRAD_SUFFIX = "@GRAD"
EMPTY_VAR_NAME = "@EMPTY@"  # Paddle's kEmptyVarName: a grad op output slot entry no gradient is written to

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_frame():
    """(file, line, function) of the innermost caller outside paddlelite, or None."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back
    if f is None:
        return None
    return (f.f_code.co_filename, f.f_lineno, f.f_code.co_name)


def normalize_shape(shape, what, any_negative=False):
    """`shape` as a tuple of ints, None as -1. Only -1 marks an unknown dim in a user's shape; a Variable's (as
    Paddle's VarDesc) takes any negative dim its op's shape rule wrote (instance_norm's N * C of -1 * 3 is -3)."""
    if shape is None:
        return ()
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    out = []
    for d in shape:
        if d is None:
            out.append(-1)
        elif isinstance(d, (int, np.integer)) and not isinstance(d, bool) and (d >= -1 or any_negative):
            out.append(int(d))
        else:
            raise ValueError(f"{what}: shape entries must be ints{'' if any_negative else ' >= -1'} or None, "
                             f"received {list(shape)}")
    return tuple(out)


class Variable:
    """A named, typed slot of a Block. Its value exists only in an executor's Scope."""

    _is_variable = True
    op = None            # the op that last wrote it (None for data / parameters)
    is_data = False
    trainable = False
    belong_to_optimizer = False  # an optimizer's state (accumulator, learning rate): what Model.save puts in .pdopt
    _desc_attrs = MappingProxyType({})  # the VarDesc's own attributes (desc._set_attr): replaced, never changed in place

    def __init__(self, block, name, shape=(), dtype="float32", stop_gradient=False, persistable=False,
                 type="DENSE_TENSOR"):
        self.block = block
        self.name = name
        self._shape = normalize_shape(shape, f"Variable '{name}'", any_negative=True)
        self._dtype = _dtype.convert_dtype(dtype)
        self.stop_gradient = bool(stop_gradient)
        self.persistable = bool(persistable)
        self.type = var_kind(type, f"Variable '{name}'")  # Paddle's VarType kind (a str enum: == 'DENSE_TENSOR')

    # ---- metadata -------------------------------------------------------------------------------
    @property
    def desc(self):
        return VarDesc(self)

    @property
    def shape(self):
        return self._shape  # a tuple, as Paddle's legacy-IR Variable.shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self._shape)

    def dim(self):
        return len(self._shape)

    ndimension = dim

    @property
    def size(self):
        n = 1
        for d in self._shape:
            if d < 0:
                return -1
            n *= d
        return n

    def numel(self):
        return self.size

    @property
    def program(self):
        return self.block.program

    @property
    def grad_name(self):
        return self.name + GRAD_SUFFIX

    def __bool__(self):
        raise TypeError(f"Variable '{self.name}' has no value while the program is being built, so it has no "
                        "truth value; use paddle.static.nn.cond / while_loop for data-dependent control flow")

    def __len__(self):
        if not self._shape:
            raise TypeError(f"len() of a 0-D Variable '{self.name}'")
        return self._shape[0]

    def __iter__(self):
        """var[0], var[1], ... as Paddle's Variable iterates (by indexing until IndexError), so `a, b = var`
        unpacks; an unknown (-1) first dim, which Paddle would index forever, is an error."""
        if not self._shape or self._shape[0] < 0:
            why = "its first dim is unknown" if self._shape else "it is 0-D"
            raise TypeError(f"Variable '{self.name}' of shape {self._shape} is not iterable while the program is "
                            f"being built: {why}")
        return (self[i] for i in range(self._shape[0]))

    lod_level = 0  # Paddle 3's tensors carry no level-of-detail offsets
    _OWN_METHODS = ("set_value",)  # static versions of names the Tensor methods also define (tensor/methods.install)

    @property
    def is_parameter(self):
        return isinstance(self, Parameter)

    def gradient(self):
        raise AssertionError(f"Variable '{self.name}': 'gradient' can only be called on a paddle.Tensor in dynamic "
                             "graph mode (call paddle.disable_static(); in a program fetch its '@GRAD' variable)")

    # ---- values in a scope --------------------------------------------------------------------
    def get_value(self, scope=None):
        """The variable's value in `scope` (default: the global scope) as a LoDTensor."""
        return self._scope_var(scope, "get_value").get_tensor()

    def set_value(self, value, scope=None):
        """Write `value` (a NumPy array, Tensor or LoDTensor of the variable's shape) into `scope`."""
        if not hasattr(value, "__array__"):
            raise TypeError(f"Variable.set_value: value must be a numpy.ndarray or a DenseTensor, received "
                            f"{type(value).__name__}")
        t = self._scope_var(scope, "set_value").get_tensor()
        shape = value.shape() if callable(getattr(value, "shape", None)) else list(getattr(value, "shape", ()))
        if t._is_initialized() and list(t.shape()) != list(shape):
            raise ValueError(f"Variable.set_value: '{self.name}' expected a shape {t.shape()}, but the received "
                             f"shape is {list(shape)}")
        t.set(np.asarray(value), t._place() if t._is_initialized() else None)

    def _scope_var(self, scope, api):
        from .executor import Scope, global_scope  # the executor module builds on this one
        if scope is not None and not isinstance(scope, Scope):
            raise TypeError(f"Variable.{api}: scope should be None or a paddle.static.Scope, received "
                            f"{type(scope).__name__}")
        found = (global_scope() if scope is None else scope).find_var(self.name)
        if found is None:
            raise ValueError(f"Variable.{api}: cannot find variable '{self.name}' in the scope (run the startup "
                             "program first)")
        return found

    def apply(self, func):
        """func(self), the ops it appends, for a variable outside the gradient (RuntimeError when it needs one, as in
        Paddle); a func that fails on it is a ValueError naming func."""
        if not self.stop_gradient:
            raise RuntimeError(f"Variable.apply: cannot apply a function to '{self.name}', which requires gradients "
                               "(stop_gradient is False)")
        try:
            return func(self)
        except Exception as e:
            raise ValueError(f"Variable.apply: the function {getattr(func, '__name__', func)!r} could not be applied "
                             f"to '{self.name}': {type(e).__name__}: {e}") from e

    # ---- copies appended to the program ----------------------------------------------------------
    def detach(self):
        """A new variable sharing this one's data, outside the gradient (Paddle's `share_data` op)."""
        if self.type not in ("DENSE_TENSOR", "SELECTED_ROWS"):
            raise AssertionError(f"Variable.detach: only DENSE_TENSOR or SELECTED_ROWS variables can be detached, "
                                 f"'{self.name}' is {self.type}")
        out = self.block.create_var(self.program._name_generator("detach_" + self.name), self._shape, self._dtype,
                                    stop_gradient=True, persistable=self.persistable, type=self.type)
        self.block.append_op("share_data", {"X": [self]}, {"Out": [out]})
        return out

    def _memcpy(self, dst_place_type):
        out = self.block.create_var(self.program._name_generator("tmp"), self._shape, self._dtype,
                                    stop_gradient=True, type=self.type)
        self.block.append_op("memcpy", {"X": [self]}, {"Out": [out]}, {"dst_place_type": dst_place_type})
        return out

    def cpu(self):
        """A copy (Paddle's `memcpy` op to the CPU; in paddlelite a program runs on its executor's one place)."""
        return self._memcpy(0)

    def cuda(self, device_id=None, blocking=True):
        """A copy (Paddle's `memcpy` op to the GPU; in paddlelite a program runs on its executor's one place)."""
        return self._memcpy(1)

    # ---- printing (Paddle's legacy-IR text) -----------------------------------------------------
    def to_string(self, throw_on_error=False, with_details=False):
        if self.type in ("DENSE_TENSOR", "SELECTED_ROWS"):
            text = (f"{self.name} : {self.type}.shape{self._shape}.dtype({self._dtype.name})"
                    f".stop_gradient({self.stop_gradient})")
        else:
            text = f"{self.name} : {self.type})"  # sic: Paddle's text for other kinds of variable
        if isinstance(self, Parameter):
            text = ("trainable param " if self.trainable else "param ") + text
        else:
            text = "var " + text
        return "persist " + text if self.persistable else text

    __str__ = __repr__ = to_string


class Parameter(Variable):
    """A persistable, trainable Variable of the global block (initialised by the startup program)."""

    def __init__(self, block, name, shape, dtype="float32", trainable=True, **kwargs):
        super().__init__(block, name, shape, dtype, stop_gradient=not trainable, persistable=True)
        self.trainable = bool(trainable)
        self.optimize_attr = kwargs.get("optimize_attr", {"learning_rate": 1.0})
        self.regularizer = kwargs.get("regularizer")
        self.need_clip = kwargs.get("need_clip", True)
        self.is_distributed = False


class VarDesc:
    """Paddle's VarDesc view of a Variable (`var.desc`): methods, not properties, as in Paddle (`desc.name()`,
    `desc.set_need_check_feed(False)`); the setters change the Variable."""

    __slots__ = ("_var",)

    def __init__(self, var):
        self._var = var

    def name(self):
        return self._var.name

    def shape(self):
        return list(self._var._shape)

    def set_shape(self, shape):
        self._var._shape = normalize_shape(shape, f"Variable '{self._var.name}'", any_negative=True)

    def dtype(self):
        return self._var._dtype

    def set_dtype(self, dtype):
        self._var._dtype = _dtype.convert_dtype(dtype)

    def type(self):
        return self._var.type

    def persistable(self):
        return self._var.persistable

    def set_persistable(self, persistable):
        self._var.persistable = bool(persistable)

    def stop_gradient(self):
        return self._var.stop_gradient

    def set_stop_gradient(self, stop_gradient):
        self._var.stop_gradient = bool(stop_gradient)

    def need_check_feed(self):
        """Whether a feed of this variable is checked against its shape and dtype (data variables)."""
        return self._var.is_data

    def set_need_check_feed(self, need):
        self._var.is_data = bool(need)

    def is_parameter(self):
        return isinstance(self._var, Parameter)

    def _set_attr(self, name, value):
        """An attribute of the VarDesc itself (an int, a str or a list of ints: what Paddle's VarDesc holds)."""
        ints = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not (ints or isinstance(value, str) or isinstance(value, int) and not isinstance(value, bool)):
            raise TypeError(f"VarDesc._set_attr: the value of attribute '{name}' of variable '{self._var.name}' must "
                            f"be an int, a str or a list of ints, received {type(value).__name__}")
        self._var._desc_attrs = {**self._var._desc_attrs, name: list(value) if ints else value}

    def attr(self, name):
        return self._var._desc_attrs[name]

    def has_attr(self, name):
        return name in self._var._desc_attrs

    def attr_names(self):
        return sorted(self._var._desc_attrs)

    def lod_level(self):
        return 0


class OpDesc:
    """Paddle's OpDesc view of an Operator (what append_backward callbacks receive as
    `__current_op_desc__`): methods, not properties, as in Paddle (`desc.type()`, `desc.input('X')`)."""

    __slots__ = ("_op",)

    def __init__(self, op):
        self._op = op

    def type(self):
        return self._op.type

    def input(self, name):
        return self._op.input(name)

    def output(self, name):
        return self._op.output(name)

    def input_names(self):
        return self._op.input_names

    def output_names(self):
        return self._op.output_names

    def input_arg_names(self):
        return self._op.input_arg_names

    def output_arg_names(self):
        return self._op.output_arg_names

    def attr_names(self):
        return sorted(self._op.attr_names)

    def attr(self, name):
        return self._op.attr(name)

    def has_attr(self, name):
        return self._op.has_attr(name)

    def set_attr(self, name, value):
        self._op._set_attr(name, value)

    def rename_input(self, old, new):
        self._op._rename_input(old, new)

    def rename_output(self, old, new):
        self._op._rename_output(old, new)


def _device_of(op_type):
    """The op_device of an op built now: device_guard's device, except for a structural op (control flow: no kernel
    of its own, its block's ops carry the devices), which Paddle warns about and leaves unset."""
    device = _building.device or ""
    opdef = OPS.get(op_type)
    if device and opdef is not None and opdef.block_runner is not None:
        warnings.warn(f"The Op({op_type}) is not support to set device.")
        return ""
    return device


# Attributes every op of Paddle's legacy IR carries (op_role_var too, a fresh list per op)
_COMMON_ATTRS = {OP_DEVICE_ATTR: "", OP_NAMESCOPE_ATTR: "/", WITH_QUANT_ATTR: False}


class Operator:
    """One op of a Block: a registered op type, {slot: [var names]} for inputs/outputs, attrs."""

    _grad_desc = None  # a grad op shown as a forward op: fn(its forward op's desc attrs) -> its own (legacy.py)
    _shows_forward_desc = False  # a grad op's desc shows its forward op's attributes (a gradient sum's does not)

    def __init__(self, block, type, inputs=None, outputs=None, attrs=None):
        self.block = block
        self.type = type
        self._inputs = {k: list(v) for k, v in (inputs or {}).items()}
        self._outputs = {k: list(v) for k, v in (outputs or {}).items()}
        self._attrs = {**_COMMON_ATTRS, OP_DEVICE_ATTR: _device_of(type), OP_NAMESCOPE_ATTR: _building.name_scope.path(),
                       OP_ROLE_VAR_ATTR: list(_building.role_var), **(attrs or {})}
        self._where = user_frame()
        self._fwd_op = None      # for a grad op: the forward op whose gradient it belongs to
        # built as a bare OpDesc (backward's loss seed and gradient sums, as Paddle's _create_op_desc_): no name
        # scope, no empty optional slots listed
        self._bare_desc = False

    # ---- Paddle's Operator API ------------------------------------------------------------------
    def input(self, name):
        return list(self._inputs.get(name, []))

    def output(self, name):
        return list(self._outputs.get(name, []))

    @property
    def desc(self):
        return OpDesc(self)

    @property
    def input_names(self):
        return sorted({**self._given_inputs(), **dict.fromkeys(self._desc()[1], [])})  # OpDesc keeps slots sorted

    def _given_inputs(self):
        """The input slots the op desc lists: a bare desc (backward's seeds and sums, a grad maker's own ops)
        lists only those given variables."""
        return {k: v for k, v in self._inputs.items() if v} if self._bare_desc else self._inputs

    def _desc(self):
        """(attrs, optional input slots listed empty) as Paddle's legacy op desc of this op shows them; a
        grad op shows its forward op's attributes (see ops/legacy.py)."""
        fwd = self._fwd_op if self._shows_forward_desc else self
        first = next((n for v in fwd._inputs.values() for n in v), None)
        var = None if first is None else fwd.block._lookup(first)
        attrs, empty = legacy_desc(REGISTRY_TYPES.get(fwd.type, fwd.type), self._attrs, var)
        if fwd is not self and self._grad_desc is not None:  # a grad op Paddle shows as a forward op
            attrs = self._grad_desc(attrs)
        return attrs, (empty if fwd is self and not self._bare_desc else ())

    @property
    def output_names(self):
        return sorted(self._outputs)

    @property
    def input_arg_names(self):
        return [n for v in self._inputs.values() for n in v]

    @property
    def output_arg_names(self):
        return [n for v in self._outputs.values() for n in v]

    @property
    def attr_names(self):
        return list(self._desc()[0])

    def all_attrs(self):  # a method in Paddle (attr_names is a property)
        return dict(self._desc()[0])

    @property
    def attrs(self):
        return self._attrs

    @property
    def idx(self):
        for i, op in enumerate(self.block.ops):
            if op is self:
                return i
        raise ValueError(f"op '{self.type}' is not in its block any more")

    def attr(self, name):
        """The attribute by Paddle's name (or by the registry op's own, which the executor reads)."""
        attrs = self._desc()[0]
        if name in attrs:
            return attrs[name]
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"op '{self.type}' has no attribute '{name}'; it has {sorted(attrs)}") from None

    def has_attr(self, name):
        return name in self._desc()[0] or name in self._attrs

    def _set_attr(self, name, value):
        self._attrs[name] = value
        self.block.program._bump()

    def _is_optimize_op(self):
        return bool(self._attrs.get(OP_ROLE_ATTR, 0) & OP_ROLE_OPTIMIZE)

    _update_desc_attr = _set_attr

    def _block_attr_id(self, name):
        return self._attrs[name].idx

    def _rename_input(self, old, new):
        for v in self._inputs.values():
            v[:] = [new if n == old else n for n in v]
        self.block.program._bump()

    def _rename_output(self, old, new):
        for v in self._outputs.values():
            v[:] = [new if n == old else n for n in v]
        self.block.program._bump()

    @property
    def where(self):
        """'file:line' of the user code that added the op (for a grad op: of its forward op)."""
        src = self._fwd_op if self._fwd_op is not None else self
        while src._fwd_op is not None:
            src = src._fwd_op
        if src._where is None:
            return "unknown location"
        return f"{src._where[0]}:{src._where[1]} in {src._where[2]}"

    def _copy_to(self, block, attrs):
        """This op (same type, arguments and `where`) in another block, with `attrs`."""
        op = object.__new__(type(self))
        op.__dict__.update(self.__dict__)
        op.block = block
        op._inputs = {k: list(v) for k, v in self._inputs.items()}
        op._outputs = {k: list(v) for k, v in self._outputs.items()}
        op._attrs = dict(attrs)
        return op

    def _desc_slots(self):
        """(inputs, outputs, attrs) of Paddle's legacy op desc of this op, each sorted by name as an OpDesc keeps
        them: what the program text prints and a .pdmodel file holds."""
        desc_attrs, empty = self._desc()
        inputs = {**dict.fromkeys(empty, []), **self._given_inputs()}
        return ({k: inputs[k] for k in sorted(inputs)}, {k: self._outputs[k] for k in sorted(self._outputs)},
                dict(sorted(desc_attrs.items())))

    # ---- printing (Paddle's legacy-IR text: slots and attributes sorted by name) ---------------
    def to_string(self, throw_on_error=False, with_details=False):
        inputs, outputs, desc_attrs = self._desc_slots()
        outs = ", ".join(f"{k}={v}" for k, v in outputs.items())
        ins = ", ".join(f"{k}={v}" for k, v in inputs.items())
        attrs = ", ".join(f"{k} = {_attr_text(v)}" for k, v in desc_attrs.items())
        call = f"{self.type}(inputs={{{ins}}}, {attrs})"
        return f"{{{outs}}} = {call}" if outs else call

    __str__ = __repr__ = to_string


def _attr_text(v):
    if isinstance(v, Block):
        return f"block[{v.idx}]"
    return str(v)


class GradOperator(Operator):
    """The gradient of one forward op, shown as Paddle's grad op: type `<forward type>_grad`, inputs the
    forward slots it reads and `<output slot>@GRAD`, outputs `<input slot>@GRAD`, the forward attrs.
    It runs `body`, the registered ops its grad maker described (executors and backward see those)."""

    _shows_forward_desc = True

    def __init__(self, block, fwd_op, opdef, body, grad_to_var):
        reads = {n for op in body for n in op.input_arg_names}
        writes = {}
        for op in body:
            for n in op.output_arg_names:
                writes[n] = writes.get(n, 0) + 1
        grad_of = {v: g for g, v in grad_to_var.items() if isinstance(v, str)}
        # forward slots it reads; reading any differentiable input means taking them all, as Paddle's
        # elementwise, matmul and mul grad ops do (relu_grad reads Out only, softmax_with_cross_entropy_grad Label)
        all_inputs = any(n in reads for slot in opdef.inputs if slot not in opdef.nondiff_inputs
                         for n in fwd_op._inputs.get(slot, []))
        inputs = {}
        listed = GRAD_INPUTS.get(opdef.type)
        if listed is not None:  # Paddle's grad op reads these slots whatever ours reads (ops/legacy.py)
            for slot in listed:
                inputs[slot] = list(fwd_op._inputs.get(slot, fwd_op._outputs.get(slot, [])))
        else:
            for slot, names in fwd_op._inputs.items():
                if names and (all_inputs or any(n in reads for n in names)):
                    inputs[slot] = list(names)
            for slot, names in fwd_op._outputs.items():
                if any(n in reads for n in names):
                    inputs[slot] = list(names)
        for slot, names in fwd_op._outputs.items():
            grads = [grad_of[n] for n in names if grad_of.get(n) in reads]
            if grads:
                inputs[slot + GRAD_SUFFIX] = grads
        outputs = {}
        for slot in opdef.inputs:
            if slot in opdef.nondiff_inputs:
                continue
            outputs[slot + GRAD_SUFFIX] = grads = []
            for n in fwd_op._inputs.get(slot, []):
                g = grad_of.get(n)
                if writes.get(g):          # one output per write: x*x writes x@GRAD twice, as Paddle's
                    writes[g] -= 1
                    grads.append(g)
                elif slot in EMPTY_GRAD_SLOTS.get(opdef.type, ()):
                    grads.append(EMPTY_VAR_NAME)
        attrs = {k: v for k, v in fwd_op._attrs.items() if k != OP_ROLE_VAR_ATTR}
        sparse = SELECTED_ROWS_GRADS.get(opdef.type)
        for slot in sparse(attrs) if sparse else ():
            for n in outputs.get(slot + GRAD_SUFFIX, ()):
                block.var(n).type = VarKind.SELECTED_ROWS
        type, inputs, outputs, self._grad_desc = grad_op(fwd_op.type, inputs, outputs)
        super().__init__(block, type, inputs, outputs, attrs)
        self._fwd_op = fwd_op
        self._body = body
        self._seen = self._arg_names()

    def _arg_names(self):
        return ([n for v in self._inputs.values() for n in v], [n for v in self._outputs.values() for n in v])

    def body(self):
        """The ops to run, following any renaming of this op's arguments since the last call (backward
        renames a gradient written several times to x@GRAD@RENAME@<k>, one name per write)."""
        now = self._arg_names()
        if now != self._seen:
            inputs = {old: new for old, new in zip(self._seen[0], now[0]) if old != new}
            outputs = {}
            for old, new in zip(self._seen[1], now[1]):
                outputs.setdefault(old, []).append(new)
            written = {}
            for op in self._body:
                for v in op._inputs.values():
                    v[:] = [written.get(n, inputs.get(n, n)) for n in v]
                for v in op._outputs.values():
                    for j, n in enumerate(v):
                        if outputs.get(n):
                            written[n] = v[j] = outputs[n].pop(0)
            self._seen = now
        return self._body

    def _copy_to(self, block, attrs):
        op = super()._copy_to(block, attrs)
        op._body = [o._copy_to(block, o._attrs) for o in self.body()]
        return op


def _grad_body_temporaries(ops):
    """Names that only ops inside GradOperators use: our grad makers' intermediates, which Paddle's grad ops
    (one kernel each) do not have, so its printed programs do not list them."""
    shown = {n for op in ops for n in (*op.input_arg_names, *op.output_arg_names)}
    return {n for op in ops if isinstance(op, GradOperator) for inner in op.body()
            for n in (*inner.input_arg_names, *inner.output_arg_names)} - shown


def grad_ops_of(fwd_op, opdef, ops, grad_to_var):
    """The ops a grad maker built for `fwd_op`, as Paddle shows them: the fill_any_like ops that make up
    missing output gradients stay ops of their own; the rest become one GradOperator, or stay bare ops where
    Paddle builds them so (ops/legacy.py GRAD_AS_OPS)."""
    outs = set(fwd_op.output_arg_names)
    fills = [op for op in ops if op.type == "fill_any_like" and grad_to_var.get(op.output_arg_names[0]) in outs]
    body = [op for op in ops if op not in fills]
    if fwd_op.type in GRAD_AS_OPS:
        for op in body:
            op._bare_desc, op._attrs["op_namescope"] = True, ""
        return fills + body
    return fills + ([GradOperator(fwd_op.block, fwd_op, opdef, body, grad_to_var)] if body else [])


def executable_ops(ops):
    """`ops` with every grad op replaced by the registered ops it runs."""
    for op in ops:
        if isinstance(op, GradOperator):
            yield from op.body()
        else:
            yield op


class Block:
    """An ordered list of ops and the variables they use; sub-blocks have a parent."""

    def __init__(self, program, idx, parent_idx=-1):
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.forward_block_idx = -1
        self.vars = {}
        self.ops = []

    @property
    def parent_block(self):
        return None if self.parent_idx < 0 else self.program.blocks[self.parent_idx]

    # ---- variables ------------------------------------------------------------------------------
    def var(self, name):
        """The Variable called `name`, looked up here, then in the ancestor blocks."""
        if not isinstance(name, str):
            raise TypeError(f"Block.var: name must be a str, received {type(name).__name__}")
        v = self._lookup(name)
        if v is None:
            raise ValueError(f"variable '{name}' is not in block {self.idx} or its ancestors")
        return v

    def _lookup(self, name):
        # a grad block also sees its forward block's variables (and that block's ancestors)
        stack, seen = [self], set()
        while stack:
            b = stack.pop(0)
            if b.idx in seen:
                continue
            seen.add(b.idx)
            v = b.vars.get(name)
            if v is not None:
                return v
            if b.forward_block_idx >= 0:
                stack.append(b.program.blocks[b.forward_block_idx])
            if b.parent_idx >= 0:
                stack.append(b.program.blocks[b.parent_idx])
        return None

    _var_recursive = var

    def has_var(self, name):
        return name in self.vars

    def _find_var_recursive(self, name):
        return self._lookup(name)

    def create_var(self, name=None, shape=(), dtype="float32", stop_gradient=False, persistable=False,
                   type="DENSE_TENSOR", **kwargs):
        if name is None:
            name = self.program._name_generator("_generated_var")
        if name in self.vars:  # Paddle returns the existing var for a repeated name
            return self.vars[name]
        v = Variable(self, name, shape, dtype, stop_gradient, persistable, type)
        if kwargs.get("is_data"):
            v.is_data = True
        self.vars[name] = v
        self.program._bump()
        return v

    def create_parameter(self, name, shape, dtype="float32", trainable=True, **kwargs):
        if name in self.vars:
            # Paddle shares a parameter created twice under one name (ParamAttr(name='shared_w'))
            old = self.vars[name]
            if not isinstance(old, Parameter):
                raise ValueError(f"create_parameter: a non-parameter variable named '{name}' already exists in "
                                 f"block {self.idx}")
            new_dtype = _dtype.convert_dtype(dtype)
            if list(old.shape) != [int(d) for d in shape] or old.dtype != new_dtype:
                raise ValueError(f"create_parameter: parameter '{name}' already exists with shape {list(old.shape)} "
                                 f"and dtype {old.dtype.name}; sharing it requires the same shape and dtype, "
                                 f"received shape {list(shape)} and dtype {new_dtype.name}")
            return old
        initializer = kwargs.pop("initializer", None)
        p = Parameter(self, name, shape, dtype, trainable, **kwargs)
        self.vars[name] = p
        self.program._bump()
        if initializer is not None:  # as Paddle's Block.create_parameter: its op goes into this block
            initializer(p, self)
        return p

    def _sort_vars_from(self, n):
        """List the variables after the first `n` in name order (as Paddle lists those a backward adds)."""
        items = list(self.vars.items())
        self.vars.clear()
        self.vars.update(items[:n] + sorted(items[n:]))

    def _remove_var(self, name):
        self.vars.pop(name, None)
        self.program._bump()

    def _rename_var(self, name, new_name):
        """Rename this block's variable `name` (str or bytes) to `new_name`, in its ops' inputs and outputs too, as
        Paddle's; returns the variable."""
        name, new_name = (n.decode() if isinstance(n, bytes) else n for n in (name, new_name))
        if name not in self.vars:
            raise ValueError(f"Block._rename_var: variable '{name}' is not in block {self.idx}")
        if new_name != name and new_name in self.vars:
            raise ValueError(f"Block._rename_var: block {self.idx} already has a variable '{new_name}'")
        var = self.vars.pop(name)
        var.name = new_name
        self.vars[new_name] = var
        for op in self.ops:
            op._rename_input(name, new_name)
            op._rename_output(name, new_name)
        self.program._bump()
        return var

    def all_parameters(self):
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def iter_parameters(self):
        return iter(self.all_parameters())

    # ---- ops ------------------------------------------------------------------------------------
    def _make_op(self, type, inputs, outputs, attrs):
        opdef = get_op(type)  # an unknown op type fails here, clearly
        ins = {k: _names(v, type, k) for k, v in (inputs or {}).items()}
        outs = {k: _names(v, type, k) for k, v in (outputs or {}).items()}
        attrs = {**opdef.attrs, **(attrs or {})}  # as Paddle's OpDesc: every declared attribute, defaults filled
        attrs.setdefault(OP_ROLE_ATTR, self.program._op_role)
        return Operator(self, type, ins, outs, attrs)

    def append_op(self, type, inputs=None, outputs=None, attrs=None, **kwargs):
        """Append an op with explicit inputs/outputs ({slot: Variable | name | [..]})."""
        op = self._make_op(type, inputs, outputs, attrs)
        self.ops.append(op)
        self._mark_outputs(op)
        self.program._bump()
        return op

    def _insert_op(self, index, type, inputs=None, outputs=None, attrs=None, **kwargs):
        op = self._make_op(type, inputs, outputs, attrs)
        self.ops.insert(index, op)
        self._mark_outputs(op)
        self.program._bump()
        return op

    def _prepend_op(self, type, inputs=None, outputs=None, attrs=None, **kwargs):
        return self._insert_op(0, type, inputs, outputs, attrs)

    def _remove_op(self, index, sync=True):
        del self.ops[index]
        self.program._bump()

    def _append_operator(self, op):
        """Append an already built Operator (backward and control flow build them first)."""
        op.block = self
        self.ops.append(op)
        self._mark_outputs(op)
        self.program._bump()
        return op

    def _mark_outputs(self, op):
        for n in op.output_arg_names:
            v = self._find_var_recursive(n)
            if v is not None:
                v.op = op

    @property
    def backward_block_idx(self):
        """The grad block built for this (sub-)block by append_backward, or -1."""
        return next((b.idx for b in self.program.blocks if b.forward_block_idx == self.idx), -1)

    def to_string(self, throw_on_error=False, with_details=False):
        lines = [f"{{ // block_idx:{self.idx}  parent_idx:{self.parent_idx}  "
                 f"forward_idx:{self.forward_block_idx}  backward_idx:{self.backward_block_idx}"]
        internal = _grad_body_temporaries(self.ops)
        lines += ["    " + v.to_string() for v in self.vars.values() if v.name not in internal]
        lines.append("")
        lines += ["    " + op.to_string() for op in self.ops]
        lines.append("}")
        return "\n".join(lines)

    __str__ = to_string

    def __repr__(self):
        return f"Block(idx={self.idx}, {len(self.vars)} vars, {len(self.ops)} ops)"


def _names(value, op_type, slot):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [_name_of(v, op_type, slot) for v in value]
    return [_name_of(value, op_type, slot)]


def _name_of(v, op_type, slot):
    if isinstance(v, str):
        return v
    if getattr(v, "_is_variable", False):
        return v.name
    raise TypeError(f"append_op('{op_type}'): slot '{slot}' must hold Variables or names, "
                    f"received {type(v).__name__}")


_global_seed = [0]  # the random_seed new Programs start with (Program.global_seed)


class Program:
    """A list of blocks; block 0 is the global block. `_version` changes whenever the program does."""

    _next_id = [0]

    def __init__(self):
        self.blocks = [Block(self, 0)]
        self.current_block_idx = 0
        self._version = 0
        self._appending_grad_times = 0
        self._op_role = OP_ROLE_FORWARD
        self._grad_group_counter = 0
        self._recompute_counter = 0  # a recomputing backward's segments: their copies' name suffixes
        self._seed = _global_seed[0]
        # names of the ops' temporaries (`mean_0.tmp_0`), counted per program as Paddle's LayerHelper does:
        # a new program starts again at `_0` whatever unique_name.guard is active
        self._name_generator = unique_name.UniqueNameGenerator()
        Program._next_id[0] += 1
        self._uid = Program._next_id[0]
        self._flushed_desc = None  # the ProgramDesc bytes at the last desc.flush()

    @property
    def desc(self):
        from .program_desc import ProgramDesc  # the protobuf form builds on this module
        return ProgramDesc(self)

    @staticmethod
    def parse_from_string(binary_str):
        """The Program a ProgramDesc's bytes (`program.desc.serialize_to_string()`) describe."""
        from .program_desc import read_program
        return read_program(binary_str, "the string given", "Program.parse_from_string")[0]

    @property
    def random_seed(self):
        """The seed of the random ops this program's startup and main run (0: not fixed)."""
        return self._seed

    @random_seed.setter
    def random_seed(self, seed):
        if not isinstance(seed, int) or isinstance(seed, bool):  # ValueError, as Paddle
            raise ValueError(f"Program.random_seed: the seed must be an integer, received {type(seed).__name__}")
        self._seed = seed

    def global_seed(self, seed=0):
        """Seed this program's random ops and every Program created after it (Paddle's process-wide default)."""
        _global_seed[0] = seed
        self._seed = seed

    def _bump(self):
        self._version += 1

    def global_block(self):
        return self.blocks[0]

    def block(self, index):
        return self.blocks[index]

    def current_block(self):
        return self.blocks[self.current_block_idx]

    @property
    def num_blocks(self):
        return len(self.blocks)

    def _create_block(self, parent_idx=None):
        parent = self.current_block_idx if parent_idx is None else parent_idx
        b = Block(self, len(self.blocks), parent)
        self.blocks.append(b)
        self.current_block_idx = b.idx
        self._bump()
        return b

    def _rollback(self):
        self.current_block_idx = self.current_block().parent_idx

    def list_vars(self):
        for b in self.blocks:
            yield from b.vars.values()

    def all_parameters(self):
        return self.global_block().all_parameters()

    # ---- the values of its persistable variables --------------------------------------------------
    def state_dict(self, mode="all", scope=None):
        """{name: LoDTensor} of the parameters ('param'), the other persistable variables -- optimizer state,
        buffers -- ('opt') or both ('all') in `scope` (default: the global scope)."""
        if not isinstance(mode, str):
            raise TypeError(f"Program.state_dict: mode should be a str, received {type(mode).__name__}")
        if mode not in ("all", "param", "opt"):
            raise ValueError(f"Program.state_dict: mode should be 'param', 'opt' or 'all', received '{mode}'")
        wanted = {"param": lambda v: isinstance(v, Parameter),
                  "opt": lambda v: not isinstance(v, Parameter) and not v.is_data and _holds_state(v),
                  "all": lambda v: isinstance(v, Parameter) or (not v.is_data and _holds_state(v))}[mode]
        return {v.name: v.get_value(scope) for v in self.list_vars() if wanted(v)}

    def set_state_dict(self, state_dict, scope=None):
        """Write each value of `state_dict` into the variable of its name in `scope`; a name the program lacks or a
        value that does not fit is skipped with a warning, as Paddle's."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Program.set_state_dict: state_dict should be a dict, received "
                            f"{type(state_dict).__name__}")
        variables = {v.name: v for v in self.list_vars()}
        for name, value in state_dict.items():
            if name not in variables:
                warnings.warn(f"Skip loading for '{name}'. Because '{name}' not in the program.")
                continue
            try:
                variables[name].set_value(value, scope)
            except (ValueError, TypeError) as err:
                warnings.warn(f"Skip loading for '{name}'. {err}")

    @contextlib.contextmanager
    def _optimized_guard(self, param_and_grads=None):
        prev = self._op_role
        self._op_role = OP_ROLE_OPTIMIZE
        try:
            yield
        finally:
            self._op_role = prev

    @contextlib.contextmanager
    def _backward_role_guard(self):
        prev = self._op_role
        self._op_role = OP_ROLE_BACKWARD
        try:
            yield
        finally:
            self._op_role = prev

    def to_string(self, throw_on_error=False, with_details=False):
        return "".join(b.to_string() + "\n" for b in self.blocks)

    __str__ = to_string

    def __repr__(self):
        return f"Program({len(self.blocks)} blocks, {sum(len(b.ops) for b in self.blocks)} ops)"

    def to_dot(self, path=None):
        return program_to_dot(self, path)

    def clone(self, for_test=False):
        """A deep copy (new Variables/Operators). for_test=True keeps only forward ops and sets test attrs."""
        p = Program()
        p.random_seed = self.random_seed
        p._name_generator = self._name_generator.clone()
        p._appending_grad_times = self._appending_grad_times
        if not for_test and getattr(self, "lr_scheduler", None) is not None:
            p.lr_scheduler = self.lr_scheduler  # a training copy keeps its learning-rate schedule
        p.blocks = []
        for b in self.blocks:
            nb = Block(p, b.idx, b.parent_idx)
            nb.forward_block_idx = b.forward_block_idx
            p.blocks.append(nb)
        for b, nb in zip(self.blocks, p.blocks):
            for name, v in b.vars.items():
                if for_test and GRAD_SUFFIX in name:
                    continue
                nv = object.__new__(type(v))
                nv.__dict__.update(v.__dict__)
                nv.block = nb
                nv.op = None
                nb.vars[name] = nv
            for op in b.ops:
                role = op._attrs.get(OP_ROLE_ATTR, 0)
                if for_test and role & (OP_ROLE_BACKWARD | OP_ROLE_OPTIMIZE):
                    continue
                attrs = {k: (p.blocks[v.idx] if isinstance(v, Block) else v) for k, v in op._attrs.items()}
                if for_test:
                    if "is_test" in attrs:
                        attrs["is_test"] = True
                    if "training" in attrs and isinstance(attrs["training"], bool):
                        attrs["training"] = False
                nop = op._copy_to(nb, attrs)
                nb.ops.append(nop)
                nb._mark_outputs(nop)
        return p

    def __deepcopy__(self, memo):
        return self.clone()

    # ---- copying information between programs (Paddle's low-level API) ------------------------------
    def _copy_param_info_from(self, other):
        """The global block's variables that are parameters of `other`'s global block become Parameters, with
        their attributes (what a program rebuilt from another's desc has lost)."""
        _check_other_program(other, "_copy_param_info_from")
        block = self.global_block()
        for p in other.global_block().all_parameters():
            v = block.vars.get(p.name)
            if v is None:  # pruned away
                continue
            param = object.__new__(type(p))
            param.__dict__.update(p.__dict__)
            param.block, param.op, param._shape, param._dtype = block, v.op, v._shape, v._dtype
            block.vars[p.name] = param
        self._bump()

    def _copy_dist_param_info_from(self, other):
        """The parameter-server settings of `other` (Paddle's fleet sets them on a program)."""
        _check_other_program(other, "_copy_dist_param_info_from")
        for name in _DIST_SETTINGS:
            setattr(self, name, getattr(other, name))

    # ---- pruning (Paddle's low-level API, what Executor.run(use_prune=True) runs) --------------------
    def _prune(self, targets):
        """A new Program of the ops `targets` (Variables, names or Operators) need."""
        return self._prune_with_input([], targets)

    def _prune_with_input(self, feeded_var_names, targets):
        """A new Program of the ops `targets` need when the variables `feeded_var_names` are fed."""
        from .prune import prune_with_input  # pruning builds on this module
        return prune_with_input(self, feeded_var_names, targets)


# a program's parameter-server settings, Paddle's defaults (fleet's transpilers set them; nothing here reads them)
_DIST_SETTINGS = {"_is_distributed": False, "_is_chief": False, "_parameters_on_pservers": None, "_endpoints": (),
                  "_ps_endpoint": None, "_distributed_lookup_table": None}
for _name, _value in _DIST_SETTINGS.items():
    setattr(Program, _name, _value)


def _check_other_program(other, api):
    if not isinstance(other, Program):  # TypeError, as Paddle
        raise TypeError(f"Program.{api}: the source must be a Program, received {type(other).__name__}")


def _holds_state(v):
    return v.persistable and v.type not in ("FEED_MINIBATCH", "FETCH_LIST", "READER")


# ---- default programs and guards -----------------------------------------------------------------

def program_unique_name(key):
    """`<key>_<n>`, n counted by the current main program: Paddle's static LayerHelper(key) names its layers
    (`fc_0`), their parameters (`fc_0.w_0`), a Variable operator's temporaries (`tmp_0`) and unnamed variables
    (`_generated_var_0`) so; Layers' own names (`linear_0`) and eager names count process-wide (unique_name)."""
    return default_main_program()._name_generator(key)


def default_main_program():
    return _building.main


def manual_program_seed(seed):
    """Paddle's paddle.framework.random._manual_program_seed: the default programs' and every new Program's
    random_seed."""
    default_main_program().random_seed = seed
    default_startup_program().random_seed = seed
    Program().global_seed(seed)


def default_startup_program():
    return _building.startup


def switch_main_program(program):
    old = _building.main
    _building.main = program
    return old


def switch_startup_program(program):
    old = _building.startup
    _building.startup = program
    return old


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    """Build ops into `main_program` (and parameter initialisers into `startup_program`)."""
    if not isinstance(main_program, Program):
        raise TypeError(f"program_guard: main_program must be a Program, received {type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"program_guard: startup_program must be a Program, "
                        f"received {type(startup_program).__name__}")
    old_main = switch_main_program(main_program)
    old_startup = switch_startup_program(startup_program) if startup_program is not None else None
    try:
        yield
    finally:
        switch_main_program(old_main)
        if startup_program is not None:
            switch_startup_program(old_startup)


class _NameScope:
    """A node of Paddle's name-scope tree: a prefix repeated under one parent is numbered (`optimizer_1`)."""

    def __init__(self, name="", parent=None):
        self.name, self.parent, self._children = name, parent, {}

    def child(self, prefix):
        n = self._children.get(prefix, 0)
        self._children[prefix] = n + 1
        return _NameScope(prefix if n == 0 else f"{prefix}_{n}", self)

    def path(self):
        return "/" if self.parent is None else f"{self.parent.path()}{self.name}/"


_DEFAULT_PROGRAMS = (Program(), Program())  # the main and startup programs every thread starts with


class _Building(threading.local):
    """What this thread's static APIs build into: its main and startup programs, and the name scope, op_role_var
    and op_device its guards set. Per thread, as the static mode is (framework/mode.py): a program_guard or a
    to_static trace in one thread never redirects another thread's ops. Every thread starts on the default
    programs (shared, as Paddle's)."""

    def __init__(self):
        self.main, self.startup = _DEFAULT_PROGRAMS
        self.name_scope = _NameScope()
        self.role_var = ()  # the (parameter, gradient) names an optimizer records on the ops it builds for them
        self.device = None  # the device device_guard names for the ops built inside it


_building = _Building()


@contextlib.contextmanager
def name_scope(prefix=None):
    """Ops built inside carry `op_namescope` = '/<outer>/<prefix>/' (numbered when repeated), as Paddle's."""
    if not in_static_mode():
        yield
        return
    if not prefix:  # an AssertionError, as Paddle's assert
        raise AssertionError("name_scope: namescope prefix can not be empty")
    previous = _building.name_scope
    _building.name_scope = previous.child(prefix)
    try:
        yield
    finally:
        _building.name_scope = previous


@contextlib.contextmanager
def role_var_guard(param, grad):
    """Ops built inside carry op_role_var = [param, grad], as ops under Paddle's program._optimized_guard."""
    previous = _building.role_var
    _building.role_var = (param.name, grad.name)
    try:
        yield
    finally:
        _building.role_var = previous


@contextlib.contextmanager
def device_guard(device=None):
    """Ops built inside carry `op_device` = device ('cpu', 'gpu', 'gpu:<i>'; None/'' leave it unset), as
    Paddle's device_guard records it; the executor runs every op on its own place."""
    name, index = device, None
    if device and ":" in device:
        name, index = device.split(":", 1)
        if name == "cpu":
            raise ValueError("Should not set device id for cpu.")
    if name not in ("cpu", "gpu", "dcu", "xpu", "", None):
        raise ValueError("The Attr(device) should be 'cpu', 'xpu', 'dcu', 'gpu' or custom device, and it can also "
                         f"be empty string or None when there is no need to specify device. But received {device}")
    previous = _building.device
    _building.device = device
    try:
        yield
    finally:
        _building.device = previous


class StaticModeRequired(AssertionError, RuntimeError):
    """A static-only API called in dynamic mode: Paddle's @static_only raises AssertionError (RuntimeError kept
    for callers that catch it)."""


def require_static(api):
    if not in_static_mode():
        raise StaticModeRequired(f"{api}: only available in static graph mode; call paddle.enable_static() first")


def names_of(values, api, arg):
    """A no_grad_set / parameter_list / fetch_list (set, list or tuple of Variables or names) -> names."""
    if values is None:
        return []
    if not isinstance(values, (set, list, tuple, frozenset)):
        raise TypeError(f"{api}: {arg} must be a set, list or tuple of Variables or names, "
                        f"received {type(values).__name__}")
    out = []
    for v in values:
        if isinstance(v, Variable):
            out.append(v.name)
        elif isinstance(v, str):
            out.append(v)
        else:
            raise TypeError(f"{api}: {arg} must hold Variables or names (str), received {type(v).__name__}")
    return out
