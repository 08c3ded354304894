"""paddle.inference.convert_to_mixed_precision: a saved model rewritten to float16/bfloat16 (weights, variables, the
casts between precisions), run by paddlelite's Predictor and read by real Paddle 3.3.1; Paddle's argument errors."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.inference import Config, PlaceType, PrecisionType, convert_to_mixed_precision, create_predictor
from tests.differential import differential, raises, reference_paddle

X = np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype("float32")


def _save_model(prefix):
    """conv2d -> batch_norm -> relu -> flatten -> fc -> softmax, saved as an inference model."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 3, 8, 8], "float32")
            y = paddle.static.nn.batch_norm(paddle.static.nn.conv2d(x, 4, 3), is_test=True)
            y = paddle.nn.functional.softmax(paddle.static.nn.fc(paddle.flatten(paddle.nn.functional.relu(y), 1), 5))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(str(prefix), [x], [y], exe, program=main)
    finally:
        paddle.disable_static()
    return str(prefix)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return _save_model(tmp_path_factory.mktemp("mixed") / "model")


def _convert(model, out, precision=PrecisionType.Half, **kwargs):
    convert_to_mixed_precision(model + ".pdmodel", model + ".pdiparams", str(out) + ".pdmodel",
                               str(out) + ".pdiparams", precision, PlaceType.GPU, **kwargs)
    return str(out)


def _predict(prefix, x=X):
    predictor = create_predictor(Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(x)
    predictor.run()
    return predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()


def _program(prefix):
    from paddlelite.static.io import read_model
    program, feeds, fetches, values = read_model(prefix, "test")
    block = program.global_block()
    return block, fetches, values


@pytest.mark.parametrize("precision, tol", [(PrecisionType.Half, 2e-3), (PrecisionType.Bfloat16, 2e-2)])
def test_converted_model_runs_within_low_precision_tolerance(model, tmp_path, precision, tol):
    out = _convert(model, tmp_path / "mixed", precision)
    low = "float16" if precision == PrecisionType.Half else "bfloat16"
    block, fetches, values = _program(out)
    ops = [op.type for op in block.ops]
    # the input is cast to the low dtype before the first op, the output back to float32 after the last
    assert ops[0] == "cast" and ops[-1] == "cast" and ops.count("cast") == 2
    assert block.ops[0].attr("out_dtype") == (4 if low == "float16" else 22)
    assert fetches == [block.ops[-1].output("Out")[0]] and block.var(fetches[0]).dtype == paddle.float32
    original = _program(model)[2]
    for name, value in values.items():
        # batch_norm's statistics and affine parameters stay float32, every other weight is converted
        kept = name.startswith("batch_norm")
        assert value.dtype.name == ("float32" if kept else low), name
        np.testing.assert_array_equal(value, original[name].astype(value.dtype))
    expected = _predict(model)
    got = _predict(out)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, atol=tol)


def test_keep_io_types_false_and_black_list(model, tmp_path):
    out = _convert(model, tmp_path / "io", keep_io_types=False, black_list={"conv2d"})
    block, fetches, values = _program(out)
    ops = [op.type for op in block.ops]
    # the input is float16 now; the black-listed conv2d reads it cast to float32 and keeps its float32 weights
    assert block.var("x").dtype == paddle.float16 and ops[:3] == ["cast", "conv2d", "cast"]
    assert [block.ops[i].attr("out_dtype") for i in (0, 2)] == [5, 4]
    assert values[block.ops[1].input("Filter")[0]].dtype == np.float32
    assert block.var(fetches[0]).dtype == paddle.float16 and ops[-1] != "cast"
    got = _predict(out, X.astype("float16"))
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype("float32"), _predict(model), atol=2e-3)


def test_real_paddle_reads_the_converted_model(model, tmp_path):
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    out = _convert(model, tmp_path / "mixed")
    ref.enable_static()
    try:
        exe = ref.static.Executor(ref.CPUPlace())
        scope = ref.static.Scope()
        with ref.static.scope_guard(scope):
            program, feeds, fetches = ref.static.load_inference_model(out, exe)
            ops = [op.type for op in program.global_block().ops]
            weights = {v.name: np.array(scope.find_var(v.name).get_tensor())
                       for v in program.list_vars() if v.persistable and v.name not in ("feed", "fetch")}
    finally:
        ref.disable_static()
    assert ops[:2] == ["feed", "cast"] and ops[-2:] == ["cast", "fetch"] and feeds == ["x"]
    assert program.global_block().ops[1].attr("in_dtype") == 5 and program.global_block().ops[1].attr("out_dtype") == 4
    ours = _program(out)[2]
    assert sorted(weights) == sorted(ours)
    for name, value in weights.items():  # Paddle reads float16 weights as their uint16 bits
        np.testing.assert_array_equal(value.view(ours[name].dtype), ours[name])


def test_real_paddle_runs_a_converted_model(tmp_path):
    """Paddle's CPU kernels in float16 are few (scale, cast): a model of those runs in real Paddle, converted."""
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            y = paddle.scale(paddle.scale(x, 3.0, 0.5), -0.25, 1.0, bias_after_scale=False)
        exe = paddle.static.Executor(paddle.CPUPlace())
        with pytest.warns(UserWarning, match="no variable"):  # as Paddle warns of a model without weights
            paddle.static.save_inference_model(str(tmp_path / "scale"), [x], [y], exe, program=main)
    finally:
        paddle.disable_static()
    convert_to_mixed_precision(str(tmp_path / "scale.pdmodel"), "", str(tmp_path / "out.pdmodel"), "",
                               PrecisionType.Half, PlaceType.GPU)
    x = np.linspace(-2, 2, 8, dtype="float32").reshape(2, 4)
    config = ref.inference.Config(str(tmp_path / "out.pdmodel"), "")
    config.disable_glog_info()
    predictor = ref.inference.create_predictor(config)
    predictor.get_input_handle("x").copy_from_cpu(x)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, (x * 3.0 + 0.5 + 1.0) * -0.25, atol=2e-3)
    np.testing.assert_allclose(_predict(str(tmp_path / "out"), x), got, atol=1e-3)
    block = _program(str(tmp_path / "out"))[0]
    assert [op.type for op in block.ops] == ["cast", "scale", "scale", "cast"]


@pytest.mark.parametrize("change, error", [
    ({"backend": "CPU"}, ValueError), ({"precision": "Float32"}, ValueError), ({"precision": "Int8"}, ValueError),
    ({"backend": "XPU", "precision": "Bfloat16"}, ValueError), ({"black_list": ["relu"]}, TypeError),
    ({"backend": "gpu"}, TypeError), ({"precision": 2}, TypeError), ({"model": "missing"}, RuntimeError)])
def test_errors(model, tmp_path, change, error):
    def call(lib):
        inference = lib.inference
        precision = change.get("precision", "Half")
        backend = change.get("backend", "GPU")
        model_file = str(tmp_path / "missing.pdmodel") if change.get("model") else model + ".pdmodel"
        inference.convert_to_mixed_precision(
            model_file, model + ".pdiparams", str(tmp_path / "e.pdmodel"), str(tmp_path / "e.pdiparams"),
            getattr(inference.PrecisionType, precision) if isinstance(precision, str) else precision,
            getattr(inference.PlaceType, backend) if backend in ("CPU", "GPU", "XPU") else backend,
            black_list=change.get("black_list", set()))
    differential(expected=raises(error))(call)()


def test_scale_past_float16_range_stays_float32(tmp_path):
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [-1, 4], "float32")
            y = paddle.scale(paddle.scale(x, 1e6), 0.5)
        with pytest.warns(UserWarning, match="no variable"):
            paddle.static.save_inference_model(str(tmp_path / "m"), [x], [y], paddle.static.Executor(), program=main)
    finally:
        paddle.disable_static()
    convert_to_mixed_precision(str(tmp_path / "m.pdmodel"), "", str(tmp_path / "o.pdmodel"), "", PrecisionType.Half,
                               PlaceType.GPU)
    block = _program(str(tmp_path / "o"))[0]
    assert [op.type for op in block.ops] == ["scale", "cast", "scale", "cast"]
    assert block.var(block.ops[0].output("Out")[0]).dtype == paddle.float32
