"""FLAGS_check_nan_inf: each op's floating outputs are checked after it runs, as Paddle's check_numerics.

The dispatcher (eager) and the executor's plans (static) read `enabled[0]`; it costs them one list read
per op while the flag is off. FLAGS_check_nan_inf_level, as in Paddle:
0  an output with NaN or Inf prints its statistics and raises RuntimeError naming the op;
1  such outputs print their statistics and the run goes on;
2  also outputs whose finite values overflow float16's range;
3  every checked output prints.
Counting reads the values on the host, so on a GPU each checked op waits for the device: a debugging tool.
"""
import sys

import numpy as np

from ..framework.dtype import kind
from ..framework.flags import flag, watch

enabled = [False]
_SHORT = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64", "complex64": "complex64",
          "complex128": "complex128"}
_FLOAT16_MAX = 65504.0


def _follow_flag(value):
    enabled[0] = bool(value)


watch("FLAGS_check_nan_inf", _follow_flag)


def _leaves(out):
    if isinstance(out, (list, tuple)):
        for o in out:
            yield from _leaves(o)
    else:
        yield out


def _statistics(a):
    with np.errstate(all="ignore"):  # the arrays this reports on hold NaN and inf: their mean may be NaN
        return _statistics_of(np.asarray(a.get() if hasattr(a, "get") else a))


def _statistics_of(host):
    values = host.astype(np.complex128 if host.dtype.kind == "c" else np.float64).ravel()
    parts = (values.real, values.imag) if host.dtype.kind == "c" else (values,)
    nan = sum(int(np.isnan(p).sum()) for p in parts)
    inf = sum(int(np.isinf(p).sum()) for p in parts)
    zero = int((values == 0).sum())
    real = values.real
    seen = real[~np.isnan(real)]
    high, low = (float(seen.max()), float(seen.min())) if seen.size else (float("nan"), float("nan"))
    return nan, inf, zero, high, low, float(real.mean()) if real.size else float("nan")


def check(op_type, out, place, names=()):
    """Check the floating arrays of an op's output `out` (an array or a nested list of them); `names`, when
    given, names its leaves in order (a static op's output variables)."""
    level = flag("FLAGS_check_nan_inf_level")
    device = "cpu" if place.kind == "cpu" else f"gpu:{place.index}"
    for i, a in enumerate(_leaves(out)):
        if not hasattr(a, "dtype") or kind(a.dtype) not in "fc" or a.size == 0:
            continue
        nan, inf, zero, high, low, mean = _statistics(a)
        bad = nan or inf
        overflow = level >= 2 and a.dtype.itemsize >= 4 and max(abs(high), abs(low)) > _FLOAT16_MAX
        if not (bad or overflow or level >= 3):
            continue
        where = (f"[device={device}, op={op_type}, tensor={names[i] if i < len(names) else ''}, "
                 f"dtype={_SHORT.get(a.dtype.name, a.dtype.name)}]")
        grade = "ERROR" if bad else ("WARNING" if overflow else "INFO")
        print(f"[PRECISION] [{grade}] in {where}, numel={a.size}, num_nan={nan}, num_inf={inf}, num_zero={zero}, "
              f"max={high:e}, min={low:e}, mean={mean:e}", file=sys.stderr)
        if bad and level == 0:
            raise RuntimeError(f"(PreconditionNotMet) There are NAN or INF (num_nan={nan}, num_inf={inf}, "
                               f"num_zero={zero}) in {where}.")
