"""paddle.static.nn's layer helpers (case, switch_case, norms, prelu, convolutions, bilinear, sparse_embedding)
against real Paddle 3.3.1 (legacy IR): same feeds and same parameter values -> same outputs and parameters."""
import numpy as np
import pytest

from tests.differential import differential, raises


def _run_layers(paddle, build, feed):
    """Build under fresh Programs and fresh names; every parameter gets values drawn from its creation index
    (the same in both libraries); returns the fetched arrays and the parameters' names and shapes."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetch_list = build()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        params = main.global_block().all_parameters()
        for i, p in enumerate(params):
            value = np.random.RandomState(i).uniform(-1, 1, list(p.shape)).astype("float32")
            scope.find_var(p.name).get_tensor().set(value, paddle.CPUPlace())
        outs = exe.run(main, feed=feed, fetch_list=fetch_list)
    return {"outs": [np.asarray(o) for o in outs], "params": [(p.name, list(p.shape)) for p in params]}


_X4 = np.random.RandomState(7).uniform(-1, 1, [2, 4, 5, 5]).astype("float32")
_X5 = np.random.RandomState(8).uniform(-1, 1, [2, 2, 3, 4, 4]).astype("float32")


@differential(rtol=1e-5, atol=1e-5)
def test_group_instance_norm_prelu(paddle):
    def build():
        x = paddle.static.data("x", [2, 4, 5, 5], "float32")
        g = paddle.static.nn.group_norm(x, groups=2, act="relu")            # no affine parameters by default
        i = paddle.static.nn.instance_norm(x)
        ga = paddle.static.nn.group_norm(x, groups=2, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr())
        ia = paddle.static.nn.instance_norm(x, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr())
        p1 = paddle.static.nn.prelu(x, "all")
        p2 = paddle.static.nn.prelu(x, "channel")
        p3 = paddle.static.nn.prelu(x, "element")
        return [g, i, ga, ia, p1, p2, p3]
    return _run_layers(paddle, build, {"x": _X4})


@differential(rtol=1e-5, atol=1e-5)
def test_group_norm_nhwc_without_affine(paddle):
    def build():
        x = paddle.static.data("x", [2, 5, 5, 4], "float32")
        return [paddle.static.nn.group_norm(x, groups=4, param_attr=False, bias_attr=False, data_layout="NHWC"),
                paddle.static.nn.instance_norm(paddle.reshape(x, [2, 4, 25]), param_attr=False, bias_attr=False)]
    return _run_layers(paddle, build, {"x": _X4.transpose(0, 2, 3, 1).copy()})


@differential(rtol=1e-4, atol=1e-5)
def test_conv_layers(paddle):
    def build():
        x = paddle.static.data("x", [2, 4, 5, 5], "float32")
        v = paddle.static.data("v", [2, 2, 3, 4, 4], "float32")
        t1 = paddle.static.nn.conv2d_transpose(x, 3, filter_size=3, stride=2, padding=1, act="tanh")
        t2 = paddle.static.nn.conv2d_transpose(x, 4, output_size=[7, 7], groups=2, bias_attr=False)
        c3 = paddle.static.nn.conv3d(v, 3, filter_size=[2, 3, 3], padding=1)
        t3 = paddle.static.nn.conv3d_transpose(v, 2, filter_size=2, stride=[1, 2, 2])
        return [t1, t2, c3, t3]
    return _run_layers(paddle, build, {"x": _X4, "v": _X5})


@differential(rtol=1e-5, atol=1e-5)
def test_bilinear_tensor_product(paddle):
    def build():
        x = paddle.static.data("x", [3, 4], "float32")
        y = paddle.static.data("y", [3, 5], "float32")
        return [paddle.static.nn.bilinear_tensor_product(x, y, 6, act="sigmoid"),
                paddle.static.nn.bilinear_tensor_product(x, y, 2, bias_attr=False)]
    rng = np.random.RandomState(3)
    return _run_layers(paddle, build, {"x": rng.rand(3, 4).astype("float32"), "y": rng.rand(3, 5).astype("float32")})


@differential(rtol=1e-5, atol=1e-6)
def test_spectral_norm_and_its_gradient(paddle):
    def build():
        w = paddle.static.data("w", [3, 4, 2], "float32")
        w.stop_gradient = False
        a = paddle.static.nn.spectral_norm(w, dim=0, power_iters=2)
        b = paddle.static.nn.spectral_norm(w, dim=1, power_iters=1, eps=1e-6)
        loss = paddle.mean(paddle.add(paddle.scale(a, 2.0), paddle.reshape(b, [3, 4, 2])))
        return [a, b, paddle.static.gradients([loss], [w])[0]]
    return _run_layers(paddle, build, {"w": np.random.RandomState(4).uniform(-1, 1, [3, 4, 2]).astype("float32")})


@differential(rtol=1e-5, atol=1e-6)
def test_row_conv(paddle):
    def build():
        x = paddle.static.data("x", [2, 5, 3], "float32")
        return [paddle.static.nn.row_conv(x, 2, act="tanh"), paddle.static.nn.row_conv(x, 0)]
    return _run_layers(paddle, build, {"x": np.random.RandomState(9).uniform(-1, 1, [2, 5, 3]).astype("float32")})


def test_sparse_embedding_is_a_local_lookup_table():
    # Real Paddle runs it only against a parameter server, so the reference is the lookup itself.
    import paddlelite as paddle
    ids = np.array([[[0], [1]], [[2], [9]], [[4], [0]]], "int64")

    def build():
        return [paddle.static.nn.sparse_embedding(paddle.static.data("ids", [3, 2, 1], "int64"), [10, 3],
                                                  padding_idx=0)]
    try:
        got = _run_layers(paddle, build, {"ids": ids})
    finally:
        paddle.disable_static()
    table = np.random.RandomState(0).uniform(-1, 1, [10, 3]).astype("float32")
    table[0] = 0.0
    assert got["params"] == [("sparse_embedding_0.w_0", [10, 3])]
    np.testing.assert_array_equal(got["outs"][0], table[ids[..., 0]])


# Real Paddle 3.3.1's legacy-IR cond cannot build a false branch (its logical_not rejects a Variable with a
# TypeError), so case / switch_case are checked against the branch each input must select.
def _run_ours(build, feed):
    import paddlelite as paddle
    try:
        return _run_layers(paddle, build, feed)["outs"]
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("index", [0, 1, 2, 3, 5, 7])
def test_switch_case_picks_branch(index):
    import paddlelite as paddle
    xv = np.array([[1, 2], [3, 4]], "float32")

    def build():
        i = paddle.static.data("i", [1], "int32")
        x = paddle.static.data("x", [2, 2], "float32")
        fns = {1: lambda: paddle.scale(x, 2.0), 3: lambda: paddle.scale(x, -1.0, 3.0),
               5: lambda: paddle.add(x, x + 1)}
        a = paddle.static.nn.switch_case(i, fns)                              # no default: the largest key
        b = paddle.static.nn.switch_case(i, [lambda: paddle.scale(x, 0.5), lambda: paddle.mean(x) + x],
                                         default=lambda: paddle.concat([x[0:1], x[0:1]]))
        c = paddle.static.nn.switch_case(i, [(0, lambda: x), (2, lambda: paddle.scale(x, 4.0))])
        return [a, b, c]
    a, b, c = _run_ours(build, {"i": np.array([index], "int32"), "x": xv})
    want_a = {1: xv * 2, 3: -xv + 3}.get(index, 2 * xv + 1)
    want_b = {0: xv * 0.5, 1: xv.mean() + xv}.get(index, np.concatenate([xv[:1], xv[:1]]))
    want_c = {0: xv}.get(index, xv * 4)
    for got, want in ((a, want_a), (b, want_b), (c, want_c)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("xv", [-2.0, 0.5, 3.0])
def test_case_chain(xv):
    import paddlelite as paddle

    def build():
        x = paddle.static.data("x", [1], "float32")
        lo = paddle.full([1], 0.0, "float32")
        hi = paddle.full([1], 1.0, "float32")
        pairs = [(paddle.less_than(x, lo), lambda: paddle.scale(x, -1.0)),
                 (paddle.less_than(x, hi), lambda: paddle.scale(x, 10.0))]
        return [paddle.static.nn.case(pairs, default=lambda: paddle.add(x, hi)),
                paddle.static.nn.case(pairs)]                                # the last fn is the default
    a, b = _run_ours(build, {"x": np.array([xv], "float32")})
    assert a.tolist() == [-xv if xv < 0 else 10 * xv if xv < 1 else xv + 1]
    assert b.tolist() == [-xv if xv < 0 else 10 * xv]


def _bad_case(paddle, pairs_fn, default=None):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [1], "float32")
        p = paddle.less_than(x, paddle.full([1], 0.0, "float32"))
        try:
            paddle.static.nn.case(pairs_fn(x, p), default=default)
        finally:
            paddle.disable_static()


@differential(expected=raises(TypeError))
def test_case_rejects_non_tuple(paddle):
    _bad_case(paddle, lambda x, p: [[p, lambda: x]])


@differential(expected=raises(TypeError))
def test_case_rejects_uncallable_default(paddle):
    _bad_case(paddle, lambda x, p: [(p, lambda: x)], default=3)


@differential(expected=raises(TypeError))
def test_case_rejects_non_bool_pred(paddle):
    _bad_case(paddle, lambda x, p: [(x, lambda: x)])


@differential(expected=raises(ValueError))
def test_switch_case_rejects_duplicate_keys(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        i = paddle.static.data("i", [1], "int64")
        try:
            paddle.static.nn.switch_case(i, [(1, lambda: i), (1, lambda: i)])
        finally:
            paddle.disable_static()


@differential(expected=raises(TypeError))
def test_switch_case_rejects_float_index(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        i = paddle.static.data("i", [1], "float32")
        try:
            paddle.static.nn.switch_case(i, [lambda: i])
        finally:
            paddle.disable_static()


@differential(expected=raises(ValueError))
def test_prelu_rejects_bad_mode(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [2, 3], "float32")
        try:
            paddle.static.nn.prelu(x, "row")
        finally:
            paddle.disable_static()


def test_sequence_ops_name_lod():
    import paddlelite as paddle
    with pytest.raises(NotImplementedError, match="LoD"):
        paddle.static.nn.sequence_pool(None, "sum")
