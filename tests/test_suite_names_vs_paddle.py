"""What Paddle's own legacy tests (tests/paddle_suite: test_apply, test_backward, test_conv2d_layer, test_inplace,
test_input_spec, test_learning_rate_scheduler, test_lr_scheduler) found missing or different, run against real
Paddle 3.3.1: jit.api.sot_mode_guard and Variable.apply, jit.dy2static.utils, InputSpec equality and hashing,
base.backward's private helpers and gradients_with_optimizer, Optimizer.type and _global_learning_rate,
utils.convert_to_list, the fluid-era learning-rate functions, and the exception classes of in-place ops."""
import importlib

import numpy as np
import pytest

from tests.differential import assert_same, differential, error_class, run_both


def _module(paddle, path):
    return importlib.import_module(f"{paddle.__name__}.{path}")


# ---- jit ------------------------------------------------------------------------------------------------------
@differential(expected={"out": [2.0, 4.0], "grad_needed": "RuntimeError", "bad_fn": "ValueError"})
def test_sot_mode_guard_and_variable_apply(paddle):
    x = paddle.to_tensor([1.0, 2.0])

    def fn(t, func):
        return t.apply(func)
    with paddle.jit.api.sot_mode_guard(False):
        out = paddle.jit.to_static(fn, full_graph=True)(x, lambda t: t * 2)
        x.stop_gradient = False
        grad_needed = error_class(lambda: paddle.jit.to_static(fn)(x, lambda t: t * 2))
        x.stop_gradient = True
        bad_fn = error_class(lambda: paddle.jit.to_static(fn)(x, lambda a, b, c: a))
    return {"out": out, "grad_needed": grad_needed, "bad_fn": bad_fn}


@differential(expected=[True, False, False, True, True, False])
def test_dy2static_compatible_non_tensor_spec(paddle):
    compatible = _module(paddle, "jit.dy2static.utils")._compatible_non_tensor_spec

    class Opaque:  # unhashable values compare alike, as Paddle's
        __hash__ = None
    return [compatible([1, 2, 3], [1, 2, 3]), compatible([1, 2, 3], [1, 2]), compatible([1, 2, 3], [1, 3, 2]),
            compatible(Opaque(), Opaque()), compatible({"a": 1, "b": [2]}, {"b": [2], "a": 1}),
            compatible({"a": 1}, {"a": 2})]


@differential(expected=[True, False, False, False, True, True, False])
def test_input_spec_eq_and_hash(paddle):
    spec = paddle.static.InputSpec
    a, b = spec([10, 16], "float32"), spec([10, 16], "float32")
    named, short = spec([10, 16], "float32", name="x"), spec([16], "float32", name="x")
    frozen = spec([10, 16], "float32", stop_gradient=True)
    return [a == b, a == named, named == short, a == frozen,
            hash(a) == hash(b), hash(a) == hash(named), hash(named) == hash(short)]


# ---- base.backward ----------------------------------------------------------------------------------------------
@differential(expected={"stop": ["x@GRAD"], "path": ["mul", "elementwise_add", "relu", "reduce_mean"], "no_grad": [],
                        "strip": "w", "append": "w@GRAD"})
def test_backward_private_helpers(paddle):
    backward = _module(paddle, "base.backward")
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4])
        loss = paddle.mean(paddle.static.nn.fc(x, 3, activation="relu"))
        stop = backward._get_stop_gradients_(main)
        no_grad = {backward._strip_grad_suffix_(n) for n in stop[0]}
        path = backward._find_op_path_(main.global_block(), [loss], [], no_grad)
        unused = backward._find_no_grad_vars(main.global_block(), path, [loss], no_grad)
    return {"stop": sorted(stop[0]), "path": [op.type for op in path], "no_grad": sorted(unused),
            "strip": backward._strip_grad_suffix_("w@GRAD@RENAME@block0@1"), "append": backward._append_grad_suffix_("w")}


@differential(expected={"type": "momentum", "has_update": True, "grads": ["fc_0.b_0", "fc_0.w_0"],
                        "types": ["sgd", "momentum", "adam", "adamw", "rmsprop", "adagrad"], "bad": "TypeError"})
def test_gradients_with_optimizer_and_optimizer_type(paddle):
    backward_mode = _module(paddle, "autograd.backward_mode")
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        img = paddle.static.data("image", [None, 8])
        paddle.mean(paddle.static.nn.fc(img, 4, activation="relu"))
        opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9)
        _, params_grads = backward_mode.gradients_with_optimizer(main, opt)
        bad = error_class(lambda: backward_mode.gradients_with_optimizer(main, "sgd"))
    o = paddle.optimizer
    return {"type": opt.type, "has_update": opt.type in [op.type for op in main.global_block().ops],
            "grads": sorted(p.name for p, _ in params_grads), "bad": bad,
            "types": [o.SGD(0.1).type, o.Momentum(0.1).type, o.Adam(0.1).type, o.AdamW(0.1).type, o.RMSProp(0.1).type,
                      o.Adagrad(0.1).type]}


@differential(expected={"before": True, "lrs": [0.5, 0.5, 0.25]})
def test_global_learning_rate_of_a_program_without_parameters(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    scheduler = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.5)
    adam = paddle.optimizer.Adam(learning_rate=scheduler)
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3, 4])
        before = adam._global_learning_rate() is None
        adam.minimize(paddle.mean(x))  # nothing to update: the learning rate exists all the same
        lr = adam._global_learning_rate()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    lrs = []
    for _ in range(3):
        lrs.append(float(exe.run(main, feed={"x": np.ones([3, 4], "float32")}, fetch_list=[lr.name])[0]))
        scheduler.step()
    return {"before": before, "lrs": lrs}


# ---- utils.convert_to_list --------------------------------------------------------------------------------------
@differential(expected={"one": [3, 3], "pair": [1, 2], "short": "ValueError", "not_list": "ValueError",
                        "bad_item": "ValueError", "variable": "TypeError"})
def test_convert_to_list(paddle):
    convert = paddle.utils.convert_to_list
    paddle.enable_static()
    v = paddle.static.data("v", [2], "int32")
    return {"one": convert(3, 2, "padding"), "pair": convert((1, 2), 2, "padding"),
            "short": error_class(lambda: convert([1], 2, "padding")),
            "not_list": error_class(lambda: convert(1.5, 2, "padding")),
            "bad_item": error_class(lambda: convert([1, "a"], 2, "padding")),
            "variable": error_class(lambda: convert([v, 1], 2, "padding"), catching=(TypeError,))}


# ---- the fluid-era learning-rate functions ----------------------------------------------------------------------
@differential(expected={"noam": [7.0710678, 14.142136, 11.547005], "warmup": [0.5, 0.9, 0.8],
                        "classes": ["NoamDecay", "ExponentialDecay", "NaturalExpDecay", "InverseTimeDecay",
                                    "PolynomialDecay", "PiecewiseDecay", "CosineAnnealingDecay", "LinearWarmup"],
                        "fake": "TypeError", "piecewise": "ValueError", "cosine_int": None}, rtol=1e-5)
def test_lr_functions_in_dynamic_mode(paddle):
    lr = paddle.optimizer.lr
    noam = lr.noam_decay(0.01, 2, 2.0)
    noams = []
    for _ in range(3):
        noam.step()
        noams.append(noam())
    decay = lr.PolynomialDecay(learning_rate=1.0, decay_steps=10, end_lr=0.0, power=1.0)
    decay.step()
    warm = lr.linear_lr_warmup(decay, 2, 0.0, 1.0)
    warm.step()
    warms = []
    for i in range(3):  # as Paddle's test_LinearLrWarmup
        if i == 1:
            warm.step()
        warms.append(warm())
        warm.step()
    made = [lr.noam_decay(0.01, 2), lr.exponential_decay(1.0, 2, 0.5), lr.natural_exp_decay(1.0, 2, 0.5),
            lr.inverse_time_decay(1.0, 2, 0.5), lr.polynomial_decay(1.0, 3), lr.piecewise_decay([2], [1.0, 0.5]),
            lr.cosine_decay(1.0, 2, 4), lr.linear_lr_warmup(0.5, 2, 0.0, 1.0)]
    return {"noam": noams, "warmup": warms, "classes": [type(m).__name__ for m in made],
            "fake": error_class(lambda: lr.linear_lr_warmup("fake_lr", 2, 0.0, 1.0)),
            "piecewise": error_class(lambda: lr.piecewise_decay([2, 4], [1.0])),
            "cosine_int": error_class(lambda: lr.cosine_decay(1, 2, 4))}


@differential(expected=[[1.0, 0.70710677, 0.5, 0.35355338], [1.0, 0.8, 0.6666667, 0.5714286]], rtol=1e-6)
def test_lr_functions_in_static_mode(paddle):
    """The two whose static form real Paddle 3.3.1 can build in its legacy IR; the step advances once per run."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        rates = [paddle.optimizer.lr.exponential_decay(1.0, 2, 0.5), paddle.optimizer.lr.inverse_time_decay(1.0, 2, 0.5)]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    runs = [exe.run(main, fetch_list=rates) for _ in range(4)]
    return [[float(r[i][0]) for r in runs] for i in range(2)]


@pytest.mark.filterwarnings("ignore:divide by zero")  # noam_decay's step ** -0.5 at step 0, as in Paddle's formula
def test_lr_functions_in_static_mode_follow_their_formulas():
    """The others: real Paddle 3.3.1's legacy IR cannot build them (its floor/minimum/exp/logical_not take only PIR
    values), so their values are checked against the formulas of Paddle's docstrings. They share one counter, as in
    Paddle: the first function's begin (0) holds for noam_decay too."""
    import paddlelite as paddle
    lr = paddle.optimizer.lr
    steps = np.arange(6, dtype="float64")
    build = lambda: [lr.exponential_decay(1.0, 2, 0.5, staircase=True), lr.noam_decay(0.01, 2, 2.0),  # noqa: E731
                     lr.natural_exp_decay(1.0, 2, 0.5), lr.polynomial_decay(1.0, 3, 0.1),
                     lr.polynomial_decay(1.0, 3, 0.1, cycle=True), lr.piecewise_decay([2, 4], [1.0, 0.5, 0.1]),
                     lr.cosine_decay(1.0, 2, 4), lr.linear_lr_warmup(0.7, 3, 0.1, 0.4)]
    try:
        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            rates = build()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        got = np.array([[float(v[0]) for v in exe.run(main, fetch_list=rates)] for _ in steps]).T
    finally:
        paddle.disable_static()
    cycles = np.maximum(np.ceil(steps / 3), 1) * 3
    want = [0.5 ** np.floor(steps / 2), 2.0 * 0.01 ** -0.5 * np.minimum(np.maximum(steps, 1) ** -0.5, steps * 2 ** -1.5),
            np.exp(-0.5 * steps / 2), 0.9 * (1 - np.minimum(steps, 3) / 3) + 0.1, 0.9 * (1 - steps / cycles) + 0.1,
            np.select([steps < 2, steps < 4], [1.0, 0.5], 0.1), 0.5 * (np.cos(np.floor(steps / 2) * np.pi / 4) + 1),
            np.where(steps < 3, 0.1 + 0.3 * steps / 3, 0.7)]
    np.testing.assert_allclose(got, np.array(want), rtol=1e-6, atol=1e-7)


# ---- exception classes of in-place ops ----------------------------------------------------------------------------
@differential(expected={"gcd_shape": "ValueError", "sub_shape": "ValueError", "ldexp_x": "TypeError",
                        "ldexp_y": "TypeError", "pow_list": "TypeError", "pow_tensor": "TypeError",
                        "where_numbers": "ValueError", "where_none": "ValueError", "pow_ok": [1.0, 4.0]})
def test_inplace_error_classes(paddle):
    x, y = paddle.randn([1, 10]), paddle.randn([20, 1])
    cond = paddle.to_tensor([[False, True, False], [False, True, False]])
    base = paddle.to_tensor([1.0, 2.0])
    return {"gcd_shape": error_class(lambda: paddle.gcd_(x, y)),
            "sub_shape": error_class(lambda: paddle.subtract_(x, y)),
            "ldexp_x": error_class(lambda: paddle.ldexp_(1, 1)),
            "ldexp_y": error_class(lambda: paddle.ldexp_(paddle.randn([3, 4]), 1)),
            "pow_list": error_class(lambda: paddle.pow_(base.clone(), [2])),
            "pow_tensor": error_class(lambda: paddle.pow_(base.clone(), paddle.to_tensor(2.0))),
            "where_numbers": error_class(lambda: paddle.where_(cond, 1, 2)),
            "where_none": error_class(lambda: paddle.where_(cond, None, None)),
            "pow_ok": paddle.pow_(base, 2)}


def test_inplace_messages_keep_paddles_wording():
    """Paddle's tests match these messages (test_inplace.py); ours keep its phrases and say more."""
    import paddlelite as paddle
    with pytest.raises(TypeError, match="x must be tensor type, but got <class 'int'>"):
        paddle.ldexp_(1, 1)
    with pytest.raises(TypeError, match="y must be tensor type, but got <class 'int'>"):
        paddle.ldexp_(paddle.randn([3, 4]), 1)
    with pytest.raises(TypeError, match="y must be scalar type, but received: <class 'list'> "):
        paddle.pow_(paddle.ones([2]), [2])


# ---- static shapes, feeds and error classes (test_broadcast_to_op, test_math_op_patch, test_linalg_*) --------------
@differential(expected={"shapes": [[-1, 14], [3, -1, 14], [3, -1, 14], [-1, 14], [1, 14]],
                        "values": [[3, 12, 14], [3, 12, 14], [12, 14]]})
def test_expand_to_a_shape_given_by_tensors(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [1, 14])
        y = paddle.static.data("y", [12, 14])
        s = paddle.static.data("s", [2], "int32")
        t = paddle.tensor.fill_constant([1], "int32", 12)
        outs = [paddle.broadcast_to(x, [t, 14]), paddle.broadcast_to(x, [3, t, 14]), paddle.expand(y, [3, t, 14]),
                paddle.broadcast_to(y, [t, 14]), paddle.broadcast_to(x, s)]
    exe = paddle.static.Executor(paddle.CPUPlace())
    got = exe.run(main, feed={"x": np.ones([1, 14], "float32"), "y": np.ones([12, 14], "float32"),
                              "s": np.array([12, 14], "int32")}, fetch_list=outs[1:4])
    return {"shapes": [list(o.shape) for o in outs], "values": [list(g.shape) for g in got]}


@differential(expected={"cast": [[0.5], [-0.25]], "neg": [[-0.5], [0.25]]})
def test_unchecked_feeds_run_as_fed(paddle):
    """desc.set_need_check_feed(False): the feed's own dtype and rank go in, as in Paddle."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        a = paddle.static.data("a", [-1, 10, 1])  # float32
        a.desc.set_need_check_feed(False)
        outs = [a.astype("float32"), -a]
    exe = paddle.static.Executor(paddle.CPUPlace())
    cast, neg = exe.run(main, feed={"a": np.array([[0.5], [-0.25]], "float64")}, fetch_list=outs)
    return {"cast": cast, "neg": neg}


@differential(expected={"empty": "ValueError", "nonsquare_empty": "ValueError", "matrix_exp_int": "ValueError",
                        "matrix_exp_0d_int": "ValueError", "matrix_exp_f16": "ValueError", "matrix_exp_1d": "ValueError",
                        "cond_eager_empty": [0]})
def test_cond_and_matrix_exp_error_classes(paddle):
    eager_empty = paddle.linalg.cond(paddle.to_tensor(np.zeros([0, 3, 3], "float32")))
    found = {"matrix_exp_int": error_class(lambda: paddle.linalg.matrix_exp(np.ones([2, 2], dtype=int))),
             "matrix_exp_0d_int": error_class(lambda: paddle.linalg.matrix_exp(np.array(123, dtype=int))),
             "matrix_exp_f16": error_class(lambda: paddle.linalg.matrix_exp(paddle.ones([2, 2], "float16"))),
             "matrix_exp_1d": error_class(lambda: paddle.linalg.matrix_exp(np.ones([3]))),
             "cond_eager_empty": list(eager_empty.shape)}
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("X", [0, 7, 7], "float32")
        found["empty"] = error_class(lambda: paddle.linalg.cond(x, "fro"))
        found["nonsquare_empty"] = error_class(lambda: paddle.linalg.cond(x, 2))
    return found


# ---- Paddle's binary tensor records (test_paddle_save_load_binary) -----------------------------------------------
def test_binary_records_round_trip_and_match_paddles_bytes(tmp_path):

    def body(paddle):
        import io
        core = paddle.base.core
        garbage = tmp_path / "garbage"
        place = paddle.CPUPlace()
        rows = core.SelectedRows([0, 4, 7], 10)
        unset = error_class(lambda: paddle.save(rows, str(tmp_path / "unset"), use_binary_format=True))
        rows.get_tensor().set(np.arange(6, dtype="float32").reshape(3, 2), place)
        buf = io.BytesIO()
        paddle.save(rows, buf, use_binary_format=True)
        sr_bytes = buf.getvalue().hex()
        buf.seek(0)
        back = paddle.load(buf)
        path = str(tmp_path / paddle.__name__ / "sr.pdsr")
        paddle.save(rows, path, use_binary_format=True)
        from_file = paddle.load(path)
        t = paddle.to_tensor(np.array([[1.5, -2.0]], "float64"))
        tbuf = io.BytesIO()
        paddle.save(t, tbuf, use_binary_format=True)
        tbuf.seek(0)
        loaded = paddle.load(tbuf)
        tbuf.seek(0)
        as_numpy = paddle.load(tbuf, return_numpy=True)
        missing = str(tmp_path / "no_such_dir" / "x")
        return {"sr_bytes": sr_bytes, "t_bytes": tbuf.getvalue().hex(), "unset": unset,
                "back": [type(back).__name__, back.rows(), back.height(), np.array(back.get_tensor())],
                "file": [from_file.rows(), np.array(from_file.get_tensor())],
                "tensor": [type(loaded).__name__, loaded.numpy(), as_numpy],
                "dict": error_class(lambda: paddle.save({}, str(tmp_path / "d"), use_binary_format=True)),
                "flag": error_class(lambda: paddle.save(t, str(tmp_path / "f"), use_binary_format=1)),
                "save_missing_dir": error_class(lambda: core.save_selected_rows(rows, missing)),
                "load_missing": error_class(lambda: core.load_selected_rows(rows, missing)),
                "private_save": error_class(lambda: paddle.framework.io._save_selected_rows(rows, 1)),
                "private_load": error_class(lambda: paddle.framework.io._load_selected_rows(1)),
                "garbage": error_class(lambda: (garbage.write_bytes(b"\0"), paddle.load(str(garbage))),
                                       catching=(ValueError,))}

    ours, theirs = run_both(body)
    expected = {"unset": "ValueError", "dict": "NotImplementedError", "flag": "TypeError",
                "save_missing_dir": "RuntimeError", "load_missing": "RuntimeError",
                "private_save": "NotImplementedError", "private_load": "NotImplementedError", "garbage": "ValueError"}
    assert {k: ours[k] for k in expected} == expected, ours
    assert ours["back"][:3] == ["SelectedRows", [0, 4, 7], 10] and ours["tensor"][0] == "Tensor"
    if theirs is not None:
        assert_same(ours, theirs, path="paddlelite vs Paddle")


@differential(expected={"values": [[3.0, 3.0]], "zeros": [[0.0, 0.0]], "pir": False, "bad": "AttributeError"})
def test_io_utils_get_and_set_value(paddle):
    io_utils = _module(paddle, "framework.io_utils")
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        w = paddle.static.create_parameter([1, 2], "float32", default_initializer=paddle.nn.initializer.Constant(3.0))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    values = np.array(io_utils.get_value(w))
    io_utils.set_value(w, np.zeros([1, 2], "float32"))
    return {"values": values, "zeros": np.array(io_utils.get_value(w)), "pir": io_utils.is_pir_fetch_var(w),
            "bad": error_class(lambda: io_utils.get_value(np.zeros(2)))}


@differential(expected={"types": ["DenseTensor"] * 7, "parts": [[[[9, 10, 11]]], [[[18, 19, 20]], [[0, 1, 2]]], [], [[[4]]]],
                        "copy": 36, "out_of_range": "IndexError", "text": "IndexError", "none": "IndexError"})
def test_dense_tensor_indexing(paddle):
    """core.DenseTensor[...] (test_tensor's slice test): ints (keeping their dim) and slices, a copy."""
    core = paddle.base.core
    t = core.DenseTensor()
    t.set(np.arange(12, dtype="float32").reshape(2, 2, 3), paddle.CPUPlace())
    t3 = core.DenseTensor()
    t3.set(np.arange(27, dtype="int64").reshape(3, 3, 3), paddle.CPUPlace())
    picked = [t3[1], t3[2::-2], t3[2:-1:-1], t3[1, 1], t3[0:, 0:], t3[-1], t3[1:2, 0:1, 1:]]
    part = t[1:]
    part.set(np.zeros([1, 2, 3], "float32"), paddle.CPUPlace())
    return {"types": [type(p).__name__ for p in picked],
            "parts": [np.array(t3[1, 0]).tolist(), np.array(t3[2::-2])[:, :1, :].tolist(),
                      np.array(t3[2:-1:-1]).tolist(), np.array(t3[0:1, 1:2, 1:2]).tolist()],
            "copy": int(np.array(t).sum() - 30), "out_of_range": error_class(lambda: t3[5]),
            "text": error_class(lambda: t3["a"]), "none": error_class(lambda: t3[None])}
