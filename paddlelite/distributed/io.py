"""paddle.distributed.io: the fluid-era program save/load spellings Paddle keeps under distributed.

Data-parallel replicas hold the same values, so any one rank (usually rank 0) saves them."""
from ..static import io as _sio
from ..static.framework import Variable
from ..static.io import load_persistables, save_persistables  # noqa: F401


def is_persistable(var):
    if not isinstance(var, Variable):
        raise TypeError(f"paddle.distributed.io.is_persistable: var must be a static Variable, received "
                        f"{type(var).__name__}")
    return bool(var.persistable)


def load_inference_model_distributed(dirname, executor, model_filename=None, params_filename=None,
                                     pserver_endpoints=None):
    """[inference_program, feed_target_names, fetch_targets] from `<dirname>/<model_filename or __model__>`."""
    if pserver_endpoints is not None:
        raise NotImplementedError("paddle.distributed.io.load_inference_model_distributed: pserver_endpoints "
                                  "belong to parameter-server training, which paddlelite does not implement")
    return _sio.load_inference_model(
        _sio.dir_prefix(dirname, model_filename, "__model__", "load_inference_model_distributed"), executor)


__all__ = ["is_persistable", "save_persistables", "load_persistables", "load_inference_model_distributed"]
