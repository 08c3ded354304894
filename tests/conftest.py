import contextlib
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Real Paddle, wherever a test first imports it, runs its legacy IR (the seeds' static semantics).
os.environ.setdefault("FLAGS_enable_pir_api", "0")
# Paddle's own test files, copied for tests/test_paddle_suite.py, which runs each in its own process
collect_ignore = ["paddle_suite/vendored"]


def gpu_available():
    from paddlelite.device import cuda
    return cuda.is_available()


# `pytest -m smoke`: a quick subset, a few tests of every area (about a minute). Each entry is a node id under
# tests/: a test function (every parameter of it) or one parametrized case. tests/test_smoke.py checks that each
# still names a test.
SMOKE = (
    # tensors, dtypes, printing, views
    "test_tensor.py::test_to_tensor_dtypes_and_defaults", "test_tensor.py::test_numpy_item_and_conversions",
    "test_printing.py::test_texts_of_ranks", "test_promotion.py::test_float32_plus_float64_is_float64",
    "test_views.py::test_view_ops_alias_their_input_as_in_paddle", "test_indexing.py::test_getitem_errors",
    "test_inplace.py::test_modified_saved_tensor_raises_at_backward",
    # eager autograd
    "test_autograd.py::test_seed_backward_example", "test_autograd.py::test_backward_argument_errors",
    "test_autograd.py::test_retain_graph_allows_second_backward_and_grads_accumulate",
    # the op registry: gradients against finite differences, static against eager
    "test_op_grads.py::test_every_differentiable_op_has_gradient_cases",
    "test_op_grads.py::test_gradient_matches_finite_differences[matmul-2d]",
    "test_op_grads.py::test_gradient_matches_finite_differences[add-bcast-row]",
    "test_op_grads.py::test_gradient_matches_finite_differences[conv2d-basic]",
    "test_op_grads.py::test_gradient_matches_finite_differences[layer_norm-affine]",
    "test_op_grads.py::test_gradient_matches_finite_differences[relu]",
    "test_static_vs_eager.py::test_static_gradients_equal_eager[matmul-2d]",
    "test_static_vs_eager.py::test_static_gradients_equal_eager[conv2d-basic]",
    # static programs and the Executor
    "test_static_program.py::test_data_variable", "test_static_executor.py::test_forward_values_and_fetch_by_name_or_variable",
    "test_static_backward.py::test_roles_seed_and_returned_pairs",
    "test_static_programs.py::test_fit_a_line_sgd_matches_numpy_gradient_descent",
    "test_static_inference_io.py::test_round_trip_is_bit_exact_in_a_fresh_program_and_scope",
    # layers, losses, optimizers, data
    "test_nn_layers.py::test_parameters_sublayers_and_state_dict", "test_nn_layers.py::test_forward_hooks_and_removal",
    "test_nn_functional.py::test_conv2d_matches_torch", "test_loss.py::test_cross_entropy_hard_labels",
    "test_optimizer.py::test_updates_match_torch", "test_io.py::test_dataloader_batches_lists_of_tensors",
    "test_dataloader_workers.py::test_workers_give_the_single_process_batches_in_order",
    "test_eager_programs.py::test_lenet_training_loop_matches_torch",
    # checkpoints, jit, amp, the high-level API, vision
    "test_checkpoints.py::test_hostile_pickles_are_refused_and_their_payload_never_runs",
    "test_checkpoints.py::test_save_in_paddle_format_round_trips",
    "test_jit.py::test_to_static_trains_like_eager", "test_amp.py::test_o1_white_black_and_grey_ops",
    "test_hapi_vs_paddle.py::test_fit_evaluate_predict", "test_vision_transforms_vs_paddle.py::test_geometry_on_tensors",
    # paddle.distribution
    "test_distribution_vs_paddle.py::test_normal", "test_distribution_sampling.py::test_gamma_reparameterised_gradients",
    # paddle.sparse
    "test_sparse_vs_paddle.py::test_conversions", "test_sparse_vs_paddle.py::test_gradients_reach_the_values",
    "test_sparse_products.py::test_matmul_sparse_dense",
    # paddle.text, paddle.device.cuda, paddle.utils.dlpack
    "test_text.py::test_viterbi_decode_static", "test_device_cuda_api.py::test_names_and_classes",
    "test_tensor_dlpack.py::test_bfloat16_with_torch_shares_memory",
    # against real Paddle (skipped without it)
    "test_optimizers_vs_paddle.py::test_steps_match_paddle",
    "test_static_legacy_text_vs_paddle.py::test_program_prints_as_paddles_legacy_ir",
    # kernels without a GPU, devices, threads, flags, bad input
    "test_kernels_compile.py::test_every_family_has_a_source", "test_kernels_emu.py::test_softmax_ce_grad",
    "test_device.py::test_set_and_get_device", "test_threads.py::test_only_large_products_go_wide",
    "test_flags_vs_paddle.py::test_flags_paddle_scripts_set", "test_bad_input.py::test_unsqueeze_axis_out_of_range_raises",
    # the project's shape: public API, import floors, the README's commands
    "test_public_api.py::test_namespace_declares_all", "test_layering.py::test_no_import_points_up",
    "test_readme.py::test_readme_starts_with_train_and_test_commands",
)

_SMOKE_SET = frozenset(SMOKE)


def in_smoke(nodeid):
    name = nodeid.split("tests/", 1)[-1]
    return name in _SMOKE_SET or name.split("[", 1)[0] in _SMOKE_SET


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    smoke = pytest.mark.smoke
    for item in items:
        if in_smoke(item.nodeid):
            item.add_marker(smoke)
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU with CuPy")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _eager_cpu_fresh_names():
    """Every test starts in eager mode with fresh name counters, fresh default programs and a fresh global scope,
    on the CPU -- or on the device that $PADDLELITE_DEVICE names, so `PADDLELITE_DEVICE=gpu pytest tests` runs the
    whole suite on a GPU. (Paddle runs each test file in its own process; here a variable one test leaves in the
    default program must not meet the next test's `static.data` of the same name.)"""
    import paddlelite as paddle
    from paddlelite import static
    from paddlelite.device.place import ENV_VAR
    from paddlelite.utils import unique_name
    paddle.enable_static()  # leaves the names namespace an earlier disable_static entered (as Paddle's)
    paddle.set_device(os.environ.get(ENV_VAR) or "cpu")
    with unique_name.guard(), static.program_guard(static.Program(), static.Program()), \
            static.scope_guard(static.Scope()):
        paddle.disable_static()  # eager mode in a namespace inside this test's: enable_static comes back to it
        yield
        paddle.enable_static()
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
