"""What Paddle's gradient_checker (test/legacy_test, used by its *_nn_grad tests) relies on (issue 28, item 2): a fed
persistable variable kept in the scope and its elements set in place, higher-order gradients that are None or zero
as Paddle's double/triple grad ops give them, celu as one op, core.DataType, the prim switches, paddle.pir.Value."""
import numpy as np

from tests.differential import differential


def _grads(paddle, out, inputs, seeds, create_graph):
    return paddle.grad(out, inputs, seeds, create_graph=create_graph, allow_unused=True)


@differential()
def test_eager_second_order_of_activations(paddle):
    x = paddle.to_tensor(np.array([-0.5, 0.3, 1.2]), stop_gradient=False)
    dy = paddle.to_tensor(np.array([1.0, 2.0, -1.0]), stop_gradient=False)
    ones = paddle.ones([3], "float64")
    result = {}
    for name, f in [("leaky_relu", lambda t: paddle.nn.functional.leaky_relu(t, 0.2)),
                    ("celu", lambda t: paddle.nn.functional.celu(t, 0.4)), ("pow1", lambda t: paddle.pow(t, 1.0)),
                    ("elu", lambda t: paddle.nn.functional.elu(t, 0.5))]:
        (dx,) = _grads(paddle, f(x), [x], [dy], True)
        # leaky_relu_grad reads x only as a mask: Paddle's double grad has no gradient for it (None)
        result[name] = [None if g is None else g for g in _grads(paddle, [dx], [x, dy], [ones], False)]
    return result


@differential(expected={"ops": ["celu"], "dx": True, "ddx": [True, True], "third": [True, True, True]})
def test_static_celu_and_pow_higher_orders(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [3], "float64")
        y = paddle.nn.functional.celu(x, 0.2)
        ops = [op.type for op in main.global_block().ops]
        # set after building, as gradient_checker does: only the one op lies between them
        x.stop_gradient = y.stop_gradient = False
        dy = paddle.static.data("dy", [3], "float64")
        dy.stop_gradient = False
        (dx,) = paddle.static.gradients([y], [x], [dy])
        ddx = paddle.static.gradients([dx], [x, dy], None)
        # pow(x, 1): the third order still reaches dy (a zero), as Paddle's pow_triple_grad
        z = paddle.pow(x, 1.0)
        (dz,) = paddle.static.gradients([z], [x], [dy])
        seed = paddle.static.data("seed", [3], "float64")
        seed.stop_gradient = False
        second = [g for g in paddle.static.gradients([dz], [x, dy], [seed]) if g is not None]
        third = paddle.static.gradients(second, [x, dy, seed], None)
        return {"ops": ops, "dx": dx is not None, "ddx": [g is not None for g in ddx],
                "third": [g is not None for g in third]}


@differential()
def test_a_fed_persistable_variable_stays_in_the_scope(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float64")
        x.persistable = True
        y = paddle.scale(x, 2.0, 1.0)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.Scope()
    fed = np.linspace(-1, 1, 6).reshape(2, 3)
    (first,) = exe.run(main, feed={"x": fed}, fetch_list=[y], scope=scope)
    t = scope.find_var("x").get_tensor()
    before = t._get_double_element(4)
    t._set_double_element(4, 2.5)  # the scope's own copy: the fed array is untouched
    (second,) = exe.run(main, fetch_list=[y], scope=scope)
    return {"first": first, "second": second, "before": before, "fed": fed, "kept": np.array(t)}


@differential(expected={"fp64": "float64", "int64": "int64", "prim": [True, True, True, False],
                        "pir_value": False})
def test_core_names_the_gradient_checker_reads(paddle):
    core = paddle.base.core
    core._set_prim_all_enabled(True)
    on = [core._is_fwd_prim_enabled(), core._is_bwd_prim_enabled(), core._is_all_prim_enabled()]
    core._set_prim_backward_enabled(False)
    on.append(core._is_all_prim_enabled())
    core._set_prim_all_enabled(False)
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        v = paddle.static.data("v", [1], "float32")
        is_value = isinstance(v, paddle.pir.Value)
    paddle.disable_static()
    dtype = {k: str(paddle.ones([1], dtype=d).dtype).replace("paddle.", "")
             for k, d in (("fp64", core.DataType.FLOAT64), ("int64", core.DataType.INT64))}
    return {**dtype, "prim": on, "pir_value": is_value}
