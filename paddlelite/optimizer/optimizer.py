"""The Optimizer base class, shared by both modes.

Each optimizer describes its update once, as registry ops (`sgd`, `momentum`, `merged_adam`, ...)
run through `_run(op_type, inputs, outputs, attrs)`:

* eagerly (`step()`), `_run` applies the op through the dispatcher under no_grad and rebinds the
  arrays of the parameters/accumulators named as outputs (arrays are never written in place);
* in static mode (`minimize(loss)`), `_run` appends the op to the main program with role Optimize,
  its outputs naming the same variables as its inputs (ParamOut = Param), and accumulators and the
  learning rate are persistable variables initialised by the startup program.
"""
from __future__ import annotations

import collections
import contextlib
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..autograd import no_grad
from ..device.graph_capture import recording
from ..framework import dtype as _dtype
from ..framework.mode import in_static_mode
from ..framework.tensor import Tensor, wrap_array
from ..ops import autocast, dispatch
from ..ops.launch import optimizer as _launch
from ..ops.registry import get_op
from ..static.framework import device_guard, name_scope
from ..utils import unique_name
from .lr import LRScheduler
from .regularizer import L2Decay, WeightDecayRegularizer

__all__ = ["Optimizer"]

_CAST = get_op("cast")


def _to_regularizer(api, weight_decay):
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, numbers.Real) and not isinstance(weight_decay, bool):
        return L2Decay(float(weight_decay)) if weight_decay else None
    raise TypeError(f"{api}: weight_decay must be a float, an L1Decay/L2Decay or None, received "
                    f"{type(weight_decay).__name__}")


def _is_static_var(v):
    return getattr(v, "_is_variable", False)


class Optimizer:
    """Base class. Subclasses set `type` (Paddle's name of the optimizer, its update op's type) and define
    `_append_updates(entries)`, where each entry is (param, grad, lr, group): `lr` a 1-element tensor/variable with
    the parameter's learning rate."""

    def __init__(self, learning_rate: float | LRScheduler,
                 parameters: Sequence[Tensor] | Sequence[dict[str, Any]] | None = None,
                 weight_decay: float | WeightDecayRegularizer | None = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        api = type(self).__name__
        if isinstance(learning_rate, LRScheduler):
            self._learning_rate = learning_rate
        elif isinstance(learning_rate, numbers.Real) and not isinstance(learning_rate, bool):
            if learning_rate < 0:
                raise ValueError(f"{api}: learning_rate must be non-negative, received {learning_rate}")
            self._learning_rate = float(learning_rate)
        else:
            raise TypeError(f"{api}: learning_rate must be a float or an LRScheduler, received "
                            f"{type(learning_rate).__name__}")
        if grad_clip is not None:
            from ..nn.clip import ClipGradBase
            if not isinstance(grad_clip, ClipGradBase):
                raise TypeError(f"{api}: grad_clip must be a ClipGradByGlobalNorm/ByNorm/ByValue or None, "
                                f"received {type(grad_clip).__name__}")
        self._grad_clip = grad_clip
        self.regularization = _to_regularizer(api, weight_decay)
        self._name = name
        self._param_groups = []
        if parameters is None:
            if not in_static_mode():
                raise AttributeError(f"{api}: parameters must be given in dynamic mode, e.g. "
                                     f"{api}(parameters=model.parameters())")
        else:
            if isinstance(parameters, Tensor) or _is_static_var(parameters):
                raise TypeError(f"{api}: parameters must be a list of Tensors (or of param-group dicts), "
                                f"received a single {type(parameters).__name__}")
            parameters = list(parameters)
            if parameters and isinstance(parameters[0], dict):
                for group in parameters:
                    self._add_param_group(dict(group))
            else:
                self._add_param_group({"params": parameters})
        # the parameters' dtype (the first one's; in static mode without parameters, the loss's), as Paddle's
        first = next((p for group in self._param_groups for p in group["params"]), None)
        self._dtype = None if first is None else first.dtype
        self._accumulators = collections.OrderedDict()  # acc name -> {param name: Tensor | Variable}
        self._pending_state = {}
        self._lr_cache = {}
        self._static_lr = {}
        self._master_weights = {}  # param name -> float32 master weight (multi_precision, dynamic mode)
        self._master_names = {}  # static master weight's name -> its parameter's name
        self._pending_masters = {}  # loaded by set_state_dict before the parameter's first update

    # ---- parameters -----------------------------------------------------------------------------
    def _add_param_group(self, group):
        api = type(self).__name__
        params = group.get("params")
        if params is None:
            raise KeyError(f"{api}: a parameter group needs a 'params' entry")
        params = [params] if isinstance(params, Tensor) or _is_static_var(params) else list(params)
        for p in params:
            if not (isinstance(p, Tensor) or _is_static_var(p)):
                raise TypeError(f"{api}: parameters must be Tensors, received {type(p).__name__}")
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError(f"{api}: a parameter appears in more than one parameter group")
        group["params"] = params
        if "weight_decay" in group:
            group["weight_decay"] = _to_regularizer(api, group["weight_decay"])
        self._param_groups.append(group)

    @property
    def _parameter_list(self):
        return [p for g in self._param_groups for p in g["params"]]

    # ---- learning rate --------------------------------------------------------------------------
    def get_lr(self) -> float:
        lr = self._learning_rate
        return float(lr()) if isinstance(lr, LRScheduler) else lr

    def set_lr(self, value: float) -> None:
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError(f"{type(self).__name__}.set_lr: the learning rate is an LRScheduler; "
                               "step the scheduler instead (set_lr needs a float learning rate)")
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(f"{type(self).__name__}.set_lr: value must be a float, received {type(value).__name__}")
        self._learning_rate = float(value)
        from ..static import global_scope
        for var in self._static_lr.values():
            slot = global_scope().find_var(var.name)
            if slot is not None:
                slot.get_tensor().set(np.full(var._shape, value, dtype=np.float32), None)

    def set_lr_scheduler(self, scheduler: LRScheduler) -> None:
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(f"{type(self).__name__}.set_lr_scheduler: expected an LRScheduler, received "
                            f"{type(scheduler).__name__}")
        self._learning_rate = scheduler

    def _eager_lr(self, place, value, ratio, dtype):
        """The [1] learning-rate tensor holding `value` (the current rate times the parameter's `ratio`)."""
        lr_dtype = np.float64 if dtype == np.float64 else np.float32
        key = (place, ratio, lr_dtype)
        cached = self._lr_cache.get(key)
        if cached is None:
            cached = self._lr_cache[key] = [value, wrap_array(place.xp.full((1,), value, dtype=lr_dtype), place, True)]
        elif recording() is None:
            _fill_lr(cached, value)
        return cached[1]

    def _refresh_eager_lrs(self):
        """Write the current learning rate into the arrays a captured update reads (before each replay of a CUDA
        graph holding this optimizer's step, which runs none of its host code)."""
        base = self.get_lr()
        for (_, ratio, _), cached in self._lr_cache.items():
            _fill_lr(cached, base * ratio)

    def _global_learning_rate(self, program=None):
        """The learning-rate variable this optimizer's updates read in `program` (default: the main program), None
        before minimize/apply_gradients appended them there (Paddle's name, which Paddle's tests fetch)."""
        from .. import static
        program = static.default_main_program() if program is None else program
        return self._static_lr.get(program._uid)

    def _static_lr_var(self, program, startup, ratio):
        from .. import static
        base = self._static_lr.get(program._uid)
        if base is None:
            name = unique_name.generate("learning_rate")
            base = _persistable_var(program, startup, name, [], "float32", self.get_lr())  # 0-D, as Paddle 3.3.1
            self._static_lr[program._uid] = base
            if isinstance(self._learning_rate, LRScheduler):
                self._learning_rate._var_name = name
                program.lr_scheduler = self._learning_rate
        if ratio == 1.0:
            return base
        key = (program._uid, ratio)
        scaled = self._static_lr.get(key)
        if scaled is None:
            from ..tensor.math import scale
            with static.program_guard(program, startup):
                scaled = scale(base, ratio)
            self._static_lr[key] = scaled
        return scaled

    # ---- accumulators ---------------------------------------------------------------------------
    def _acc(self, name, param, fill_value=0.0, shape=None, dtype=None, device=None):
        """The accumulator `name` of `param` ('<param>_<name>_0'), created filled with fill_value (in static
        mode by a startup op on `device`, as Paddle's device_guard records it: its beta powers are 'cpu')."""
        d = self._accumulators.setdefault(name, {})
        pname = self._param_name(param)
        t = d.get(pname)
        if t is not None:
            return t
        shape = list(param.shape) if shape is None else list(shape)
        dtype = _dtype.convert_dtype(dtype or param.dtype).name
        var_name = f"{pname}_{name}_0"
        if in_static_mode():
            with device_guard(device):
                t = _persistable_var(self._program, self._startup, var_name, shape, dtype, fill_value, False)
        else:
            xp = param._place.xp
            pending = self._pending_state.pop(var_name, None)
            if pending is not None:
                arr = _state_array(pending, var_name, shape, dtype)
                data = xp.asarray(arr) if xp is not np else arr.copy()
            else:
                data = xp.full(shape, fill_value, dtype=np.dtype(dtype))
            t = wrap_array(data, param._place, True)
            t.name = var_name
            t.persistable = True
        d[pname] = t
        return t

    # ---- running update ops ---------------------------------------------------------------------
    def _run(self, op_type, inputs, outputs, attrs):
        """Apply optimizer op `op_type`: eagerly (its results written into the parameters' and accumulators'
        storage, so views and detached aliases see the update) or appended to the program."""
        op = get_op(op_type)
        if in_static_mode():
            return self._block.append_op(type=op_type, inputs=self._static_inputs(op, inputs), outputs=outputs,
                                         attrs={**op.fill_attrs(attrs or {}), **self._static_update_attrs(inputs)})
        # each result goes into the tensor its op read (ParamOut into Param, ...): the GPU kernels may write there
        in_place = all(outputs.get(slot) is inputs.get(slot[:-3]) for slot in op.outputs
                       if slot.endswith("Out") and slot[:-3] in inputs)
        with _launch.updating_in_place() if in_place else contextlib.nullcontext():
            result = dispatch.apply(op, *map(inputs.get, op.inputs), **(attrs or {}))
        if op.n_out == 1:
            result = (result,)
        for slot, res in zip(op.outputs, result):
            targets = outputs.get(slot)
            if targets is None:
                continue
            if isinstance(targets, (list, tuple)):
                for t, r in zip(targets, res):
                    t._take(r._data)
            else:
                targets._take(res._data)
        return None

    @staticmethod
    def _static_inputs(op, inputs):
        """The update op's inputs as Paddle's desc lists them: optional slots without a value are empty."""
        return {slot: [] if inputs.get(slot) is None else inputs[slot] for slot in op.inputs
                if slot in inputs or slot in op.optional_inputs}

    def _static_update_attrs(self, inputs):
        """What Paddle's optimizer records on each parameter's update op: the (param, grad) pair it updates, and
        a name scope of its own ('/optimizer/', '/optimizer_1/', ... in the program)."""
        param, grad = inputs.get("Param"), inputs.get("Grad")
        if not hasattr(param, "name") or not hasattr(grad, "name"):  # none, or a merged update of many
            return {}
        program = self._block.program
        k = program.__dict__.setdefault("_optimizer_scopes", 0)
        program._optimizer_scopes = k + 1
        return {"op_role_var": [param.name, grad.name], "op_namescope": f"/optimizer{'' if k == 0 else f'_{k}'}/"}

    # ---- the update -----------------------------------------------------------------------------
    def _collect(self, params_grads=None):
        """[(param, grad, group)] for parameters that have a gradient."""
        if params_grads is not None:
            group_of = {id(p): g for g in self._param_groups for p in g["params"]}
            default = {"params": []}
            return [(p, g, group_of.get(id(p), default)) for p, g in params_grads if g is not None]
        out = []
        for group in self._param_groups:
            for p in group["params"]:
                if not p.stop_gradient and (p._grad is not None or p._grad_is_zeros):
                    out.append((p, p.grad, group))
        return out

    _fuses_l2 = False  # an optimizer whose op applies the optimizer-level L2 decay itself (Momentum)
    _decoupled_decay = False  # AdamW: weight decay is not a gradient term

    def _regularizer_of(self, p, group):
        reg = getattr(p, "regularizer", None)
        if reg is not None:
            return reg
        return group["weight_decay"] if "weight_decay" in group else self.regularization

    def _regularized(self, p, g, group):
        reg = self._regularizer_of(p, group)
        fused = self._fuses_l2 and getattr(p, "regularizer", None) is None and isinstance(reg, L2Decay)
        return g if reg is None or fused else reg(p, g)

    def _prepare(self, triples):
        """Clip, regularize and attach learning rates: [(param, grad, lr, group)]."""
        if self._grad_clip is not None:
            clipped = self._grad_clip([(p, g) for p, g, _ in triples])
            triples = [(p, g, grp) for (p, g), (_, _, grp) in zip(clipped, triples)]
        if not self._decoupled_decay:
            # one scope for all the parameters' terms, as Paddle's (static only: eagerly a generator context per
            # step would cost more than the loop)
            with name_scope("regularization") if in_static_mode() else contextlib.nullcontext():
                triples = [(p, self._regularized(p, g, group), group) for p, g, group in triples]
        entries = []
        base_lr = None if in_static_mode() else self.get_lr()  # a scheduler computes it once per update, not per parameter
        capture = None if in_static_mode() else recording()
        if capture is not None:  # captured into a CUDA graph: the rate is written before each launch, not in it
            capture.on_launch(self._refresh_eager_lrs)
        for p, g, group in triples:
            ratio = float(getattr(p, "optimize_attr", {}).get("learning_rate", 1.0)) * \
                float(group.get("learning_rate", 1.0))
            ratio *= self._lr_ratio(p)
            if in_static_mode():
                lr = self._static_lr_var(self._program, self._startup, ratio)
            else:
                lr = self._eager_lr(p._place, base_lr * ratio, ratio, p._data.dtype)
            entries.append((p, g, lr, group))
        return entries

    def _lr_ratio(self, param):
        return 1.0

    _multi_precision = False  # float16/bfloat16 parameters are updated through float32 master weights

    def _update(self, triples):
        """Append or run the updates for [(param, grad, group)]. With multi_precision, a float16/bfloat16
        parameter's update runs on its float32 master weight (gradient cast to float32, accumulators float32
        under the parameter's names, as Paddle's), then the master is cast into the parameter."""
        if not self._multi_precision:
            return self._apply_updates(self._prepare(triples))
        master_of = self._static_master if in_static_mode() else self._master_weight
        low = [(p, master_of(p)) for p, _, _ in triples if p.dtype.np in _dtype.LOW_PRECISION]
        masters = {id(p): m for p, m in low}
        triples = [(masters[id(p)], dispatch.apply(_CAST, g, dtype="float32"), group) if id(p) in masters
                   else (p, g, group) for p, g, group in triples]
        self._apply_updates(self._prepare(triples))
        for p, m in low:
            if in_static_mode():
                self._block.append_op(type="cast", inputs={"X": m}, outputs={"Out": p}, attrs={"dtype": p.dtype.name})
            else:
                p._write(dispatch.apply(_CAST, m, dtype=p.dtype.name)._data)

    def _param_name(self, t):
        """The name of the parameter `t` is (or, for a static master weight, stands for)."""
        return self._master_names.get(t.name, t.name)

    def _static_master(self, param):
        """The persistable float32 master weight '<param>_fp32_master_0' of static parameter `param`, which
        the startup program initialises by casting the parameter."""
        name = param.name + "_fp32_master_0"
        block = self._program.global_block()
        if block.has_var(name):
            return block.var(name)
        master = block.create_var(name=name, shape=list(param.shape), dtype="float32", persistable=True,
                                  stop_gradient=True)
        startup = self._startup.global_block()
        target = startup.create_var(name=name, shape=list(param.shape), dtype="float32", persistable=True,
                                    stop_gradient=True)
        startup.append_op(type="cast", inputs={"X": startup.var(param.name)}, outputs={"Out": target},
                          attrs={"dtype": "float32"})
        _copy_update_attrs(param, master)
        self._master_names[name] = param.name
        return master

    def _master_weight(self, param):
        """The float32 master weight of `param`, created from it (or from a loaded state) on first use. It
        carries the parameter's name, so accumulators are named after the parameter."""
        master = self._master_weights.get(param.name)
        if master is None:
            pending = self._pending_masters.pop(param.name, None)
            if pending is not None:
                arr = _state_array(pending, param.name, param.shape, "float32")
                master = wrap_array(param._place.xp.asarray(arr).copy(), param._place, True)
            else:
                master = dispatch.apply(_CAST, param.detach(), dtype="float32")
            master.name = param.name
            master.persistable = True
            _copy_update_attrs(param, master)
            self._master_weights[param.name] = master
        return master

    def _apply_updates(self, entries):
        with autocast.suspended():  # the updates run (or are appended) in place: Paddle never autocasts them
            self._append_updates(entries)

    def _append_updates(self, entries):
        raise TypeError(f"{type(self).__name__} does not define its update")

    def step(self) -> None:
        """Update every parameter that has a gradient (dynamic mode)."""
        if in_static_mode():
            raise RuntimeError(f"{type(self).__name__}.step() is for dynamic mode; in static mode call "
                               "optimizer.minimize(loss) while building the program")
        with no_grad():
            triples = self._collect()
            if triples:
                self._update(triples)

    def apply_gradients(self, params_grads):
        """Append (static: to the default programs) or run (dynamic) the updates for `params_grads`."""
        if in_static_mode():
            from .. import static
            return self._append_static_updates(params_grads, static.default_main_program(),
                                               static.default_startup_program())
        with no_grad():
            triples = self._collect(params_grads)
            if triples:
                self._update(triples)

    def backward(self, loss, startup_program=None, parameters=None, no_grad_set=None, callbacks=None):
        """Static: append the backward pass; dynamic: the current (param, grad) pairs."""
        if in_static_mode():
            from .. import static
            params = parameters if parameters is not None else (self._parameter_list or None)
            return static.append_backward(loss, parameter_list=params, no_grad_set=no_grad_set,
                                          callbacks=callbacks)
        return [(p, p._grad) for p in self._parameter_list if not p.stop_gradient and p._grad is not None]

    def minimize(self, loss: Tensor, startup_program: Any = None, parameters: Sequence[Tensor] | None = None,
                 no_grad_set: Any = None) -> tuple[Any, list[tuple[Tensor, Tensor]]]:
        """Dynamic mode (as in Paddle): update the parameters from the gradients a previous
        `loss.backward()` produced. Static mode: append the backward pass and the update ops.
        Returns (optimize_ops, params_grads)."""
        if not in_static_mode():
            if not isinstance(loss, Tensor):
                raise TypeError(f"{type(self).__name__}.minimize: loss must be a Tensor, received "
                                f"{type(loss).__name__}")
            params_grads = self.backward(loss)
            with no_grad():
                triples = self._collect()
                if triples:
                    self._update(triples)
            return None, params_grads
        return self._minimize_static(loss, startup_program, parameters, no_grad_set)

    def _minimize_static(self, loss, startup_program, parameters, no_grad_set):
        from .. import static
        if not _is_static_var(loss):
            raise TypeError(f"{type(self).__name__}.minimize: in static mode loss must be a Variable, received "
                            f"{type(loss).__name__}")
        program = loss.block.program
        startup = startup_program or static.default_startup_program()
        if self._dtype is None:
            self._dtype = loss.dtype
        params_grads = self.backward(loss, startup, parameters, no_grad_set)
        return self._append_static_updates(params_grads, program, startup), params_grads

    def _append_static_updates(self, params_grads, program, startup):
        """The update ops for `params_grads`, appended to `program` (accumulators initialised by `startup`)."""
        from .. import static
        self._program, self._startup = program, startup
        self._block = program.current_block()  # a control-flow block when the updates are conditional
        n_before = len(self._block.ops)
        params_grads = sorted(params_grads, key=lambda pg: pg[0].name)  # Paddle updates parameters by name
        with static.program_guard(program, startup), program._optimized_guard(params_grads):
            triples = self._collect(params_grads)
            if triples:
                self._update(triples)
            else:  # nothing to update: the learning rate exists all the same, as Paddle's
                self._static_lr_var(program, startup, 1.0)
        return self._block.ops[n_before:]

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self._parameter_list:
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    # ---- state ----------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """{accumulator name: Tensor} plus 'LR_Scheduler' (the scheduler's state) when there is one."""
        state = collections.OrderedDict()
        for d in self._accumulators.values():
            for t in d.values():
                state[t.name] = t
        if self._master_weights:
            state["master_weights"] = dict(self._master_weights)
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not isinstance(state_dict, dict):
            raise TypeError(f"{type(self).__name__}.set_state_dict: expected a dict, received "
                            f"{type(state_dict).__name__}")
        state = dict(state_dict)
        lr_state = state.pop("LR_Scheduler", None)
        if lr_state is not None and isinstance(self._learning_rate, LRScheduler):
            self._learning_rate.set_state_dict(lr_state)
        for name, value in state.pop("master_weights", {}).items():
            master = self._master_weights.get(name)
            if master is None:  # a copy: the master is created at the parameter's next update
                self._pending_masters[name] = np.array(value.numpy() if isinstance(value, Tensor) else value)
            else:
                master._write(master._place.xp.asarray(_state_array(value, name, master.shape, "float32")))
        for d in self._accumulators.values():
            for t in d.values():
                if t.name in state:
                    value = state.pop(t.name)
                    arr = _state_array(value, t.name, t.shape, t.dtype.name)
                    t._write(t._place.xp.asarray(arr))
        self._pending_state.update(state)  # accumulators not created yet take these when they are

    set_dict = set_state_dict


def _fill_lr(cached, value):
    """Write `value` into a cached [value, learning-rate tensor] in place: a captured step reads its learning rate
    at a fixed address."""
    if cached[0] != value:
        cached[1]._data.fill(value)
        cached[0] = value


def _copy_update_attrs(param, master):
    """What updates read off a parameter (its learning rate, regularizer, clipping), onto its master weight."""
    for attr in ("optimize_attr", "regularizer", "need_clip"):
        if hasattr(param, attr):
            setattr(master, attr, getattr(param, attr))


def _state_array(value, name, shape, dtype):
    arr = value._host() if isinstance(value, Tensor) else np.asarray(value)
    if list(arr.shape) != list(shape):
        raise ValueError(f"optimizer set_state_dict: '{name}' has shape {list(arr.shape)}, expected {list(shape)}")
    if arr.dtype != np.dtype(dtype):
        raise ValueError(f"optimizer set_state_dict: '{name}' has dtype {arr.dtype}, expected {np.dtype(dtype)}")
    return arr



def _persistable_var(program, startup, name, shape, dtype, value, stop_gradient=True):
    """A persistable optimizer variable of `program`, filled with `value` by an op of `startup` (Paddle's
    accumulators show stop_gradient=False in the main program, its learning rate True)."""
    var = program.global_block().create_var(name=name, shape=shape, dtype=dtype, persistable=True,
                                            stop_gradient=stop_gradient)
    var.belong_to_optimizer = True
    target = startup.global_block().create_var(name=name, shape=shape, dtype=dtype, persistable=True,
                                               stop_gradient=True)
    op = startup.global_block().append_op(type="fill_constant", outputs={"Out": [target]},
                                          attrs={"shape": shape, "value": float(value), "dtype": dtype})
    op._bare_desc = True  # as Paddle's: no empty input slots listed
    return var
