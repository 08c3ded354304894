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
import numpy as np

from .graph_capture import capturing

MAX_PENDING = 256  # flags kept before the host looks at them anyway (a loop that never reads a value)
_pending = []      # [(array module, 0-D device bool flag, error())]


def check(xp, bad, error):
    """Raise `error()` (an exception made when raised: it may read values) where boolean array `bad` has a True."""
    if xp is np:
        if np.asarray(bad).any():  # a plain read: NumPy's values are on the host already
            raise error()
        return
    if capturing(xp):
        return
    _pending.append((xp, bad.any(), error))
    if len(_pending) >= MAX_PENDING:
        raise_pending()


def raise_pending():
    """Raise the error of the first failed check kept so far (each is looked at once)."""
    if not _pending:
        return
    entries = _pending[:]
    _pending.clear()
    xp = entries[0][0]
    failed = xp.stack([flag for _, flag, _ in entries]).get()
    for (_, _, error), bad in zip(entries, failed):
        if bad:
            raise error()
