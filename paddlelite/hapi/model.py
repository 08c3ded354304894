"""paddle.Model: training, evaluation and prediction loops around a network, in either graph mode.

The loops, callbacks and checks live here; the batch steps and the persistence of each mode live in its
adapter (dynamic_adapter.py: the network runs eagerly; static_adapter.py: Programs an Executor runs)."""
from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..framework import user_warnings as _user_warnings
from ..framework.io import load as _load
from ..framework.mode import in_dynamic_mode
from ..io import DataLoader, Dataset, DistributedBatchSampler
from ..metric import Metric
from ..nn import Layer
from ..static import InputSpec
from .batch import to_list  # Paddle code imports it from hapi.model too
from .callbacks import EarlyStopping, config_callbacks
from .dynamic_adapter import DynamicGraphAdapter
from .model_summary import summary
from .static_adapter import StaticGraphAdapter

if TYPE_CHECKING:
    from .._typing import DTypeLike
    from ..optimizer import Optimizer
    from .callbacks import Callback

__all__ = ["Model"]


def _flatten(data):
    """The leaves of nested lists/tuples/dicts, in order (a batch from a DataLoader)."""
    if isinstance(data, (list, tuple)):
        return [leaf for item in data for leaf in _flatten(item)]
    if isinstance(data, dict):
        return [leaf for key in sorted(data) for leaf in _flatten(data[key])]
    return [data]


class Model:
    """Wraps `network` with prepare/fit/evaluate/predict, the batch-level steps and save/load.

    `inputs`/`labels` are InputSpecs (optional in dynamic mode: the forward's argument names are used; static
    mode builds its programs from them)."""

    def __init__(self, network: Layer, inputs: InputSpec | Sequence[InputSpec] | dict[str, InputSpec] | None = None,
                 labels: InputSpec | Sequence[InputSpec] | None = None) -> None:
        if not isinstance(network, Layer):
            raise TypeError(f"paddle.Model: network must be a paddle.nn.Layer, got {type(network).__name__}")
        if not in_dynamic_mode() and not isinstance(inputs, (list, tuple, dict, InputSpec)):
            raise TypeError("'inputs' must be list or tuple or dict, and couldn't be None.")
        self.mode = "train"
        self.network = network
        self._loss = self._optimizer = None
        self._metrics = []
        self._amp_level, self._amp_configs, self._amp_custom_lists = "O0", {}, {}
        self._test_dataloader = None
        self.stop_training = False
        self._inputs_given = inputs is not None
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._adapter = DynamicGraphAdapter(self) if in_dynamic_mode() else StaticGraphAdapter(self)

    def _verify_spec(self, specs, is_input=False):
        if specs is None:
            if not is_input:
                return []
            names = [n for n in inspect.signature(self.network.forward).parameters]
            return [InputSpec(name=n, shape=[None]) for n in names]
        if isinstance(specs, dict):
            assert not is_input
            specs = [specs[n] for n in inspect.signature(self.network.forward).parameters]
        specs = to_list(specs)
        for i, spec in enumerate(specs):
            if not isinstance(spec, InputSpec):
                raise TypeError(f"paddle.Model: inputs/labels must be paddle.static.InputSpec, item {i} is "
                                f"{type(spec).__name__}")
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with {spec}.")
        return specs

    # ---- preparation ---------------------------------------------------------------------------
    def prepare(self, optimizer: Optimizer | None = None, loss: Layer | Callable[..., Any] | None = None,
                metrics: Metric | Sequence[Metric] | None = None, amp_configs: str | dict[str, Any] | None = None) -> None:
        self._optimizer = optimizer
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable function.")
        self._loss = loss
        metrics = to_list(metrics)
        for metric in metrics:
            assert isinstance(metric, Metric), f"{metric.__class__.__name__} is not sub class of Metric"
        self._metrics = metrics
        self._prepare_amp(amp_configs)
        self._adapter.prepare()

    _AMP_SCALER_KEYS = {"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                        "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling"}
    _AMP_LIST_KEYS = ("custom_white_list", "custom_black_list", "custom_black_varnames")

    def _prepare_amp(self, amp_configs):
        """amp_configs: 'O0'/'O1'/'O2', or a dict of level, auto_cast's custom lists and GradScaler's options."""
        self._amp_configs, self._amp_custom_lists = {}, {}
        if not amp_configs:
            self._amp_level = "O0"
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            self._amp_level = amp_configs
            return
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        self._amp_level = level
        keys = set(amp_configs) - {"level"}
        if not keys or level == "O0":
            return
        if "use_pure_fp16" in amp_configs:
            raise ValueError("'use_pure_fp16' is an invalid parameter, the level of mixed precision training only "
                             "depends on 'O1' or 'O2'.")
        for name in self._AMP_LIST_KEYS:
            if name in keys:
                self._amp_custom_lists[name] = amp_configs[name]
                keys.discard(name)
        if keys - self._AMP_SCALER_KEYS:
            raise ValueError("Except for 'level', the keys of 'amp_configs' must be accepted by mixed precision APIs, "
                             f"but {tuple(keys - self._AMP_SCALER_KEYS)} could not be recognized.")
        self._amp_configs = {k: amp_configs[k] for k in keys}

    def parameters(self, *args, **kwargs):
        return self.network.parameters(*args, **kwargs)

    # ---- one batch -----------------------------------------------------------------------------
    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        assert self._optimizer, "model not ready, please call `model.prepare()` first"
        self.mode = "train"
        return self._adapter.train_batch(inputs, labels, update)

    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        self.mode = "eval"
        return self._adapter.eval_batch(inputs, labels)

    def predict_batch(self, inputs: Any) -> list[Any]:
        self.mode = "test"
        return self._adapter.predict_batch(inputs)

    # ---- loops ---------------------------------------------------------------------------------
    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)
        return data

    @staticmethod
    def _len_data_loader(loader):
        try:
            return len(loader)
        except Exception:
            return None

    def fit(self, train_data: Dataset | DataLoader | None = None, eval_data: Dataset | DataLoader | None = None,
            batch_size: int | Sequence[int] = 1, epochs: int = 1, eval_freq: int = 1, log_freq: int = 10,
            save_dir: str | None = None, save_freq: int = 1, verbose: int = 2, drop_last: bool = False,
            shuffle: bool = True, num_workers: int = 0, callbacks: Sequence[Callback] | None = None,
            accumulate_grad_batches: int = 1, num_iters: int | None = None) -> None:
        assert train_data is not None, "train_data must be given!"
        if isinstance(batch_size, (tuple, list)) and all(isinstance(x, int) for x in batch_size):
            assert len(batch_size) == 2, "batch_size length error, expected train_batch_size and eval_batch_size."
            train_batch_size, eval_batch_size = batch_size
        elif isinstance(batch_size, int):
            train_batch_size = eval_batch_size = batch_size
        else:
            raise TypeError(f"paddle.Model.fit: batch_size must be an int or a pair of ints, got {batch_size!r}")
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last, num_workers)
        eval_loader = None if eval_data is None else self._loader(eval_data, eval_batch_size, num_workers=num_workers)
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps, log_freq=log_freq,
                                save_freq=save_freq, save_dir=save_dir, verbose=verbose, metrics=self._metrics_name())
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            _user_warnings.warn("EarlyStopping needs validation data.")
        cbks.on_begin("train")
        logs = {}
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len_data_loader(eval_loader), "metrics": self._metrics_name()})
                cbks.on_end("eval", self._run_one_epoch(eval_loader, cbks, "eval"))
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data: Dataset | DataLoader, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Sequence[Callback] | None = None,
                 num_iters: int | None = None) -> dict[str, Any]:
        eval_loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = eval_loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        eval_steps = self._len_data_loader(eval_loader)
        self.num_iters = num_iters
        if isinstance(num_iters, int) and isinstance(eval_steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            eval_steps = self.num_iters = min(num_iters, eval_steps)
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(eval_loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def predict(self, test_data: Dataset | DataLoader, batch_size: int = 1, num_workers: int = 0,
                stack_outputs: bool = False, verbose: int = 1,
                callbacks: Sequence[Callback] | None = None) -> list[Any]:
        test_loader = self._loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = test_loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len_data_loader(test_loader)})
        logs, outputs = self._run_one_epoch(test_loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode):
        logs, outputs = {}, []
        n_inputs = len(self._inputs)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            # a static-mode loader gives DenseTensors, whose shape is a method
            batch_size = data[0].shape()[0] if callable(data[0].shape) else data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode == "predict":
                outputs.append(self.predict_batch(data[:n_inputs] if self._inputs else data))
            else:
                args = [data[:n_inputs], data[n_inputs:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == len(data_loader))
                outs = getattr(self, mode + "_batch")(*args)
                if self._loss:
                    values = [[float(loss) for loss in (outs[0] if self._metrics else outs)]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(to_list(metric.accumulate()))
                logs.update(zip(self._metrics_name(), values))
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for metric in self._metrics:
            names.extend(to_list(metric.name()))
        return names

    # ---- persistence ---------------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        """training=True: path.pdparams (+ path.pdopt with the optimizer's state); False: the inference model
        (path.pdmodel + path.pdiparams)."""
        if training:
            self._adapter.save(path)
        else:
            self._adapter.save_inference_model(path)

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        path, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            path += ext
        if not os.path.exists(path + ".pdparams"):
            raise ValueError(f"paddle.Model.load: no parameters at {path + '.pdparams'}")
        state = _load(path + ".pdparams")
        matched = {}
        for key, param in self.network.state_dict().items():
            value = state.get(key)
            problem = (f"{key} is not found in the providing file." if value is None else
                       f"{key} receives a shape {list(value.shape)}, but the expected shape is {list(param.shape)}."
                       if list(value.shape) != list(param.shape) else None)
            if problem is None:
                matched[key] = value
            elif skip_mismatch:
                _user_warnings.warn(f"Skip loading for {key}. " + problem)
                reset_optimizer = True
            else:
                raise ValueError(problem)
        self.network.set_state_dict(matched)
        has_optim = not reset_optimizer and os.path.exists(path + ".pdopt")
        self._adapter.load(_load(path + ".pdopt") if has_optim else None)

    def summary(self, input_size: Any = None, dtype: DTypeLike | Sequence[DTypeLike] | None = None) -> dict[str, int]:
        assert input_size is not None or self._inputs, "'input_size' or 'self._input' must be set"
        return summary(self.network, input_size if input_size is not None else self._inputs, dtypes=dtype)
