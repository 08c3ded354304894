"""Static program model: Program/Block/Variable/Operator, naming, the static dispatcher, printing, clone."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from paddlelite import static
from paddlelite.framework.dtype import DType
from paddlelite.static import Block, Operator, Parameter, Program, Variable


def test_mode_switches_are_reexported():
    assert paddle.in_dynamic_mode()
    static.enable_static() if hasattr(static, "enable_static") else paddle.enable_static()
    assert not paddle.in_dynamic_mode() and static.in_static_mode()
    paddle.disable_static()
    assert paddle.in_dynamic_mode()


def test_data_variable(prog):
    x = static.data("x", [None, 13], "float32")
    assert isinstance(x, Variable) and x._is_variable
    assert x.shape == (-1, 13) and x.dtype == paddle.float32 and isinstance(x.dtype, DType)
    assert x.stop_gradient is True and x.persistable is False
    assert x.name == "x" and x.block is prog[0].global_block() and x.op is None
    assert x.ndim == 2
    y = static.data("y", [2, 3], "int64")
    assert y.dtype == paddle.int64 and y.shape == (2, 3)


def test_data_errors(prog):
    assert static.data("x", [1]) is static.data("x", [1])  # as Paddle: the same variable again
    with pytest.raises(ValueError, match="created before"):
        static.data("x", [2])
    with pytest.raises(ValueError, match="shape entries"):
        static.data("z", [2, -3])
    with pytest.raises(TypeError, match="shape must be"):
        static.data("z", "abc")
    with pytest.raises(TypeError, match="name"):
        static.data("", [1])


def test_data_requires_static():
    with pytest.raises(RuntimeError, match="enable_static"):
        static.data("x", [1])


def test_create_parameter(prog):
    main, startup = prog
    w = static.create_parameter([3, 4], "float32")
    assert isinstance(w, Parameter) and w.trainable and w.persistable and not w.stop_gradient
    assert w in main.global_block().all_parameters()
    # initialised by an op of the startup program that writes the parameter
    ops = startup.global_block().ops
    assert len(ops) == 1 and ops[0].output("Out") == [w.name]
    assert startup.global_block().has_var(w.name)


def test_op_output_stop_gradient_rule(prog):
    x = static.data("x", [2, 3], "float32")
    y = static.data("y", [2, 3], "float32")
    a = x + y
    assert a.stop_gradient is True
    w = static.create_parameter([2, 3], "float32")
    b = x * w
    assert b.stop_gradient is False
    c = paddle.equal(b, b)   # not differentiable
    assert c.stop_gradient is True and c.dtype == paddle.bool


def test_temporary_names_and_ops(prog):
    main, _ = prog
    x = static.data("x", [2, 3], "float32")
    m = paddle.mean(x)
    assert m.name == "mean_0.tmp_0" and m.shape == ()
    m2 = paddle.mean(x)
    assert m2.name == "mean_1.tmp_0"
    op = main.global_block().ops[-1]
    assert isinstance(op, Operator) and op.type == "reduce_mean" and m2.op is op
    assert op.input("X") == ["x"] and op.output("Out") == ["mean_1.tmp_0"]
    assert op.input_names == ["X"] and op.output_names == ["Out"]
    assert op.input_arg_names == ["x"] and op.output_arg_names == ["mean_1.tmp_0"]
    assert op.attr("keepdim") is False and op.has_attr("axis") and not op.has_attr("nope")
    with pytest.raises(ValueError, match="no attribute"):
        op.attr("nope")
    op._set_attr("keepdim", True)
    assert op.attr("keepdim") is True and op.attrs["keepdim"] is True


def test_multi_output_op_returns_like_eager(prog):
    x = static.data("x", [6, 2], "float32")
    parts = paddle.split(x, 3)
    assert len(parts) == 3 and all(isinstance(p, Variable) for p in parts)
    assert [p.name for p in parts] == ["split_0.tmp_0", "split_0.tmp_1", "split_0.tmp_2"]
    assert parts[0].shape == (2, 2)


def test_python_scalar_becomes_fill_constant(prog):
    main, _ = prog
    x = static.data("x", [2], "float32")
    y = x > 0.5  # an operator's Python number becomes a constant (paddle.maximum(x, 0.5) raises, as Paddle's)
    types = [op.type for op in main.global_block().ops]
    assert "fill_constant" in types and y.shape == (2,)


def test_operators_and_methods_on_variables(prog):
    x = static.data("x", [2, 3], "float32")
    y = (x * 2 + 1) / 4 - x
    assert isinstance(y, Variable) and y.shape == (2, 3)
    z = x @ paddle.transpose(x, [1, 0])
    assert z.shape == (2, 2)
    assert x.sum().shape == () and x.mean(axis=1).shape == (2,)
    assert x.astype("float64").dtype == paddle.float64
    assert x.T.shape == (3, 2)


def test_variable_has_no_truth_value(prog):
    x = static.data("x", [1], "float32")
    with pytest.raises(TypeError, match="cond"):
        bool(x)


def test_infer_errors_name_the_op(prog):
    x = static.data("x", [2, 3], "float32")
    y = static.data("y", [4, 5], "float32")
    with pytest.raises(ValueError, match="matmul"):
        paddle.matmul(x, y)
    z = static.data("z", [2, 3], "int64")
    with pytest.raises(TypeError, match="add"):  # int with float: Paddle refuses to promote
        paddle.add(x, z)


def test_eager_tensor_in_static_program_is_an_error(prog):
    x = static.data("x", [2], "float32")
    paddle.disable_static()
    t = paddle.to_tensor([1.0, 2.0])
    paddle.enable_static()
    with pytest.raises(TypeError, match="eager Tensor"):
        paddle.add(x, t)


def test_variables_of_another_program_are_rejected():
    paddle.enable_static()
    p1, p2 = Program(), Program()
    with static.program_guard(p1):
        x = static.data("x", [2], "float32")
    with static.program_guard(p2):
        with pytest.raises(ValueError, match="another Program"):
            paddle.add(x, x)


def test_fc_naming_and_shapes(prog):
    main, startup = prog
    x = static.data("x", [None, 4, 5], "float32")
    out = static.nn.fc(x, size=3, activation="relu")
    assert out.shape == (-1, 3)
    params = main.global_block().all_parameters()
    assert [p.name for p in params] == ["fc_0.w_0", "fc_0.b_0"]
    assert params[0].shape == (20, 3) and params[1].shape == (3,)
    named = static.nn.fc(x, size=2, num_flatten_dims=2, name="my_fc")
    assert named.shape == (-1, 4, 2)
    assert [p.name for p in main.global_block().all_parameters()][2:] == ["my_fc.w_0", "my_fc.b_0"]
    assert named.name.startswith("my_fc.tmp_")
    # weights: xavier uniform; bias: zeros (ops of the startup program)
    init = {op.output("Out")[0]: op for op in startup.global_block().ops}
    assert init["fc_0.w_0"].type == "uniform_random"
    limit = np.sqrt(6.0 / (20 + 3))
    assert init["fc_0.w_0"].attr("max") == pytest.approx(limit, rel=1e-6)
    assert init["fc_0.b_0"].type == "fill_constant" and init["fc_0.b_0"].attr("value") == 0.0


def test_fc_without_bias_and_errors(prog):
    main, _ = prog
    x = static.data("x", [None, 4], "float32")
    static.nn.fc(x, size=3, bias_attr=False)
    assert [p.name for p in main.global_block().all_parameters()] == ["fc_0.w_0"]
    with pytest.raises(ValueError, match="size"):
        static.nn.fc(x, size=0)
    with pytest.raises(TypeError, match="Variable"):
        static.nn.fc(np.ones((2, 4)), size=2)
    with pytest.raises(ValueError, match="unknown activation"):
        static.nn.fc(x, size=2, activation="nope")


def test_fc_multiple_inputs(prog):
    main, _ = prog
    a = static.data("a", [None, 4], "float32")
    b = static.data("b", [None, 2], "float32")
    out = static.nn.fc([a, b], size=3)
    assert out.shape == (-1, 3)
    assert [p.name for p in main.global_block().all_parameters()] == ["fc_0.w_0", "fc_0.w_1", "fc_0.b_0"]


def test_embedding_conv2d_layer_norm_naming(prog):
    main, startup = prog
    ids = static.data("ids", [None, 7], "int64")
    e = static.nn.embedding(ids, size=[10, 4])
    assert e.shape == (-1, 7, 4)
    img = static.data("img", [None, 3, 8, 8], "float32")
    c = static.nn.conv2d(img, num_filters=5, filter_size=3, padding=1, act="relu")
    assert c.shape == (-1, 5, 8, 8)
    ln = static.nn.layer_norm(c, begin_norm_axis=1)
    assert ln.shape == (-1, 5, 8, 8)
    names = [p.name for p in main.global_block().all_parameters()]
    assert names == ["embedding_0.w_0", "conv2d_0.w_0", "conv2d_0.b_0", "layer_norm_0.w_0", "layer_norm_0.b_0"]
    init = {op.output("Out")[0]: op for op in startup.global_block().ops}
    assert init["conv2d_0.w_0"].type == "gaussian_random"
    assert init["conv2d_0.w_0"].attr("std") == pytest.approx(np.sqrt(2.0 / 27))
    assert init["layer_norm_0.w_0"].attr("value") == 1.0
    with pytest.raises(TypeError, match="int32 or int64"):
        static.nn.embedding(img, size=[3, 3])


def test_block_api(prog):
    main, _ = prog
    b = main.global_block()
    assert isinstance(b, Block) and b.idx == 0 and b.parent_idx == -1 and b.forward_block_idx == -1
    assert main.block(0) is b and main.num_blocks == 1 and main.current_block() is b
    v = b.create_var(name="v", shape=[2], dtype="float32")
    assert b.has_var("v") and b.var("v") is v and not b.has_var("w")
    with pytest.raises(ValueError, match="not in block"):
        b.var("missing")
    p = b.create_parameter("p", [2], "float32")
    out = b.create_var(name="o", shape=[2], dtype="float32")
    op = b.append_op(type="add", inputs={"X": [v], "Y": ["p"]}, outputs={"Out": [out]})
    assert op.input("Y") == ["p"] and out.op is op and b.ops[-1] is op
    first = b._insert_op(0, type="fill_constant", outputs={"Out": [v]},
                         attrs={"shape": [2], "value": 1.0, "dtype": "float32"})
    assert b.ops[0] is first
    assert {x.name for x in main.list_vars()} >= {"v", "p", "o"}
    assert p in b.all_parameters()
    with pytest.raises(KeyError, match="no op named"):
        b.append_op(type="no_such_op", inputs={}, outputs={})


def test_program_version_bumps_on_change(prog):
    main, _ = prog
    v0 = main._version
    x = static.data("x", [2], "float32")
    v1 = main._version
    y = x + x
    v2 = main._version
    assert v0 < v1 < v2
    y.op._set_attr("op_role", 0)
    assert main._version > v2


def test_print_program_is_readable(prog):
    main, _ = prog
    x = static.data("x", [None, 3], "float32")
    static.nn.fc(x, size=2)
    text = str(main)
    assert "block_idx:0" in text and "fc_0.w_0" in text and " = mul(" in text
    assert "var x : DENSE_TENSOR.shape(-1, 3).dtype(float32).stop_gradient(True)" in text
    assert repr(x) == str(x)  # Paddle's repr is the full text too
    assert str(main.global_block().var("fc_0.w_0")) == \
        "persist trainable param fc_0.w_0 : DENSE_TENSOR.shape(3, 2).dtype(float32).stop_gradient(False)"


def test_clone_and_clone_for_test(prog):
    main, _ = prog
    x = static.data("x", [None, 3], "float32")
    out = static.nn.fc(x, size=2)
    loss = paddle.mean(F.dropout(out, p=0.5))
    static.append_backward(loss)
    full = main.clone()
    assert [op.type for op in full.global_block().ops] == [op.type for op in main.global_block().ops]
    assert full.global_block().var("x") is not x
    test = main.clone(for_test=True)
    roles = [op.attr("op_role") for op in test.global_block().ops]
    assert all(r & 1 == 0 for r in roles)
    assert not any("@GRAD" in v.name for v in test.list_vars())
    drop = [op for op in test.global_block().ops if op.type == "dropout"]
    if drop and drop[0].has_attr("training"):
        assert drop[0].attr("training") is False
    # the original is untouched
    assert any(op.attr("op_role") & 1 for op in main.global_block().ops)


def test_default_programs_and_guard():
    paddle.enable_static()
    p, s = Program(), Program()
    before = static.default_main_program()
    with static.program_guard(p, s):
        assert static.default_main_program() is p and static.default_startup_program() is s
    assert static.default_main_program() is before
    with pytest.raises(TypeError, match="Program"):
        with static.program_guard("nope"):
            pass


def test_input_spec():
    spec = static.InputSpec([None, 3], "float32", "x")
    assert spec.shape == (-1, 3) and spec.dtype == paddle.float32 and spec.name == "x"
    assert spec.batch(4).shape == (4, -1, 3) and spec.unbatch().shape == (-1, 3)  # in place, as Paddle
    assert spec == static.InputSpec([-1, 3], "float32", "x")
    assert "InputSpec" in repr(spec)
    paddle.enable_static()
    with static.program_guard(Program()):
        v = spec._create_feed_layer()
        assert v.shape == (-1, 3)


def test_to_dot(prog, tmp_path):
    main, _ = prog
    x = static.data("x", [None, 3], "float32")
    loss = paddle.mean(static.nn.fc(x, size=2))
    static.append_backward(loss)
    path = tmp_path / "g.dot"
    text = main.to_dot(str(path))
    assert path.read_text() == text and text.startswith("digraph")
    assert "mul_grad" in text and "fc_0.w_0@GRAD" in text and "grad of" in text
    assert "test_static_program.py" in text   # where the user added the op
