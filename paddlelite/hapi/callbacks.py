"""paddle.callbacks: hooks paddle.Model calls around training, evaluation and prediction."""
import csv
import numbers
import os
import time

import numpy as np

from ..framework import user_warnings as _user_warnings
from ..distributed import ParallelEnv
from ..optimizer.lr import LRScheduler as _LRSchedule
from .progressbar import ProgressBar

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau", "WandbCallback"]

_MODES = ("train", "eval", "predict")


def _is_rank0():
    return ParallelEnv().local_rank == 0


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None, log_freq=2, verbose=2,
                     save_freq=1, save_dir=None, metrics=None, mode="train"):
    """The callbacks a Model run uses: the user's, plus a progress logger, checkpointing and LR stepping."""
    cbks = list(callbacks if isinstance(callbacks, (list, tuple)) else [callbacks] if callbacks else [])
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks.append(ModelCheckpoint(save_freq, save_dir))
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks.append(LRScheduler())
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                         "metrics": (metrics or []) if mode != "test" else []})
    return cbk_list


class CallbackList:
    def __init__(self, callbacks=None):
        assert callbacks is not None
        self.callbacks = list(callbacks)
        self.params, self.model = {}, None

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode):
        assert mode in _MODES, "mode should be train, eval or predict"

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class: every hook does nothing; subclasses override the ones they need."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_eval_begin(self, logs=None):
        pass

    def on_eval_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, step, logs=None):
        pass

    def on_train_batch_end(self, step, logs=None):
        pass

    def on_eval_batch_begin(self, step, logs=None):
        pass

    def on_eval_batch_end(self, step, logs=None):
        pass

    def on_predict_batch_begin(self, step, logs=None):
        pass

    def on_predict_batch_end(self, step, logs=None):
        pass


def _new_timer():
    return {"data_time": 0, "batch_time": 0, "count": 0, "samples": 0, "batch_start_time": time.time()}


class ProgBarLogger(Callback):
    """Prints the loss and metrics every `log_freq` steps in Paddle's format (verbose 0: silent, 1: a
    redrawn bar, 2: a line per log, 3: plus reader/batch costs and throughput)."""

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.epochs = self.steps = self.progbar = None
        self.verbose, self.log_freq = verbose, log_freq

    def _is_print(self):
        return self.verbose and _is_rank0()

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._train_timer = _new_timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is the average value of "
                  "previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs, mode):
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values += [("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)),
                       ("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)),
                       ("ips", "%.5f samples/sec" % (samples / (timer["data_time"] + timer["batch_time"])))]
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode):
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode, logs, total):
        """Count the step; log it every log_freq steps but the last (the epoch's end logs that one)."""
        logs = logs or {}
        setattr(self, f"{mode}_step", getattr(self, f"{mode}_step") + 1)
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)
        step = getattr(self, f"{mode}_step")
        if self._is_print() and step % self.log_freq == 0 and (total is None or step < total):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin("train")

    def on_train_batch_end(self, step, logs=None):
        self._batch_end("train", logs, self.steps)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def _begin(self, mode, logs, title):
        logs = logs or {}
        setattr(self, f"{mode}_steps", logs.get("steps", None))
        setattr(self, f"{mode}_metrics", logs.get("metrics", []))
        setattr(self, f"{mode}_step", 0)
        setattr(self, f"_{mode}_timer", _new_timer())
        setattr(self, f"{mode}_progbar", ProgressBar(num=logs.get("steps", None), verbose=self.verbose))
        if self._is_print():
            print(title)

    def on_eval_begin(self, logs=None):
        self.evaled_samples = 0
        self._begin("eval", logs, "Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin("eval")

    def on_eval_batch_end(self, step, logs=None):
        self.evaled_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("eval", logs, self.eval_steps)

    def on_predict_begin(self, logs=None):
        self.tested_samples = 0
        self._begin("test", logs, "Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin("test")

    def on_predict_batch_end(self, step, logs=None):
        self.tested_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("test", logs, self.test_steps)

    def on_eval_end(self, logs=None):
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_end(self, logs=None):
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model to save_dir/<epoch> every save_freq epochs and to save_dir/final at the end."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq, self.save_dir = save_freq, save_dir

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self):
        return self.model and self.save_dir and _is_rank0()

    def _save(self, name):
        path = f"{self.save_dir}/{name}"
        print(f"save checkpoint at {os.path.abspath(path)}")
        self.model.save(path)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            self._save(epoch)

    def on_train_end(self, logs=None):
        if self._is_save():
            self._save("final")


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate schedule after every batch (by_step) or epoch (by_epoch)."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step, self.by_epoch = by_step, by_epoch

    def _step(self):
        optimizer = self.model._optimizer
        if optimizer and isinstance(getattr(optimizer, "_learning_rate", None), _LRSchedule):
            optimizer._learning_rate.step()

    def on_epoch_end(self, epoch, logs=None):
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step:
            self._step()


def _monitored(logs, monitor, who):
    """The monitored value from an evaluation's logs, or None (with Paddle's warning when it is absent)."""
    if logs is None or monitor not in logs:
        _user_warnings.warn(f"Monitor of {who} should be loss or metric name.")
        return None
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    return current if isinstance(current, numbers.Number) else None


class EarlyStopping(Callback):
    """Stops training when the monitored evaluation value stops improving for `patience` evaluations."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0, baseline=None,
                 save_best_model=True):
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = self.stopped_epoch = 0
        self.best_weights = None
        self.save_best_model = save_best_model
        self.save_dir = None
        if mode not in ("auto", "min", "max"):
            _user_warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        greater = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.monitor_op = np.greater if greater else np.less
        self.min_delta *= 1 if greater else -1

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op == np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        current = _monitored(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        best_path = os.path.join(self.save_dir, "best_model") if self.save_dir is not None else None
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and best_path is not None:
                self.model.save(best_path)
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and best_path is not None:
                    print(f"Best checkpoint has been saved at {os.path.abspath(best_path)}")
        self.stopped_epoch += 1


class _ScalarLogger(Callback):
    """Logs the training steps' and each evaluation's scalars to `_write(tag, step, value)`."""

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _scalars(self, logs, mode):
        step = self.train_step if mode == "train" else self.epoch
        for k in getattr(self, f"{mode}_metrics"):
            value = logs.get(k) if logs else None
            if isinstance(value, (list, tuple)):
                value = value[0]
            if isinstance(value, numbers.Number):
                yield f"{mode}/{k}", step, value

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        if _is_rank0():
            self._log(self._scalars(logs or {}, "train"), "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_eval_end(self, logs=None):
        if _is_rank0():
            self._log(self._scalars(logs or {}, "eval"), "eval")
            if not hasattr(self, "_is_fit"):
                self._close()

    def on_train_end(self, logs=None):
        if _is_rank0():
            self._close()


class VisualDL(_ScalarLogger):
    """Writes the scalars with VisualDL's LogWriter; without visualdl installed, to <log_dir>/scalars.csv
    (columns tag, step, value)."""

    def __init__(self, log_dir):
        super().__init__()
        self.log_dir = log_dir
        self.epochs = self.steps = None
        self.epoch = 0
        self._writer = None

    def _open(self):
        try:
            import visualdl
        except ImportError:
            return _CsvScalarWriter(self.log_dir)
        return visualdl.LogWriter(self.log_dir)

    def _log(self, scalars, mode):
        for tag, step, value in scalars:
            if self._writer is None:
                self._writer = self._open()
            self._writer.add_scalar(tag=tag, step=step, value=value)

    def _close(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None


class _CsvScalarWriter:
    """VisualDL's LogWriter.add_scalar/close, appending rows to a CSV file."""

    def __init__(self, log_dir):
        os.makedirs(log_dir, exist_ok=True)
        self._file = open(os.path.join(log_dir, "scalars.csv"), "a", newline="")
        self._csv = csv.writer(self._file)
        if self._file.tell() == 0:
            self._csv.writerow(["tag", "step", "value"])

    def add_scalar(self, tag, step, value):
        self._csv.writerow([tag, step, float(value)])

    def close(self):
        self._file.close()


class WandbCallback(_ScalarLogger):
    """Logs the scalars to Weights & Biases (needs the `wandb` package)."""

    def __init__(self, project=None, entity=None, name=None, dir=None, mode=None, job_type=None, **kwargs):
        super().__init__()
        try:
            import wandb
        except ImportError as error:
            raise ImportError("WandbCallback: you want to use `wandb` which is not installed yet; install it with "
                              "`pip install wandb`") from error
        self.wandb = wandb
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir, "mode": mode,
                           "job_type": job_type, **kwargs}
        self._run = None
        _ = self.run

    @property
    def run(self):
        if _is_rank0() and self._run is None:
            if self.wandb.run is not None:
                _user_warnings.warn("There is a wandb run already in progress and newly created instances of "
                                    "`WandbCallback` will reuse this run. If this is not desired , call "
                                    "`wandb.finish()` before instantiating `WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs=None):
        super().on_train_begin(logs)
        if _is_rank0():
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def _log(self, scalars, mode):
        logged = {"train/step": self.train_step} if mode == "train" else {"epoch": self.epoch}
        logged.update({tag: value for tag, _, value in scalars})
        self.run.log(logged)

    def _close(self):
        self.run.finish()


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by `factor` when the monitored evaluation value stops improving."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto", min_delta=1e-4, cooldown=0,
                 min_lr=0):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor, self.min_lr, self.min_delta = factor, min_lr, min_delta
        self.patience, self.verbose, self.cooldown = patience, verbose, cooldown
        self.cooldown_counter = self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            _user_warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            _user_warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        lr = getattr(self.model._optimizer, "_learning_rate", None)
        if not isinstance(lr, float):
            _user_warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
            return
        current = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer.set_lr(new_lr)  # also writes a static program's learning-rate variable
                    if self.verbose > 0 and _is_rank0():
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1
