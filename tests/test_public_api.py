"""The public namespaces export Paddle's public names and the documented additions, nothing else.

Every namespace declares `__all__`. A package namespace (paddle, paddle.nn, ...) shows no helper it
imported for its own use: each public attribute is in `__all__` or is one of its subpackages. With
real Paddle importable, every name in `__all__` is a public name of the same Paddle namespace or a
documented addition (ADDITIONS; docs/ARCHITECTURE.md, "Public names").
"""
import importlib
import types

import pytest

# namespace -> the module that implements it; PACKAGES show nothing but __all__ and subpackages
PACKAGES = ["", "nn", "nn.functional", "nn.utils", "static", "optimizer", "io", "metric", "autograd", "device",
            "utils", "tensor", "framework", "regularizer", "fluid", "distributed", "base", "amp",
            "vision", "vision.transforms", "vision.models", "vision.datasets", "distribution", "text", "text.datasets",
            "audio", "audio.features", "audio.functional", "audio.backends", "audio.datasets",
            "geometric", "incubate", "incubate.autograd", "incubate.nn",
            "sparse", "sparse.nn", "sparse.nn.functional", "compat", "compat.nn", "compat.nn.functional", "cuda"]
MODULES = ["nn.initializer", "nn.init", "static.nn", "optimizer.lr", "utils.unique_name", "autograd.py_layer",
           "autograd.backward_mode", "signal", "tensor.random", "tensor.logic", "tensor.linalg", "tensor.stat", "tensor.attribute", "callbacks", "version",
           "device.cuda", "utils.dlpack", "vision.ops", "incubate.nn.functional"]

# Names paddlelite adds to a Paddle namespace, and why.
ADDITIONS = {
    # Paddle has these in paddle.tensor only; the top level re-exports paddle.tensor whole
    "": {"fill_constant", "array_length", "array_read", "array_write", "create_array", "create_tensor",
         "top_p_sampling",
         "install_as_paddle"},  # `import paddle` gives paddlelite (import_alias.py), so Paddle programs run unchanged
    "autograd": {"set_record_call_stack"},  # graph dumps name the user line that recorded each op
    "device": {"CPUPlace", "CUDAPlace", "Place", "current_place", "parse_place", "place_of_array",  # place objects
               "empty_cache", "memory_allocated", "memory_reserved",  # in Paddle's GPU build (not its CPU one)
               "count_launches"},  # a step's GPU launches, copies and syncs counted on the CPU (device/launch_count.py)
    "static": {"Block", "LoDTensor", "enable_static", "disable_static", "in_dynamic_mode", "in_static_mode"},
    "io": {"default_collate_fn", "default_convert_fn"},  # Paddle keeps them in paddle.io.dataloader.collate
    "fluid": {"CPUPlace", "CUDAPlace", "DataFeeder", "Executor", "Operator", "ParamAttr", "Parameter", "Program", "Scope",
              "Variable", "append_backward", "data", "default_main_program", "default_startup_program",
              "global_scope", "gradients", "program_guard", "scope_guard", "create_lod_tensor",
              "create_random_int_lodtensor"},  # fluid's 1.x names (Paddle 3 has no fluid)
    "tensor": {"assign", "clone", "seed",
               "logspace", "tril_indices", "triu_indices"},  # Paddle files these under paddle.tensor.creation only
    "distributed": {"Group", "Task"},  # what new_group and async collectives return; Paddle keeps them deeper  # Paddle files them elsewhere; here they sit with the other creators
}

# Names Paddle 3.3.1 shows in a namespace outside its __all__ that its own examples and real scripts use
# (checked against real Paddle below): public here too, outside __all__ as there.
SHOWN_OUTSIDE_ALL = {ns: set(names.split()) for ns, names in {
    "": "use_compat_guard Event IPUPlace Stream XPUPlace CustomPlace device_guard get_cudnn_version get_default_device "
        "get_device_module is_compiled_with_cinn is_compiled_with_custom_device is_compiled_with_distribute "
        "is_compiled_with_ipu is_compiled_with_rocm is_compiled_with_xpu set_default_device async_save "
        "clear_async_save_task_queue cholesky eigvalsh IrGuard ir_guard int long short",
    "device": "Device extract_device_id get_default_device get_device_module nvtx stream amp",
    "cuda": "max_memory_reserved reset_max_memory_allocated reset_max_memory_reserved nvtx CudaError "
            "is_current_stream_capturing amp",
    "compat": "MedianRetType MinMaxRetType SlogdetResult SortRetType enable_torch_proxy disable_torch_proxy "
              "use_torch_proxy_guard extend_torch_proxy_blocked_modules ForbidKeywordsDecorator in_dynamic_mode",
    "compat.nn": "ForbidKeywordsDecorator",
    "compat.nn.functional": "ForbidKeywordsDecorator in_dynamic_mode",
    "nn": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d HuberLoss MaxUnpool1d MaxUnpool2d MaxUnpool3d "
          "UpsamplingBilinear2d UpsamplingNearest2d ZeroPad1d ZeroPad2d ZeroPad3d spectral_norm",
    "nn.functional": "diag_embed embedding_renorm_ pdist sdp_kernel",
    "utils": "assert_same_structure convert_shape_to_list is_sequence padding_to_same_structure "
             "strtobool to_sequence",
    "framework": "Block CUDAPinnedPlace CustomPlace IPUPlace Parameter Program XPUPinnedPlace XPUPlace async_save "
                 "clear_async_save_task_queue convert_np_dtype_to_dtype_ deprecate_stat_dict disable_signal_handler "
                 "dygraph_not_support dygraph_only grad is_parameter is_persistable switch_main_program "
                 "switch_startup_program",
    "base": "CUDAPinnedPlace CustomPlace DenseTensor IPUPlace WeightNormParamAttr XPUPinnedPlace XPUPlace "
            "cpu_places cuda_places device_guard "
            "ipu_shard_guard is_compiled_with_cinn is_compiled_with_rocm is_compiled_with_xpu name_scope "
            "require_version set_ipu_shard xpu_places",
    "amp": "AmpScaler OptimizerState amp_decorate amp_guard autocast black_list white_list",
}.items()}
# paddle.vision shows its models, datasets and (but for four) transforms by their short paths
SHOWN_OUTSIDE_ALL["vision"] = {n for sub in ("models", "datasets", "transforms")
                               for n in importlib.import_module(f"paddlelite.vision.{sub}").__all__} - {
    "RandomAffine", "RandomErasing", "RandomPerspective", "affine", "erase", "perspective"}


def _module(ns):
    return importlib.import_module("paddlelite" + ("." + ns if ns else ""))


@pytest.mark.parametrize("ns", PACKAGES + MODULES, ids=lambda ns: "paddle" + ("." + ns if ns else ""))
def test_namespace_declares_all(ns):
    mod = _module(ns)
    assert hasattr(mod, "__all__"), f"paddle.{ns} must declare __all__"
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert not missing, f"paddle.{ns}.__all__ names what it does not define: {missing}"
    assert len(set(mod.__all__)) == len(mod.__all__), f"paddle.{ns}.__all__ repeats a name"


@pytest.mark.parametrize("ns", PACKAGES, ids=lambda ns: "paddle" + ("." + ns if ns else ""))
def test_package_shows_no_helpers(ns):
    mod = _module(ns)
    exported = set(mod.__all__)
    leaks = []
    for name, value in vars(mod).items():
        if name.startswith("_") or name in exported or name in SHOWN_OUTSIDE_ALL.get(ns, ()):
            continue
        if isinstance(value, types.ModuleType) and (value.__name__ == f"{mod.__name__}.{name}" or
                                                    value.__name__.startswith(f"{mod.__name__}.")):
            continue  # a subpackage / submodule (or a deeper one Paddle also shows here, paddle.nn.loss): a path
        leaks.append(name)
    assert not leaks, (f"paddle{'.' + ns if ns else ''} shows names that are not in its __all__: {sorted(leaks)}; "
                       "import helpers under a leading underscore, or export a Paddle name through __all__")


@pytest.mark.parametrize("ns", PACKAGES + MODULES, ids=lambda ns: "paddle" + ("." + ns if ns else ""))
def test_all_is_paddles_names(ns):
    paddle = pytest.importorskip("paddle")
    if ns == "fluid":
        ref = set()
    else:
        ref_mod = importlib.import_module("paddle" + ("." + ns if ns else ""))
        ref = {n for n in dir(ref_mod) if not n.startswith("_")}
    assert paddle is not None
    mod = _module(ns)
    names = {n for n in mod.__all__ if not isinstance(getattr(mod, n), types.ModuleType)}  # subpackages: paths
    extra = names - ref - ADDITIONS.get(ns, set())
    assert not extra, (f"paddle{'.' + ns if ns else ''}.__all__ has names Paddle 3.3.1 does not: {sorted(extra)}; "
                       "rename them to Paddle's, or document them in ADDITIONS")


@pytest.mark.parametrize("ns", sorted(SHOWN_OUTSIDE_ALL), ids=lambda ns: "paddle" + ("." + ns if ns else ""))
def test_names_shown_outside_all_are_paddles(ns):
    pytest.importorskip("paddle")
    ref = importlib.import_module("paddle" + ("." + ns if ns else ""))
    mod = _module(ns)
    for name in SHOWN_OUTSIDE_ALL[ns]:
        assert hasattr(ref, name) and name not in ref.__all__, f"paddle.{ns}.{name} is not a Paddle name outside __all__"
        assert hasattr(mod, name), f"paddle.{ns}.{name} is missing"
