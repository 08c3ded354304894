"""Static op descs as Paddle's legacy IR shows them (ops/legacy.py): for each API, the last op it appends has
Paddle's type, input/output slot names (optional slots listed empty), and attributes by Paddle's names
and values (dtype enums, float32-rounded floats, reduce_all/dim/keep_dim, trans_x/trans_y, ...)."""
import pytest

from tests.differential import differential

# API -> fn(paddle, x): x is a float32 [2, 4] data Variable
APIS = {
    "mean": lambda p, x: p.mean(x), "mean_axis": lambda p, x: p.mean(x, axis=1, keepdim=True),
    "cast": lambda p, x: p.cast(x, "float64"), "scale": lambda p, x: p.scale(x, 2.0, 1.0),
    "concat": lambda p, x: p.concat([x, x], 1), "softmax": lambda p, x: p.nn.functional.softmax(x),
    "relu": lambda p, x: p.nn.functional.relu(x), "log_softmax": lambda p, x: p.nn.functional.log_softmax(x),
    "full": lambda p, x: p.full([2], 1.5), "add": lambda p, x: p.add(x, x),
    "layer_norm": lambda p, x: p.nn.LayerNorm(4)(x), "dropout": lambda p, x: p.nn.functional.dropout(x, 0.5),
    "embedding": lambda p, x: p.nn.Embedding(10, 3)(p.zeros([2], "int64")),
    "expand": lambda p, x: p.expand(x, [3, 2, 4]), "clip": lambda p, x: p.clip(x, 0.0, 1.0),
    "one_hot": lambda p, x: p.nn.functional.one_hot(p.zeros([2], "int64"), 5),
    "split": lambda p, x: p.split(x, 2, axis=1)[0], "gather": lambda p, x: p.gather(x, p.zeros([1], "int64")),
    "cumsum": lambda p, x: p.cumsum(x, 1), "tile": lambda p, x: p.tile(x, [2, 1]),
    "where": lambda p, x: p.where(x > 0, x, x),
}


@pytest.mark.parametrize("api", sorted(APIS))
def test_op_desc_is_paddles(api):
    @differential()
    def body(paddle):
        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            APIS[api](paddle, paddle.static.data("x", [2, 4], "float32"))
        op = main.global_block().ops[-1]
        attrs = {k: repr(v) for k, v in op.all_attrs().items() if k not in ("op_callstack", "op_role_var")}
        return {"type": op.type, "inputs": sorted(op.input_names), "outputs": sorted(op.output_names),
                "attrs": dict(sorted(attrs.items())), "attr": repr(op.attr(sorted(attrs)[0]))}
    body()


@differential(expected={"names": ["tmp_0", "tmp_1", "tmp_2", "tmp_3", "tmp_5", "tmp_6", "tmp_7"],
                        "text_has": [True, True]})
def test_operators_name_temporaries_and_the_program_prints_paddles_attrs(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3, 2], "float32")
        outs = [x + x, x * 2.0, x + 1.0, 2.0 - x, x > 0, x.astype("float64"), -x]
        paddle.nn.LayerNorm(2)(x)
        paddle.mean(x)
    text = str(main)
    return {"names": [v.name for v in outs],
            "text_has": ["epsilon = 9.999999747378752e-06" in text,
                         "dim = [], in_dtype = -1, keep_dim = False" in text]}


@differential()
def test_sgd_update_ops_are_paddles(paddle):
    """The update ops of a static minimize: parameters in name order, each op with its (param, grad) pair, a
    name scope of its own, Paddle's empty MasterParam slot and multi_precision attr; a 0-D learning rate."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        loss = paddle.mean(paddle.static.nn.fc(x, 3))
        paddle.optimizer.SGD(0.1).minimize(loss)
    ops = [op for op in main.global_block().ops if op.type == "sgd"]
    lr = main.global_block().var(ops[0].input("LearningRate")[0])
    params = [op.input("Param")[0] for op in ops]
    return {"in_name_order": params == sorted(params), "bias_first": [p.endswith(".b_0") for p in params],
            "slots": [sorted(op.input_names) for op in ops],
            "role_var": [op.attr("op_role_var") == [op.input("Param")[0], op.input("Grad")[0]] for op in ops],
            # (Paddle numbers its name scopes process-wide: compare their form, not the number)
            "scopes": [op.attr("op_namescope").startswith("/optimizer") for op in ops],
            "distinct_scopes": len({op.attr("op_namescope") for op in ops}) == len(ops), "multi_precision": [op.attr("multi_precision")
                                                                               for op in ops],
            "lr_shape": list(lr.shape)}


@pytest.mark.parametrize("new_name", ["Y", b"Y"], ids=["str", "bytes"])
def test_block_rename_var_renames_it_in_the_ops(new_name):
    @differential()
    def body(paddle):
        paddle.enable_static()
        block = paddle.static.Program().current_block()
        x = block.create_var(name="X", shape=[-1, 3], dtype="float32")
        op = block.append_op(type="abs", inputs={"X": [x]}, outputs={"Out": [x]})
        renamed = block._rename_var("X", new_name)
        return {"vars": sorted(block.vars), "name": renamed.name, "in": op.input("X"), "out": op.output("Out"),
                "shape": list(renamed.shape)}
    body()
