"""Eager autograd edge cases, each run under paddlelite and real Paddle 3.3.1 (issue 10).

The behaviour table: hooks and retained gradients, unused inputs and outputs, no-grad backward, seeds,
higher orders, PyLayer, in-place/version checks, and grad()'s argument errors. Each body returns what
Paddle's users observe (values, dtypes, shapes, stop_gradient flags) or raises Paddle's exception class.
"""
import threading

import numpy as np
import pytest

from tests.differential import differential, raises


def _t(paddle, v, sg=False):
    return paddle.to_tensor(np.array(v, dtype="float32"), stop_gradient=sg)


# ---- hooks and retained gradients -------------------------------------------------------------------
@differential(expected={"w": [4.0, 6.0], "x": [8.0, 12.0], "y": [8.0, 12.0]})
def test_hook_changes_what_flows_on_not_the_retained_grad(paddle):
    x, y, v = _t(paddle, [1, 2]), _t(paddle, [3, 4]), _t(paddle, [[1, 2], [3, 4]])
    w = x + y
    w.retain_grads()
    w.register_hook(lambda g: g * 2)
    paddle.matmul(v, w).sum().backward()
    return {"w": w.grad, "x": x.grad, "y": y.grad}


@differential(expected={"w": [1.0, 1.0], "x": [8.0, 8.0]})
def test_three_hooks_after_retain(paddle):
    x = _t(paddle, [1, 2])
    w = x * 1.0
    w.retain_grads()
    for _ in range(3):
        w.register_hook(lambda g: g * 2)
    w.sum().backward()
    return {"w": w.grad, "x": x.grad}


@differential(expected={"w": [2.0, 2.0], "x": [6.0, 6.0]})
def test_retain_sees_the_hooks_registered_before_it(paddle):
    x = _t(paddle, [1, 2])
    w = x * 1.0
    w.register_hook(lambda g: g * 2)
    w.retain_grads()
    w.register_hook(lambda g: g * 3)
    w.sum().backward()
    return {"w": w.grad, "x": x.grad}


@differential(expected={"w": [4.0, 8.0], "x": [16.0, 32.0], "sg": False})
def test_retained_grad_is_replaced_each_backward_leaf_grad_accumulates(paddle):
    x = _t(paddle, [1, 2])
    w = x * 2.0
    w.retain_grads()
    (w * w).sum().backward(retain_graph=True)
    (w * w).sum().backward()
    return {"w": w.grad, "x": x.grad, "sg": w.grad.stop_gradient}


@differential(expected={"x": [2.0, 4.0], "sg": False})
def test_retain_grads_before_stop_gradient_false(paddle):
    x = _t(paddle, [1, 2], sg=True)
    x.retain_grads()
    x.stop_gradient = False
    (x * x).sum().backward()
    return {"x": x.grad, "sg": x.grad.stop_gradient}


@differential(expected=None)
def test_retain_grads_on_a_tensor_without_grad_is_a_no_op(paddle):
    w = _t(paddle, [1, 2], sg=True) * 2.0
    w.retain_grads()
    return w.grad


@differential(expected={"grad": [5.0, 5.0], "seen": [[5.0, 5.0]], "flags": [False]})
def test_hook_on_interior_tensor_sees_the_total_once(paddle):
    x = _t(paddle, [1, 2])
    w = x * 1.0
    seen, flags = [], []
    w.register_hook(lambda g: seen.append(g.numpy().tolist()) or flags.append(g.stop_gradient))
    (w * 2 + w * 3).sum().backward()
    return {"grad": x.grad, "seen": seen, "flags": flags}


@differential(expected={"grad": [6.0, 12.0], "sg": False, "flags": [False], "removed": [True, False]})
def test_leaf_hook_result_replaces_the_gradient(paddle):
    x = _t(paddle, [1, 2])
    flags = []
    x.register_hook(lambda g: flags.append(g.stop_gradient) or g * 3)
    extra = x.register_hook(lambda g: g * 100)
    removed = [extra.remove(), extra.remove()]
    (x * x).sum().backward()
    return {"grad": x.grad, "sg": x.grad.stop_gradient, "flags": flags, "removed": removed}


@differential(expected=raises(RuntimeError))
def test_hook_on_stop_gradient_tensor(paddle):
    _t(paddle, [1, 2], sg=True).register_hook(lambda g: g)


def test_hook_returning_a_wrong_shape_is_an_error():
    # Paddle silently makes x.grad shape [3]; we refuse (nothing silently wrong)
    import paddlelite as paddle
    x = _t(paddle, [1, 2])
    x.register_hook(lambda g: paddle.ones([3]))
    with pytest.raises(ValueError, match="hook .* shape"):
        (x * x).sum().backward()


@differential(expected={"p1": [[1.0, 1.0, 1.0]], "p2": [[0.0, 0.0, 0.0]], "p2_sg": True,
                        "x": [[1.0, 1.0, 1.0, 0.0, 0.0, 0.0]]})
def test_unused_output_of_a_multi_output_op_gets_zeros(paddle):
    x = _t(paddle, np.arange(6.0).reshape(1, 6))
    p1, p2 = paddle.split(x * 1.0, [3, 3], axis=1)
    p1.retain_grads()
    p2.retain_grads()
    p1.sum().backward()
    return {"p1": p1.grad, "p2": p2.grad, "p2_sg": p2.grad.stop_gradient, "x": x.grad}


# ---- backward() edge cases --------------------------------------------------------------------------
@differential(expected={"ret": None, "grad": None})
def test_backward_without_any_grad_is_a_no_op(paddle):
    y = paddle.ones([2, 3]).sum()
    return {"ret": y.backward(), "grad": y.grad}


@differential(expected=[2.0, 4.0])
def test_backward_skips_roots_that_need_no_grad(paddle):
    x = _t(paddle, [1, 2])
    paddle.autograd.backward([(x * x).sum(), paddle.ones([1]).sum()])
    return x.grad


@differential(expected=[2.0, 4.0])
def test_backward_inside_no_grad_still_computes(paddle):
    x = _t(paddle, [1, 2])
    y = (x * x).sum()
    with paddle.no_grad():
        y.backward()
    return x.grad


@differential(expected={"grad": [4.0, 12.0], "dtype": "float32"})
def test_backward_seed_of_another_dtype_is_cast(paddle):
    x = _t(paddle, [2, 3])
    (x * x).backward(paddle.to_tensor([1.0, 2.0], dtype="float64"))
    return {"grad": x.grad, "dtype": x.grad.dtype}


@differential(expected=raises(AssertionError))
def test_backward_seed_must_have_the_output_shape(paddle):
    x = _t(paddle, 3.0)
    (x * x).backward(paddle.to_tensor([2.0]))


@differential(expected={"grad": [3.0, 5.0], "sg": True})
def test_accumulating_into_a_user_set_grad_keeps_its_flags(paddle):
    x = _t(paddle, [1, 2])
    x.grad = paddle.ones([2])
    (x * x).sum().backward()
    return {"grad": x.grad, "sg": x.grad.stop_gradient}


@differential(expected=[2.0, 4.0])
def test_clear_grad_then_backward(paddle):
    x = _t(paddle, [1, 2])
    (x * 5.0).sum().backward()
    x.clear_grad()
    (x * x).sum().backward()
    return x.grad


@differential(expected={"w": 12.0, "x": 72.0})
def test_hook_and_retain_on_a_0d_tensor(paddle):
    x = _t(paddle, 2.0)
    w = x * 3.0
    w.retain_grads()
    w.register_hook(lambda g: g * 2)
    (w * w).backward()
    return {"w": w.grad, "x": x.grad}


@differential(expected={"grad": [4.0, 8.0], "sg": True})
def test_hooks_run_in_the_grad_mode_backward_was_called_in(paddle):
    x = _t(paddle, [1, 2])
    x.register_hook(lambda g: g * 2)
    y = (x * x).sum()
    with paddle.no_grad():
        y.backward()
    return {"grad": x.grad, "sg": x.grad.stop_gradient}


@differential(expected=[0.0, 0.0])
def test_clear_grad_of_a_retained_grad(paddle):
    x = _t(paddle, [1, 2])
    w = x * 2
    w.retain_grads()
    (w * w).sum().backward()
    w.clear_grad()
    return w.grad


@differential(expected=[2.0, 8.0])
def test_autograd_backward_reshapes_a_seed_with_as_many_elements(paddle):
    x = _t(paddle, [1, 2])
    paddle.autograd.backward([x * x], [paddle.to_tensor([[1.0, 2.0]])])
    return x.grad


@differential(expected=raises(TypeError))
def test_tensor_backward_retain_graph_must_be_a_bool(paddle):
    x = _t(paddle, [1, 2])
    (x * x).sum().backward(retain_graph=1)


@differential(expected=raises(AssertionError))
def test_autograd_backward_retain_graph_must_be_a_bool(paddle):
    x = _t(paddle, [1, 2])
    paddle.autograd.backward([(x * x).sum()], retain_graph=1)


@differential(expected=[24.0, 42.0])
def test_inplace_on_an_interior_tensor_then_backward(paddle):
    x = _t(paddle, [1, 2])
    w = x * 3.0
    w.add_(paddle.ones([2]))
    (w * w).sum().backward()
    return x.grad


# ---- grad() -----------------------------------------------------------------------------------------
@differential(expected={"dx": [[1.0, 1.0], [1.0, 1.0]], "x": [[0.0, 0.0], [0.0, 0.0]], "y": [[2.0, 2.0], [2.0, 2.0]]})
def test_higher_order_reached_input_gets_zeros(paddle):
    x, y = _t(paddle, [[1, 2], [3, 4]]), _t(paddle, [[1, 0], [0, 1]])
    dx, dy = paddle.grad([paddle.matmul(x, y)], [x, y], [_t(paddle, np.ones((2, 2)))], create_graph=True)
    dx.backward()
    return {"dx": dx, "x": x.grad, "y": y.grad}


@differential(expected={"x": [0.0, 0.0], "w": [1.0, 1.0], "sg": True})
def test_grad_of_a_gradient_reaches_the_saved_input(paddle):
    x, w = _t(paddle, [1, 2]), _t(paddle, [3, 4])
    (dx,) = paddle.grad((x * w).sum(), x, create_graph=True)
    gx, gw = paddle.grad(dx.sum(), [x, w])
    return {"x": gx, "w": gw, "sg": gx.stop_gradient}


@differential(expected={"a": [0.0, 0.0], "w": [1.0, 1.0]})
def test_higher_order_reached_interior_input_propagates_zeros(paddle):
    a, w = _t(paddle, [1, 2]), _t(paddle, [3, 4])
    x = a * 1.0
    (dx,) = paddle.grad((x * w).sum(), x, create_graph=True)
    dx.sum().backward()
    return {"a": a.grad, "w": w.grad}


@differential(expected={"g1": [32.0], "g2": [48.0], "g3": [48.0]})
def test_triple_grad(paddle):
    x = _t(paddle, [2])
    (g1,) = paddle.grad(x ** 4, x, create_graph=True)
    (g2,) = paddle.grad(g1, x, create_graph=True)
    (g3,) = paddle.grad(g2, x)
    return {"g1": g1, "g2": g2, "g3": g3}


@differential(expected={"g": 4.0, "shape": []})
def test_grad_accepts_a_one_element_seed_for_a_0d_output(paddle):
    x = _t(paddle, 2.0)
    (g,) = paddle.grad([x * x], [x], [paddle.ones([1])])
    return {"g": g, "shape": g.shape}


@differential(expected=[[4.0, 6.0]])
def test_grad_reshapes_a_seed_with_as_many_elements(paddle):
    x = _t(paddle, [[2, 3]])
    return paddle.grad([x * x], [x], [paddle.ones([2])])[0]


@differential(expected={"g": [4.0, 12.0], "dtype": "float32"})
def test_grad_outputs_of_another_dtype_are_cast(paddle):
    x = _t(paddle, [2, 3])
    (g,) = paddle.grad([x * x], [x], [paddle.to_tensor([1, 2])])
    return {"g": g, "dtype": g.dtype}


@differential(expected={"g1": [5.4366, 22.1672], "g2": [5.4366, 22.1672], "x": [5.4366, 22.1672]}, atol=1e-4)
def test_grad_keeps_the_graph_even_with_retain_graph_false(paddle):
    x = _t(paddle, [1, 2])
    y = (paddle.exp(x) * x).sum()
    (g1,) = paddle.grad([y], [x], retain_graph=False)
    (g2,) = paddle.grad([y], [x])
    y.backward()
    return {"g1": g1, "g2": g2, "x": x.grad}


@differential(expected={"leaf_hook": [2.0, 4.0], "w": [40.0, 80.0], "x": [80.0, 160.0]})
def test_grad_runs_interior_hooks_but_not_leaf_hooks(paddle):
    x = _t(paddle, [1, 2])
    x.register_hook(lambda g: g * 10)
    (leaf_hook,) = paddle.grad([(x * x).sum()], [x])
    a = _t(paddle, [1, 2])
    w = a * 2.0
    w.register_hook(lambda g: g * 10)
    gw, ga = paddle.grad([(w * w).sum()], [w, a])
    return {"leaf_hook": leaf_hook, "w": gw, "x": ga}


@differential(expected=[3.0, 4.0])
def test_grad_no_grad_vars_leaf(paddle):
    x, z = _t(paddle, [1, 2]), _t(paddle, [3, 4])
    return paddle.grad([(x * z).sum()], [x], no_grad_vars=[z])[0]


@differential(expected=[None])
def test_grad_of_a_stop_gradient_output_with_allow_unused(paddle):
    return paddle.grad([paddle.ones([1])], [_t(paddle, [1])], allow_unused=True)


@pytest.mark.parametrize("case", ["none_none", "int_x", "x_int", "empty", "grad_outputs_len",
                                  "grad_outputs_type", "create_graph", "retain_graph", "only_inputs",
                                  "no_grad_vars"])
def test_grad_argument_errors_are_assertion_errors(case):
    @differential(expected=raises(AssertionError))
    def body(paddle):
        x = _t(paddle, [1])
        y = (x * 2).sum()
        args = {"none_none": ((None, None), {}), "int_x": ((1, x), {}), "x_int": ((y, 1), {}),
                "empty": (([], [x]), {}), "grad_outputs_len": (([y], [x], [None, None]), {}),
                "grad_outputs_type": (([y], [x], [1.0]), {}), "create_graph": (([y], [x]), {"create_graph": 1}),
                "retain_graph": (([y], [x]), {"retain_graph": 1}),
                "only_inputs": (([y], [x]), {"only_inputs": False}),
                "no_grad_vars": (([y], [x]), {"no_grad_vars": 3})}[case]
        paddle.grad(*args[0], **args[1])
    body()


@pytest.mark.parametrize("which", ["inputs", "outputs"])
def test_grad_duplicates_are_runtime_errors(which):
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        x = _t(paddle, [1])
        y = (x * 2).sum()
        paddle.grad([y, y], [x]) if which == "outputs" else paddle.grad([y], [x, x])
    body()


# ---- PyLayer ----------------------------------------------------------------------------------------
def _tanh_layer(paddle):
    class Tanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x1, func1, x2=None):
            y1 = func1(x1)
            ctx.save_for_backward(y1)
            return y1

        @staticmethod
        def backward(ctx, dy1):
            (y1,) = ctx.saved_tensor()
            return dy1 * (1 - paddle.square(y1))
    return Tanh


@differential(expected={"sg": False, "grad": [0.7864, 0.42], "grad_sg": True}, atol=1e-4)
def test_pylayer_records_tensors_passed_by_keyword(paddle):
    a = _t(paddle, [0.5, 1.0])
    z = _tanh_layer(paddle).apply(x1=a, func1=paddle.tanh)
    z.sum().backward()
    return {"sg": z.stop_gradient, "grad": a.grad, "grad_sg": a.grad.stop_gradient}


@differential(expected={"a": [3.0], "b": [2.0]})
def test_pylayer_keyword_tensors_are_ordered_as_passed(paddle):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2, b * 3

        @staticmethod
        def backward(ctx, da, db):
            return da * 2, db * 3
    a, b = _t(paddle, [1]), _t(paddle, [1])
    y1, y2 = Two.apply(b=b, a=a)
    (y1 + y2).sum().backward()
    return {"a": a.grad, "b": b.grad}


def _ident_layer(paddle):
    class Ident(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy * 2
    return Ident


@differential(expected={"same": True, "sg": False, "grad": [2.0, 2.0]})
def test_pylayer_forward_may_return_its_non_leaf_input(paddle):
    a = _t(paddle, [1, 2])
    w = a * 1
    y = _ident_layer(paddle).apply(w)
    result = {"same": y is w, "sg": y.stop_gradient}
    (y * 1).sum().backward()
    return dict(result, grad=a.grad)


@differential(expected=raises(ValueError))
def test_pylayer_forward_returning_a_grad_leaf_input(paddle):
    _ident_layer(paddle).apply(_t(paddle, [1, 2]))


@differential(expected={"a": [2.0], "b": None})
def test_pylayer_backward_may_return_none(paddle):
    class NoneGrad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, dy):
            return dy * 2, None
    a, b = _t(paddle, [1]), _t(paddle, [1])
    NoneGrad.apply(a, b).sum().backward()
    return {"a": a.grad, "b": b.grad}


@differential(expected=[2.0, 2.0])
def test_pylayer_unused_output_gets_zeros(paddle):
    class MultiOut(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a):
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, d1, d2):
            return d1 * 2 + d2 * 3
    a = _t(paddle, [1, 2])
    y1, _ = MultiOut.apply(a)
    y1.sum().backward()
    return a.grad


@differential(expected={"a_sg": False, "b_sg": True, "grad": [2.0]})
def test_pylayer_mark_non_differentiable(paddle):
    class P(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, da, db):
            return da * 2
    x = _t(paddle, [1])
    a, b = P.apply(x)
    (a + b).sum().backward()
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "grad": x.grad}


@differential(expected=[False])
def test_pylayer_looks_into_list_arguments(paddle):
    class P(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0] * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * 2
    return [P.apply([_t(paddle, [1])]).stop_gradient]


@pytest.mark.parametrize("returned", ["float", "list"])
def test_pylayer_backward_returning_a_non_tensor(returned):
    @differential(expected=raises(ValueError))
    def body(paddle):
        class P(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, dy):
                return 3.0 if returned == "float" else [dy]
        P.apply(_t(paddle, [1])).sum().backward()
    body()


@differential(expected=raises(NotImplementedError))
def test_pylayer_without_forward(paddle):
    class P(paddle.autograd.PyLayer):
        @staticmethod
        def backward(ctx, dy):
            return dy
    P.apply(_t(paddle, [1]))


@differential(expected={"g": [6.0], "x": [2.0]})
def test_pylayer_double_backward(paddle):
    class Square(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return dy * 2 * x
    x = _t(paddle, [3])
    (g,) = paddle.grad(Square.apply(x), x, create_graph=True)
    g.backward()
    return {"g": g, "x": x.grad}


# ---- in-place and versions --------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["add_", "scale_"])
def test_inplace_on_a_leaf_that_requires_grad(method):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = _t(paddle, [1, 2])
        x.add_(paddle.ones([2])) if method == "add_" else x.scale_(2.0)
    body()


@differential(expected={"versions": [0, 2], "x": [3.0, 4.0]})
def test_inplace_on_a_leaf_under_no_grad(paddle):
    x = _t(paddle, [1, 2])
    v0 = x.inplace_version
    with paddle.no_grad():
        x.add_(paddle.ones([2]))
        x.add_(paddle.ones([2]))
    return {"versions": [v0, x.inplace_version], "x": x}


# Paddle composes these in-place APIs of several in-place ops, each bumping the version counter
_COMPOSITE_INPLACE = {
    "hypot_": lambda paddle, x: x.hypot_(x * 0.5),
    "gammainc_": lambda paddle, x: x.gammainc_(x + 1.0),
    "index_fill_": lambda paddle, x: x.index_fill_(paddle.to_tensor([0]), 0, 2.0),
    "ldexp_": lambda paddle, x: x.ldexp_(paddle.to_tensor([1, 2], dtype="int32")),
    "nan_to_num_": lambda paddle, x: x.nan_to_num_(),
    "sinc_": lambda paddle, x: x.sinc_(),
    "cumsum_ to another dtype": lambda paddle, x: paddle.cumsum_(x, -1, dtype="float64"),
    "cumprod_ to another dtype": lambda paddle, x: paddle.cumprod_(x, -1, dtype="float64"),
    "cumsum_": lambda paddle, x: paddle.cumsum_(x, -1),
}


@pytest.mark.parametrize("api", list(_COMPOSITE_INPLACE))
def test_version_count_of_composite_inplace_apis(api):
    @differential()
    def body(paddle):
        x = _t(paddle, [1.5, 2.5], sg=True)
        _COMPOSITE_INPLACE[api](paddle, x)
        return {"version": x.inplace_version, "x": x}
    body()


@differential()
def test_version_count_of_lcm_(paddle):
    x = paddle.to_tensor(np.array([4, 6], dtype="int64"))
    x.lcm_(paddle.to_tensor(np.array([6, 4], dtype="int64")))
    return {"version": x.inplace_version, "x": x}


@differential()
def test_saved_tensor_modified_by_a_composite_inplace_api(paddle):
    x = _t(paddle, [1, 2])
    w = x * 1.0
    y = w * w
    w.hypot_(paddle.ones([2]))
    try:
        y.sum().backward()
    except RuntimeError as e:  # Paddle's message counts hypot_'s three in-place ops
        return "tensor_version:3 != wrapper_version_snapshot:0" in str(e)


@pytest.mark.parametrize("api", ["hypot", "hypot_"])
@pytest.mark.parametrize("swap", [False, True])
def test_hypot_refuses_a_number(api, swap):
    @differential(expected=raises(TypeError))
    def body(paddle):
        args = (3.0, _t(paddle, [1, 2], sg=True))
        getattr(paddle, api)(*(args[::-1] if swap else args))
    body()


def test_modified_saved_tensor_error_has_paddles_wording():
    import paddlelite as paddle
    x = _t(paddle, [1, 2])
    w = x * 1.0
    y = w * w
    w.add_(paddle.ones([2]))
    with pytest.raises(RuntimeError, match="tensor_version:1 != wrapper_version_snapshot:0"):
        y.sum().backward()


@differential(expected=raises(RuntimeError))
def test_modified_saved_tensor(paddle):
    x = _t(paddle, [1, 2])
    w = x * 1.0
    y = w * w
    w.add_(paddle.ones([2]))
    y.sum().backward()


@pytest.mark.parametrize("how", ["inplace", "view", "setitem"])
def test_modified_saved_output(how):
    # exp/tanh's gradients read their output: changing it in place (directly, through a view or by
    # assignment) after the forward is detected, as in Paddle, instead of giving a silently wrong gradient
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        w = _t(paddle, [1, 2]) * 1.0
        y = paddle.tanh(w) if how == "setitem" else paddle.exp(w)
        if how == "inplace":
            y.add_(paddle.ones([2]))
        elif how == "view":
            y.reshape([2, 1]).add_(paddle.ones([2, 1]))
        else:
            y[0] = 5.0
        y.sum().backward()
    body()


@differential(expected=[3.0, 3.0])
def test_modified_output_that_no_gradient_reads(paddle):
    x = _t(paddle, [1, 2])
    y = (x * 1.0) * 3.0
    y.add_(paddle.ones([2]))
    y.sum().backward()
    return x.grad


# ---- threads (better than Paddle: no lost updates) --------------------------------------------------
def test_concurrent_backward_into_a_shared_leaf_loses_no_update():
    import paddlelite as paddle
    # large enough that NumPy releases the GIL inside the add, where an unlocked read-add-write loses updates
    w = paddle.to_tensor(np.zeros(1 << 18, "float32"), stop_gradient=False)
    start = threading.Barrier(8)

    def work():
        start.wait()
        for _ in range(25):
            (w * 1.0).sum().backward()
    threads = [threading.Thread(target=work) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    np.testing.assert_array_equal(w.grad.numpy(), np.full(1 << 18, 200.0))


@differential(expected={"held_after_second": [5.0, 7.0], "after_clear": [0.0, 0.0], "held_after_clear": [0.0, 0.0],
                        "after_third": [2.0, 4.0], "held_after_third": [0.0, 0.0], "shared_a": [6.0],
                        "shared_b": [1.0], "cleared_a": [0.0], "kept_b": [1.0]})
def test_grad_accumulates_into_the_tensor_a_reference_holds(paddle):
    """Paddle adds a later backward's gradient into the existing `.grad` tensor, and clear_gradient() zeroes
    it in place; the backward after a clear gives a new tensor. Leaves fed by one gradient array stay apart."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    held = x.grad
    (x * 3).sum().backward()
    out = {"held_after_second": held.numpy().tolist()}
    x.clear_gradient(True)
    out.update(after_clear=x.grad.numpy().tolist(), held_after_clear=held.numpy().tolist())
    (x * x).sum().backward()
    out.update(after_third=x.grad.numpy().tolist(), held_after_third=held.numpy().tolist())
    a = paddle.to_tensor([1.0], stop_gradient=False)
    b = paddle.to_tensor([2.0], stop_gradient=False)
    (a + b).sum().backward()
    (a * 5).sum().backward()
    out.update(shared_a=a.grad.numpy().tolist(), shared_b=b.grad.numpy().tolist())
    a.clear_gradient()
    out.update(cleared_a=a.grad.numpy().tolist(), kept_b=b.grad.numpy().tolist())
    return out


@differential(expected=raises(RuntimeError))
def test_create_graph_through_a_grad_op_without_a_grad_raises(paddle):
    # layer_norm_grad has no grad op: a higher-order gradient through it fails where the graph is created,
    # instead of coming out silently zero
    x = paddle.to_tensor(np.arange(8.0).reshape(2, 4) / 7, stop_gradient=False)
    y = paddle.nn.functional.layer_norm(x, 4)
    return paddle.grad((y * y * y).sum(), x, create_graph=True)


@differential(expected={"written": [5.0, 1.0, 1.0], "other": [0.0, 0.0, 0.0], "after_backward": [2.0, 2.0, 2.0]})
def test_in_place_write_into_a_cleared_gradient(paddle):
    # clear_grad leaves zeros that several parameters' gradients may share: a write into one of them changes
    # that gradient only; the next backward still replaces a cleared gradient rather than adding to it
    p = paddle.create_parameter([3], "float32")
    q = paddle.create_parameter([3], "float32")
    (p * 2).sum().backward()
    (q * 3).sum().backward()
    p.clear_grad()
    q.clear_grad()
    with paddle.no_grad():
        p.grad.add_(paddle.ones([3]))
        p.grad[0] = 5
    written = p.grad.numpy().copy()
    (p * 2).sum().backward()
    return {"written": written, "other": q.grad, "after_backward": p.grad}
