"""paddle.LazyGuard: parameters created inside have a shape and a dtype but no values until initialize(), and
Layer._startup_program() gives their initialisers' ops."""
from tests.differential import differential, raises


def _lazy_linear(paddle, weight_init, bias_init):
    with paddle.LazyGuard():
        return paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(initializer=weight_init),
                                bias_attr=paddle.ParamAttr(initializer=bias_init))


@differential(expected={"shape": [3, 2], "dtype": "paddle.float32", "before": False, "text": "Parameter containing:\n"
                        "Tensor(Not initialized)", "after": True, "weight": [[0.5] * 2] * 3, "out": [2, 2]})
def test_lazy_parameters_get_values_at_initialize(paddle):
    C = paddle.nn.initializer.Constant
    fc = _lazy_linear(paddle, C(0.5), C(0.25))
    w = fc.weight
    result = {"shape": list(w.shape), "dtype": str(w.dtype), "before": w._is_initialized(), "text": str(w)}
    for p in fc.parameters():
        p.initialize()
    result.update(after=w._is_initialized(), weight=w, out=list(fc(paddle.ones([2, 3])).shape))
    return result


@differential(expected=raises(RuntimeError))
def test_lazy_parameters_refuse_use_before_initialize(paddle):
    fc = _lazy_linear(paddle, paddle.nn.initializer.Constant(0.5), paddle.nn.initializer.Constant(0.25))
    fc(paddle.ones([2, 3]))


@differential(expected=raises(AssertionError))
def test_initialize_runs_once(paddle):
    fc = _lazy_linear(paddle, paddle.nn.initializer.Constant(0.5), paddle.nn.initializer.Constant(0.25))
    fc.weight.initialize()
    fc.weight.initialize()


@differential(expected={"initialized": True, "sum": 6.0})
def test_set_value_gives_a_lazy_parameter_values(paddle):
    fc = _lazy_linear(paddle, paddle.nn.initializer.Constant(0.5), paddle.nn.initializer.Constant(0.25))
    fc.weight.set_value(paddle.ones([3, 2]).numpy())
    return {"initialized": fc.weight._is_initialized(), "sum": float(fc.weight.numpy().sum())}


@differential(expected={"ops": ["truncated_gaussian_random", "gaussian_random", "uniform_random", "fill_constant"],
                        "shapes": [[3, 2], [2]], "inner": ["truncated_gaussian_random", "gaussian_random"]})
def test_startup_program_records_initialisers(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.inner = paddle.nn.Linear(3, 2, weight_attr=paddle.nn.initializer.TruncatedNormal(),
                                          bias_attr=paddle.nn.initializer.Normal())
            self.fc = paddle.nn.Linear(2, 2)

    with paddle.LazyGuard():
        net = Net()
    program = net._startup_program()
    block = program.global_block()
    return {"ops": [op.type for op in block.ops],
            "shapes": [list(block.var(p.name).shape) for p in net.inner.parameters()],
            "inner": [op.type for op in net.inner._startup_program().global_block().ops]}


@differential(expected=raises(AssertionError))
def test_startup_program_needs_lazy_parameters(paddle):
    paddle.nn.Linear(2, 2)._startup_program()
