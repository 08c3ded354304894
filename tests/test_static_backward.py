"""append_backward / gradients: every rule of PADDLE_SEMANTICS' static section, numerically checked."""
import os

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import static
from paddlelite.static import Program, Variable
from paddlelite.static.backward import ACCUMULATE_OP, StaticGradBuilder
from paddlelite.ops.registry import GradBuilder


def _run(main, startup, feed, fetch):
    exe = static.Executor(paddle.CPUPlace())
    scope = static.Scope()
    exe.run(startup, scope=scope)
    return exe.run(main, feed=feed, fetch_list=fetch, scope=scope), scope


def _types(block, start=0):
    return [op.type for op in block.ops[start:]]


def test_builder_is_a_grad_builder():
    assert issubclass(StaticGradBuilder, GradBuilder)


# ---- argument checks ------------------------------------------------------------------------------
def test_requires_static_mode():
    paddle.enable_static()
    with static.program_guard(Program()):
        x = static.data("x", [2], "float32")
        loss = paddle.mean(x)
    paddle.disable_static()
    with pytest.raises(AssertionError, match="enable_static"):
        static.append_backward(loss)
    with pytest.raises(AssertionError, match="enable_static"):
        static.gradients(loss, x)


def test_loss_type_checks(prog):
    with pytest.raises(AssertionError):
        static.append_backward("loss")
    with pytest.raises(TypeError, match="loss must be"):
        static.append_backward(np.ones(2))


def test_callbacks_type_checks(prog):
    w = static.create_parameter([2], "float32")
    loss = paddle.mean(w * w)
    with pytest.raises(TypeError, match="callbacks"):
        static.append_backward(loss, callbacks=lambda block, context: None)
    with pytest.raises(ValueError, match="callable"):
        static.append_backward(loss, callbacks=[1])


def test_parameter_list_and_no_grad_set_type_checks(prog):
    w = static.create_parameter([2], "float32")
    loss = paddle.mean(w * w)
    with pytest.raises(TypeError, match="parameter_list"):
        static.append_backward(loss, parameter_list="w")
    with pytest.raises(TypeError, match="no_grad_set"):
        static.append_backward(loss, no_grad_set=[1])


# ---- structure: roles, names, seeds ---------------------------------------------------------------
def test_roles_seed_and_returned_pairs(prog):
    main, startup = prog
    x = static.data("x", [None, 3], "float32")
    out = static.nn.fc(x, size=2)
    loss = paddle.mean(out)
    n_fwd = len(main.global_block().ops)
    pg = static.append_backward(loss)
    ops = main.global_block().ops
    assert loss.op.attr("op_role") == 256
    seed = ops[n_fwd]
    assert seed.type == "fill_constant" and seed.attr("op_role") == 257
    assert seed.attr("value") == 1.0 and seed.attr("shape") == [] and seed.output("Out") == ["mean_0.tmp_0@GRAD"]
    assert all(op.attr("op_role") == 1 for op in ops[n_fwd + 1:])
    assert [(p.name, g.name) for p, g in pg] == [("fc_0.w_0", "fc_0.w_0@GRAD"), ("fc_0.b_0", "fc_0.b_0@GRAD")]
    for p, g in pg:
        assert isinstance(g, Variable) and g.shape == p.shape
        producer = [op for op in ops if g.name in op.output_arg_names][-1]
        assert producer.attr("op_role_var") == [p.name, g.name]


def test_seed_shape_for_non_scalar_loss(prog):
    main, _ = prog
    w = static.create_parameter([3], "float32")
    loss = paddle.sum(w * w, keepdim=True)
    assert loss.shape == (1,)
    static.append_backward(loss)
    seed = [op for op in main.global_block().ops if op.attr("op_role") == 257][0]
    assert seed.attr("shape") == [1]


def test_numeric_gradients_of_a_small_net(prog):
    main, startup = prog
    x = static.data("x", [None, 3], "float64")
    y = static.data("y", [None, 1], "float64")
    h = static.nn.fc(x, size=4, activation="tanh")
    pred = static.nn.fc(h, size=1)
    loss = paddle.mean(paddle.square(pred - y))
    pg = static.append_backward(loss)
    xv = np.random.default_rng(0).normal(size=(5, 3))
    yv = np.random.default_rng(1).normal(size=(5, 1))
    outs, scope = _run(main, startup, {"x": xv, "y": yv}, [g for _, g in pg])
    W1, b1, W2, b2 = (np.array(scope.find_var(n).get_tensor()) for n in
                      ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"])
    hv = np.tanh(xv @ W1 + b1)
    d = 2 * (hv @ W2 + b2 - yv) / 5
    dW2 = hv.T @ d
    dh = d @ W2.T * (1 - hv ** 2)
    np.testing.assert_allclose(outs[0], xv.T @ dh, rtol=1e-10)
    np.testing.assert_allclose(outs[1], dh.sum(0), rtol=1e-10)
    np.testing.assert_allclose(outs[2], dW2, rtol=1e-10)
    np.testing.assert_allclose(outs[3], d.sum(0), rtol=1e-10)


def test_rename_and_sum_for_repeated_grads(prog):
    main, startup = prog
    w = static.create_parameter([3], "float64")
    y = w * w
    loss = paddle.sum(paddle.exp(w) + y)
    n_fwd = len(main.global_block().ops)
    pg = static.append_backward(loss)
    ops = main.global_block().ops[n_fwd:]
    writers = [op for op in ops if any(n.startswith("create_parameter_0.w_0@GRAD@RENAME@block0@") for n in op.output_arg_names)]
    names = sorted(n for op in writers for n in op.output_arg_names)
    assert names == [f"create_parameter_0.w_0@GRAD@RENAME@block0@{k}" for k in range(3)]
    sums = [op for op in ops if op.type == ACCUMULATE_OP]
    assert len(sums) == 1 and sums[0].output("Out") == ["create_parameter_0.w_0@GRAD"]
    assert sorted(sums[0].input("X")) == names
    outs, scope = _run(main, startup, {}, [pg[0][1]])
    wv = np.array(scope.find_var("create_parameter_0.w_0").get_tensor())
    np.testing.assert_allclose(outs[0], np.exp(wv) + 2 * wv, rtol=1e-12)


def test_sum_is_inserted_before_the_first_reader(prog):
    main, _ = prog
    x = static.data("x", [3], "float64")
    x.stop_gradient = False
    a = x * x              # x@GRAD from two producers...
    b = paddle.exp(a)
    loss = paddle.sum(b)
    (gx,) = static.gradients(loss, x)
    ops = main.global_block().ops
    idx_sum = [i for i, op in enumerate(ops) if op.type == ACCUMULATE_OP]
    assert len(idx_sum) == 1
    # nothing reads x@GRAD before the sum writes it
    readers = [i for i, op in enumerate(ops) if "x@GRAD" in op.input_arg_names]
    assert all(i > idx_sum[0] for i in readers)
    exe = static.Executor()
    xv = np.array([0.1, 0.2, 0.3])
    (g,) = exe.run(main, feed={"x": xv}, fetch_list=[gx])
    np.testing.assert_allclose(g, np.exp(xv * xv) * 2 * xv, rtol=1e-12)


def test_pruning_branches_not_reaching_the_loss(prog):
    main, _ = prog
    w = static.create_parameter([2], "float32")
    v = static.create_parameter([2], "float32")
    side = paddle.exp(v)          # never reaches the loss
    loss = paddle.mean(w * 3.0)
    n_fwd = len(main.global_block().ops)
    pg = static.append_backward(loss)
    assert [p.name for p, _ in pg] == [w.name]
    grad_ops = main.global_block().ops[n_fwd:]
    assert not any(side.name in op.input_arg_names or v.name + "@GRAD" in op.output_arg_names for op in grad_ops)
    assert not any(op.type == "exp" for op in grad_ops)


def test_stop_gradient_vars_and_no_grad_set(prog):
    main, startup = prog
    x = static.data("x", [None, 4], "float32")
    h = static.nn.fc(x, size=3)
    out = static.nn.fc(h, size=1)
    loss = paddle.mean(out)
    # data x has stop_gradient -> no x@GRAD
    static.append_backward(loss)
    assert not main.global_block().has_var("x@GRAD")


def test_no_grad_set_by_variable_and_name(prog):
    main, _ = prog
    x = static.data("x", [None, 4], "float32")
    h = static.nn.fc(x, size=3)
    out = static.nn.fc(h, size=1)
    loss = paddle.mean(out)
    pg = static.append_backward(loss, no_grad_set={h})
    assert [p.name for p, _ in pg] == ["fc_1.w_0", "fc_1.b_0"]
    main2, startup2 = Program(), Program()
    with static.program_guard(main2, startup2):
        x = static.data("x", [None, 4], "float32")
        out = static.nn.fc(x, size=1)
        loss = paddle.mean(out)
        pg = static.append_backward(loss, no_grad_set=["fc_0.b_0"])
        assert [p.name for p, _ in pg] == ["fc_0.w_0"]


def test_parameter_list_filters_and_orders(prog):
    x = static.data("x", [None, 4], "float32")
    out = static.nn.fc(static.nn.fc(x, size=3), size=1)
    loss = paddle.mean(out)
    pg = static.append_backward(loss, parameter_list=["fc_1.w_0", "fc_0.w_0"])
    assert [p.name for p, _ in pg] == ["fc_1.w_0", "fc_0.w_0"]


def test_all_filtered_returns_empty(prog):
    w = static.create_parameter([2], "float32")
    loss = paddle.mean(w * w)
    assert static.append_backward(loss, no_grad_set={w}) == []


def test_missing_output_grads_are_zero_filled(prog):
    main, _ = prog
    x = static.data("x", [3], "float32")
    x.stop_gradient = False
    a, b, c = paddle.split(x, 3)
    loss = paddle.mean(a * 2.0)
    (g,) = static.gradients(loss, x)
    fills = [op for op in main.global_block().ops if op.type == "fill_any_like" and op.attr("value") == 0.0]
    assert sorted(op.output("Out")[0] for op in fills) == [b.name + "@GRAD", c.name + "@GRAD"]
    (gv,) = static.Executor().run(main, feed={"x": np.ones(3, "float32")}, fetch_list=[g])
    np.testing.assert_array_equal(gv, [2.0, 0.0, 0.0])


def test_repeated_append_backward_prefixes_grad_names(prog):
    main, _ = prog
    w = static.create_parameter([2], "float32")
    loss = paddle.mean(w * 3.0)
    pg1 = static.append_backward(loss)
    pg2 = static.append_backward(loss)
    pg3 = static.append_backward(loss)
    assert pg1[0][1].name == "create_parameter_0.w_0@GRAD"
    assert pg2[0][1].name == "grad/grad/create_parameter_0.w_0@GRAD"
    assert pg3[0][1].name == "grad/grad/grad/create_parameter_0.w_0@GRAD"
    outs = static.Executor().run(main, fetch_list=[pg1[0][1], pg2[0][1], pg3[0][1]], scope=_init(main))
    for o in outs:
        np.testing.assert_allclose(o, [1.5, 1.5])


def _init(main):
    scope = static.Scope()
    for p in main.global_block().all_parameters():
        scope.var(p.name).get_tensor().set(np.ones(p.shape, p.dtype.name), paddle.CPUPlace())
    return scope


def test_callbacks_see_every_grad_op(prog):
    main, _ = prog
    w = static.create_parameter([3], "float32")
    a, b = paddle.split(w * w, [1, 2])
    loss = paddle.mean(a)
    seen = []

    def cb(block, context):
        op = context["__current_op_desc__"]
        assert block is main.global_block()
        seen.append((op, dict(context)))

    n_fwd = len(main.global_block().ops)
    static.append_backward(loss, callbacks=[cb])
    appended = main.global_block().ops[n_fwd + 1:]      # all but the seed
    assert [desc.type() for desc, _ in seen] == [op.type for op in appended]   # an OpDesc, as Paddle's
    assert [desc.output_arg_names() for desc, _ in seen] == [op.output_arg_names for op in appended]
    types = [desc.type() for desc, _ in seen]
    assert ACCUMULATE_OP in types and "fill_any_like" in types
    ctx = seen[-1][1]
    assert ctx[w.name + "@GRAD"] == w.name and ctx[loss.name + "@GRAD"] == loss.name


def test_gradients_basic_and_none_for_unreached(prog):
    main, _ = prog
    x = static.data("x", [2], "float64")
    y = static.data("y", [2], "float64")
    x.stop_gradient = False
    y.stop_gradient = False
    z = paddle.sin(x) * 2.0 if hasattr(paddle, "sin") else x * 2.0
    grads = static.gradients([z], [x, y])
    assert isinstance(grads, list) and grads[1] is None and grads[0].name == "x@GRAD"
    (g,) = static.Executor().run(main, feed={"x": np.array([0.1, 0.2]), "y": np.zeros(2)}, fetch_list=[grads[0]])
    np.testing.assert_allclose(g, 2 * np.cos([0.1, 0.2]), rtol=1e-12)


def test_gradients_with_target_gradients(prog):
    main, _ = prog
    x = static.data("x", [3], "float64")
    x.stop_gradient = False
    tg = static.data("tg", [3], "float64")
    y = x * x
    (g,) = static.gradients(y, x, target_gradients=tg)
    (gv,) = static.Executor().run(main, feed={"x": np.array([1., 2., 3.]), "tg": np.array([1., 10., 100.])},
                                  fetch_list=[g])
    np.testing.assert_allclose(gv, [2., 40., 600.])


def test_gradients_argument_errors(prog):
    x = static.data("x", [3], "float32")
    x.stop_gradient = False
    y = x * x
    bad = static.data("bad", [4], "float32")
    with pytest.raises(ValueError, match="target_gradients"):
        static.gradients([y], [x], target_gradients=[bad, bad])
    with pytest.raises(ValueError, match="shape"):
        static.gradients([y], [x], target_gradients=[bad])
    with pytest.raises(TypeError, match="Variable"):
        static.gradients([y], ["x"])


def test_gradients_of_gradients_seed_example(prog):
    """x=1, y=x^2, dx1=grad(y,x)=2, z=dx1^2+y^2, grad(z,x)=12."""
    main, _ = prog
    x = static.data("x", [1], "float32")
    x.stop_gradient = False
    y = x * x
    (dx1,) = static.gradients(y, x)
    z = dx1 * dx1 + y * y
    (dx2,) = static.gradients(z, x)
    assert dx1.name == "x@GRAD" and dx2.name == "grad/grad/x@GRAD"
    a, b = static.Executor().run(main, feed={"x": np.ones(1, "float32")}, fetch_list=[dx1, dx2])
    np.testing.assert_allclose(a, [2.0])
    np.testing.assert_allclose(b, [12.0])


def test_double_backward_of_a_layer(prog):
    main, _ = prog
    x = static.data("x", [4], "float64")
    x.stop_gradient = False
    y = paddle.tanh(x)
    (dy,) = static.gradients(paddle.sum(y), x)
    (ddy,) = static.gradients(paddle.sum(dy), x)
    xv = np.linspace(-1, 1, 4)
    a, b = static.Executor().run(main, feed={"x": xv}, fetch_list=[dy, ddy])
    t = np.tanh(xv)
    np.testing.assert_allclose(a, 1 - t ** 2, rtol=1e-12)
    np.testing.assert_allclose(b, -2 * t * (1 - t ** 2), rtol=1e-12)


# ---- control flow ----------------------------------------------------------------------------------
def test_cond_forward_and_gradients(prog):
    main, startup = prog
    x = static.data("x", [2], "float64")
    x.stop_gradient = False
    w = static.create_parameter([2], "float64")
    pred = static.data("pred", [1], "bool")
    out = static.nn.cond(pred, lambda: x * w * 3.0, lambda: x * x)
    loss = paddle.sum(out)
    pg = static.append_backward(loss)
    gx = main.global_block().var("x@GRAD")
    types = _types(main.global_block())
    assert types.count("conditional_block") == 2 and types.count("conditional_block_grad") == 2
    grad_blocks = [b for b in main.blocks if b.forward_block_idx >= 0]
    assert len(grad_blocks) == 2
    for b in grad_blocks:
        assert main.block(b.forward_block_idx).parent_idx == 0
    exe = static.Executor()
    scope = static.Scope()
    exe.run(startup, scope=scope)
    wv = np.array(scope.find_var(w.name).get_tensor())
    xv = np.array([1.0, 2.0])
    o, g, gw = exe.run(main, feed={"x": xv, "pred": np.array([True])}, fetch_list=[out, gx, pg[0][1]], scope=scope)
    np.testing.assert_allclose(o, xv * wv * 3)
    np.testing.assert_allclose(g, 3 * wv)
    np.testing.assert_allclose(gw, 3 * xv)
    o, g, gw = exe.run(main, feed={"x": xv, "pred": np.array([False])}, fetch_list=[out, gx, pg[0][1]], scope=scope)
    np.testing.assert_allclose(o, xv * xv)
    np.testing.assert_allclose(g, 2 * xv)
    np.testing.assert_allclose(gw, [0.0, 0.0])


def test_cond_argument_errors(prog):
    x = static.data("x", [2], "float32")
    p = static.data("p", [1], "bool")
    with pytest.raises(TypeError, match="bool"):
        static.nn.cond(x, lambda: x, lambda: x)
    with pytest.raises(ValueError, match="same structure"):
        static.nn.cond(p, lambda: x, lambda: [x, x])
    with pytest.raises(TypeError, match="callable"):
        static.nn.cond(p, 3, lambda: x)


def test_while_loop_forward_and_gradients(prog):
    main, _ = prog
    x = static.data("x", [2], "float64")
    w = static.data("w", [2], "float64")
    x.stop_gradient = False
    w.stop_gradient = False
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    _, v = static.nn.while_loop(lambda i, v: paddle.less_than(i, n), lambda i, v: [i + 1, v * w + 1.0], [i, x])
    loss = paddle.sum(v)
    gx, gw = static.gradients(loss, [x, w])
    types = _types(main.global_block())
    assert "while" in types and "while_grad" in types
    gb = [b for b in main.blocks if b.forward_block_idx >= 0]
    assert len(gb) == 1 and main.block(gb[0].forward_block_idx).ops
    xv, wv = np.array([1.0, 2.0]), np.array([0.5, 3.0])
    o, a, b = static.Executor().run(main, feed={"x": xv, "w": wv}, fetch_list=[v, gx, gw])
    np.testing.assert_allclose(o, xv * wv ** 3 + wv ** 2 + wv + 1)
    np.testing.assert_allclose(a, wv ** 3)
    np.testing.assert_allclose(b, 3 * xv * wv ** 2 + 2 * wv + 1)


def test_while_loop_zero_iterations(prog):
    main, _ = prog
    x = static.data("x", [2], "float64")
    w = static.data("w", [2], "float64")
    x.stop_gradient = False
    w.stop_gradient = False
    i = paddle.full([1], 5, "int64")
    n = paddle.full([1], 3, "int64")
    _, v = static.nn.while_loop(lambda i, v: paddle.less_than(i, n), lambda i, v: [i + 1, v * w], [i, x])
    gx, gw = static.gradients(paddle.sum(v), [x, w])
    o, a, b = static.Executor().run(main, feed={"x": np.ones(2), "w": np.ones(2) * 2}, fetch_list=[v, gx, gw])
    np.testing.assert_allclose(o, [1, 1])
    np.testing.assert_allclose(a, [1, 1])
    np.testing.assert_allclose(b, [0, 0])


def test_while_loop_argument_errors(prog):
    x = static.data("x", [2], "float32")
    with pytest.raises(ValueError, match="loop_vars"):
        static.nn.while_loop(lambda v: v, lambda v: v, [])
    with pytest.raises(TypeError, match="bool"):
        static.nn.while_loop(lambda v: v, lambda v: [v], [x])
    with pytest.raises(ValueError, match="as many values"):
        static.nn.while_loop(lambda v: paddle.less_than(paddle.sum(v), paddle.full([], 1.0)),
                             lambda v: [v, v], [x])


# ---- debugging --------------------------------------------------------------------------------------
def test_dump_backward_graph_path(prog, tmp_path):
    w = static.create_parameter([2], "float32")
    loss = paddle.mean(w * w)
    d = tmp_path / "dump"
    static.append_backward(loss, dump_backward_graph_path=str(d))
    files = os.listdir(d)
    assert len(files) == 1 and files[0].endswith("_static_backward_graph.dot")
    text = (d / files[0]).read_text()
    assert "create_parameter_0.w_0@GRAD" in text and "elementwise_mul" in text
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(NotADirectoryError):
        static.append_backward(loss, dump_backward_graph_path=str(f))


def test_grad_ops_link_to_their_forward_op(prog):
    main, _ = prog
    w = static.create_parameter([2], "float32")
    y = paddle.exp(w)
    loss = paddle.mean(y)
    static.append_backward(loss)
    exp_op = y.op
    grad_ops = [op for op in main.global_block().ops if op._fwd_op is exp_op]
    assert grad_ops and all(op.attr("op_role") == 1 for op in grad_ops)
    assert "test_static_backward.py" in exp_op.where and grad_ops[0].where == exp_op.where


def test_cond_inside_while_loop_gradients(prog):
    main, _ = prog
    x = static.data("x", [1], "float64")
    x.stop_gradient = False
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 4, "int64")
    two = paddle.full([1], 2, "int64")

    def body(i, v):
        even = paddle.equal(paddle.remainder(i, two), paddle.full([1], 0, "int64"))
        v2 = static.nn.cond(even, lambda: v * x, lambda: v + x)
        return [i + 1, v2]

    # the loop var starts as a copy of x: while_loop writes its loop vars in place, as Paddle's
    _, v = static.nn.while_loop(lambda i, v: paddle.less_than(i, n), body, [i, x * 1.0])
    (gx,) = static.gradients(paddle.sum(v), x)
    # v: x -> x*x -> x*x + x -> (x*x + x)*x -> (x^3 + x^2) + x ; dv/dx = 3x^2 + 2x + 1
    xv = np.array([1.5])
    o, g = static.Executor().run(main, feed={"x": xv}, fetch_list=[v, gx])
    np.testing.assert_allclose(o, xv ** 3 + xv ** 2 + xv)
    np.testing.assert_allclose(g, 3 * xv ** 2 + 2 * xv + 1)
