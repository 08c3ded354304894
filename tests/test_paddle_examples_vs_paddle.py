"""What Paddle 3.3.1's documented examples showed paddlelite doing otherwise (issue 28; tests/paddle_suite/examples.py
runs every example under both frameworks and compares what they print), each checked against real Paddle."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

from tests.differential import differential, raises

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@differential(expected={"flat": 3.3, "pair": 3.3, "scalar": 1, "negative": "ValueError"}, rtol=1e-6)
def test_tensor_item_with_indices(paddle):
    x = paddle.to_tensor([[1.1, 2.2, 3.3]])
    try:
        x.item(-1)  # Paddle's flat offset is unsigned
        negative = "no error"
    except ValueError:
        negative = "ValueError"
    return {"flat": x.item(2), "pair": x.item(0, 2), "scalar": paddle.to_tensor(1).item(), "negative": negative}


@differential(expected={"weight_shape": [2], "out": [6.0], "grad": [1.0, 1.0]})
def test_linear_with_a_one_dimensional_weight_from_assign(paddle):
    """Assign gives a Linear's weight the array's own shape; the layer then multiplies as matmul does."""
    assign = paddle.nn.initializer.Assign
    linear = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=assign(np.array([2, 2]))),
                              bias_attr=paddle.ParamAttr(initializer=assign([2])))
    out = linear(paddle.ones([1, 2]))
    out.sum().backward()
    return {"weight_shape": list(linear.weight.shape), "out": out, "grad": linear.weight.grad}


@differential(expected={"int64_by_int32": [[1, 3, 4, 5], [1, 3, 4, 5]], "float_by_int": [1, 2]})
def test_searchsorted_of_another_dtype(paddle):
    values = paddle.to_tensor([[3, 6, 9, 10], [3, 6, 9, 10]], dtype="int32")
    return {"int64_by_int32": paddle.searchsorted(paddle.to_tensor([1, 3, 5, 7, 9, 11, 13]), values),
            "float_by_int": paddle.searchsorted(paddle.to_tensor([1.5, 3.0, 5.5]), paddle.to_tensor([3, 5]))}


def test_cross_entropy_smooths_soft_labels_and_weights_their_mean():
    rng = np.random.RandomState(0)
    logits, labels = rng.uniform(0.1, 1, (4, 3)), rng.uniform(0.1, 1, (4, 3))
    labels /= labels.sum(axis=-1, keepdims=True)

    @differential(rtol=1e-12, atol=1e-12)
    def losses(paddle):
        weight = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
        x, y = paddle.to_tensor(logits, stop_gradient=False), paddle.to_tensor(labels)
        out = {}
        for name, kw in {"mean": {}, "weighted_mean": {"weight": weight}, "none": {"reduction": "none"},
                         "weighted_sum": {"reduction": "sum", "weight": weight}}.items():
            out[name] = paddle.nn.CrossEntropyLoss(soft_label=True, label_smoothing=0.4, **kw)(x, y)
        out["plain_weighted_mean"] = paddle.nn.CrossEntropyLoss(soft_label=True, weight=weight)(x, y)
        out["plain_weighted_mean"].backward()
        out["grad"] = x.grad
        return out
    losses()


def test_cross_entropy_smooths_one_hot_labels_given_without_soft_label():
    """label_smoothing > 0 reads a label of the input's rank as a distribution whatever soft_label says (Paddle's
    example passes a float32 one-hot); class ids are one-hot encoded in float32, smoothed, then cast, and the loss
    keeps its class axis, so both spellings give the same [N, 1] losses."""
    logits = np.random.RandomState(1).uniform(0.1, 1, (4, 3))

    @differential(rtol=1e-12, atol=1e-12)
    def losses(paddle):
        x, ids = paddle.to_tensor(logits, stop_gradient=False), paddle.to_tensor([0, 2, 1, 2])
        one_hot = paddle.nn.functional.one_hot(ids, 3).astype("float32")
        weight = paddle.to_tensor([0.2, 0.5, 0.3], dtype="float64")
        out = {}
        for reduction in ("mean", "none"):
            for w in (None, weight):
                for name, label in (("ids", ids), ("one_hot", one_hot)):
                    loss = paddle.nn.functional.cross_entropy(x, label, weight=w, label_smoothing=0.4,
                                                              reduction=reduction)
                    out[f"{name}_{reduction}_{w is None}"] = loss
        out["one_hot_none_True"].sum().backward()
        out["grad"] = x.grad
        return out
    losses()


def test_soft_label_gradient_is_softmax_minus_label_even_when_labels_do_not_sum_to_one():
    logits = np.random.RandomState(2).uniform(0.1, 1, (4, 3))

    @differential(rtol=1e-12, atol=1e-12)
    def grads(paddle):
        x = paddle.to_tensor(logits, stop_gradient=False)
        label = paddle.full([4, 3], 0.5, dtype="float64")  # rows sum to 1.5
        paddle.nn.functional.cross_entropy(x, label, soft_label=True, reduction="sum").backward()
        via_cross_entropy = x.grad.numpy()
        x.clear_gradient()
        paddle.nn.functional.softmax_with_cross_entropy(x, label, soft_label=True, axis=0).sum().backward()
        return {"cross_entropy": via_cross_entropy, "softmax_with_cross_entropy_axis0": x.grad}
    grads()


@differential(expected=[[0, 0], [1, 1], [2, 2]])
def test_argwhere_lives_in_paddle_tensor_search(paddle):
    return paddle.tensor.search.argwhere(paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]))


@differential(expected=raises(ValueError))
def test_tensor_item_flat_index_past_the_end(paddle):
    paddle.to_tensor([[1.0, 2.0]]).item(2)


@differential(expected={"unique": [True, True, False, True], "repeated": [[True] * 3] * 2,
                        "repeated_inverted": [[False] * 3] * 2, "small": [True, False]})
def test_isin_assume_unique_searches_by_sorting_as_paddle(paddle):
    """Paddle's documented example: with assume_unique, values that are not unique give its sort-based answer."""
    x = paddle.to_tensor([0.0, 1.0, 2.0] * 20).reshape([20, 3])
    test_x = paddle.to_tensor([0.0, 1.0] * 20)
    return {"unique": paddle.isin(paddle.to_tensor([3, 1, 70, 7]), paddle.arange(30), assume_unique=True),
            "repeated": paddle.isin(x, test_x, assume_unique=True)[:2],
            "repeated_inverted": paddle.isin(x, test_x, assume_unique=True, invert=True)[:2],
            "small": paddle.isin(paddle.to_tensor([1, 5]), paddle.to_tensor([1, 2]), assume_unique=True)}


@differential(expected=["  - shape: [2, 2]\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: float32\n"
                        "  - data: [1.5 2 3 4]",
                        "  - shape: [3]\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: float64\n"
                        "  - data: [1e-07 1.23457e+08 0.1]",
                        "  - shape: [2]\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: bool\n  - data: [1 0]",
                        "  - shape: []\n  - layout: NCHW\nuninited\n"])
def test_dense_tensor_text(paddle):
    kept = paddle.to_tensor([[1.5, 2.0], [3.0, 4.0]])  # (real Paddle's view dangles once its tensor is freed)
    texts = [str(kept.get_tensor())]
    for values in (np.array([1e-7, 123456789.0, 0.1]), np.array([True, False])):
        t = paddle.base.core.DenseTensor()
        t.set(values, paddle.CPUPlace())
        texts.append(str(t))
    return texts + [str(paddle.base.core.DenseTensor())]


@differential(expected={"inputs": ["label", "logits"], "outputs": ["loss", "softmax"]})
def test_op_arg_names_follow_the_sorted_slots(paddle):
    """An OpDesc keeps its slots sorted: Label before Logits (Program.clone's documented example prints them)."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            logits = paddle.static.data("logits", [4, 3])
            label = paddle.static.data("label", [4, 1], "int64")
            paddle.nn.functional.softmax_with_cross_entropy(logits, label, return_softmax=True)
        op = main.global_block().ops[-1]
        rename = {op.input("Logits")[0]: "logits", op.input("Label")[0]: "label",
                  op.output("Loss")[0]: "loss", op.output("Softmax")[0]: "softmax"}
        return {"inputs": [rename[n] for n in op.input_arg_names], "outputs": [rename[n] for n in op.output_arg_names]}
    finally:
        paddle.disable_static()


@differential(expected=[[3.0, 3.0]])
def test_static_save_beside_a_directory_of_the_same_name(paddle):
    """static.save(prog, './temp') writes temp.pdparams even where a folder './temp' exists (Paddle checks only
    that the path names a file)."""
    paddle.enable_static()
    try:
        with tempfile.TemporaryDirectory() as root:
            prefix = os.path.join(root, "temp")
            os.mkdir(prefix)
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                w = paddle.static.create_parameter([2], "float32",
                                                   default_initializer=paddle.nn.initializer.Constant(3.0))
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            paddle.static.save(main, prefix)
            paddle.static.load(main, prefix, exe)
            return [np.array(paddle.static.global_scope().find_var(w.name).get_tensor())]
    finally:
        paddle.disable_static()


@differential(expected={"with_params": ["int64", "int64"], "without": ["int", "int"]}, check_dtype=False)
def test_summary_counts_are_numpy_integers(paddle):
    """paddle.summary's documented example prints the dict it returns: NumPy integers where a layer has parameters."""
    def kinds(net):
        counts = paddle.summary(net, (1, 3))
        return [type(counts[k]).__name__ for k in ("total_params", "trainable_params")]
    return {"with_params": kinds(paddle.nn.Sequential(paddle.nn.Linear(3, 2))),
            "without": kinds(paddle.nn.Sequential(paddle.nn.ReLU()))}


@differential(expected={"starts": "blocks {\n  idx: 0\n  parent_idx: -1\n", "abs": True, "dims": [-1, 23, 48]})
def test_program_to_string_without_details_is_the_desc_in_protobuf_text(paddle):
    paddle.enable_static()
    try:
        program = paddle.static.Program()
        block = program.current_block()
        x = block.create_var(name="X", shape=[-1, 23, 48], dtype="float32")
        block.append_op(type="abs", inputs={"X": [x]}, outputs={"Out": [x]})
        text = program.to_string(throw_on_error=True, with_details=False)
    finally:
        paddle.disable_static()
    dims = [int(line.split(":")[1]) for line in text.splitlines() if line.strip().startswith("dims:")]
    return {"starts": text[:text.index("  vars")], "abs": 'type: "abs"' in text, "dims": dims}


# Names from a fresh process: Paddle's import ends in dygraph mode (a names namespace of its own, which enable_static
# leaves), and each disable_static after static mode makes a new tracer, whose counter names generated_tensor_N
NAMES_SCRIPT = textwrap.dedent("""
    import paddle
    gen = paddle.utils.unique_name.generate
    print(gen("fc"), paddle.to_tensor(1.).name, (paddle.ones([2]) + 1).name)
    paddle.disable_static()  # already dygraph: nothing new
    print(gen("fc"), paddle.to_tensor(1.).name)
    paddle.enable_static()
    print(gen("fc"))
    paddle.disable_static()
    print(gen("fc"), paddle.to_tensor(1.).name, (paddle.ones([2]) + 1).name)
    with paddle.utils.unique_name.guard():
        print(gen("fc"), paddle.to_tensor(1.).name)
    paddle.enable_static()
    print(gen("fc"))
""")


@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="real Paddle is not installed")
def test_names_across_mode_switches_from_a_fresh_process(tmp_path):
    script = tmp_path / "names.py"
    script.write_text(NAMES_SCRIPT)
    env = dict(os.environ, PYTHONPATH=ROOT, PADDLELITE_AS_PADDLE="0")
    outputs = [subprocess.run([sys.executable, *prefix, str(script)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120) for prefix in ([], ["-m", "paddlelite"])]
    theirs, ours = (r.stdout.splitlines() for r in outputs)
    assert theirs[0] == "fc_0 generated_tensor_0 eager_tmp_0", outputs[0].stderr[-2000:]
    assert ours == theirs, outputs[1].stderr[-2000:]
