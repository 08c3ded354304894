"""The functional tensor API (paddle.add, paddle.matmul, ...): every function only calls the dispatcher.

As in Paddle, `paddle.tensor` holds the whole functional API; the top-level package re-exports it.
random, logic, linalg, stat and attribute are Paddle's module paths, re-exporting the implementations;
array holds the (dynamic-mode) tensor arrays.
"""
import sys as _sys
import types as _types
import typing as _typing

from . import (aliases, array, attribute, complex_math, counting, creation, diagonals, elementwise, inplace, integrate,
               linalg, logic, manipulation, math, matrix_functions, nanreduce, order_stats, products, random, reduce,
               sampling, scattering, search, series, special_math, stacking, stat, tensor_extras, windows)
from .aliases import *  # noqa: F401,F403
from .array import *  # noqa: F401,F403
from .attribute import *  # noqa: F401,F403
from .complex_math import *  # noqa: F401,F403
from .counting import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .diagonals import *  # noqa: F401,F403
from .einsum import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .inplace import *  # noqa: F401,F403
from .integrate import *  # noqa: F401,F403
from .logic import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .matrix_functions import *  # noqa: F401,F403
from .nanreduce import *  # noqa: F401,F403
from .order_stats import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .sampling import *  # noqa: F401,F403
from .scattering import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403
from .series import *  # noqa: F401,F403
from .special_math import *  # noqa: F401,F403
from .stacking import *  # noqa: F401,F403
from .windows import *  # noqa: F401,F403
from .linalg import cross, dist, matrix_transpose, norm, vecdot  # noqa: F401  (paddle.norm is linalg.norm)
from .constructors import create_tensor  # noqa: F401  (paddle.tensor and Tensor only, as in Paddle)
from .constructors import as_tensor as _as_tensor


class _CallableModule(_types.ModuleType):
    """paddle.tensor is also Paddle 3.3's torch-style constructor: `paddle.tensor(1, requires_grad=True)`."""

    def __call__(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        return _as_tensor(data, dtype, device, requires_grad, pin_memory)


_sys.modules[__name__].__class__ = _CallableModule

# Type checkers cannot evaluate this list; without it they take every public name the imports above bring,
# which is what it holds. (dict.fromkeys: a name two module paths share, like attribute.shape, is listed once)
if not _typing.TYPE_CHECKING:
    __all__ = list(dict.fromkeys([
        *aliases.__all__, *array.__all__, *attribute.__all__, *complex_math.__all__, *counting.__all__, *creation.__all__,
        *diagonals.__all__, "einsum", *elementwise.__all__, *inplace.__all__, *integrate.__all__, *logic.__all__,
        *manipulation.__all__, *math.__all__, *matrix_functions.__all__, *special_math.__all__,
        *nanreduce.__all__, *order_stats.__all__, *products.__all__, *reduce.__all__, *sampling.__all__,
        *scattering.__all__, *search.__all__, *series.__all__, *stacking.__all__, *windows.__all__, "create_tensor", "cross", "dist", "matrix_transpose",
        "vecdot"]))
