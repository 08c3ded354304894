"""Layers: the Layer base class and the built-in layers."""
import typing as _typing

from . import activation, common, container, conv, distance, loss, norm, pooling, rnn, transformer, vision
from .activation import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .layers import Layer
from .loss import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .vision import *  # noqa: F401,F403

Module = Layer  # Paddle's alias (paddle.nn.modules)

# Type checkers cannot evaluate this list; without it they take every public name the imports above bring.
if not _typing.TYPE_CHECKING:
    __all__ = ["Layer", "Module", *activation.__all__, *common.__all__, *container.__all__, *conv.__all__,
               *distance.__all__,
               *loss.__all__, *norm.__all__, *pooling.__all__, *rnn.__all__, *transformer.__all__, *vision.__all__]
