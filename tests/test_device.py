"""Device layer: places, set/get_device, the environment override, lazy CuPy."""
import os
import subprocess
import sys

import pytest

import paddlelite as paddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_places():
    assert repr(paddle.CPUPlace()) == "Place(cpu)"
    assert repr(paddle.CUDAPlace(1)) == "Place(gpu:1)"
    assert paddle.CPUPlace() is paddle.CPUPlace()
    assert paddle.CUDAPlace(0).is_gpu_place() and paddle.CUDAPlace(0).gpu_device_id() == 0
    with pytest.raises(ValueError, match="CUDAPlace"):
        paddle.CUDAPlace(-1)


def test_set_and_get_device():
    assert paddle.set_device("cpu") == paddle.CPUPlace()
    assert paddle.get_device() == "cpu"
    with pytest.raises(ValueError, match="set_device"):
        paddle.set_device("tpu")
    with pytest.raises(TypeError, match="set_device"):
        paddle.set_device(3)
    if not paddle.device.cuda.is_available():
        with pytest.raises(ValueError, match="GPU"):  # Paddle's CPU build raises ValueError too
            paddle.set_device("gpu:0")
        assert paddle.device.cuda.device_count() == 0


def _run(code, **env):
    inherited = {k: v for k, v in os.environ.items() if k != "PADDLELITE_DEVICE"}  # each test says its own device
    full = dict(inherited, PYTHONPATH=ROOT, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)


def test_import_does_not_import_cupy_and_defaults_to_cpu_without_gpu():
    code = ("import sys, paddlelite as p; print('cupy' in sys.modules); "
            "print(p.get_device() if not p.device.cuda.is_available() else 'cpu')")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "cpu"]


def test_import_works_when_cupy_cannot_import():
    # a stub that fails to import stands in for a machine without CuPy
    code = ("import sys; sys.modules['cupy'] = None; import paddlelite as p; "
            "print(p.is_compiled_with_cuda(), p.device.cuda.device_count(), p.get_device())")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "0", "cpu"]


def test_environment_variable_overrides_default():
    r = _run("import paddlelite as p; print(p.get_device())", PADDLELITE_DEVICE="cpu")
    assert r.stdout.strip() == "cpu"
    r = _run("import paddlelite as p; p.get_device()", PADDLELITE_DEVICE="npu")
    assert r.returncode != 0 and "PADDLELITE_DEVICE" in r.stderr


@pytest.mark.gpu
def test_gpu_default_when_available():
    r = _run("import paddlelite as p; print(p.get_device())")
    assert r.stdout.strip() == "gpu:0"


def test_asking_for_a_gpu_without_one_is_paddles_value_error():
    from tests.differential import differential, raises
    if paddle.device.cuda.is_available():
        pytest.skip("a GPU is present")
    for ask in (lambda p: p.set_device("gpu"), lambda p: p.to_tensor([1.0]).cuda()):
        differential(expected=raises(ValueError))(ask)()
