"""The frameworks a benchmark runs the same code on: paddlelite and real Paddle 3.3.1 (the reference, CPU build)."""
import os

import pytest

import paddlelite


def real_paddle():
    """Real Paddle on the CPU, in the legacy IR; the benchmark skips without it."""
    os.environ.setdefault("FLAGS_enable_pir_api", "0")
    paddle = pytest.importorskip("paddle")
    paddle.set_device("cpu")
    return paddle


LIBS = {"paddlelite": lambda: paddlelite, "paddle": real_paddle}
