"""nn: layers and the functional API (mode-agnostic: the same code builds static programs)."""
from . import functional
from . import initializer
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from .layer import *  # noqa: F401,F403
from .layer import Layer, ParamAttr  # noqa: F401
from . import utils  # noqa: F401
