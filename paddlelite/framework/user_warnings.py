"""Warnings name the line of the program that called paddlelite, not a line inside it.

A warning's location is the frame that issued it. For NumPy's floating-point warnings in an op's forward
(`paddle.log(x)` with a zero: "divide by zero encountered in log") and an AMP cast that overflows, that is a
line of paddlelite/ops. To name the user's line instead, at no cost to the ops that do not warn:

* a warnings filter (`ATTRIBUTED_TO_OPS`, installed at import) turns a warning attributed to a paddlelite.ops
  module into an exception. The two op runners, the eager dispatcher and the static executor's step loop, catch
  it (a try block costs nothing until something is raised) and call `rerun`: the op's forward runs again while
  its warnings are recorded, and each is issued again at the first frame outside paddlelite. Forwards are pure,
  so the second run computes what the first would have (a random op draws again: a stream position further).
  Recording swaps the process-wide warning state for that rerun, as `warnings.catch_warnings` does.
* paddlelite's own warnings go through `warn`, which finds that frame.

Filters a program adds come before this one, so `simplefilter("ignore")` silences these warnings and
`simplefilter("error")` (or `-W error`) raises them at the user's line; one that shows them ("always",
as `pytest.warns` adds) shows them where NumPy issued them. The filter is installed when paddlelite is imported:
a `warnings.catch_warnings()` block around that import (pytest's collection is one) takes it away when it ends,
and warnings then name the paddlelite line again.
"""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
ATTRIBUTED_TO_OPS = r"paddlelite\.ops(\.|$)"


def _user_stacklevel():
    """The stacklevel that makes a `warnings.warn` call in the caller of this function's caller name the first
    frame outside paddlelite."""
    level, frame = 2, sys._getframe(2)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


def warn(message, category=UserWarning):
    """warnings.warn at the user's line."""
    warnings.warn(message, category, stacklevel=_user_stacklevel())


def rerun(forward, *args, **kwargs):
    """`forward(*args, **kwargs)` again, after its warning was raised (the filter above): its result, with each
    warning it issues now issued at the user's line."""
    with warnings.catch_warnings(record=True) as issued:
        warnings.simplefilter("always")
        out = forward(*args, **kwargs)
    level = _user_stacklevel()
    for w in issued:
        try:
            warnings.warn(w.message, w.category, stacklevel=level)
        except Warning as error:  # the program's own filter turned it into an error: raised at its line
            raise error from None
    return out


def install_filter():
    warnings.filterwarnings("error", module=ATTRIBUTED_TO_OPS)
