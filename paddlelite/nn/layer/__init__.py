"""Layers: the Layer base class and the built-in layers."""
from .activation import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .layers import HookRemoveHelper, Layer  # noqa: F401
from .loss import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .param_attr import ParamAttr, WeightNormParamAttr, create_parameter  # noqa: F401
from .pooling import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
