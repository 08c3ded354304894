"""Typical static programs (main and startup) print as Paddle 3.3.1's legacy IR prints them, byte for byte: the op types,
slots, attributes, variable names (LayerHelper keys counted per program, XShape outputs, @GRAD names) and
the same backward and optimizer ops.

Each program is built under paddlelite and, when it is installed, under real Paddle (FLAGS_enable_pir_api=0);
the texts must be equal. Without Paddle the recorded op types (below) are still checked. The optimizer ops'
name scope (`/optimizer_<n>/`) counts every optimizer op Paddle's process ever built, so it is compared
without its number.
"""
import difflib
import re

import pytest

from tests.differential import differential, run_both, run_static


def _mlp_sgd(paddle):
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    l1, l2 = paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 3)
    loss = F.cross_entropy(l2(F.relu(l1(x))), y)
    paddle.optimizer.SGD(0.1).minimize(loss)


def _regression_sgd(paddle):
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    pred = paddle.nn.Linear(5, 1)(F.relu(paddle.nn.Linear(3, 5)(x)))
    paddle.optimizer.SGD(0.01).minimize(F.mse_loss(pred, y))


def _embedding_reshape_transpose(paddle):
    F = paddle.nn.functional
    ids = paddle.static.data("ids", [None, 6], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(20, 4)(ids)
    e = paddle.transpose(paddle.reshape(e, [-1, 6, 2, 2]), [0, 2, 1, 3])
    logits = paddle.nn.Linear(24, 3)(paddle.reshape(e, [-1, 24]))
    paddle.static.append_backward(F.cross_entropy(logits, y))


def _seed_append_backward(paddle):  # the example of seeds/002 (append_backward's documentation)
    x = paddle.static.data(name="x", shape=[None, 13], dtype="int64")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    x_emb = paddle.static.nn.embedding(x, size=[100, 256])
    y_predict = paddle.static.nn.fc(x=x_emb, size=1, activation=None, name="my_fc")
    loss = paddle.nn.functional.square_error_cost(input=y_predict, label=y)
    paddle.static.append_backward(loss=paddle.mean(loss))


def _fc_softmax_sgd(paddle):
    x = paddle.static.data("x", [None, 4], "float32")
    h = paddle.static.nn.fc(x, 8, activation="relu")
    loss = paddle.mean(paddle.nn.functional.softmax(h))
    paddle.optimizer.SGD(0.1).minimize(loss)


def _cross_entropy_none(paddle):
    x = paddle.static.data("x", [None, 5], "float32")
    y = paddle.static.data("y", [None], "int64")
    logits = paddle.nn.Linear(5, 4, bias_attr=False)(x)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, y, reduction="none"))
    paddle.static.append_backward(loss)


def _mlp_adam(paddle):
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    loss = paddle.mean(paddle.nn.functional.cross_entropy(net(x), y, reduction="none"))
    paddle.optimizer.Adam(0.01).minimize(loss)


def _linear_adamw(paddle):
    x = paddle.static.data("x", [None, 4], "float32")
    paddle.optimizer.AdamW(0.01).minimize(paddle.mean(paddle.nn.Linear(4, 2)(x)))


def _layer_norm_dropout(paddle):
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.dropout(paddle.nn.LayerNorm(8)(F.relu(paddle.nn.Linear(4, 8)(x))), 0.1)
    paddle.static.append_backward(F.cross_entropy(paddle.nn.Linear(8, 3)(h), y))


def _cnn_batch_norm_sgd(paddle):  # batch_norm writes its running statistics in place (MeanOut = Mean)
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 1, 8, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.relu(paddle.nn.BatchNorm2D(4)(paddle.nn.Conv2D(1, 4, 3, padding=1)(x)))
    logits = paddle.nn.Linear(64, 3)(paddle.flatten(F.max_pool2d(h, 2), 1))
    paddle.optimizer.SGD(0.1).minimize(F.cross_entropy(logits, y))


def _indexing_backward(paddle):  # Paddle's slice / strided_slice ops, outputs named <x>_slice_<n>
    x = paddle.static.data("x", [None, 4, 6], "float32")
    x.stop_gradient = False
    loss = paddle.mean(x[1:, ::2]) + paddle.mean(x[0]) + paddle.mean(x[:, 1])
    paddle.static.append_backward(loss)


def _indexing_none_ellipsis(paddle):
    x = paddle.static.data("x", [None, 4, 6], "float32")
    x[..., 1], x[0, None, 1:3], x[:, -1], x[:, ::-1], x[None], x[:, 1:10, -3:]


def _divide_family(paddle):  # outputs named by the LayerHelper itself: elementwise_div_0, elementwise_fmax_0
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 4], "float32")
    x.stop_gradient = False
    paddle.fmax(x, y), paddle.fmin(x, y), paddle.heaviside(x, y), paddle.add(x, y), paddle.subtract(x, y)
    paddle.static.append_backward(paddle.mean(paddle.divide(x, y)))


def _linear_adam_cosine_lr(paddle):
    x = paddle.static.data("x", [None, 4], "float32")
    opt = paddle.optimizer.Adam(paddle.optimizer.lr.CosineAnnealingDecay(0.1, 10))
    opt.minimize(paddle.mean(paddle.nn.Linear(4, 2)(x)))


_SGD = ["sgd"] * 4
# the op types of each program (what the test checks without Paddle installed)
PROGRAMS = {
    "mlp_sgd": (_mlp_sgd, [
        "matmul_v2", "elementwise_add", "relu", "matmul_v2", "elementwise_add", "softmax_with_cross_entropy",
        "reduce_mean", "fill_constant", "reduce_mean_grad", "softmax_with_cross_entropy_grad",
        "elementwise_add_grad", "matmul_v2_grad", "relu_grad", "elementwise_add_grad", "matmul_v2_grad", *_SGD]),
    "regression_sgd": (_regression_sgd, [
        "matmul_v2", "elementwise_add", "relu", "matmul_v2", "elementwise_add", "elementwise_sub", "square",
        "reduce_mean", "fill_constant", "reduce_mean_grad", "square_grad", "elementwise_sub_grad",
        "elementwise_add_grad", "matmul_v2_grad", "relu_grad", "elementwise_add_grad", "matmul_v2_grad", *_SGD]),
    "embedding_reshape_transpose": (_embedding_reshape_transpose, [
        "lookup_table_v2", "reshape2", "transpose2", "reshape2", "matmul_v2", "elementwise_add",
        "softmax_with_cross_entropy", "reduce_mean", "fill_constant", "reduce_mean_grad",
        "softmax_with_cross_entropy_grad", "elementwise_add_grad", "matmul_v2_grad", "reshape2_grad",
        "transpose2_grad", "reshape2_grad", "lookup_table_v2_grad"]),
    "seed_append_backward": (_seed_append_backward, [
        "lookup_table_v2", "mul", "elementwise_add", "elementwise_sub", "square", "reduce_mean", "fill_constant",
        "reduce_mean_grad", "square_grad", "elementwise_sub_grad", "elementwise_add_grad", "mul_grad",
        "lookup_table_v2_grad"]),
    "fc_softmax_sgd": (_fc_softmax_sgd, [
        "mul", "elementwise_add", "relu", "softmax", "reduce_mean", "fill_constant", "reduce_mean_grad",
        "softmax_grad", "relu_grad", "elementwise_add_grad", "mul_grad", "sgd", "sgd"]),
    "mlp_adam": (_mlp_adam, [
        "matmul_v2", "elementwise_add", "relu", "matmul_v2", "elementwise_add", "softmax_with_cross_entropy",
        "reduce_mean", "fill_constant", "reduce_mean_grad", "softmax_with_cross_entropy_grad",
        "elementwise_add_grad", "matmul_v2_grad", "relu_grad", "elementwise_add_grad", "matmul_v2_grad",
        *["adam"] * 4]),
    "linear_adamw": (_linear_adamw, [
        "matmul_v2", "elementwise_add", "reduce_mean", "fill_constant", "reduce_mean_grad", "elementwise_add_grad",
        "matmul_v2_grad", "adamw", "adamw"]),
    "layer_norm_dropout": (_layer_norm_dropout, [
        "matmul_v2", "elementwise_add", "relu", "layer_norm", "dropout", "matmul_v2", "elementwise_add",
        "softmax_with_cross_entropy", "reduce_mean", "fill_constant", "reduce_mean_grad",
        "softmax_with_cross_entropy_grad", "elementwise_add_grad", "matmul_v2_grad", "dropout_grad",
        "layer_norm_grad", "relu_grad", "elementwise_add_grad", "matmul_v2_grad"]),
    "cnn_batch_norm_sgd": (_cnn_batch_norm_sgd, [
        "conv2d", "reshape2", "elementwise_add", "batch_norm", "relu", "pool2d", "flatten_contiguous_range",
        "matmul_v2", "elementwise_add", "softmax_with_cross_entropy", "reduce_mean", "fill_constant",
        "reduce_mean_grad", "softmax_with_cross_entropy_grad", "elementwise_add_grad", "matmul_v2_grad",
        "flatten_contiguous_range_grad", "pool2d_grad", "relu_grad", "batch_norm_grad", "elementwise_add_grad",
        "reshape2_grad", "conv2d_grad", *["sgd"] * 6]),
    "indexing_backward": (_indexing_backward, [
        "strided_slice", "reduce_mean", "slice", "reduce_mean", "elementwise_add", "slice", "reduce_mean",
        "elementwise_add", "fill_constant", "elementwise_add_grad", "reduce_mean_grad", "slice_grad",
        "elementwise_add_grad", "reduce_mean_grad", "slice_grad", "reduce_mean_grad", "strided_slice_grad", "sum"]),
    "indexing_none_ellipsis": (_indexing_none_ellipsis, [
        "slice", "slice", "unsqueeze2", "slice", "strided_slice", "unsqueeze2", "slice"]),
    "divide_family": (_divide_family, [
        "elementwise_fmax", "elementwise_fmin", "elementwise_heaviside", "elementwise_add", "elementwise_sub",
        "elementwise_div", "reduce_mean", "fill_constant", "reduce_mean_grad", "elementwise_div_grad"]),
    "linear_adam_cosine_lr": (_linear_adam_cosine_lr, [
        "matmul_v2", "elementwise_add", "reduce_mean", "fill_constant", "reduce_mean_grad", "elementwise_add_grad",
        "matmul_v2_grad", "adam", "adam"]),
    "cross_entropy_none": (_cross_entropy_none, [
        "matmul_v2", "unsqueeze2", "softmax_with_cross_entropy", "squeeze2", "reduce_mean", "fill_constant",
        "reduce_mean_grad", "squeeze2_grad", "softmax_with_cross_entropy_grad", "matmul_v2_grad"]),
}


def _printed(build):
    def body(paddle):
        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            build(paddle)
        text = re.sub(r"op_namescope = /optimizer(_\d+)?/", "op_namescope = /optimizer/", str(main))
        return {"text": text, "startup": str(startup), "types": [op.type for op in main.global_block().ops]}
    return body


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_as_paddles_legacy_ir(name):
    build, types = PROGRAMS[name]
    ours, theirs = run_both(_printed(build))
    assert isinstance(ours, dict), ours
    assert ours["types"] == types
    if theirs is not None:
        assert isinstance(theirs, dict), theirs
        for program in ("text", "startup"):
            diff = "\n".join(difflib.unified_diff(theirs[program].splitlines(), ours[program].splitlines(),
                                                  "Paddle", "paddlelite", lineterm=""))
            assert not diff, diff


@differential(expected={"out": [[[12.0, 15.0], [24.0, 27.0]]]})
def test_static_slicing_runs_as_paddles(paddle):  # the slice ops Paddle's indexing builds compute as x[...] does
    import numpy as np

    x = np.arange(24, dtype="float32").reshape(2, 3, 4)

    def build():
        v = paddle.static.data("x", [None, 3, 4], "float32")
        return [v[1, None, ::2, 1:3] * 2.0 - v[-1, :, ::-1][None, :2, 1:3]]
    out, = run_static(paddle, build, {"x": x})
    return {"out": out}
