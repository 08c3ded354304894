"""paddle.set_flags / get_flags: every flag Paddle 3.3.1 defines, typed as Paddle's, and the ones that act here
(FLAGS_check_nan_inf in both modes)."""
import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.differential import differential, raises, reference_paddle, run_static


@contextlib.contextmanager
def _flags(paddle, values):
    """`values` set for the block, then each flag's previous value back (flags are process-wide)."""
    before = paddle.get_flags(list(values))
    paddle.set_flags(values)
    try:
        yield
    finally:
        paddle.set_flags(before)


def test_the_table_is_paddles():
    """Each public flag of the installed Paddle build, with its type and default, is in paddlelite's table."""
    paddle = reference_paddle()
    if paddle is None:
        pytest.skip("real Paddle is not installed")
    from paddlelite.framework.paddle_flags import CPU_BUILD
    table = paddle.base.core.globals()
    theirs = {name: table.get_default(name) for name in table.keys() if table.is_public(name)}
    theirs.pop("FLAGS_enable_pir_api")  # paddlelite's reads False: legacy IR only
    for name, default in theirs.items():
        assert name in CPU_BUILD, name
        ours = CPU_BUILD[name]
        assert type(ours) is type(default), (name, ours, default)
        assert ours == pytest.approx(default, rel=1e-6) if isinstance(default, float) else ours == default, name


@differential(expected={"FLAGS_sort_sum_gradient": True, "FLAGS_call_stack_level": 3,
                        "FLAGS_eager_delete_tensor_gb": 1.0, "FLAGS_use_stride_kernel": False,
                        "FLAGS_allocator_strategy": "naive_best_fit"})
def test_flags_paddle_scripts_set(paddle):
    values = {"FLAGS_sort_sum_gradient": True, "FLAGS_call_stack_level": 3, "FLAGS_eager_delete_tensor_gb": 1,
              "FLAGS_use_stride_kernel": 0, "FLAGS_allocator_strategy": "naive_best_fit"}
    with _flags(paddle, values):
        return paddle.get_flags(list(values))


@pytest.mark.parametrize("name, value", [("FLAGS_paddle_num_threads", 2.0), ("FLAGS_check_nan_inf", "yes"),
                                         ("FLAGS_eager_delete_tensor_gb", "1.5"), ("FLAGS_allocator_strategy", 5)])
def test_a_value_of_another_type_is_refused(name, value):
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        with _flags(paddle, {name: value}):
            pass
    body()


def test_a_refused_dict_sets_nothing():
    import paddlelite as paddle
    with pytest.raises(RuntimeError, match="FLAGS_paddle_num_threads is a int flag"):
        paddle.set_flags({"FLAGS_check_nan_inf_level": 3, "FLAGS_paddle_num_threads": 2.5})
    assert paddle.get_flags("FLAGS_check_nan_inf_level") == {"FLAGS_check_nan_inf_level": 0}


@pytest.mark.parametrize("name", ["FLAGS_not_a_flag", "FLAGS_dump_chunk_info"])  # the second is not public
def test_unknown_and_private_flags_are_refused(name):
    differential(expected=raises(ValueError))(lambda paddle: paddle.get_flags(name))()
    differential(expected=raises(ValueError))(lambda paddle: paddle.set_flags({name: True}))()


def test_the_cuda_builds_flags_are_accepted():
    import paddlelite as paddle
    names = ["FLAGS_cudnn_deterministic", "FLAGS_cudnn_exhaustive_search", "FLAGS_conv_workspace_size_limit"]
    assert paddle.get_flags(names) == {"FLAGS_cudnn_deterministic": False, "FLAGS_cudnn_exhaustive_search": False,
                                       "FLAGS_conv_workspace_size_limit": 512}


def test_flags_start_from_the_environment():
    code = "import paddlelite as p; print(p.get_flags(['FLAGS_check_nan_inf', 'FLAGS_call_stack_level']))"
    env = {**os.environ, "FLAGS_check_nan_inf": "true", "FLAGS_call_stack_level": "2", "FLAGS_enable_pir_api": "1",
           "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "{'FLAGS_check_nan_inf': True, 'FLAGS_call_stack_level': 2}"


@differential(expected=raises(RuntimeError))
def test_check_nan_inf_stops_at_the_op(paddle):
    with _flags(paddle, {"FLAGS_check_nan_inf": True}):
        paddle.log(paddle.to_tensor([0.0, 1.0]))


@differential(expected=[-np.inf, 0.0])
def test_check_nan_inf_level_1_reports_and_goes_on(paddle):
    with _flags(paddle, {"FLAGS_check_nan_inf": True, "FLAGS_check_nan_inf_level": 1}):
        return paddle.log(paddle.to_tensor([0.0, 1.0]))


@pytest.mark.usefixtures("cpu_device")
def test_check_nan_inf_names_the_op_and_its_variable_in_static_mode(capfd):
    import paddlelite as paddle

    def build():
        x = paddle.static.data("x", [2], "float32")
        return [paddle.sqrt(paddle.log(x))]
    with _flags(paddle, {"FLAGS_check_nan_inf": True}), pytest.raises(RuntimeError) as info:
        run_static(paddle, build, {"x": np.array([0.5, 1.0], np.float32)})
    assert "op=sqrt, tensor=sqrt_0.tmp_0, dtype=fp32" in str(info.value) and "num_nan=1" in str(info.value)
    assert "[PRECISION] [ERROR] in [device=cpu, op=sqrt" in capfd.readouterr().err
    # off again: the executor's plan without checks runs the same program
    assert np.isnan(run_static(paddle, build, {"x": np.array([0.5, 1.0], np.float32)})[0][0])


def test_check_nan_inf_leaves_finite_outputs_and_integers_alone(capfd):
    import paddlelite as paddle
    with _flags(paddle, {"FLAGS_check_nan_inf": True}):
        y = paddle.exp(paddle.to_tensor([0.0, 1.0])) + 1
        n = paddle.to_tensor([1, 2]) // paddle.to_tensor([1, 1])
    assert y.shape == [2] and n.tolist() == [1, 2] and "PRECISION" not in capfd.readouterr().err
