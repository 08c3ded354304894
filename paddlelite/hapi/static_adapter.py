"""paddle.Model's batch steps and persistence in static graph mode (Paddle's StaticGraphAdapter).

`prepare` builds the network once per mode, each into its own clone of the main program the network's
parameters live in: 'train' (loss, the metrics' `compute`, `optimizer.minimize`), 'eval' (loss and metrics,
test attributes) and 'test' (the outputs). An Executor runs the mode's program on each batch; the metrics'
`update` runs on the fetched values. The parameters and the optimizer's state live in the global scope."""
import os

import numpy as np

from .. import static
from ..framework.io import save as _save
from .. import tensor as T
from .batch import batch_result, to_list, update_metrics

_MODES = ("train", "eval", "test")


def _scope_value(var, api):
    slot = static.global_scope().find_var(var.name)
    if slot is None or not slot.get_tensor()._is_initialized():
        raise RuntimeError(f"{api}: variable '{var.name}' has no value in the global scope yet; call "
                           "model.prepare() first (it runs the startup program)")
    return np.array(slot.get_tensor())


def _optimizer_vars(program):
    return [v for v in program.list_vars() if v.belong_to_optimizer]


class StaticGraphAdapter:
    def __init__(self, model):
        self.model = model
        # the network's parameters were created in these programs when it was constructed
        self._startup_prog = static.default_startup_program()
        self._orig_prog = static.default_main_program()
        self._progs, self._input_vars, self._label_vars, self._endpoints = {}, {}, {}, {}
        self._executor = None

    def prepare(self):
        if self.model._amp_level != "O0":
            raise NotImplementedError("paddle.Model.prepare: amp_configs in static graph mode needs "
                                      "paddle.static.amp, which paddlelite does not provide; use dynamic mode for "
                                      "mixed precision")
        for mode in _MODES:
            if mode not in self._progs:
                self._make_program(mode)
        if self._executor is None:
            self._executor = static.Executor()
            self._initialize()

    def _make_program(self, mode):
        model = self.model
        prog = self._orig_prog.clone()
        if mode != "train":  # the main program's own ops (a schedule's step, ...) must not run when evaluating
            block = prog.global_block()
            while block.ops:
                block._remove_op(0)
        losses, metrics = [], []
        with static.program_guard(prog, self._startup_prog):
            inputs = [spec._create_feed_layer() for spec in model._inputs]
            labels = [spec._create_feed_layer() for spec in model._labels]
            outputs = to_list(model.network.forward(*inputs))
            if mode != "test":
                if model._loss:
                    losses = to_list(model._loss(*(outputs + labels)))
                metrics = [to_list(metric.compute(*(outputs + labels))) for metric in model._metrics]
            if mode == "train" and model._optimizer:
                model._optimizer.minimize(T.add_n(losses))
        if mode != "train":  # test attributes (dropout, batch norm), no backward
            prog = prog.clone(for_test=True)
        self._progs[mode] = prog
        self._input_vars[mode], self._label_vars[mode] = inputs, labels
        self._endpoints[mode] = {"output": outputs, "loss": losses, "metric": metrics}

    def _initialize(self):
        """Run the startup program's ops for the variables the scope does not hold yet (parameters set or loaded
        before `prepare` keep their values)."""
        scope = static.global_scope()
        startup = self._startup_prog.clone()
        block = startup.global_block()
        for i in reversed(range(len(block.ops))):
            slots = [scope.find_var(name) for name in block.ops[i].output_arg_names]
            if all(slot is not None and slot.get_tensor()._is_initialized() for slot in slots):
                block._remove_op(i)
        if block.ops:
            self._executor.run(startup)

    # ---- one batch -----------------------------------------------------------------------------
    def train_batch(self, inputs, labels=None, update=True):
        if not update:  # as Paddle: the program applies the optimizer on every run
            raise AssertionError("Does not support `update == False` in static graph mode by now.")
        return self._run("train", inputs, labels)

    def eval_batch(self, inputs, labels=None):
        return self._run("eval", inputs, labels)

    def predict_batch(self, inputs):
        return self._run("test", inputs, None)

    def _run(self, mode, inputs, labels):
        if mode not in self._progs:
            raise AssertionError("Model is not ready, please call `model.prepare()` first")
        inputs, labels = to_list(inputs), to_list(labels)
        if len(inputs) != len(self._input_vars[mode]):
            raise AssertionError(f"number of inputs ({len(inputs)}) does not match number of arguments of `forward` "
                                 f"method ({len(self._input_vars[mode])})")
        feed = {v.name: x for v, x in zip(self._input_vars[mode], inputs) if x is not None}
        feed.update({v.name: y for v, y in zip(self._label_vars[mode], labels)})
        endpoints = self._endpoints[mode]
        if mode == "test":
            fetch = endpoints["output"]
        else:
            fetch = endpoints["loss"] + [v for state in endpoints["metric"] for v in state]
        # a fetched variable that is fed (a metric's label) comes from the feed, as in Paddle
        run = iter(self._executor.run(self._progs[mode], feed=feed, fetch_list=[v for v in fetch
                                                                                 if v.name not in feed]))
        values = [np.asarray(feed[v.name]) if v.name in feed else next(run) for v in fetch]
        if mode == "test":
            return values
        losses, rest, states = values[:len(endpoints["loss"])], values[len(endpoints["loss"]):], []
        for state in endpoints["metric"]:
            states.append(rest[:len(state)])
            rest = rest[len(state):]
        return batch_result(losses, update_metrics(self.model._metrics, states))

    # ---- persistence ---------------------------------------------------------------------------
    def save(self, path):
        """path.pdparams: the network's state; path.pdopt: the optimizer's variables of the train program."""
        model = self.model
        dirname = os.path.dirname(path)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        api = "paddle.Model.save"
        _save({key: _scope_value(var, api) for key, var in model.network.state_dict().items()}, path + ".pdparams")
        prog = self._progs.get("train")
        if prog is None or model._optimizer is None:
            return
        state = {var.name: _scope_value(var, api) for var in _optimizer_vars(prog)}
        if state:
            _save(state, path + ".pdopt")

    def load(self, optim_state):
        """The parameters are already set (in the scope); restore the optimizer's variables."""
        prog = self._progs.get("train")
        if self.model._optimizer is None or not optim_state:  # no optimizer: not prepared, or nothing to restore
            return
        scope = static.global_scope()
        for var in _optimizer_vars(prog):
            value = optim_state.get(var.name)
            if value is None:
                if var.name.startswith("learning_rate"):  # dynamic mode's files hold no learning-rate variable
                    continue
                raise AssertionError(f"variable [{var.name}] is not in optimizer state file")
            value = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            if list(value.shape) != list(var.shape):
                raise ValueError(f"paddle.Model.load: optimizer variable '{var.name}' has shape {list(value.shape)} "
                                 f"in the file, expected {list(var.shape)}")
            scope.var(var.name).get_tensor().set(value.astype(var.dtype.np, copy=False))

    def save_inference_model(self, path):
        """The test program's inference model: path.pdmodel and path.pdiparams."""
        if "test" not in self._progs:
            raise AssertionError("Model is not ready, please call `model.prepare()` first")
        static.save_inference_model(path, self._input_vars["test"], self._endpoints["test"]["output"],
                                    self._executor, program=self._progs["test"])
