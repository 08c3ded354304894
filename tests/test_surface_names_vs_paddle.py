"""Names Paddle 3.3.1 makes reachable that its scripts and examples use beyond the namespaces' __all__ (the
torch-style argument forms, paddle.nn.init, ...), against Paddle 3.3.1."""
import numpy as np

from tests.differential import differential, error_class


@differential(expected={"two": [4, 3, 2], "keywords": [3, 2, 4], "negative": [2, 4, 3], "perm": [3, 2, 4]})
def test_transpose_takes_torchs_two_dims(paddle):
    x = paddle.ones([2, 3, 4])
    return {"two": list(paddle.transpose(x, 0, 2).shape), "keywords": list(x.transpose(dim0=0, dim1=1).shape),
            "negative": list(x.swapaxes(-1, -2).shape), "perm": list(paddle.swapdims(x, [1, 0, 2]).shape)}


@differential(expected={"ones": [[1.0, 1.0], [1.0, 1.0]], "zeros": [0.0, 0.0], "constant": [2.5, 2.5],
                        "eye": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "bound": True, "gain": float(np.sqrt(2.0))})
def test_nn_init_fills_in_place(paddle):
    init = paddle.nn.init
    w = paddle.create_parameter([2, 2], "float32")
    init.ones_(w)
    b = paddle.create_parameter([2], "float32")
    init.zeros_(b)
    c = paddle.create_parameter([2], "float32")
    init.constant_(c, 2.5)
    e = paddle.create_parameter([2, 3], "float32")
    init.eye_(e)
    k = paddle.create_parameter([64, 16], "float32")
    init.kaiming_uniform_(k, a=5 ** 0.5)
    u = paddle.create_parameter([100], "float32")
    init.uniform_(u, -0.25, 0.25)
    return {"ones": w, "zeros": b, "constant": c, "eye": e,
            "bound": bool(abs(k.numpy()).max() <= 1 / 8 + 1e-6 and abs(u.numpy()).max() <= 0.25),
            "gain": init.calculate_gain("relu")}


@differential(expected={"scalar": (1, "int64", False), "float": ([1.5, 2.0], "float64"), "module": True})
def test_paddle_tensor_is_a_constructor_and_the_module(paddle):
    a = paddle.tensor(1, requires_grad=True)
    b = paddle.tensor([1.5, 2.0], dtype="float64")
    return {"scalar": (a.item(), str(a.dtype).replace("paddle.", ""), a.stop_gradient),
            "float": (b, str(b.dtype).replace("paddle.", "")), "module": paddle.tensor.math.add is paddle.add}


@differential(expected={"cuda": ("cuda:1", "cuda", 1), "cpu": ("cpu", "cpu", None), "default": "cpu",
                        "index": "cuda:0", "bad": "ValueError", "module": True})
def test_devices_in_torchs_spelling(paddle):
    paddle.set_device("cpu")
    d = paddle.device("cuda", 1)
    c = paddle.device.Device("cpu")
    bad = error_class(lambda: paddle.device.Device("tpu"))
    with paddle.device.Device("cpu"):
        inside = paddle.get_device()
    return {"cuda": (str(d), d.type, d.index), "cpu": (str(c), c.type, c.index),
            "default": str(paddle.get_default_device()), "index": str(paddle.device.Device(0)), "bad": bad,
            "module": paddle.device.get_device_module("cuda") is paddle.cuda and inside == "cpu"}


@differential(expected={"available": False, "count": 0, "initialized": False, "current": 0, "same_draws": True,
                        "typed": ("float32", [1.0, 2.0]), "set_device": "ValueError",
                        "mem_get_info": "ValueError", "cudart": "AttributeError"})
def test_paddle_cuda_on_a_cpu_machine(paddle):
    cuda = paddle.cuda
    if paddle.device.cuda.device_count() > 0:  # the expectations are the CPU build's
        import pytest
        pytest.skip("a GPU is visible")
    out = {"available": cuda.is_available(), "count": cuda.device_count(), "initialized": cuda.is_initialized(),
           "current": cuda.current_device()}
    cuda.manual_seed(5)
    state = cuda.get_rng_state()
    first = paddle.rand([3]).numpy()
    cuda.set_rng_state(state)
    out["same_draws"] = bool((paddle.rand([3]).numpy() == first).all())
    typed = cuda.FloatTensor([1, 2])
    out["typed"] = (str(typed.dtype).replace("paddle.", ""), typed)
    out.update(set_device=error_class(lambda: cuda.set_device(0)), mem_get_info=error_class(cuda.mem_get_info),
               cudart=error_class(cuda.cudart))
    return out


@differential(expected={"dtypes": ("int32", "int64", "int16"), "cholesky": [[2.0, 0.0], [1.0, 1.0]],
                        "eigvalsh": [1.0, 3.0], "compiled": (False, False, False)})
def test_top_level_names_outside_all(paddle):
    a = paddle.to_tensor([[4.0, 2.0], [2.0, 2.0]])
    return {"dtypes": tuple(str(d).replace("paddle.", "") for d in (paddle.int, paddle.long, paddle.short)),
            "cholesky": paddle.cholesky(a), "eigvalsh": paddle.eigvalsh(paddle.to_tensor([[2.0, 1.0], [1.0, 2.0]])),
            "compiled": (paddle.is_compiled_with_xpu(), paddle.is_compiled_with_ipu(), paddle.is_compiled_with_cinn())}


def test_async_save_writes_a_snapshot(tmp_path):
    @differential(expected={"loaded": [1.0, 2.0], "nested": [3.0], "bad": "TypeError"})
    def body(paddle):
        path = str(tmp_path / f"{paddle.__name__}.pdparams")
        paddle.async_save({"w": paddle.to_tensor([1.0, 2.0]), "sub": {"b": paddle.to_tensor([3.0])}}, path)
        paddle.clear_async_save_task_queue()
        loaded = paddle.load(path)
        return {"loaded": loaded["w"], "nested": loaded["sub"]["b"],
                "bad": error_class(lambda: paddle.async_save([1, 2], path))}
    body()


@differential(expected={"aliases": True, "renorm": [[0.6, 0.8], [1.0, 0.0], [3.0, 4.0]], "pdist": [5.0],
                        "diag_embed": [[1.0, 0.0], [0.0, 2.0]]})
def test_nn_torch_spellings_and_functional_names(paddle):
    nn, F = paddle.nn, paddle.nn.functional
    same = (nn.HuberLoss is nn.SmoothL1Loss and nn.ZeroPad2d is nn.ZeroPad2D and nn.MaxUnpool1d is nn.MaxUnPool1D
            and nn.AdaptiveAvgPool3d is nn.AdaptiveAvgPool3D and nn.UpsamplingNearest2d is nn.UpsamplingNearest2D
            and nn.spectral_norm is nn.utils.spectral_norm)
    weight = paddle.to_tensor([[3.0, 4.0], [1.0, 0.0], [3.0, 4.0]])
    F.embedding_renorm_(paddle.to_tensor([0, 1]), weight, max_norm=1.0)
    return {"aliases": same, "renorm": weight, "pdist": F.pdist(paddle.to_tensor([[0.0, 0.0], [3.0, 4.0]])),
            "diag_embed": F.diag_embed(paddle.to_tensor([1.0, 2.0]))}


@differential(expected={"flash_only": "RuntimeError", "math": [1, 4, 2, 8], "none": "ValueError",
                        "sdpa_kernel": [1, 4, 2, 8], "after": [1, 4, 2, 8]})
def test_sdp_kernel_limits_the_backends(paddle):
    F = paddle.nn.functional
    q = paddle.rand([1, 4, 2, 8])

    def run():
        return list(F.scaled_dot_product_attention(q, q, q).shape)

    def with_kernel(**flags):
        with F.sdp_kernel(**flags):
            return run()

    with paddle.nn.attention.sdpa_kernel(paddle.nn.attention.SDPBackend.MATH):
        through_sdpa_kernel = run()
    return {"flash_only": error_class(with_kernel), "math": with_kernel(enable_math=True),
            "none": error_class(lambda: with_kernel(enable_math=False, enable_flash=False, enable_mem_efficient=False)),
            "sdpa_kernel": through_sdpa_kernel, "after": run()}


@differential(expected={"vision": True, "utils": ([3, 3], True, "ImportError", "Exception", "ValueError", "TypeError"),
                        "amp": (True, True, ["bfloat16", "float16"]), "framework": True, "base": 2})
def test_names_scripts_import_from_vision_utils_amp_framework_base(paddle):
    vision = (paddle.vision.DatasetFolder is paddle.vision.datasets.DatasetFolder
              and paddle.vision.resnet18 is paddle.vision.models.resnet18
              and paddle.vision.Compose is paddle.vision.transforms.Compose)
    u = paddle.utils
    u.require_version("2.0", "4.0")
    utils = (u.convert_to_list(3, 2, "kernel_size"), u.strtobool("Yes"),
             error_class(lambda: u.try_import("no_such_module_here")), error_class(lambda: u.require_version("99.0")),
             error_class(lambda: u.assert_same_structure([1, [2]], [1, 2])),
             error_class(lambda: u.assert_same_structure([1, 2], (1, 2))))
    with paddle.amp.amp_guard(enable=True):
        guarded = paddle.amp.is_autocast_enabled()
    with paddle.amp.auto_cast(enable=True):  # (Paddle's CPU build does not enable it; paddlelite does)
        guarded = guarded == paddle.amp.is_autocast_enabled()
    amp = (guarded, issubclass(paddle.amp.GradScaler, paddle.amp.AmpScaler), sorted(paddle.amp.white_list()))
    framework = (paddle.framework.Program is paddle.static.Program and paddle.framework.grad is paddle.grad
                 and paddle.framework.is_persistable is paddle.static.is_persistable)
    return {"vision": vision, "utils": utils, "amp": amp, "framework": framework,
            "base": len(paddle.base.cpu_places(2))}
