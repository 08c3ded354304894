"""LookAhead (Zhang et al. 2019): an inner optimizer takes the fast steps; every k steps the slow weights move alpha
of the way to the fast ones and the fast weights restart from them. ModelAverage: the parameters averaged over a
window of recent steps, swapped in for evaluation. Both eager, and both build their steps into static programs too.
RecomputeOptimizer: a static program's backward that computes the forward values between checkpoints again instead
of keeping them (less memory, the same gradients). GradientMergeOptimizer: a static program that sums the gradients of
k steps and updates every k-th step."""
import contextlib

from .. import static
from .. import tensor as _tensor
from ..autograd import no_grad
from ..fluid.framework import dygraph_only
from ..framework.mode import in_dynamic_mode, in_static_mode
from ..static.backward import append_backward
from ..static.framework import Variable, default_main_program, default_startup_program
from ..optimizer.optimizer import Optimizer
from ..utils import unique_name

__all__ = []


class LookAhead(Optimizer):
    """LookAhead(inner_optimizer, alpha=0.5, k=5): step() runs the inner optimizer's step, then on every k-th step
    sets slow = alpha * fast + (1 - alpha) * slow and fast = slow (slow starts as the weights after step 1)."""

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        if inner_optimizer is None:
            raise AssertionError("inner optimizer can not be None")
        if not 0.0 <= alpha <= 1.0:
            raise AssertionError("alpha should be larger or equal to 0.0, and less or equal than 1.0")
        if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
            raise AssertionError("k should be a positive integer")
        self.inner_optimizer = inner_optimizer
        super().__init__(learning_rate=alpha, parameters=inner_optimizer._parameter_list, name=name)
        self.alpha, self.k, self.type = alpha, k, "lookahead"
        self._steps = 0
        self._slow = {}

    @dygraph_only
    def step(self):
        self.inner_optimizer.step()
        self._steps += 1
        with no_grad():
            for p in self._parameter_list:
                if p.stop_gradient or p._grad is None:
                    continue
                if self._steps == 1:
                    self._slow[id(p)] = p.detach().clone()
                if self._steps % self.k == 0:
                    slow = self._slow[id(p)]
                    slow.set_value(self.alpha * p + (1.0 - self.alpha) * slow)
                    p.set_value(slow)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Eager (loss.backward() has run): one step. Static: the inner optimizer's backward and updates, then the
        ops of the lookahead step. Returns (the ops appended or None, the parameters with their gradients)."""
        if in_static_mode():
            return self._minimize_static(loss, startup_program, parameters, no_grad_set)
        params_grads = [(p, p._grad) for p in self._parameter_list if not p.stop_gradient and p._grad is not None]
        self.step()
        return None, params_grads

    def _minimize_static(self, loss, startup_program, parameters, no_grad_set):
        """The step as ops, with Paddle's masks instead of branches: a persistable step counter; each parameter's
        slow copy takes its value at step 1, and on every k-th step both become alpha * fast + (1 - alpha) * slow."""
        from .. import static
        from .. import tensor as T
        _, params_grads = self.inner_optimizer.minimize(loss, startup_program, parameters, no_grad_set)
        program = loss.block.program
        block = program.global_block()
        first_op = len(block.ops)
        with static.program_guard(program, startup_program or static.default_startup_program()):
            step = static.create_global_var([1], 0, "int32", persistable=True,
                                            name=unique_name.generate("lookahead_step"))
            T.assign(T.add(step, T.full([1], 1, "int32")), step)
            at_first = T.equal(step, T.full([1], 1, "int32"))
            at_sync = T.equal(T.remainder(step, T.full([1], self.k, "int32")), T.full([1], 0, "int32"))
            for p, _ in params_grads:
                first, sync = T.cast(at_first, p.dtype), T.cast(at_sync, p.dtype)
                slow = static.create_global_var(list(p.shape), 0.0, p.dtype, persistable=True,
                                                name=unique_name.generate(p.name + "_slow"))
                T.assign(first * p + (1.0 - first) * slow, slow)
                pulled = self.alpha * p + (1.0 - self.alpha) * slow
                T.assign(sync * pulled + (1.0 - sync) * p, p)
                T.assign(sync * pulled + (1.0 - sync) * slow, slow)
        return block.ops[first_op:], params_grads

    def clear_grad(self, set_to_zero=True):
        self.inner_optimizer.clear_grad(set_to_zero)


_MAX_ACCUMULATES = 16384  # Paddle's kMaxNumAccumulates: sum_1 moves into sum_2 this often (precision of long sums)


class _Average:
    """One parameter's running sums (Paddle's average_accumulates state)."""

    def __init__(self, param):
        zeros = param.detach().clone() * 0
        self.sums = [zeros, zeros.clone(), zeros.clone()]
        self.accumulates = self.old_accumulates = self.updates = 0
        self.backup = None


class ModelAverage(Optimizer):
    """The average of the parameters over a sliding window of recent steps: step() after each optimizer step adds
    them up; `with apply():` swaps the averages in (restored after, unless need_restore=False; restore() then).
    The window closes once it holds min_average_window steps and min(max_average_window, average_window_rate *
    steps) of them, as Paddle's average_accumulates op."""

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000, max_average_window=10000,
                 name=None):
        super().__init__(learning_rate=0.0, parameters=parameters, name=name)
        self.average_window, self.type = average_window_rate, "average_accumulates"
        self.min_average_window, self.max_average_window = min_average_window, max_average_window
        self._averages = {}
        if in_static_mode():  # as Paddle's: the main program's parameters are averaged from now on
            self._build_static(parameters)

    # ---- static programs: the running sums as ops of the main program, apply / restore as programs of their own
    _SUMS = ("sum_1", "sum_2", "sum_3")
    _COUNTS = ("num_accumulates", "old_num_accumulates", "num_updates")

    def _build_static(self, parameters):
        """Append to the main program, for each parameter, the update of its sums and counts (Paddle's
        average_accumulates, with masks for its branches); build the apply and restore programs."""
        from .. import static
        from .. import tensor as T
        program = static.default_main_program()
        params = list(parameters) if parameters else program.global_block().all_parameters()
        self._static = []
        for p in params:
            state = {n: static.create_global_var(list(p.shape), 0.0, p.dtype, persistable=True,
                                                 name=unique_name.generate(f"{p.name}_{n}")) for n in self._SUMS}
            state.update({n: static.create_global_var([1], 0, "int64", persistable=True,
                                                      name=unique_name.generate(f"{p.name}_{n}"))
                          for n in self._COUNTS})
            self._static.append((p, state))
            self._append_accumulate(T, p, state)
        self._apply_program, self._restore_program = static.Program(), static.Program()
        for p, state in self._static:
            self._append_apply(static, T, p, state)

    def _append_accumulate(self, T, p, st):
        def mask(cond):
            return T.cast(cond, p.dtype), T.cast(cond, "int64")
        one = T.full([1], 1, "int64")
        T.assign(T.add(st["num_updates"], one), st["num_updates"])
        T.assign(T.add(st["num_accumulates"], one), st["num_accumulates"])
        T.assign(st["sum_1"] + p, st["sum_1"])
        spill, _ = mask(T.equal(T.remainder(st["num_updates"], T.full([1], _MAX_ACCUMULATES, "int64")),
                                T.full([1], 0, "int64")))
        T.assign(st["sum_2"] + spill * st["sum_1"], st["sum_2"])
        T.assign((1.0 - spill) * st["sum_1"], st["sum_1"])
        window = T.minimum(T.full([1], self.max_average_window, "int64"),
                           T.cast(T.floor(T.cast(st["num_updates"], "float64") * self.average_window), "int64"))
        acc = st["num_accumulates"]
        close, close_int = mask(T.logical_and(T.greater_equal(acc, T.full([1], self.min_average_window, "int64")),
                                              T.greater_equal(acc, window)))
        T.assign(close * (st["sum_1"] + st["sum_2"]) + (1.0 - close) * st["sum_3"], st["sum_3"])
        T.assign((1.0 - close) * st["sum_1"], st["sum_1"])
        T.assign((1.0 - close) * st["sum_2"], st["sum_2"])
        T.assign(close_int * acc + (1 - close_int) * st["old_num_accumulates"], st["old_num_accumulates"])
        T.assign((1 - close_int) * acc, st["num_accumulates"])

    def _append_apply(self, static, T, p, st):
        """apply: back the parameter up and put its average in; restore: put the backup back."""
        with static.program_guard(self._apply_program):
            block = self._apply_program.global_block()
            param, backup = (block.create_var(name=n, shape=p.shape, dtype=p.dtype, persistable=True)
                             for n in (p.name, p.name + "@MODEL_AVERAGE_BACKUP"))
            sums = [block.create_var(name=st[n].name, shape=p.shape, dtype=p.dtype, persistable=True)
                    for n in self._SUMS]
            counts = [block.create_var(name=st[n].name, shape=[1], dtype="int64", persistable=True)
                      for n in ("num_accumulates", "old_num_accumulates")]
            T.assign(param, backup)
            total = T.cast(T.add(counts[0], counts[1]), "float32")
            average = T.cast(T.cast(T.add_n(sums), "float32") / total, p.dtype)
            T.assign(average, param)
        with static.program_guard(self._restore_program):
            block = self._restore_program.global_block()
            param, backup = (block.create_var(name=n, shape=p.shape, dtype=p.dtype, persistable=True)
                             for n in (p.name, p.name + "@MODEL_AVERAGE_BACKUP"))
            T.assign(backup, param)

    @dygraph_only
    def step(self):
        with no_grad():
            for p in self._parameter_list:
                if p.stop_gradient or p._grad is None:
                    continue
                a = self._averages.setdefault(id(p), _Average(p))
                a.updates += 1
                a.accumulates += 1
                a.sums[0] = a.sums[0] + p
                zeros = p.detach() * 0
                if a.updates % _MAX_ACCUMULATES == 0:
                    a.sums[0], a.sums[1] = zeros, a.sums[1] + a.sums[0]
                window = min(self.max_average_window, int(a.updates * self.average_window))
                if a.accumulates >= self.min_average_window and a.accumulates >= window:
                    a.sums = [zeros, zeros.clone(), a.sums[0] + a.sums[1]]
                    a.old_accumulates, a.accumulates = a.accumulates, 0

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        self.step()

    def _swap_in(self):
        with no_grad():
            for p in self._parameter_list:
                a = self._averages.get(id(p))
                if a is None:
                    continue
                a.backup = p.detach().clone()
                total = float(a.accumulates + a.old_accumulates)
                p.set_value(((a.sums[0] + a.sums[1] + a.sums[2]).astype("float32") / total).astype(p.dtype))

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore=True):
        """Within the block the parameters hold their averages (static: `executor` runs the swap)."""
        if in_static_mode():
            executor.run(self._apply_program)
        else:
            self._swap_in()
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor=None):
        """Put back the parameters apply() replaced."""
        if in_static_mode():
            executor.run(self._restore_program)
            return
        with no_grad():
            for p in self._parameter_list:
                a = self._averages.get(id(p))
                if a is not None and a.backup is not None:
                    p.set_value(a.backup)
                    a.backup = None


class RecomputeOptimizer(Optimizer):
    """RecomputeOptimizer(optimizer): `optimizer`'s updates over a recomputing backward (static mode only). Set the
    checkpoints (Variables or names) with `_set_checkpoints`; between consecutive checkpoints the backward runs the
    forward ops again for the values their gradients read (append_backward with checkpoints), so only the
    checkpoints are kept. Ops that draw random numbers (dropout) are not run again: their outputs are kept."""

    def __init__(self, optimizer):
        if in_dynamic_mode():
            raise Exception("In dygraph, don't support RecomputeOptimizer.")
        self._optimizer = optimizer
        self._checkpoints = None
        self._learning_rate = optimizer._learning_rate
        self._learning_rate_map = getattr(optimizer, "_learning_rate_map", {})
        self._dtype = optimizer._dtype
        self.enable_offload = False

    def _set_checkpoints(self, checkpoints):
        assert isinstance(checkpoints, list), "_checkpoints should be a list of Variable or a list of String"
        for checkpoint in checkpoints:
            assert isinstance(checkpoint, (Variable, str)), \
                "_checkpoints should be a list of Variable or a list of String"
        self._checkpoints = checkpoints

    def _enable_offload(self):
        raise NotImplementedError("RecomputeOptimizer: offloading checkpoints to pinned host memory is not supported")

    def load(self, state_dict):
        raise NotImplementedError("load function is not supported by Recompute Optimizer for now")

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None, callbacks=None):
        assert self._checkpoints is not None, "You should call _set_checkpoints first"
        if in_dynamic_mode():
            raise NotImplementedError("DyGraph current does not support recompute")
        self._dtype = loss.dtype
        if not self._checkpoints:  # no checkpoints: the ordinary backward
            return append_backward(loss, parameter_list, no_grad_set, callbacks)
        checkpoints = [c if isinstance(c, Variable) else loss.block.var(c) for c in self._checkpoints]
        params_grads, _ = append_backward(loss, parameter_list, no_grad_set, callbacks, checkpoints=checkpoints)
        return params_grads

    def apply_gradients(self, params_grads):
        return self._optimizer.apply_gradients(params_grads)

    def apply_optimize(self, loss, startup_program, params_grads):
        return self._optimizer._append_static_updates(params_grads, loss.block.program,
                                                      startup_program or default_startup_program())

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        assert isinstance(loss, Variable), "The loss should be an Variable."
        assert self._checkpoints is not None, "You should call _set_checkpoints first"
        if in_dynamic_mode():
            raise NotImplementedError("DyGraph current does not support recompute")
        params_grads = self.backward(loss, startup_program=startup_program, parameter_list=parameter_list,
                                     no_grad_set=no_grad_set)
        return self.apply_optimize(loss, startup_program=startup_program, params_grads=params_grads), params_grads


class GradientMergeOptimizer:
    """GradientMergeOptimizer(inner_optimizer, k_steps=1, avg=True), static mode only: each step adds the gradients
    into persistable `<param>@GRAD@GradientMerge` sums; every k_steps-th step (a step counter kept in the program,
    `gradient_merge_step`) a conditional block applies `inner_optimizer` to the sums (averaged over the k steps
    with avg) and zeroes them: k small batches train as one batch k times larger."""

    GRAD_MERGE_COND_NAME = "grad_merge_cond_name"

    def __init__(self, inner_optimizer, k_steps=1, avg=True):
        if in_dynamic_mode():
            raise Exception("In dygraph, we don't support GradientMergeOptimizer.You can do Gradient merge by "
                            "yourself with k-times forward + backward, and one-time optimizer.minimize()")
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert isinstance(k_steps, int) and k_steps > 0, "k_steps should be a positive integer"
        self.inner_optimizer = inner_optimizer
        self.k_steps = k_steps
        self.type = "gradient_merge"
        self.avg = avg
        self._optimize_ops = None

    def _set_k_steps(self, k_steps):
        self.k_steps = k_steps

    def _set_avg(self, avg):
        self.avg = avg

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None, callbacks=None):
        assert isinstance(loss, Variable), "The loss should be an Variable."
        assert parameter_list is None, "The parameter_list should be None when using GradientMergeOptimizer"
        assert no_grad_set is None, "The no_grad_set should be None when using GradientMergeOptimizer"
        return self.inner_optimizer.backward(loss, startup_program=startup_program)

    def apply_optimize(self, loss, startup_program, params_grads):
        with static.program_guard(loss.block.program, startup_program):
            return self.apply_gradients(params_grads)

    def _merge_step_is_due(self, block):
        """The bool variable 'gradient_merge_cond': whether this step completes k_steps (the counter advances)."""
        def counter(name, value):
            return static.create_global_var([1], value, "int32", persistable=True, force_cpu=True, name=name)
        k, zero, step = counter("gradient_merge_k", self.k_steps), counter("gradient_merge_zero", 0), \
            counter("gradient_merge_step", 0)
        due = block.create_var("gradient_merge_cond", (1,), "bool")
        with static.device_guard("cpu"):
            _tensor.increment(step, value=1.0)
            block.append_op("elementwise_mod", inputs={"X": step, "Y": k}, outputs={"Out": step}, attrs={"axis": -1})
            block.append_op("equal", inputs={"X": step, "Y": zero}, outputs={"Out": due})
        return due

    def apply_gradients(self, params_grads):
        main, startup = default_main_program(), default_startup_program()
        block = main.global_block()
        due = self._merge_step_is_due(block)
        merged = []
        for param, grad in params_grads:
            name = param.name + "@GRAD@GradientMerge"
            total = block.create_var(name, param.shape, param.dtype, persistable=True)
            startup.global_block().create_var(name, param.shape, param.dtype, persistable=True)
            startup.global_block().append_op("fill_constant", outputs={"Out": [name]},
                                             attrs={"shape": list(param.shape), "dtype": param.dtype.name, "value": 0.0})
            op = block.append_op("elementwise_add", inputs={"X": grad, "Y": total}, outputs={"Out": total},
                                 attrs={"axis": -1})
            op._set_attr(self.GRAD_MERGE_COND_NAME, due.name)
            merged.append((param, total))

        def update():
            current = main.current_block()
            if self.avg:
                for _, total in merged:
                    current.append_op("scale", inputs={"X": total}, outputs={"Out": total},
                                      attrs={"scale": 1.0 / self.k_steps, "bias": 0.0, "bias_after_scale": False})
            self._optimize_ops = self.inner_optimizer.apply_gradients(merged)
            for _, total in merged:
                current.append_op("fill_constant", outputs={"Out": total},
                                  attrs={"shape": list(total.shape), "dtype": total.dtype.name, "value": 0.0})

        static.nn.cond(due, true_fn=update, false_fn=None)
        return self._optimize_ops

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        assert isinstance(loss, Variable), "The loss should be an Variable."
        params_grads = self.backward(loss, startup_program=startup_program, parameter_list=parameter_list,
                                     no_grad_set=no_grad_set)
        return self.apply_optimize(loss, startup_program=startup_program, params_grads=params_grads), params_grads
