"""paddle.incubate.autotune.set_config: Paddle's auto-tuning switches, read as Paddle reads them (a dict, or the
path of a JSON file holding one; a value of the wrong type warns and keeps the default).

- kernel: `enable` turns FLAGS_use_autotune on or off, under which cuDNN plans are chosen per shape by measuring
  them (as FLAGS_cudnn_exhaustive_search asks); `tuning_range` [start, end] is kept (core's autotune range).
- layout: `enable` is accepted; paddlelite converts no layouts (its kernels take both), so core.use_layout_autotune()
  stays False, as on Paddle's builds without tensor cores.
- dataloader: `enable` / `tuning_steps` make DataLoaders pick their fastest num_workers (io/autotune.py).
"""
import json
import warnings

from ..base import core
from ..framework.flags import set_flags
from ..io.autotune import set_autotune_config


def set_config(config=None):
    """Turn the auto-tuning of kernels, layouts and the DataLoader on or off: `config` a dict {kind: settings}, a
    JSON file's path, or None for all three on."""
    if config is None:
        set_flags({"FLAGS_use_autotune": True})
        core.enable_layout_autotune()
        set_autotune_config(use_autotune=True)
        return
    config_dict = {}
    if isinstance(config, dict):
        config_dict = config
    elif isinstance(config, str):
        try:
            with open(config) as f:
                config_dict = json.load(f)
        except (OSError, ValueError) as e:
            print(f"Load config error: {e}")
            warnings.warn("Use default configuration for auto-tuning.")
    kernel = config_dict.get("kernel", {})
    if "enable" in kernel:
        if isinstance(kernel["enable"], bool):
            set_flags({"FLAGS_use_autotune": kernel["enable"]})
        else:
            warnings.warn("The auto-tuning configuration of the kernel is incorrect.The `enable` should be bool. Use "
                          "default parameter instead.")
    if "tuning_range" in kernel:
        if isinstance(kernel["tuning_range"], list):
            start, end = kernel["tuning_range"]
            core.set_autotune_range(start, end)
        else:
            warnings.warn("The auto-tuning configuration of the kernel is incorrect.The `tuning_range` should be list. "
                          "Use default parameter instead.")
    layout = config_dict.get("layout", {})
    if "enable" in layout:
        if isinstance(layout["enable"], bool):
            (core.enable_layout_autotune if layout["enable"] else core.disable_layout_autotune)()
        else:
            warnings.warn("The auto-tuning configuration of the layout is incorrect.The `enable` should be bool. Use "
                          "default parameter instead.")
    if "dataloader" in config_dict:
        loader = config_dict["dataloader"]
        use_autotune = False
        if "enable" in loader:
            if isinstance(loader["enable"], bool):
                use_autotune = loader["enable"]
            else:
                warnings.warn("The auto-tuning configuration of the dataloader is incorrect.The `enable` should be "
                              "bool. Use default parameter instead.")
        if "tuning_steps" in loader:
            if isinstance(loader["tuning_steps"], int):
                set_autotune_config(use_autotune, loader["tuning_steps"])
            else:
                warnings.warn("The auto-tuning configuration of the dataloader is incorrect.The `tuning_steps` should "
                              "be int. Use default parameter instead.")
                set_autotune_config(use_autotune)


__all__ = ["set_config"]
