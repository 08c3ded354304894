"""What every cuDNN graph of ops/cudnn/ uses: the plan policy from Paddle's flags."""
from ...device import cudnn as _cudnn
from ...framework.flags import flag


def policy():
    """What cuDNN graphs may run, from Paddle's flags: deterministic plans only, autotuned per shape, and the
    workspace limit (FLAGS_conv_workspace_size_limit is in MB)."""
    return _cudnn.Policy(flag("FLAGS_cudnn_deterministic"), flag("FLAGS_cudnn_exhaustive_search"),
                         flag("FLAGS_conv_workspace_size_limit") << 20)
