import contextlib
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Real Paddle, wherever a test first imports it, runs its legacy IR (the seeds' static semantics).
os.environ.setdefault("FLAGS_enable_pir_api", "0")


def gpu_available():
    from paddlelite.device import cuda
    return cuda.is_available()


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU with CuPy")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _eager_cpu_fresh_names():
    """Every test starts in eager mode with fresh name counters, on the CPU -- or on the device that
    $PADDLELITE_DEVICE names, so `PADDLELITE_DEVICE=gpu pytest tests` runs the whole suite on a GPU."""
    import paddlelite as paddle
    from paddlelite.device.place import ENV_VAR
    from paddlelite.utils import unique_name
    paddle.disable_static()
    paddle.set_device(os.environ.get(ENV_VAR) or "cpu")
    with unique_name.guard():
        yield
    paddle.disable_static()


@pytest.fixture(autouse=True)
def _full_float32_gemms():
    """Tests compare float32 GPU results with CPU references at float32 tolerances: TF32 off (Paddle's default is on;
    tests of TF32 itself switch it on), as PyTorch's test suite does."""
    from paddlelite.framework.flags import TF32
    saved = dict(TF32)
    TF32.update(cublas=False, cudnn=False)
    yield
    TF32.update(saved)


@pytest.fixture
def cpu_device():
    """For a test about the CPU itself (its streams, its places): the CPU even when $PADDLELITE_DEVICE names a GPU."""
    import paddlelite as paddle
    paddle.set_device("cpu")


@pytest.fixture(autouse=True)
def _op_case_context(request):
    """A registry case (tests/op_cases) that needs a context -- the collective ops a process group -- runs in it."""
    callspec = getattr(request.node, "callspec", None)
    case = callspec.params.get("case") if callspec is not None else None
    with (case.context() if getattr(case, "context", None) else contextlib.nullcontext()):
        yield


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture
def prog():
    """Static mode with a fresh (main, startup) Program pair as the default programs."""
    import paddlelite as paddle
    from paddlelite import static
    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        yield main, startup
