"""paddle.enable_compat / disable_compat (`import torch` gives paddle), MmapStorage and disable_signal_handler,
against Paddle 3.3.1."""
import sys

import numpy as np
import pytest

from tests.differential import differential, raises


@pytest.fixture
def torch_modules_restored():
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    yield
    for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
        del sys.modules[k]
    sys.modules.update(saved)


def test_import_torch_gives_paddle_while_the_compat_is_on(torch_modules_restored):
    @differential(expected={"sin": True, "functional": True, "tensor": [1.0, 2.0], "back": False})
    def body(paddle):
        paddle.enable_compat()
        try:
            import torch
            import torch.nn.functional as F
            out = {"sin": torch.sin is paddle.sin,
                   "functional": F.relu is paddle.nn.functional.relu,
                   "tensor": torch.to_tensor([1.0, 2.0]).tolist()}
        finally:
            paddle.disable_compat()
        try:
            import torch
            back = torch.sin is paddle.sin
        except ModuleNotFoundError:
            back = False
        out["back"] = back
        return out
    body()


def test_torch_proxy_hands_out_compats_names(torch_modules_restored):
    @differential(expected={"linear": True, "nested": True, "sort": False, "max": True, "relu": True, "sin": True,
                            "inside": True, "after": False})
    def body(paddle):
        with paddle.compat.use_torch_proxy_guard():
            import torch
            out = {"linear": torch.nn.Linear is paddle.compat.nn.Linear, "sort": torch.sort is paddle.compat.sort, "max": torch.max is paddle.max,
                   "relu": torch.relu is paddle.nn.functional.relu, "sin": torch.sin is paddle.sin}
            import torch.nn.functional as F
            out["nested"] = F.linear is paddle.compat.nn.functional.linear
            with paddle.compat.use_torch_proxy_guard(enable=False):
                pass
            import torch
            out["inside"] = torch.sort is paddle.sort
        try:
            import torch
            out["after"] = torch.sin is paddle.sin
        except ModuleNotFoundError:
            out["after"] = False
        return out
    body()


def test_enable_compat_checks_its_arguments():
    import paddlelite
    with pytest.raises(AssertionError):
        paddlelite.enable_compat(backend="jax")
    with pytest.raises(TypeError):
        paddlelite.enable_compat(scope=3)
    with pytest.warns(UserWarning, match="not installed"):
        paddlelite.disable_compat()


def test_mmap_storage_reads_slices_of_a_file(tmp_path):
    path = str(tmp_path / "t.bin")
    np.arange(20, dtype=np.float32).tofile(path)

    @differential(expected={"all": [float(i) for i in range(20)], "head": [0.0, 1.0, 2.0, 3.0], "bytes": [0, 0, 128, 63]})
    def body(paddle):
        m = paddle.MmapStorage(path, 80)
        return {"all": m.get_slice(paddle.float32, 0, 20).tolist(),
                "head": m.get_slice(dtype=paddle.float32, start=0, stop=4).tolist(),
                "bytes": m.get_slice(stop=8).tolist()[4:]}
    body()

    @differential(expected=raises(RuntimeError))
    def missing(paddle):
        paddle.MmapStorage(str(tmp_path / "missing.bin"), 8)
    missing()


@differential(expected={"result": None})
def test_disable_signal_handler(paddle):
    return {"result": paddle.disable_signal_handler()}
