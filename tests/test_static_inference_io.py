"""paddle.static.save_inference_model / load_inference_model: pruning, bit-exact round trip in a fresh
program and scope, and refusal of truncated, edited, pickled or malformed files."""
import os
import pickle

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import static
from paddlelite.framework.framework_proto import messages
from paddlelite.framework.io import CheckpointError
from paddlelite.static import Program
from paddlelite.static.framework import OP_ROLE_BACKWARD, OP_ROLE_OPTIMIZE

RNG = np.random.default_rng(0)
X = RNG.standard_normal((16, 3)).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _train(prefix, with_cond=False):
    """Build and train a small regression net for a few SGD steps in its own scope, then save it.
    Returns (main program, predictions of the trained net on X, pred variable)."""
    main, startup = Program(), Program()
    scope = static.Scope()
    with static.program_guard(main, startup), static.scope_guard(scope):
        x = static.data("x", [None, 3], "float32")
        y = static.data("y", [None, 1], "float32")
        h = static.nn.fc(x, size=8, activation="relu")
        h = paddle.nn.functional.dropout(h, p=0.3)
        pred = static.nn.fc(h, size=1)
        if with_cond:
            s = paddle.mean(pred)
            pred = static.nn.cond(s > 0.0, lambda: pred * 2.0, lambda: pred - 1.0)
        loss = paddle.mean(paddle.square(pred - y))
        paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
        exe = static.Executor(paddle.CPUPlace())
        exe.run(startup)
        wname = main.all_parameters()[0].name
        w0 = np.array(scope.find_var(wname).get_tensor())
        for _ in range(5):
            exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])
        assert not np.array_equal(w0, np.array(scope.find_var(wname).get_tensor()))  # it trained
        test_prog = main.clone(for_test=True)
        expected = exe.run(test_prog, feed={"x": X, "y": Y}, fetch_list=[pred.name])[0]
        static.save_inference_model(prefix, [x], [pred], exe, program=main)
    return main, expected, pred


def _load(prefix):
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = static.load_inference_model(prefix, exe)
        out = exe.run(prog, feed={feeds[0]: X}, fetch_list=fetches)[0]
    return prog, feeds, fetches, out, scope


def test_round_trip_is_bit_exact_in_a_fresh_program_and_scope(tmp_path):
    prefix = str(tmp_path / "infer" / "model")
    main, expected, pred = _train(prefix)
    assert os.path.isfile(prefix + ".pdmodel") and os.path.isfile(prefix + ".pdiparams")
    prog, feeds, fetches, out, scope = _load(prefix)
    assert isinstance(prog, Program) and prog is not main
    assert feeds == ["x"] and [v.name for v in fetches] == [pred.name]
    assert fetches[0].block.program is prog
    np.testing.assert_array_equal(out, expected)
    # the parameters went into the scope in use, nothing else
    assert sorted(scope.local_var_names()) == sorted(p.name for p in prog.all_parameters())
    assert all(p.trainable for p in prog.all_parameters())


def test_pruned_program_holds_only_the_inference_path(tmp_path):
    prefix = str(tmp_path / "m")
    main, _, pred = _train(prefix)
    prog, *_ = _load(prefix)
    ops = prog.global_block().ops
    assert all(op.attr("op_role") & (OP_ROLE_BACKWARD | OP_ROLE_OPTIMIZE) == 0 for op in ops)
    types = [op.type for op in ops]
    assert "sgd" not in types and not any(t.endswith("_grad") for t in types)
    names = set(prog.global_block().vars)
    assert not any("@GRAD" in n for n in names)
    assert "y" not in names and not any(n.startswith("learning_rate") for n in names)
    # the loss part is gone: mean/square only served the loss
    assert "square" not in types and "mean" not in types
    assert len(ops) < len(main.global_block().ops)
    # test-mode attrs, as clone(for_test=True) sets them
    dropout = [op for op in ops if op.type == "dropout"]
    assert dropout and all(op.attr("is_test") for op in dropout)
    assert prog.global_block().var("x").is_data
    # the file is Paddle's ProgramDesc, its feed and fetch ops naming the feed and fetch variables
    desc = _desc(prefix)
    io_ops = [(op.type, [a for v in op.inputs for a in v.arguments], [a for v in op.outputs for a in v.arguments])
              for op in desc.blocks[0].ops if op.type in ("feed", "fetch")]
    assert io_ops == [("feed", ["feed"], ["x"]), ("fetch", [pred.name], ["fetch"])]


def test_control_flow_sub_blocks_round_trip(tmp_path):
    prefix = str(tmp_path / "cf")
    _, expected, _ = _train(prefix, with_cond=True)
    prog, _, _, out, _ = _load(prefix)
    assert prog.num_blocks > 1
    assert "conditional_block" in [op.type for op in prog.global_block().ops]
    np.testing.assert_array_equal(out, expected)


def test_save_argument_errors(tmp_path):
    main, startup = Program(), Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 3], "float32")
        y = static.data("y", [None, 1], "float32")
        pred = static.nn.fc(x, size=1)
        loss = paddle.mean(paddle.square(pred - y))
    exe = static.Executor(paddle.CPUPlace())
    scope = static.Scope()
    with static.scope_guard(scope):
        exe.run(startup)
        with pytest.raises(ValueError, match="'y'"):
            static.save_inference_model(str(tmp_path / "a"), [x], [loss], exe, program=main)
        with pytest.raises(TypeError, match="executor"):
            static.save_inference_model(str(tmp_path / "a"), [x], [pred], "exe", program=main)
        with pytest.raises(TypeError, match="feed_vars"):
            static.save_inference_model(str(tmp_path / "a"), ["x"], [pred], exe, program=main)
        with pytest.raises(ValueError, match="directory"):
            static.save_inference_model(str(tmp_path), [x], [pred], exe, program=main)
    with static.scope_guard(static.Scope()):
        with pytest.raises(RuntimeError, match="startup"):
            static.save_inference_model(str(tmp_path / "b"), [x], [pred], exe, program=main)
    # an attr that is not plain data is refused, naming the op and the attribute
    pred.op._set_attr("bad", np.ones(2))
    with static.scope_guard(scope), pytest.raises(TypeError, match="attribute 'bad' of op"):
        static.save_inference_model(str(tmp_path / "a"), [x], [pred], exe, program=main)


@pytest.fixture
def saved(tmp_path):
    prefix = str(tmp_path / "m")
    _train(prefix)
    return prefix


def _desc(prefix):
    desc = messages().ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    return desc


def _rewrite_model(prefix, edit):
    desc = _desc(prefix)
    edit(desc)
    with open(prefix + ".pdmodel", "wb") as f:
        f.write(desc.SerializeToString())


def _first_op(desc, type=None):
    return next(op for op in desc.blocks[0].ops if op.type not in ("feed", "fetch") and type in (None, op.type))


def _load_error(prefix, exc=CheckpointError):
    with static.scope_guard(static.Scope()):
        with pytest.raises(exc) as info:
            static.load_inference_model(prefix, static.Executor(paddle.CPUPlace()))
    return str(info.value)


def test_truncated_files_are_refused(saved):
    for ext in (".pdmodel", ".pdiparams"):
        path = saved + ext
        data = open(path, "rb").read()
        with open(path, "wb") as f:
            f.write(data[: len(data) // 2])
        msg = _load_error(saved)
        assert path in msg and "load_inference_model" in msg
        with open(path, "wb") as f:
            f.write(data)
    _load(saved)  # intact again


def test_params_that_do_not_fit_the_program_are_refused(saved):
    path = saved + ".pdiparams"
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data + b"\0" * 8)
    assert "8 bytes after" in _load_error(saved)
    # the first tensor's dims edited (its TensorDesc starts after 4 + 8 + 4 + 4 bytes): the data runs out
    head = 20 + data[20 + 2:20 + 4].index(b"\x10") + 2
    with open(path, "wb") as f:
        f.write(data[:head + 1] + bytes([data[head + 1] + 1]) + data[head + 2:])
    msg = _load_error(saved)
    assert path in msg and ("truncated" in msg or "holds" in msg)


def test_pickle_payloads_are_refused(saved):
    for ext in (".pdmodel", ".pdiparams"):
        path = saved + ext
        data = open(path, "rb").read()
        with open(path, "wb") as f:
            f.write(pickle.dumps({"w": np.ones(3)}))
        msg = _load_error(saved)
        assert "pickle" in msg and path in msg
        with open(path, "wb") as f:
            f.write(data)


def test_unknown_op_types_are_refused_all_named(saved):
    def edit(desc):
        ops = [op for op in desc.blocks[0].ops if op.type not in ("feed", "fetch")]
        ops[0].type, ops[1].type = "my_custom_op", "another_op"
    _rewrite_model(saved, edit)
    msg = _load_error(saved)
    assert "2 op types paddlelite has no registry op for: another_op, my_custom_op" in msg
    assert saved + ".pdmodel" in msg


def _set_attr(op, name, **value):
    attr = next((a for a in op.attrs if a.name == name), None) or op.attrs.add(name=name, type=0)
    for k, v in value.items():
        setattr(attr, k, v)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.ClearField("blocks"), "no blocks"),
    (lambda d: d.blocks[0].vars.add().CopyFrom(d.blocks[0].vars[0]), "twice"),
    (lambda d: d.blocks[0].vars[0].type.dense_tensor.tensor.__setattr__("data_type", 19), "data type 19"),
    (lambda d: _first_op(d).inputs[0].arguments.append("nowhere"), "'nowhere'"),
    (lambda d: _set_attr(_first_op(d), "sub_block", type=8, block_idx=7), "names block 7"),
    (lambda d: d.blocks[0].ops[0].attrs[0].__setattr__("i", 3), "not 0..n-1"),
    (lambda d: d.blocks.add(idx=1, parent_idx=5), "invalid parent 5"),
    (lambda d: d.version.__setattr__("version", 9_000_000), "newer Paddle"),
])
def test_wrong_schema_is_refused(saved, edit, words):
    _rewrite_model(saved, edit)
    msg = _load_error(saved)
    assert words in msg and saved + ".pdmodel" in msg


def test_old_paddlelite_models_still_load():
    """paddlelite's first format (a JSON program and a zip checkpoint), still read where files of it exist."""
    data = os.path.join(os.path.dirname(__file__), "data", "paddlelite_v1")
    with static.scope_guard(static.Scope()):
        exe = static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = static.load_inference_model(os.path.join(data, "model"), exe)
        out = exe.run(prog, feed={feeds[0]: np.load(os.path.join(data, "input.npy"))}, fetch_list=fetches)[0]
    np.testing.assert_allclose(out, np.load(os.path.join(data, "expected.npy")), rtol=1e-6)


def test_params_must_match_the_program(saved, tmp_path):
    paddle.save({"other": np.ones(2, np.float32)}, saved + ".pdiparams")
    msg = _load_error(saved)
    assert "missing" in msg and "'other'" in msg


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="pdmodel"):
        static.load_inference_model(str(tmp_path / "none"), static.Executor(paddle.CPUPlace()))
