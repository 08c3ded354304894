"""The functional tensor API (paddle.add, paddle.matmul, ...): every function only calls the dispatcher.

As in Paddle, `paddle.tensor` holds the whole functional API; the top-level package re-exports it.
random, logic, linalg, stat and attribute are Paddle's module paths, re-exporting the implementations;
array holds the (dynamic-mode) tensor arrays.
"""
from . import array, attribute, complex_math, creation, inplace, linalg, logic, manipulation, math, random, reduce, search, stat
from .array import *  # noqa: F401,F403
from .complex_math import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .inplace import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403
from .linalg import cross, diagonal, dist, matrix_transpose, norm, vecdot  # noqa: F401  (paddle.norm is linalg.norm)

__all__ = [*array.__all__, *complex_math.__all__, *creation.__all__, *inplace.__all__, *manipulation.__all__,
           *math.__all__, *reduce.__all__, *search.__all__, "cross", "diagonal", "dist", "matrix_transpose", "vecdot"]
