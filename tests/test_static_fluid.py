"""paddlelite.fluid: the fluid-era spellings over the static mode, and the paddle.static namespace."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.fluid as fluid
from paddlelite import static


@pytest.fixture(autouse=True)
def _fresh_default_programs():
    with static.program_guard(static.Program(), static.Program()), static.scope_guard(static.Scope()):
        yield


def test_namespaces_expose_the_documented_names():
    for name in ["data", "nn", "append_backward", "gradients", "Program", "program_guard", "Executor",
                 "global_scope", "Scope", "default_main_program", "default_startup_program", "create_parameter",
                 "InputSpec", "cpu_places", "Variable", "Parameter", "scope_guard"]:
        assert hasattr(static, name), name
    for name in ["fc", "embedding", "conv2d", "layer_norm", "cond", "while_loop"]:
        assert hasattr(static.nn, name), name
    for name in ["Program", "program_guard", "Executor", "CPUPlace", "CUDAPlace", "default_main_program",
                 "default_startup_program", "unique_name", "gradients", "global_scope", "layers", "backward",
                 "dygraph", "data"]:
        assert hasattr(fluid, name), name
    assert fluid.backward.append_backward is static.append_backward
    assert fluid.backward.gradients is static.gradients and fluid.gradients is static.gradients
    assert fluid.unique_name.generate("k") == "k_0"


def test_fluid_layers_data_prepends_batch_and_turns_static_on():
    assert paddle.in_dynamic_mode()
    x = fluid.layers.data(name="x", shape=[13], dtype="float32")
    assert not paddle.in_dynamic_mode()
    assert x.shape == (-1, 13) and x.stop_gradient
    y = fluid.layers.data(name="y", shape=[-1, 5], dtype="float32")
    assert y.shape == (-1, 5)
    z = fluid.layers.data(name="z", shape=[4], dtype="float32", append_batch_size=False)
    assert z.shape == (4,)
    d = fluid.data(name="d", shape=[None, 3], dtype="int64")
    assert d.shape == (-1, 3) and d.dtype == paddle.int64


def test_fluid_layers_build_and_run():
    x = fluid.layers.data(name="x", shape=[4], dtype="float32")
    label = fluid.layers.data(name="label", shape=[1], dtype="float32")
    h = fluid.layers.fc(input=x, size=3, act="relu")
    pred = fluid.layers.fc(input=h, size=1)
    cost = fluid.layers.square_error_cost(input=pred, label=label)
    avg = fluid.layers.mean(cost)
    pg = fluid.backward.append_backward(avg)
    assert [p.name for p, _ in pg] == ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    xv = np.ones((2, 4), np.float32)
    (v,) = exe.run(fluid.default_main_program(), feed={"x": xv, "label": np.zeros((2, 1), np.float32)},
                   fetch_list=[avg])
    assert v.shape == () and v >= 0


def test_fluid_embedding_squeezes_the_trailing_id_dim():
    ids = fluid.layers.data(name="ids", shape=[1], dtype="int64")
    e = fluid.layers.embedding(input=ids, size=[10, 4])
    assert e.shape == (-1, 4)
    assert fluid.default_main_program().global_block().all_parameters()[0].name == "embedding_0.w_0"


def test_fluid_conv2d_and_relu():
    x = fluid.layers.data(name="x", shape=[2, 8, 8], dtype="float32")
    y = fluid.layers.relu(fluid.layers.conv2d(x, 4, 3, padding=1, bias_attr=False))
    assert y.shape == (-1, 4, 8, 8)
    assert [p.name for p in fluid.default_main_program().global_block().all_parameters()] == ["conv2d_0.w_0"]


def test_fluid_program_guard_and_unique_name_guard():
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data(name="x", shape=[3], dtype="float32")
        fluid.layers.fc(input=x, size=2)
    assert [p.name for p in main.global_block().all_parameters()] == ["fc_0.w_0", "fc_0.b_0"]
    assert len(startup.global_block().ops) == 2


def test_dygraph_guard_and_to_variable():
    paddle.enable_static()
    with fluid.dygraph.guard():
        assert paddle.in_dynamic_mode()
        t = fluid.dygraph.to_variable(np.array([1.0, 2.0], np.float32))
        assert isinstance(t, paddle.Tensor) and t.stop_gradient
        np.testing.assert_array_equal((t * 2).numpy(), [2.0, 4.0])
        # fluid layers do not switch to static mode inside the guard
        assert paddle.in_dynamic_mode()
    assert not paddle.in_dynamic_mode()


def test_fluid_gradients_matches_static():
    x = fluid.layers.data(name="x", shape=[3], dtype="float64")
    x.stop_gradient = False
    y = fluid.layers.elementwise_mul(x, x)
    (g,) = fluid.gradients([fluid.layers.reduce_sum(y)], x)
    exe = fluid.Executor(fluid.CPUPlace())
    (gv,) = exe.run(feed={"x": np.array([[1.0, 2.0, 3.0]])}, fetch_list=[g])
    np.testing.assert_allclose(gv, [[2.0, 4.0, 6.0]])
