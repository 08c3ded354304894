"""paddle.async_save: paddle.save in a background thread, of a snapshot taken now (GPU tensors copied to the host
first, so training may go on changing them); clear_async_save_task_queue waits for every save started."""
import threading

from . import user_warnings as _user_warnings
from .io import save
from .mode import in_dynamic_mode
from .tensor import Tensor

async_save_queue = []


def clear_async_save_task_queue():
    """Wait until every async_save has finished writing."""
    while async_save_queue:
        task = async_save_queue.pop()
        if task.is_alive():
            task.join()


def _host_snapshot(obj):
    if isinstance(obj, dict):
        return {k: _host_snapshot(v) for k, v in obj.items()}
    return obj.cpu() if isinstance(obj, Tensor) and obj.place.kind == "gpu" else obj


def async_save(obj, path, protocol=4, sync_other_task=False, **configs):
    """Save a Tensor or a (nested) state dict to `path` without waiting; `sync_other_task` first waits for the
    saves still running."""
    if not in_dynamic_mode():
        raise ValueError("async_save currently is not supported in static mode.")
    if configs:
        _user_warnings.warn("configs are not supported in async mode, will be overridden by default settings.")
    if not isinstance(obj, (dict, Tensor)):
        raise TypeError(f"currently async_save does not support this type: {type(obj)}")
    obj = _host_snapshot(obj)
    if sync_other_task:
        clear_async_save_task_queue()
    task = threading.Thread(target=save, args=(obj, path, protocol))
    task.start()
    async_save_queue.append(task)
