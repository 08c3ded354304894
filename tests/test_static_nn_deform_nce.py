"""paddle.static.nn.deform_conv2d and paddle.static.nn.nce against real Paddle 3.3.1 (static mode): the same
inputs and initial weights give the same outputs and gradients; bad arguments raise Paddle's exception class."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

_RNG = np.random.default_rng(0)
X = _RNG.uniform(-1, 1, (2, 4, 5, 5)).astype("float32")
OFFSET = _RNG.uniform(-1.7, 1.7, (2, 16, 3, 3)).astype("float32")      # deformable_groups=2, 2x2 kernel
MASK = _RNG.uniform(0, 1, (2, 8, 3, 3)).astype("float32")
FILTER = _RNG.uniform(-1, 1, (6, 2, 2, 2)).astype("float32")            # groups=2
BIAS = _RNG.uniform(-1, 1, (6,)).astype("float32")
DOUT = _RNG.uniform(-1, 1, (2, 6, 3, 3)).astype("float32")


def _assigned(paddle, value):
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(value))


def _data(paddle, name, value, stop_gradient=True):
    v = paddle.static.data(name, list(value.shape), str(value.dtype))
    v.stop_gradient = stop_gradient
    return v


def _deform_conv(paddle, with_mask, im2col_step=1):
    feed = {"x": X, "offset": OFFSET, "dout": DOUT, **({"mask": MASK} if with_mask else {})}

    def build():
        x, offset = _data(paddle, "x", X, False), _data(paddle, "offset", OFFSET, False)
        mask = _data(paddle, "mask", MASK, False) if with_mask else None
        out = paddle.static.nn.deform_conv2d(x, offset, mask, 6, 2, stride=2, padding=1, groups=2,
                                             deformable_groups=2, im2col_step=im2col_step, weight_attr=_assigned(paddle, FILTER),
                                             bias_attr=_assigned(paddle, BIAS))
        loss = paddle.mean(out * _data(paddle, "dout", DOUT))
        params = paddle.static.default_main_program().all_parameters()
        wrt = [x, offset, *params] + ([mask] if with_mask else [])
        return [out] + paddle.static.gradients([loss], wrt)

    names = ["out", "dx", "doffset", "dweight", "dbias"] + (["dmask"] if with_mask else [])
    return dict(zip(names, run_static(paddle, build, feed)))


@differential(rtol=1e-4, atol=1e-5)
def test_deform_conv2d_v2_outputs_and_gradients(paddle):
    return _deform_conv(paddle, with_mask=True)


@differential(rtol=1e-4, atol=1e-5)
def test_deform_conv2d_v1_outputs_and_gradients(paddle):
    return _deform_conv(paddle, with_mask=False)


@differential(rtol=1e-4, atol=1e-5)
def test_deform_conv2d_im2col_step_changes_nothing_but_batching(paddle):
    """im2col_step only batches the computation. Paddle's CPU grad kernel returns different gradients for
    im2col_step=2 than for 1 (its forward agrees; finite differences side with im2col_step=1), so the
    gradients are compared with our own im2col_step=1 run and only the output with Paddle's."""
    stepped, single = _deform_conv(paddle, True, im2col_step=2), _deform_conv(paddle, True)
    if paddle.__name__ == "paddlelite":
        for name in stepped:
            np.testing.assert_allclose(stepped[name], single[name], rtol=1e-6, atol=1e-7, err_msg=name)
    return stepped["out"]


@differential(rtol=1e-4, atol=1e-5)
def test_deform_conv2d_dilation_no_bias_and_op_types(paddle):
    x = np.ascontiguousarray(X[:1, :2, :, :4])
    offset = np.random.default_rng(1).uniform(-1.3, 1.3, (1, 8, 3, 3)).astype("float32")
    types = []

    def build():
        xv, ov = _data(paddle, "x", x, False), _data(paddle, "o", offset, False)
        out = paddle.static.nn.deform_conv2d(xv, ov, None, 3, [2, 2], dilation=[2, 1], bias_attr=False,
                                             weight_attr=_assigned(paddle, FILTER[:3, :2]), name="dcn")
        main = paddle.static.default_main_program()
        types.extend(op.type for op in main.global_block().ops)
        types.extend(p.name for p in main.all_parameters())
        return [out] + paddle.static.gradients([paddle.mean(out * out)], [xv, ov])

    outs = run_static(paddle, build, {"x": x, "o": offset})
    return {"outs": outs, "types": types}


def _nce(paddle, sampler, negatives, with_bias=True, sample_weight=None, custom_dist=None, num_total=7):
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
    label = np.array([[0, 2], [3, 4], [6, 1]], dtype="int64")
    weight = np.linspace(-0.5, 0.6, num_total * 4, dtype="float32").reshape(num_total, 4)
    bias = np.linspace(0.3, -0.2, num_total, dtype="float32").reshape(num_total, 1)
    feed = {"x": x, "label": label}
    if sample_weight is not None:
        feed["w"] = sample_weight

    def build():
        xv, lv = _data(paddle, "x", x, False), _data(paddle, "label", label)
        sw = _data(paddle, "w", sample_weight) if sample_weight is not None else None
        cost = paddle.static.nn.nce(xv, lv, num_total, sample_weight=sw, param_attr=_assigned(paddle, weight),
                                    bias_attr=_assigned(paddle, bias) if with_bias else False,
                                    num_neg_samples=len(negatives), sampler=sampler, custom_dist=custom_dist, seed=5)
        block = paddle.static.default_main_program().global_block()
        op = [op for op in block.ops if op.type == "nce"][0]
        op._set_attr("custom_neg_classes", list(negatives))  # what Paddle's own nce tests fix the negatives with
        samples = [block.var(op.output("SampleLogits")[0]), block.var(op.output("SampleLabels")[0])]
        params = [block.var(op.input("Weight")[0])] + ([block.var(op.input("Bias")[0])] if with_bias else [])
        loss = paddle.mean(cost)
        return [cost] + samples + paddle.static.gradients([loss], [xv] + params)

    names = ["cost", "sample_logits", "sample_labels", "dx", "dweight", "dbias"]
    return dict(zip(names, run_static(paddle, build, feed)))


@differential(rtol=1e-5, atol=1e-6)
def test_nce_uniform_with_fixed_negatives(paddle):
    return _nce(paddle, "uniform", [1, 5, 6])


@differential(rtol=1e-5, atol=1e-6)
def test_nce_log_uniform_with_sample_weight(paddle):
    return _nce(paddle, "log_uniform", [2, 0, 5, 3], sample_weight=np.array([[0.5], [2.0], [1.0]], "float32"))


@differential(rtol=1e-5, atol=1e-6)
def test_nce_custom_dist_without_bias(paddle):
    return _nce(paddle, "custom_dist", [4, 4], with_bias=False, custom_dist=[0.1, 0.25, 0.05, 0.2, 0.15, 0.1, 0.15])


@differential()
def test_nce_sampled_negatives_are_reported_and_reproducible(paddle):
    """Which negatives a seed draws is the generator's (not comparable across libraries); what must agree: the
    true labels come first, the negatives lie in range, a seed repeats them, and Cost follows from the
    reported samples by Paddle's formula."""
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    label = np.array([[3], [1]], dtype="int64")

    def build():
        cost = paddle.static.nn.nce(_data(paddle, "x", x), _data(paddle, "label", label), 9, num_neg_samples=5,
                                    sampler="log_uniform", seed=11)
        op = [op for op in paddle.static.default_main_program().global_block().ops if op.type == "nce"][0]
        return [cost, op.output("SampleLogits")[0], op.output("SampleLabels")[0]]

    main, startup, fetch = _build(paddle, build)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    first = exe.run(main, feed={"x": x, "label": label}, fetch_list=fetch)
    again = exe.run(main, feed={"x": x, "label": label}, fetch_list=fetch)
    cost, o, labels = (np.asarray(a) for a in first)
    b = 5 * np.log((labels + 2.0) / (labels + 1.0)) / np.log(9)
    expected = (-np.log(o[:, :1] / (o[:, :1] + b[:, :1])).sum(1) - np.log(b[:, 1:] / (o[:, 1:] + b[:, 1:])).sum(1)) / 6
    return {"shapes": [list(cost.shape), list(labels.shape)], "true_first": bool((labels[:, :1] == label).all()),
            "in_range": bool(((labels >= 0) & (labels < 9)).all()),
            "repeated": bool(all(np.array_equal(a, b) for a, b in zip(first, again))),
            "cost_from_samples": bool(np.allclose(cost[:, 0], expected, rtol=1e-5))}


def _build(paddle, fn):
    """(main, startup, fn()) with fn building under fresh Programs in static mode."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        return main, startup, fn()


def _dcn_call(paddle, x_shape=(2, 4, 5, 5), x_dtype="float32", offset=True, mask=True, **kw):
    x = paddle.static.data("x", list(x_shape), x_dtype)
    o = paddle.static.data("o", [2, 18, 3, 3], "float32") if offset else np.ones([2, 18, 3, 3], "float32")
    m = paddle.static.data("m", [2, 9, 3, 3], "float32") if mask else np.ones([2, 9, 3, 3], "float32")
    args = {"num_filters": 6, "filter_size": 3, **kw}
    return paddle.static.nn.deform_conv2d(x, o, m, **args)


@pytest.mark.parametrize("kwargs, error", [
    ({"x_shape": (2, 4, 5)}, ValueError),
    ({"x_dtype": "int32"}, TypeError),
    ({"groups": 3}, ValueError),
    ({"groups": 0}, ValueError),
    ({"num_filters": 5, "groups": 2}, ValueError),
    ({"filter_size": [3, 3, 3]}, ValueError),
    ({"offset": False}, TypeError),
    ({"mask": False}, TypeError),
    ({"x_shape": (3, 4, 5, 5), "im2col_step": 2}, ValueError),
], ids=["x-3d", "x-int", "groups-indivisible", "groups-zero", "filters-indivisible", "filter-size-3", "offset-array",
        "mask-array", "im2col-step"])
def test_deform_conv2d_bad_arguments_raise_paddles_class(kwargs, error):
    @differential(expected=raises(error))
    def body(paddle):
        _build(paddle, lambda: _dcn_call(paddle, **kwargs))
    body()


def _nce_call(paddle, x_shape=(3, 4), x_dtype="float32", label_shape=(3, 1), label_dtype="int64", **kw):
    x = paddle.static.data("x", list(x_shape), x_dtype)
    label = paddle.static.data("label", list(label_shape), label_dtype)
    return paddle.static.nn.nce(x, label, 5, **kw)


@pytest.mark.parametrize("kwargs, error", [
    ({"x_shape": (3, 4, 2)}, ValueError),
    ({"x_dtype": "float16"}, TypeError),
    ({"label_dtype": "int32"}, TypeError),
    ({"label_shape": (3,)}, IndexError),
    ({"label_shape": (2, 1)}, ValueError),
    ({"sampler": "gaussian"}, Exception),
    ({"sampler": "custom_dist"}, AssertionError),
], ids=["input-3d", "input-float16", "label-int32", "label-1d", "batch-mismatch", "sampler-unknown",
        "custom-dist-missing"])
def test_nce_bad_arguments_raise_paddles_class(kwargs, error):
    @differential(expected=raises(error))
    def body(paddle):
        _build(paddle, lambda: _nce_call(paddle, **kwargs))
    body()


@differential(expected={"nce": raises(AssertionError), "deform_conv2d": raises(AssertionError)})
def test_static_only_in_dynamic_mode(paddle):
    x = paddle.ones([2, 3])
    out = {}
    for name, call in (("nce", lambda: paddle.static.nn.nce(x, x, 3)),
                       ("deform_conv2d", lambda: paddle.static.nn.deform_conv2d(x, x, None, 2, 3))):
        try:
            call()
        except Exception as error:  # compared by class, as the harness does
            from tests.differential import Raised
            out[name] = Raised(type(error), str(error))
    return out


@pytest.mark.parametrize("api", ["deformable_conv", "deformable_conv_v1", "nce"])
def test_op_desc_is_paddles(api):
    """The op each API appends: Paddle's type, slot names and attributes."""
    @differential()
    def body(paddle):
        if api == "nce":
            main, _, _ = _build(paddle, lambda: _nce_call(paddle, num_neg_samples=2))
        else:
            main, _, _ = _build(paddle, lambda: _dcn_call(paddle, mask=api == "deformable_conv", im2col_step=2))
        op = [op for op in main.global_block().ops if op.type == api][0]
        return {"slots": [sorted(op.input_names), sorted(op.output_names)],
                "attrs": {k: op.attr(k) for k in sorted(op.attr_names) if not k.startswith("op_") and k != "with_quant_attr"}}
    body()
