"""paddle.version and paddle.utils.run_check, against Paddle 3.3.1. On a machine without a CUDA GPU stack
paddlelite describes itself as Paddle's CPU build does, so the whole of show() is compared there."""
import contextlib
import io

import pytest

import paddlelite
from tests.differential import differential

CPU_ONLY = not paddlelite.device.cuda.is_available()


@differential(expected={"numbers": ["3.3.1", "3", "3", "1", "0", True], "cuda": [True, True, "CudaVersion"]})
def test_version_numbers_and_the_cuda_object(paddle):
    v = paddle.version
    return {"numbers": [v.full_version, v.major, v.minor, v.patch, v.rc, v.is_tagged],
            "cuda": [isinstance(v.cuda, str), callable(v.cuda), repr(v.cuda).split("(")[0]]}


@pytest.mark.skipif(not CPU_ONLY, reason="this machine has a CUDA GPU stack: paddlelite is not a CPU build here")
@differential(expected={"calls": ["False", "False", "0", "False", "False", "None", [], None], "show": (
    "full_version: 3.3.1\nmajor: 3\nminor: 3\npatch: 1\nrc: 0\ncuda: False\ncudnn: False\nhip: None\nnccl: 0\n"
    "xpu_xre: False\nxpu_xccl: False\nxpu_xhpc: False\ncinn: False\ntensorrt_version: None\ncuda_archs: []\n")})
def test_a_cpu_build_shows_what_paddles_cpu_build_shows(paddle):
    v = paddle.version
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        v.show()
    return {"calls": [v.cuda(), v.cudnn(), v.nccl(), v.xpu(), v.cinn(), v.tensorrt(), v.cuda_archs(), v.hip],
            "show": shown.getvalue()}


# Paddle 3.3.1's run_check on a CPU, printed (its glog lines go to stderr). Recorded, not run here: the harness
# runs Paddle on its legacy IR, where Paddle's own run_check fails (its static check needs the PIR).
PADDLES_RUN_CHECK = ["Running verify PaddlePaddle program ... ", "PaddlePaddle works well on 1 CPU.",
                     "PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now."]


@pytest.mark.skipif(not CPU_ONLY, reason="this machine has a CUDA GPU: run_check names GPUs")
def test_run_check_prints_paddles_messages(capsys):
    paddlelite.utils.run_check()
    assert capsys.readouterr().out.splitlines() == PADDLES_RUN_CHECK


def test_run_check_fails_on_wrong_gradients_and_keeps_the_mode(monkeypatch):
    from paddlelite.utils import install_check
    paddlelite.enable_static()
    try:
        paddlelite.utils.run_check()
        assert not paddlelite.in_dynamic_mode()
        monkeypatch.setattr(install_check, "_WEIGHT_GRAD", install_check._WEIGHT_GRAD + 1)
        with pytest.raises(RuntimeError, match="static gradient of sum.*wrong results"):
            paddlelite.utils.run_check()
    finally:
        paddlelite.disable_static()
