"""The module paths Paddle code imports from (issue 10), run against real Paddle 3.3.1: paddle.base,
paddle.framework, paddle.autograd.py_layer / backward_mode, paddle.tensor.<module>, Sequential.append,
forward hooks' with_kwargs / always_call / prepend, Tensor.gradient()."""
import importlib

import numpy as np

from tests.differential import differential, error_class, raises


def _module(paddle, path):
    return importlib.import_module(f"{paddle.__name__}.{path}")


# ---- paddle.base (fluid under Paddle 3's name) -----------------------------------------------------------
@differential(expected={"inside": [True, True, True], "after": [False, False], "grad": [4.0, 6.0],
                        "no_grad": True, "decorated": True})
def test_base_dygraph_guard_no_grad_grad(paddle):
    base = _module(paddle, "base")
    dygraph = _module(paddle, "base.dygraph")
    framework = _module(paddle, "base.framework")
    paddle.enable_static()
    with dygraph.guard():
        inside = [paddle.in_dynamic_mode(), base.in_dygraph_mode(), framework.in_dygraph_mode()]
        x = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
        (g,) = dygraph.grad([(x * x).sum()], [x])
        with dygraph.no_grad():
            y = x * 2

        @dygraph.no_grad()
        def double(t):
            return t * 2
        z = double(x)
    after = [paddle.in_dynamic_mode(), base.in_dygraph_mode()]
    paddle.disable_static()
    return {"inside": inside, "after": after, "grad": g, "no_grad": y.stop_gradient, "decorated": z.stop_gradient}


@differential(expected={"pir": False, "pir_base": False, "use": False, "flags": {"FLAGS_enable_pir_api": False},
                        "dyn": True, "dyn_or_pir": True, "same": True})
def test_framework_mode_queries(paddle):
    framework = _module(paddle, "framework")
    base = _module(paddle, "base")
    return {"pir": framework.in_pir_mode(), "pir_base": base.in_pir_mode(), "use": framework.use_pir_api(),
            "flags": base.get_flags("FLAGS_enable_pir_api"), "dyn": framework.in_dynamic_mode(),
            "dyn_or_pir": framework.in_dynamic_or_pir_mode(),
            "same": base.framework.get_flags(["FLAGS_enable_pir_api"]) == paddle.get_flags(["FLAGS_enable_pir_api"])}


@differential(expected=raises(ValueError))
def test_get_flags_unknown(paddle):
    paddle.base.get_flags("FLAGS_not_a_flag")


@differential(expected=raises(ValueError))
def test_set_flags_unknown(paddle):
    paddle.set_flags({"FLAGS_not_a_flag": 1})


@differential(expected=raises(TypeError))
def test_set_flags_not_a_dict(paddle):
    paddle.set_flags("FLAGS_enable_pir_api")


@differential(expected=raises(TypeError))
def test_get_flags_bad_type(paddle):
    paddle.get_flags(3)


@differential(expected={"program": True, "executor": True, "append_backward": True})
def test_base_static_names(paddle):
    base = _module(paddle, "base")
    return {"program": base.Program is paddle.static.Program, "executor": base.Executor is paddle.static.Executor,
            "append_backward": base.backward.append_backward is paddle.static.append_backward}


# ---- paddle.autograd submodules ------------------------------------------------------------------------
@differential(expected={"y": [0.76159416, 0.96402758], "grad": [0.41997434, 0.07065082], "bw": [4.0, 6.0]})
def test_autograd_py_layer_and_backward_mode(paddle):
    py_layer = _module(paddle, "autograd.py_layer")
    backward_mode = _module(paddle, "autograd.backward_mode")

    class Tanh(py_layer.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - y * y)
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = Tanh.apply(x)
    y.sum().backward()
    w = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    backward_mode.backward([(w * w).sum()])
    return {"y": y, "grad": x.grad, "bw": w.grad}


# ---- paddle.tensor.<module> ----------------------------------------------------------------------------
@differential(expected={"gaussian": ["float32", [2, 3]], "gaussian64": ["float64", [4]],
                        "fill": [3, 3], "fill_out": [True, [2.0, 2.0]], "add": [4.0, 6.0], "reshape": [2, 2],
                        "equal": [True, False], "matmul": [[7.0]], "mean": 2.0, "shape": [2, 2], "randn": [3]})
def test_tensor_submodules(paddle):
    t = paddle.tensor
    random, creation = _module(paddle, "tensor.random"), _module(paddle, "tensor.creation")
    a = paddle.to_tensor([1.0, 3.0])
    out = paddle.zeros([2])
    filled = creation.fill_constant([2], "float32", 2.0, out=out)
    g = random.gaussian([2, 3])
    return {"gaussian": [str(g.dtype).replace("paddle.", ""), g.shape],
            "gaussian64": [str(random.gaussian([4], mean=1.0, std=2.0, dtype="float64").dtype).replace("paddle.", ""),
                           [4]],
            "fill": creation.fill_constant([2], "int32", 3), "fill_out": [filled is out, out],
            "add": t.math.add(a, paddle.to_tensor([3.0, 3.0])),
            "reshape": t.manipulation.reshape(paddle.ones([4]), [2, 2]).shape,
            "equal": t.logic.equal(a, paddle.to_tensor([1.0, 2.0])),
            "matmul": t.linalg.matmul(paddle.to_tensor([[1.0, 2.0]]), paddle.to_tensor([[1.0], [3.0]])),
            "mean": t.stat.mean(a), "shape": t.attribute.shape(paddle.ones([2, 2])).tolist(),  # dtype: see report
            "randn": random.randn([3]).shape}


# ---- layers: Sequential.append, forward hooks ----------------------------------------------------------
@differential(expected={"same": True, "names": ["0", "1", "2", "3", "4"],
                        "kinds": ["Linear", "Softmax", "ReLU", "Tanh", "Sigmoid"]})
def test_sequential_append_extend_insert(paddle):
    nn = paddle.nn
    s = nn.Sequential(nn.Linear(2, 2))
    same = s.append(nn.ReLU()) is s
    s.extend([nn.Tanh(), nn.Sigmoid()])
    s.insert(1, nn.Softmax())
    return {"same": same, "names": [n for n, _ in s.named_children()], "kinds": [type(l).__name__ for l in s]}


@differential(expected=raises(IndexError))
def test_sequential_insert_out_of_range(paddle):
    paddle.nn.Sequential(paddle.nn.ReLU()).insert(5, paddle.nn.ReLU())


@differential(expected=raises(AssertionError))
def test_sequential_append_not_a_layer(paddle):
    paddle.nn.Sequential().append(3)


def _hooked(paddle, log):
    class Scale(paddle.nn.Layer):
        def forward(self, x, scale=1.0, fail=False):
            if fail:
                raise ValueError("forward failed")
            return x * scale
    m = Scale()
    m.register_forward_pre_hook(lambda layer, args, kwargs: (args, {**kwargs, "scale": 3.0}), with_kwargs=True)
    m.register_forward_pre_hook(lambda layer, args: log.append(f"pre{len(args)}"), prepend=True)
    m.register_forward_post_hook(lambda layer, args, kwargs, out: log.append("post_kw:" + ",".join(sorted(kwargs)))
                                 or out + 1, with_kwargs=True)
    always = m.register_forward_post_hook(lambda layer, args, out: log.append(f"always:{out is None}"),
                                          always_call=True)
    m.register_forward_post_hook(lambda layer, args, out: log.append("first"), prepend=True)
    return m, always


@differential(expected={"out": [4.0, 7.0], "log": ["pre1", "first", "post_kw:scale", "always:False"],
                        "failed": ["pre1", "always:True"], "removed": [2.0, 5.0]})
def test_forward_hooks_with_kwargs_always_call_prepend(paddle):
    log = []
    m, always = _hooked(paddle, log)
    x = paddle.to_tensor([1.0, 2.0])
    out = m(x)
    seen = list(log)
    log.clear()
    try:
        m(x, fail=True)
    except ValueError:
        pass
    failed = list(log)
    always.remove()
    return {"out": out, "log": seen, "failed": failed, "removed": m(x) - 2}


@differential(expected=raises(RuntimeError))
def test_forward_pre_hook_with_kwargs_bad_return(paddle):
    m = paddle.nn.ReLU()
    m.register_forward_pre_hook(lambda layer, args, kwargs: 5, with_kwargs=True)
    m(paddle.ones([2]))


# ---- Tensor.gradient() ---------------------------------------------------------------------------------
@differential(expected={"before": None, "after": np.array([2.0, 4.0], np.float32), "kind": "ndarray",
                        "no_grad": None})
def test_tensor_gradient(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = x.gradient()
    (x * x).sum().backward()
    after = x.gradient()
    return {"before": before, "after": after, "kind": type(after).__name__,
            "no_grad": paddle.to_tensor([1.0]).gradient()}


@differential(expected={"len": 2, "read": [3.0], "items": [[3.0], [2.0]], "created": 1, "new": [[1.0]]})
def test_tensor_arrays_in_dynamic_mode(paddle):
    array = _module(paddle, "tensor.array")
    arr = array.create_array("float32", [paddle.to_tensor([1.0])])
    zero, one = paddle.to_tensor([0], dtype="int64"), paddle.to_tensor([1], dtype="int64")
    created = array.array_length(arr)
    same = array.array_write(paddle.to_tensor([2.0]), one, arr)
    array.array_write(paddle.to_tensor([3.0]), zero, arr)
    new = array.array_write(paddle.to_tensor([1.0]), zero)
    assert same is arr
    return {"len": array.array_length(arr), "read": array.array_read(arr, zero), "items": arr, "created": created,
            "new": new}


@differential(expected=raises(AssertionError))
def test_array_write_past_the_end(paddle):
    paddle.tensor.array_write(paddle.to_tensor([1.0]), paddle.to_tensor([2], dtype="int64"), [])


@differential(expected=raises(TypeError))
def test_create_array_bad_items(paddle):
    paddle.tensor.create_array("float32", [1.0])


@differential(expected={"increment": [8], "isin": [True, False], "trapezoid": 0.5, "missing": "AttributeError",
                        "backward_utils": [1, True, "TypeError"]})
def test_tensor_math_holds_the_math_api_and_backward_utils(paddle):
    """paddle.tensor.math holds every math function (increment, isin, trapezoid, ... are implemented elsewhere
    here); paddle.autograd.backward_utils' containers take PIR values or None only."""
    math = _module(paddle, "tensor.math")
    x = paddle.to_tensor([5], dtype="int64")
    backward_utils = _module(paddle, "autograd.backward_utils")
    table = backward_utils.ValueDict()
    table[None] = 1
    missing = error_class(lambda: math.no_such_function)
    return {"increment": math.increment(x, value=3), "isin": math.isin(paddle.to_tensor([1, 4]), paddle.to_tensor([1, 2])),
            "trapezoid": math.trapezoid(paddle.to_tensor([0.0, 1.0])).item(), "missing": missing,
            "backward_utils": [len(table), None in table,
                               error_class(lambda: backward_utils.ValueSet([paddle.ones([1])]))]}


@differential(expected={"names": ["dygraph_tmp", "dygraph_tmp", "abc"], "steps": [1, 1], "has_grad": [True, False, True],
                        "static": None})
def test_dygraph_tracer(paddle):
    """base.framework._dygraph_tracer(): the tracer in dynamic mode (its unique names share one counter, _has_grad is
    the grad mode), None in static mode."""
    framework = _module(paddle, "base.framework")
    tracer = framework._dygraph_tracer()
    names = [tracer._generate_unique_name(), tracer._generate_unique_name("dygraph_tmp"),
             tracer._generate_unique_name("abc")]
    has_grad = [tracer._has_grad]
    with paddle.no_grad():
        has_grad.append(tracer._has_grad)
    has_grad.append(tracer._has_grad)
    paddle.enable_static()
    numbers = [int(n.rsplit("_", 1)[1]) for n in names]  # (the counter is the process's: compared by its steps)
    return {"names": [n.rsplit("_", 1)[0] for n in names], "steps": [b - a for a, b in zip(numbers, numbers[1:])],
            "has_grad": has_grad, "static": framework._dygraph_tracer()}
