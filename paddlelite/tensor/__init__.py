"""The functional tensor API (paddle.add, paddle.matmul, ...): every function only calls the dispatcher.

As in Paddle, `paddle.tensor` holds the whole functional API; the top-level package re-exports it.
random, logic, linalg, stat and attribute are Paddle's module paths, re-exporting the implementations.
"""
from . import attribute, creation, linalg, logic, manipulation, math, random, reduction, search, stat
from .creation import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403

__all__ = [*creation.__all__, *manipulation.__all__, *math.__all__, *reduction.__all__, *search.__all__]
