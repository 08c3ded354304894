"""fluid.io: the fluid-era save/load spellings over paddle.static's.

save_persistables/load_persistables keep a program's persistable values under `<dirname>/<filename>`
(default `__persistables__`); save_inference_model/load_inference_model use the prefix
`<dirname>/<model_filename or __model__>` and name the feed variables by string as fluid did.
"""
from ..static import io as _sio
from ..static.framework import Variable, default_main_program
from ..static.io import dir_prefix as _prefix, load_persistables, save_persistables  # noqa: F401
from .reader import DataLoader


def save_inference_model(dirname, feeded_var_names, target_vars, executor, main_program=None, model_filename=None,
                         params_filename=None, export_for_deployment=True, program_only=False):
    """fluid's signature: feed variables by name, fetch variables as Variables; returns the fetch names."""
    api = "fluid.io.save_inference_model"
    program = main_program or default_main_program()
    names = [feeded_var_names] if isinstance(feeded_var_names, str) else list(feeded_var_names)
    feeds = []
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{api}: feeded_var_names must be a list of str, received {type(n).__name__}")
        v = program.global_block()._lookup(n)
        if v is None:
            raise ValueError(f"{api}: feed variable '{n}' is not in the program")
        feeds.append(v)
    targets = [target_vars] if isinstance(target_vars, Variable) else list(target_vars)
    _sio.save_inference_model(_prefix(dirname, model_filename, "__model__", api), feeds, targets, executor,
                              program=program)
    return [v.name for v in targets]


def load_inference_model(dirname, executor, model_filename=None, params_filename=None, pserver_endpoints=None):
    """[inference_program, feed_target_names, fetch_targets], as fluid returned them."""
    return _sio.load_inference_model(_prefix(dirname, model_filename, "__model__", "fluid.io.load_inference_model"),
                                     executor)


__all__ = ["DataLoader", "save_persistables", "load_persistables", "save_inference_model", "load_inference_model"]
