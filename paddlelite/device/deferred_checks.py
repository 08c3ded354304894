"""Checks of device values that do not make the host wait for the device.

An op that validates its inputs' values (labels within the classes, ids within the table) would, on a GPU, make
the host wait for the device at every call: a host sync inside every training step. `check` instead computes the
check's flag on the device (`bad.any()`: one reduction) and keeps it; the host looks at the kept flags the next
time it reads device values anyway -- Tensor.numpy()/item(), an executor's fetch, synchronize(): `raise_pending`,
one copy of all flags -- and raises the first failed check's error there, as Paddle's GPU kernels report a
failed in-kernel check at the next synchronization. On NumPy a check runs at once. While a CUDA graph is captured
no check runs: a replay checks nothing, as Paddle's in-kernel checks do not stop a graph (the step's runs before
its capture checked their values).
"""
import contextlib

import numpy as np

from .graph_capture import capturing

MAX_PENDING = 256  # flags kept before the host looks at them anyway (a loop that never reads a value)
_pending = []      # [(array module, 0-D device bool flag, error())]
_defer_host = [False]  # NumPy's checks kept too (the launch counter's NumPy values of a device op)


@contextlib.contextmanager
def deferred():
    """Keep the checks of NumPy computations inside too, as a device's are kept."""
    before, _defer_host[0] = _defer_host[0], True
    try:
        yield
    finally:
        _defer_host[0] = before


def check(xp, bad, error):
    """Raise `error()` (an exception made when raised: it may read values) where array `bad` has a nonzero (a
    boolean mask, or a kernel's one-element flag)."""
    if xp is np:
        failed = np.asarray(bad).any()  # a plain read: NumPy's values are on the host already
        if failed and not _defer_host[0]:
            raise error()
        if failed:
            _pending.append((np, failed, error))
        return
    if capturing(xp):
        return
    _pending.append((xp, bad.reshape(()) if bad.size == 1 else bad.any(), error))
    if len(_pending) >= MAX_PENDING:
        raise_pending()


def raise_pending():
    """Raise the error of the first failed check kept so far (each is looked at once)."""
    if not _pending:
        return
    entries = _pending[:]
    _pending.clear()
    device = [(xp, flag) for xp, flag, _ in entries if xp is not np]
    on_device = iter(device[0][0].stack([flag for _, flag in device]).get() if device else ())  # one copy of all
    for xp, flag, error in entries:
        if (flag if xp is np else next(on_device)):
            raise error()
