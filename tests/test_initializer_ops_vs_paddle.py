"""Initialisers called on a block append Paddle's op sequences (types and the attributes tests read), in float32 and
through a float32 draw plus cast for the low-precision dtypes; the values they give eagerly and statically agree."""
import numpy as np

from tests.differential import differential, raises


def _startup_ops(paddle, init, shape, dtype="float32"):
    """The op types (and the cast's dtype pair) an initialiser appends for a parameter made with `create_parameter`."""
    paddle.enable_static()
    try:
        program = paddle.static.Program()
        block = program.global_block()
        block.create_parameter(dtype=dtype, shape=shape, name="param", initializer=init)
        return [[op.type, int(op.attr("in_dtype")), int(op.attr("out_dtype"))] if op.type == "cast" else op.type
                for op in block.ops]
    finally:
        paddle.disable_static()


@differential(expected={"fp16": ["uniform_random", ["cast", 5, 4]], "bf16": ["uniform_random"],
                        "cast_in_dtype_is_fp32": True})
def test_uniform_low_precision_draws_float32_then_casts(paddle):
    VarDesc = paddle.base.core.VarDesc
    init = paddle.nn.initializer.UniformInitializer(-4.2, 3.1, 123)
    return {"fp16": _startup_ops(paddle, init, [5, 10], "float16"),
            "bf16": _startup_ops(paddle, init, [5, 10], "uint16"),
            # Paddle's dtypes compare equal to their VarType numbers, which op descs hold
            "cast_in_dtype_is_fp32": VarDesc.VarType.FP32 == 5 and paddle.float32 == 5 and paddle.float16 != 5}


@differential(expected={"float32": ["assign_value"], "float64": ["assign_value", ["cast", 5, 6]],
                        "float16": ["assign_value", ["cast", 5, 4]], "bfloat16": ["assign_value", ["cast", 5, 22]]})
def test_bilinear_sets_float32_values_then_casts(paddle):
    init = paddle.nn.initializer.Bilinear()
    return {name: _startup_ops(paddle, init, [8, 1, 3, 3], dtype)
            for name, dtype in [("float32", "float32"), ("float64", "float64"), ("float16", "float16"),
                                ("bfloat16", "uint16")]}


@differential(expected=raises(TypeError))
def test_bilinear_refuses_integer_weights(paddle):
    _startup_ops(paddle, paddle.nn.initializer.Bilinear(), [8, 1, 3, 3], "int32")


def _static_and_eager(paddle, layer, init, dtype, *args):
    """The weight `layer(*args, weight_attr=init)` gets eagerly and from its startup program (the same seed)."""
    paddle.set_default_dtype(dtype)
    try:
        paddle.seed(2021)
        eager = layer(*args, weight_attr=paddle.ParamAttr(initializer=init)).weight.numpy()
        paddle.enable_static()
        try:
            paddle.seed(2021)
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                net = layer(*args, weight_attr=paddle.ParamAttr(initializer=init))
                ops = [op.type for op in startup.global_block().ops]
                static = paddle.static.Executor().run(startup, fetch_list=[net.weight])[0]
        finally:
            paddle.disable_static()
    finally:
        paddle.set_default_dtype("float32")
    return ops, eager, static


@differential(expected={"ops": ["fill_constant", "reshape2", "assign_value", "assign_value", "scatter", "reshape2",
                                "cast", "fill_constant"], "same": True, "centre": [1.0, 1.0, 0.0]})
def test_dirac_appends_scatter_sequence(paddle):
    ops, eager, static = _static_and_eager(paddle, paddle.nn.Conv1D, paddle.nn.initializer.Dirac(), "float64", 3, 2,
                                           3)
    return {"ops": ops, "same": bool(np.array_equal(eager, static)),
            "centre": [float(static[0, 0, 1]), float(static[1, 1, 1]), float(static[0, 1, 1])]}


@differential(expected={"ops": ["gaussian_random", "qr", "diag_v2", "sign", "elementwise_mul", "transpose2",
                                "reshape2", "scale", "fill_constant"], "same": True, "gram": True})
def test_orthogonal_appends_qr_sequence_and_matches_eager(paddle):
    ops, eager, static = _static_and_eager(paddle, paddle.nn.Linear, paddle.nn.initializer.Orthogonal(gain=3.0),
                                           "float64", 10, 15)
    return {"ops": ops, "same": bool(np.array_equal(eager, static)),
            "gram": bool(np.allclose(static @ static.T, 9 * np.eye(10)))}


@differential(expected=raises(AssertionError))
def test_orthogonal_refuses_1d_parameters(paddle):
    paddle.nn.Linear(4, 4, bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Orthogonal()))


@differential(expected={"weight": "uniform_random", "bias": "gaussian_random", "std": 2.0})
def test_global_initializer_overrides_layer_defaults(paddle):
    paddle.enable_static()
    paddle.base.set_global_initializer(paddle.nn.initializer.Uniform(-0.5, 0.5),
                                       bias_init=paddle.nn.initializer.Normal(0.0, 2.0))
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data(name="x", shape=[1, 3, 8, 8])
            paddle.static.nn.conv2d(x, 5, 3)  # its own default: a Normal weight, a zero bias
        ops = startup.global_block().ops
        return {"weight": ops[0].type, "bias": ops[1].type, "std": ops[1].attr("std")}
    finally:
        paddle.base.set_global_initializer(None)
        paddle.disable_static()


@differential()
def test_diag_op_in_programs(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            v = paddle.static.data(name="v", shape=[3], dtype="float32")
            m = paddle.static.data(name="m", shape=[3, 4], dtype="float32")
            outs = [paddle.diag(v, offset=1, padding_value=9.0), paddle.diag(m, offset=-1)]
        feed = {"v": np.array([1, 2, 3], np.float32), "m": np.arange(12, dtype=np.float32).reshape(3, 4)}
        return [[op.type for op in main.global_block().ops], paddle.static.Executor().run(main, feed=feed,
                                                                                         fetch_list=outs)]
    finally:
        paddle.disable_static()
