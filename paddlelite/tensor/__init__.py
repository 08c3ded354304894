"""The functional tensor API (paddle.add, paddle.matmul, ...): every function only calls the dispatcher.

As in Paddle, `paddle.tensor` holds the whole functional API; the top-level package re-exports it.
"""
from . import creation, inplace, manipulation, math, reduce, search
from .creation import *  # noqa: F401,F403
from .inplace import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403

__all__ = [*creation.__all__, *inplace.__all__, *manipulation.__all__, *math.__all__, *reduce.__all__,
           *search.__all__]
