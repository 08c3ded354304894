"""paddle.static's in-memory model APIs (serialize_* / deserialize_*, save_to_file / load_from_file),
create_global_var, device_guard, CompiledProgram / BuildStrategy and the IPU/XPU names, against real
Paddle 3.3.1 (legacy IR) where it can run them."""
import numpy as np
import pytest

from tests.differential import differential, raises

_X = np.random.RandomState(0).uniform(-1, 1, [3, 4]).astype("float32")


def _build_and_train(paddle):
    """A two-layer net whose parameters get fixed values; returns (main, feed var, fetch var, exe, output)."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        h = paddle.static.nn.fc(x, 5, activation="relu")
        y = paddle.scale(paddle.static.nn.fc(h, 2), 0.5, 1.0)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    for i, p in enumerate(main.global_block().all_parameters()):
        scope.find_var(p.name).get_tensor().set(
            np.random.RandomState(i).uniform(-1, 1, list(p.shape)).astype("float32"), paddle.CPUPlace())
    out = exe.run(main, feed={"x": _X}, fetch_list=[y])[0]
    return main, x, y, exe, out


def _round_trip(paddle, path):
    main, x, y, exe, out = _build_and_train(paddle)
    try:
        program_bytes = paddle.static.serialize_program([x], [y], program=main)
        params_bytes = paddle.static.serialize_persistables([x], [y], exe, program=main)
        paddle.static.save_to_file(str(path / "m.pdmodel"), program_bytes)
        paddle.static.save_to_file(str(path / "m.pdiparams"), params_bytes)
        # a fresh scope: the values must come from the bytes
        with paddle.static.scope_guard(paddle.static.Scope()):
            program = paddle.static.deserialize_program(paddle.static.load_from_file(str(path / "m.pdmodel")))
            paddle.static.deserialize_persistables(program, paddle.static.load_from_file(str(path / "m.pdiparams")),
                                                   exe)
            again = exe.run(program, feed={"x": _X}, fetch_list=[program.global_block().var(y.name)])[0]
        return {"before": out, "after": again, "types": [type(program_bytes).__name__,
                                                         type(params_bytes).__name__]}
    finally:
        paddle.disable_static()


def test_serialize_round_trip(tmp_path):
    from tests.differential import assert_same, paddlelite_module, reference_paddle, snapshot
    ours = _round_trip(paddlelite_module(), tmp_path)
    np.testing.assert_allclose(ours["after"], ours["before"], rtol=1e-6)
    assert ours["types"] == ["bytes", "bytes"]
    ref = reference_paddle()
    if ref is not None:
        (tmp_path / "ref").mkdir()
        theirs = _round_trip(ref, tmp_path / "ref")
        assert_same(snapshot(ours), snapshot(theirs), 1e-6, 1e-6, "paddlelite vs Paddle")


def test_deserialize_rejects_corrupt_bytes():
    import paddlelite as paddle
    main, x, y, exe, out = _build_and_train(paddle)
    try:
        data = paddle.static.serialize_program([x], [y], program=main)
        with pytest.raises(Exception, match="not a Paddle ProgramDesc"):
            paddle.static.deserialize_program(data[:len(data) // 2])
        params = paddle.static.serialize_persistables([x], [y], exe, program=main)
        other = paddle.static.Program()
        with pytest.raises(Exception, match="does not belong to this program"):
            paddle.static.deserialize_persistables(other, params, exe)
    finally:
        paddle.disable_static()


@differential(expected=raises(ValueError))
def test_save_to_file_needs_bytes(paddle):
    paddle.static.save_to_file("unused.bin", "text")


@differential(expected=raises(TypeError))
def test_deserialize_persistables_needs_a_program(paddle):
    paddle.enable_static()
    try:
        paddle.static.deserialize_persistables("main", b"", paddle.static.Executor(paddle.CPUPlace()))
    finally:
        paddle.disable_static()


@differential()
def test_create_global_var(paddle):
    def build():
        a = paddle.static.create_global_var([2, 3], 1.5, "float32", persistable=True, name="gv")
        b = paddle.static.create_global_var((2,), 7, "int64", persistable=True)
        return [paddle.scale(a, 2.0), b]
    from tests.differential import run_static
    paddle.enable_static()
    with paddle.utils.unique_name.guard():
        outs = run_static(paddle, build, {})
    paddle.disable_static()
    return {"outs": outs}


@differential(expected=raises(TypeError))
def test_create_global_var_rejects_float_shape(paddle):
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            paddle.static.create_global_var([2.0], 1.0, "float32")
    finally:
        paddle.disable_static()


@differential()
def test_device_guard_records_op_device(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [2], "float32")
            with paddle.static.device_guard("cpu"):
                a = paddle.scale(x, 2.0)
            with paddle.static.device_guard("gpu:0"):
                b = paddle.add(a, x)
            c = paddle.scale(b, 3.0)
        exe = paddle.static.Executor(paddle.CPUPlace())
        out = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[c])[0]
        return {"devices": [op.attr("op_device") for op in main.global_block().ops], "out": out}
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("device", ["cpu:0", "tpu"])
def test_device_guard_rejects_bad_device(device):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.enable_static()
        try:
            with paddle.static.device_guard(device):
                pass
        finally:
            paddle.disable_static()
    body()


@differential()
def test_compiled_program_runs(paddle):
    main, x, y, exe, out = _build_and_train(paddle)
    try:
        strategy = paddle.static.BuildStrategy()
        strategy.fuse_elewise_add_act_ops = True
        compiled = paddle.static.CompiledProgram(main, build_strategy=strategy)
        again = exe.run(compiled, feed={"x": _X}, fetch_list=[y])[0]
        return {"out": out, "compiled": again, "inplace": strategy.enable_inplace,
                "reduce": int(strategy.reduce_strategy), "fuse": strategy.fuse_elewise_add_act_ops}
    finally:
        paddle.disable_static()


@differential(expected=raises(AttributeError))
def test_build_strategy_has_fixed_fields(paddle):
    paddle.static.BuildStrategy().no_such_switch = 1


@pytest.mark.parametrize("call,cls", [
    (lambda p: p.static.xpu_places(), AssertionError),
    (lambda p: p.static.IpuStrategy(), RuntimeError),
    (lambda p: p.static.IpuCompiledProgram(p.static.Program()), ValueError),
    (lambda p: p.static.ipu_shard_guard(0).__enter__(), ValueError),
    (lambda p: p.static.set_ipu_shard(lambda v: v, 0)(1), ValueError),
    (lambda p: p.static.set_ipu_shard(3, 0), TypeError),
])
def test_ipu_and_xpu_raise_as_paddles_cpu_build(call, cls):
    @differential(expected=raises(cls))
    def body(paddle):
        paddle.enable_static()
        try:
            call(paddle)
        finally:
            paddle.disable_static()
    body()
