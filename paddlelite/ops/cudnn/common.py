"""What every cuDNN graph of ops/cudnn/ uses: the plan policy from Paddle's flags and TF32 switch."""
from ...device import cudnn as _cudnn
from ...framework.flags import TF32, flag


def policy(dtype=None):
    """What cuDNN graphs may run, from Paddle's flags: deterministic plans only, autotuned per shape (exhaustive search
    or Paddle's kernel autotune switch), the workspace limit (FLAGS_conv_workspace_size_limit is in MB), and -- for
    float32 data -- TF32 tensor cores as Paddle's cuDNN switch allows (set_cudnn_switch)."""
    return _cudnn.Policy(flag("FLAGS_cudnn_deterministic"),
                         flag("FLAGS_cudnn_exhaustive_search") or flag("FLAGS_use_autotune"),  # (set_config's kernel)
                         flag("FLAGS_conv_workspace_size_limit") << 20,
                         TF32["cudnn"] or getattr(dtype, "name", None) != "float32")
