"""Paddle's deployment formats across the border (issue 27): the .pdmodel (legacy-IR ProgramDesc) and .pdiparams
(combined tensor stream) paddlelite writes are what real Paddle 3.3.1 loads -- static.load_inference_model and
jit.load on its legacy IR, and Paddle Inference's predictor on its default PIR -- and computes the same outputs from; what
real Paddle writes, paddlelite loads and computes the same outputs from. The models are tests/deploy_zoo.py's."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import paddlelite as paddle
from tests.deploy_zoo import ZOO, build
from tests.differential import reference_paddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTOL, ATOL = 1e-4, 1e-5
# the models real Paddle's dy2st saves on its legacy IR (the others convert to PIR only: their files are .json)
LEGACY_SAVABLE = ("mlp", "lenet", "resnet18", "mobilenet_v3", "dynamic_batch")


def _real_paddle():
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    return ref


@pytest.fixture(scope="module")
def our_models(tmp_path_factory):
    """name -> (path prefix of the model paddlelite's jit.save wrote, inputs, paddlelite's eager output)."""
    root = tmp_path_factory.mktemp("ours")
    out = {}
    for name in ZOO:
        layer, spec, inputs = build(paddle, name)
        expected = layer(*[paddle.to_tensor(a) for a in inputs]).numpy()
        prefix = str(root / name / "model")
        paddle.jit.save(layer, prefix, input_spec=spec)
        out[name] = prefix, inputs, expected
    return out


def test_the_schema_is_paddles_framework_proto():
    _real_paddle()
    from google.protobuf import descriptor_pb2
    from paddle.base.proto import framework_pb2

    from paddlelite.framework.framework_proto import file_descriptor_proto
    theirs = descriptor_pb2.FileDescriptorProto()
    framework_pb2.DESCRIPTOR.CopyToProto(theirs)
    ours = file_descriptor_proto()

    def shape(messages):  # what the wire format depends on: names, numbers, labels, types, defaults, nesting
        return {m.name: ({f.name: (f.number, f.label, f.type, f.type_name.rsplit(".", 1)[-1], f.default_value)
                          for f in m.field}, {e.name: {v.name: v.number for v in e.value} for e in m.enum_type},
                         shape(m.nested_type)) for m in messages}
    theirs_shape = shape(theirs.message_type)
    assert set(theirs_shape) - {m.name for m in ours.message_type} == {"OpProto"}  # op definitions, in no file
    assert shape(ours.message_type) == {k: v for k, v in theirs_shape.items() if k != "OpProto"}
    assert {e.name: {v.name: v.number for v in e.value} for e in ours.enum_type} == \
        {e.name: {v.name: v.number for v in e.value} for e in theirs.enum_type}


@pytest.mark.parametrize("name", list(ZOO))
def test_real_paddle_loads_what_we_write(our_models, name):
    ref = _real_paddle()
    prefix, inputs, expected = our_models[name]
    ref.enable_static()
    try:
        exe = ref.static.Executor(ref.CPUPlace())
        with ref.static.scope_guard(ref.static.Scope()):
            program, feeds, fetches = ref.static.load_inference_model(prefix, exe)
            got = exe.run(program, feed=dict(zip(feeds, inputs)), fetch_list=fetches)[0]
    finally:
        ref.disable_static()
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL)
    layer = ref.jit.load(prefix)  # a TranslatedLayer, in dygraph
    np.testing.assert_allclose(layer(*[ref.to_tensor(a) for a in inputs]).numpy(), expected, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", LEGACY_SAVABLE)
def test_we_load_what_real_paddle_writes(tmp_path, name):
    ref = _real_paddle()
    layer, spec, inputs = build(ref, name)
    expected = layer(*[ref.to_tensor(a) for a in inputs]).numpy()
    prefix = str(tmp_path / "model")
    ref.jit.save(layer, prefix, input_spec=spec)
    loaded = paddle.jit.load(prefix)
    np.testing.assert_allclose(loaded(*[paddle.to_tensor(a) for a in inputs]).numpy(), expected, rtol=RTOL,
                               atol=ATOL)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            got = exe.run(program, feed=dict(zip(feeds, inputs)), fetch_list=fetches)[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL)


_ON_PIR = textwrap.dedent("""
    import json, sys
    import numpy as np
    import paddle
    import paddle.inference as paddle_infer
    out = {}
    for name, prefix, inputs in json.loads(sys.argv[1]):
        arrays = [np.load(p) for p in inputs]
        config = paddle_infer.Config(prefix + ".pdmodel", prefix + ".pdiparams")
        config.disable_glog_info()
        predictor = paddle_infer.create_predictor(config)
        for n, a in zip(predictor.get_input_names(), arrays):
            handle = predictor.get_input_handle(n)
            handle.reshape(a.shape)
            handle.copy_from_cpu(a)
        predictor.run()
        served = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
        np.save(prefix + ".served.npy", served)
    """)  # run by a subprocess under real Paddle; indented so nothing here imports it


def test_paddle_inference_on_pir_serves_what_we_write(our_models):
    """Paddle 3.3.1's defaults (PIR): Paddle Inference's predictor translates our legacy programs and runs them."""
    _real_paddle()
    cases = []
    for name, (prefix, inputs, _) in our_models.items():
        paths = []
        for k, a in enumerate(inputs):
            paths.append(f"{prefix}.in{k}.npy")
            np.save(paths[-1], a)
        cases.append((name, prefix, paths))
    env = {k: v for k, v in os.environ.items() if k not in ("FLAGS_enable_pir_api", "PYTHONPATH")}
    proc = subprocess.run([sys.executable, "-c", _ON_PIR, json.dumps(cases)], env=env, capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for name, (prefix, _, expected) in our_models.items():
        np.testing.assert_allclose(np.load(f"{prefix}.served.npy"), expected, rtol=RTOL, atol=ATOL, err_msg=name)


def test_a_training_program_real_paddle_saved_fine_tunes_here_as_there(tmp_path):
    """static.save's .pdmodel holds the whole program, backward and optimizer included: read here (its backward
    rebuilt from the loss by append_backward), with its .pdparams, it trains step for step as in Paddle."""
    ref = _real_paddle()
    X = np.random.default_rng(0).standard_normal((8, 3)).astype("float32")
    feed = {"x": X, "y": X.sum(1, keepdims=True)}
    ref.enable_static()
    try:
        ref.seed(1)
        main, startup = ref.static.Program(), ref.static.Program()
        with ref.static.program_guard(main, startup):
            x = ref.static.data("x", [None, 3], "float32")
            y = ref.static.data("y", [None, 1], "float32")
            loss = ref.mean(ref.square(ref.static.nn.fc(ref.static.nn.fc(x, 8, activation="relu"), 1) - y))
            ref.optimizer.SGD(learning_rate=0.1).minimize(loss)
        exe = ref.static.Executor(ref.CPUPlace())
        with ref.static.scope_guard(ref.static.Scope()):
            exe.run(startup)
            ref.static.save(main, str(tmp_path / "m"))
            theirs = [exe.run(main, feed=feed, fetch_list=[loss])[0] for _ in range(3)]
    finally:
        ref.disable_static()
    paddle.enable_static()
    try:
        program = paddle.static.deserialize_program(open(tmp_path / "m.pdmodel", "rb").read())
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            paddle.static.load(program, str(tmp_path / "m"), exe)
            ours = [exe.run(program, feed=feed, fetch_list=[loss.name])[0] for _ in range(3)]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)


PIR_FIXTURE = os.path.join(ROOT, "tests", "data", "paddle_pir")  # deploy_zoo's control_flow, as Paddle 3.3.1 saved it


def test_a_pir_program_real_paddle_wrote_runs_here():
    """tests/data/paddle_pir: real Paddle 3.3.1's default jit.save (PIR JSON, with `if` and `while`) -- read by
    jit.load, static.load_inference_model and paddle.inference here, without Paddle installed."""
    prefix = os.path.join(PIR_FIXTURE, "model")
    x, expected = np.load(os.path.join(PIR_FIXTURE, "input.npy")), np.load(os.path.join(PIR_FIXTURE, "expected.npy"))
    np.testing.assert_allclose(paddle.jit.load(prefix)(paddle.to_tensor(x)).numpy(), expected, rtol=RTOL, atol=ATOL)
    predictor = paddle.inference.create_predictor(paddle.inference.Config(prefix + ".json", prefix + ".pdiparams"))
    (out,) = predictor.run([paddle.to_tensor(x)])
    np.testing.assert_allclose(out.numpy(), expected, rtol=RTOL, atol=ATOL)


def test_pir_op_types_without_a_converter_are_all_named(tmp_path):
    text = open(os.path.join(PIR_FIXTURE, "model.json")).read()
    assert '"1.tanh"' in text and '"1.greater_than"' in text
    (tmp_path / "m.json").write_text(text.replace('"1.tanh"', '"1.my_op"').replace('"1.greater_than"', '"1.other"'))
    (tmp_path / "m.pdiparams").write_bytes(open(os.path.join(PIR_FIXTURE, "model.pdiparams"), "rb").read())
    with pytest.raises(paddle.static.io.InferenceModelError,
                       match="2 op types paddlelite has no converter for: pd_op.my_op, pd_op.other"):
        paddle.jit.load(str(tmp_path / "m"))


_SAVE_ON_PIR = textwrap.dedent("""
    import os, sys
    import numpy as np
    import paddle
    sys.path.insert(0, sys.argv[2])
    from tests.deploy_zoo import ZOO, build
    for name in ZOO:
        layer, spec, inputs = build(paddle, name)
        prefix = os.path.join(sys.argv[1], name)
        paddle.jit.save(layer, prefix, input_spec=spec)
        np.save(prefix + ".expected.npy", layer(*[paddle.to_tensor(a) for a in inputs]).numpy())
    """)  # run by a subprocess under real Paddle; indented so nothing here imports it


def test_we_load_the_pir_programs_real_paddle_writes_by_default(tmp_path):
    _real_paddle()
    env = {k: v for k, v in os.environ.items() if k not in ("FLAGS_enable_pir_api", "PYTHONPATH")}
    proc = subprocess.run([sys.executable, "-c", _SAVE_ON_PIR, str(tmp_path), ROOT], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    for name in ZOO:
        prefix = str(tmp_path / name)
        assert os.path.exists(prefix + ".json") and not os.path.exists(prefix + ".pdmodel")
        _, _, inputs = build(paddle, name)
        got = paddle.jit.load(prefix)(*[paddle.to_tensor(a) for a in inputs]).numpy()
        np.testing.assert_allclose(got, np.load(prefix + ".expected.npy"), rtol=RTOL, atol=ATOL, err_msg=name)


def test_a_pir_program_real_paddle_wrote_fine_tunes_as_the_eager_model():
    """jit.load's layer of the PIR fixture trains (its backward appended on load): three SGD steps give the losses
    the same model written here in eager mode, with the same weights, gives."""
    x = paddle.to_tensor(np.load(os.path.join(PIR_FIXTURE, "input.npy")))
    loaded = paddle.jit.load(os.path.join(PIR_FIXTURE, "model"))
    eager, _, _ = build(paddle, "control_flow")
    weights = {tuple(p.shape): p.numpy() for p in loaded.parameters()}
    eager.fc.weight.set_value(weights[(8, 8)])
    eager.fc.bias.set_value(weights[(8,)])
    losses = []
    for layer in (loaded, eager):
        layer.train()
        opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
        losses.append([])
        for _ in range(3):
            loss = (layer(x) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses[-1].append(float(loss))
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)
    assert losses[0][2] < losses[0][0]


def _fc_program(lib, seed):
    """(main, x, y, executor, output on X_FC) of a one-layer static program whose values come from `seed`."""
    lib.enable_static()
    lib.seed(seed)
    main, startup = lib.static.Program(), lib.static.Program()
    with lib.static.program_guard(main, startup):
        x = lib.static.data("x", [None, 3], "float32")
        y = lib.static.nn.fc(x, 2, name="fc")
    exe = lib.static.Executor(lib.CPUPlace())
    exe.run(startup)
    return main, x, y, exe, exe.run(main, feed={"x": X_FC}, fetch_list=[y])[0]


X_FC = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


@pytest.mark.parametrize("filename", [None, "all_vars"])
@pytest.mark.parametrize("writer", ["ours", "paddle"])
def test_save_vars_and_serialize_cross_both_ways(tmp_path, writer, filename):
    """save_vars files (one per variable, or combined) and serialize_program/serialize_persistables bytes that one
    library writes, the other loads into the same program and computes the same outputs from."""
    ref = _real_paddle()
    src, dst = (paddle, ref) if writer == "ours" else (ref, paddle)
    try:
        main, x, y, exe, expected = _fc_program(src, seed=1)
        src.static.save_vars(exe, str(tmp_path), main, predicate=src.static.is_persistable, filename=filename)
        program_bytes = src.static.serialize_program([x], [y], program=main)
        values_bytes = src.static.serialize_persistables([x], [y], exe, program=main)
    finally:
        src.disable_static()
    try:
        main, x, y, exe, _ = _fc_program(dst, seed=2)  # other values until loaded
        with dst.static.scope_guard(dst.static.Scope()):
            dst.static.load_vars(exe, str(tmp_path), main, predicate=dst.static.is_persistable, filename=filename)
            np.testing.assert_allclose(exe.run(main, feed={"x": X_FC}, fetch_list=[y])[0], expected, rtol=1e-6)
        with dst.static.scope_guard(dst.static.Scope()):
            program = dst.static.deserialize_program(program_bytes)
            dst.static.deserialize_persistables(program, values_bytes, exe)
            fetch = [op for op in program.global_block().ops if op.type == "fetch"]
            out_name = fetch[0].input("X")[0] if fetch else y.name
            np.testing.assert_allclose(exe.run(program, feed={"x": X_FC}, fetch_list=[out_name])[0], expected,
                                       rtol=1e-6)
    finally:
        dst.disable_static()


@pytest.mark.parametrize("writer", ["ours", "paddle"])
def test_paddle_save_of_a_program_crosses_both_ways(tmp_path, writer):
    """paddle.save of a static Program writes its ProgramDesc; the other library's paddle.load gives the Program."""
    ref = _real_paddle()
    src, dst = (paddle, ref) if writer == "ours" else (ref, paddle)
    path = str(tmp_path / "program.pdmodel")
    try:
        main = _fc_program(src, seed=1)[0]
        src.save(main, path)
        types = [op.type for op in main.global_block().ops]
    finally:
        src.disable_static()
    dst.enable_static()
    try:
        loaded = dst.load(path)
        assert isinstance(loaded, dst.static.Program)
        assert len(loaded.global_block().ops) == len(types)
        assert list(sorted(loaded.global_block().all_parameters(), key=lambda p: p.name)[0].shape) == [2]  # fc.b_0
    finally:
        dst.disable_static()
