"""device/deferred_checks.py: a value check of an op on a GPU does not make the host wait; its error comes at the
next read of device values. On the CPU a check raises at the op. The device path runs on the CPU through the
launch counter's stand-in for CuPy (device.count_launches), which also counts the syncs."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from paddlelite.device import deferred_checks
from paddlelite.device.launch_count import count_launches


def _logits():
    return paddle.to_tensor(np.zeros((2, 4), np.float32))


def test_on_the_cpu_a_check_raises_at_the_op():
    with pytest.raises(IndexError, match=r"op 'softmax_with_cross_entropy': Label values must lie in \[0, 4\)"):
        F.cross_entropy(_logits(), paddle.to_tensor([0, 7]))


def test_on_a_device_the_error_waits_for_the_next_read():
    with count_launches() as counter:
        loss = F.cross_entropy(_logits(), paddle.to_tensor([0, 7]))  # queued: no sync, no error yet
        assert counter.total("sync") == 0
        with pytest.raises(IndexError, match="received 7"):
            loss.numpy()
        assert np.isfinite(loss.numpy())  # each check is looked at once
    assert not deferred_checks._pending


def test_good_values_cost_one_read_with_the_users():
    with count_launches() as counter:
        loss = F.cross_entropy(_logits(), paddle.to_tensor([0, 3]))
        counter.reset()
        float(loss)
    assert counter.total("sync") == 2  # the kept flags, then the value asked for
    assert not deferred_checks._pending


def test_kept_flags_are_looked_at_when_too_many(monkeypatch):
    monkeypatch.setattr(deferred_checks, "MAX_PENDING", 2)
    table = paddle.to_tensor(np.ones((3, 2), np.float32))
    with count_launches():
        F.embedding(paddle.to_tensor([0, 5]), table)
        with pytest.raises(ValueError, match=r"op 'embedding': Ids must lie in \[0, 3\)"):
            F.embedding(paddle.to_tensor([1]), table)
