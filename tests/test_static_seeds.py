"""The seed examples (../shared/seeds) run verbatim and give their documented results."""
import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.fluid as fluid
from paddlelite import static


@pytest.fixture(autouse=True)
def _fresh_default_programs():
    with static.program_guard(static.Program(), static.Program()), static.scope_guard(static.Scope()):
        yield


def _pairs(pg):
    return [(p.name, g.name) for p, g in pg]


def _seed000_network():
    import paddlelite.nn.functional as F
    x = paddle.static.data(name='x', shape=[None, 13], dtype='int64')
    y = paddle.static.data(name='y', shape=[None, 1], dtype='float32')
    x_emb = paddle.static.nn.embedding(x, size=[100, 256])
    y_predict = paddle.static.nn.fc(x=x_emb, size=1, activation=None, name='my_fc')
    loss = F.square_error_cost(input=y_predict, label=y)
    avg_loss = paddle.mean(loss)
    all_weights = [param for param in paddle.static.default_main_program().block(0).all_parameters()
                   if 'w_' in param.name]
    return x_emb, avg_loss, all_weights


SEED000_COMMENTS = {
    1: [("embedding_0.w_0", "embedding_0.w_0@GRAD"), ("my_fc.w_0", "my_fc.w_0@GRAD"), ("my_fc.b_0", "my_fc.b_0@GRAD")],
    2: [("embedding_0.w_0", "embedding_0.w_0@GRAD"), ("my_fc.w_0", "my_fc.w_0@GRAD")],
    3: [("embedding_0.w_0", "embedding_0.w_0@GRAD"), ("my_fc.w_0", "my_fc.w_0@GRAD")],
    4: [("my_fc.w_0", "my_fc.w_0@GRAD"), ("my_fc.b_0", "my_fc.b_0@GRAD")],
    5: [("embedding_0.w_0", "embedding_0.w_0@GRAD"), ("my_fc.w_0", "my_fc.w_0@GRAD")],
    6: [],
}


def test_seed000_verbatim(capsys):
    """paddle.static.append_backward example, run as written (six calls on one program)."""
    import paddlelite.nn.functional as F

    paddle.enable_static()

    x = paddle.static.data(name='x', shape=[None, 13], dtype='int64')
    y = paddle.static.data(name='y', shape=[None, 1], dtype='float32')
    x_emb = paddle.static.nn.embedding(x, size=[100, 256])
    y_predict = paddle.static.nn.fc(x=x_emb, size=1, activation=None, name='my_fc')
    loss = F.square_error_cost(input=y_predict, label=y)
    avg_loss = paddle.mean(loss)

    # Get all weights in main_program, not include bias.
    all_weights = [param for param in paddle.static.default_main_program().block(0).all_parameters() if 'w_' in param.name]
    all_weights_name = [w.name for w in all_weights]

    # return all param_grads needed to be updated if parameter_list set default None.
    p_g_list1 = paddle.static.append_backward(loss=avg_loss)
    # output: [(embedding_0.w_0, embedding_0.w_0@GRAD), (my_fc.w_0, my_fc.w_0@GRAD), (my_fc.b_0, my_fc.b_0@GRAD)]

    # return the param_grads corresponding to parameter_list that can be list of param (Tensor).
    p_g_list2 = paddle.static.append_backward(loss=avg_loss, parameter_list=all_weights)
    # output: [(embedding_0.w_0, embedding_0.w_0@GRAD), (my_fc.w_0, my_fc.w_0@GRAD)]

    # parameter_list can be list of param.name (str).
    p_g_list3 = paddle.static.append_backward(loss=avg_loss, parameter_list=all_weights_name)
    # output: [(embedding_0.w_0, embedding_0.w_0@GRAD), (my_fc.w_0, my_fc.w_0@GRAD)]

    # no_grad_set can be set of Tensors that means grad will be cut off from these Tensors.
    p_g_list4 = paddle.static.append_backward(loss=avg_loss, no_grad_set=set([x_emb]))
    # output: [(my_fc.w_0, my_fc.w_0@GRAD), (my_fc.b_0, my_fc.b_0@GRAD)]

    # no_grad_set can be set of Tensor.name when the Tensors is created inside layers and can't be specified explicitly.
    p_g_list5 = paddle.static.append_backward(loss=avg_loss, no_grad_set=set(['my_fc.b_0']))
    # output: [(embedding_0.w_0, embedding_0.w_0@GRAD), (my_fc.w_0, my_fc.w_0@GRAD)]

    # return [] because all param_grads are filtered by no_grad_set.
    p_g_list6 = paddle.static.append_backward(loss=avg_loss, parameter_list=all_weights, no_grad_set=set(all_weights))

    lists = [p_g_list1, p_g_list2, p_g_list3, p_g_list4, p_g_list5, p_g_list6]
    print(p_g_list1)
    # the seed's comment abbreviates; Paddle 3.3.1 prints each Variable in full, and so do we
    assert capsys.readouterr().out.strip() == (
        "[(persist trainable param embedding_0.w_0 : DENSE_TENSOR.shape(100, 256).dtype(float32).stop_gradient(False), "
        "var embedding_0.w_0@GRAD : DENSE_TENSOR.shape(100, 256).dtype(float32).stop_gradient(False)), "
        "(persist trainable param my_fc.w_0 : DENSE_TENSOR.shape(3328, 1).dtype(float32).stop_gradient(False), "
        "var my_fc.w_0@GRAD : DENSE_TENSOR.shape(3328, 1).dtype(float32).stop_gradient(False)), "
        "(persist trainable param my_fc.b_0 : DENSE_TENSOR.shape(1,).dtype(float32).stop_gradient(False), "
        "var my_fc.b_0@GRAD : DENSE_TENSOR.shape(1,).dtype(float32).stop_gradient(False))]")
    # The parameters are exactly the comments'. Calls 2..6 append further backward passes to the same
    # program; as in Paddle's legacy IR, their new gradient names carry one 'grad/' per pass.
    for k, pg in enumerate(lists, start=1):
        expected = SEED000_COMMENTS[k]
        assert [p for p, _ in _pairs(pg)] == [p for p, _ in expected]
        prefix = "grad/" * k if k > 1 else ""
        assert [g for _, g in _pairs(pg)] == [prefix + g for _, g in expected]
    # and the program runs, every pass giving the same gradients
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    feed = {'x': np.random.default_rng(0).integers(0, 100, (4, 13)).astype('int64'),
            'y': np.ones((4, 1), 'float32')}
    outs = exe.run(feed=feed, fetch_list=[g for _, g in p_g_list1 + p_g_list2 + p_g_list5])
    np.testing.assert_allclose(outs[3], outs[0], rtol=1e-6)   # embedding grad: pass 1 vs pass 2
    np.testing.assert_allclose(outs[4], outs[1], rtol=1e-6)   # my_fc.w_0
    np.testing.assert_allclose(outs[6], outs[1], rtol=1e-6)


@pytest.mark.parametrize("k", range(1, 7))
def test_seed000_each_call_on_a_fresh_program_matches_the_comment(k):
    paddle.enable_static()
    with static.program_guard(static.Program(), static.Program()):
        x_emb, avg_loss, all_weights = _seed000_network()
        args = {1: {}, 2: dict(parameter_list=all_weights),
                3: dict(parameter_list=[w.name for w in all_weights]),
                4: dict(no_grad_set=set([x_emb])), 5: dict(no_grad_set=set(['my_fc.b_0'])),
                6: dict(parameter_list=all_weights, no_grad_set=set(all_weights))}[k]
        pg = paddle.static.append_backward(loss=avg_loss, **args)
        assert _pairs(pg) == SEED000_COMMENTS[k]


def test_seed000_gradient_values():
    """The embedding and fc gradients of seed 000's network against NumPy."""
    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x_emb, avg_loss, _ = _seed000_network()
        pg = static.append_backward(avg_loss)
    exe = static.Executor()
    scope = static.Scope()
    exe.run(startup, scope=scope)
    ids = np.random.default_rng(1).integers(0, 100, (3, 13)).astype('int64')
    yv = np.random.default_rng(2).random((3, 1)).astype('float32')
    g_emb, g_w, g_b = exe.run(main, feed={'x': ids, 'y': yv}, fetch_list=[g for _, g in pg], scope=scope)
    E = np.array(scope.find_var('embedding_0.w_0').get_tensor()).astype(np.float64)
    W = np.array(scope.find_var('my_fc.w_0').get_tensor()).astype(np.float64)
    b = np.array(scope.find_var('my_fc.b_0').get_tensor()).astype(np.float64)
    h = E[ids].reshape(3, -1)
    d = 2 * (h @ W + b - yv) / 3
    np.testing.assert_allclose(g_w, h.T @ d, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(g_b, d.sum(0), rtol=1e-4, atol=1e-6)
    dE = np.zeros_like(E)
    np.add.at(dE, ids.reshape(-1), (d @ W.T).reshape(-1, 256))
    np.testing.assert_allclose(g_emb, dE, rtol=1e-4, atol=1e-6)


def test_seed001_fluid_append_backward_verbatim():
    x = fluid.layers.data(name='x', shape=[13], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')

    y_predict = fluid.layers.fc(input=x, size=1, act=None)
    loss = fluid.layers.square_error_cost(input=y_predict, label=y)

    avg_loss = fluid.layers.mean(loss)
    param_grad_list = fluid.backward.append_backward(loss=avg_loss)

    assert x.shape == (-1, 13) and y.shape == (-1, 1)
    assert _pairs(param_grad_list) == [("fc_0.w_0", "fc_0.w_0@GRAD"), ("fc_0.b_0", "fc_0.b_0@GRAD")]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    xv = np.ones((2, 13), np.float32)
    gw, gb = exe.run(feed={'x': xv, 'y': np.zeros((2, 1), np.float32)}, fetch_list=[g for _, g in param_grad_list])
    assert gw.shape == (13, 1) and gb.shape == (1,)


def test_seed001_fluid_gradients_verbatim(capsys):
    x = fluid.layers.data(name='x', shape=[2,8,8], dtype='float32')
    x.stop_gradient=False
    y = fluid.layers.conv2d(x, 4, 1, bias_attr=False)
    y = fluid.layers.relu(y)
    y = fluid.layers.conv2d(y, 4, 1, bias_attr=False)
    y = fluid.layers.relu(y)
    z = fluid.gradients([y], x)
    print(z)

    assert capsys.readouterr().out.strip() == "[var x@GRAD : DENSE_TENSOR.shape(-1, 2, 8, 8).dtype(float32).stop_gradient(False)]"
    assert isinstance(z, list) and len(z) == 1 and z[0].shape == (-1, 2, 8, 8)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(fluid.default_startup_program(), scope=scope)
    xv = np.random.default_rng(0).random((3, 2, 8, 8)).astype(np.float32)
    (g,) = exe.run(feed={'x': xv}, fetch_list=z, scope=scope)
    # reference: two 1x1 convolutions with relus
    W1 = np.array(scope.find_var('conv2d_0.w_0').get_tensor())[:, :, 0, 0]
    W2 = np.array(scope.find_var('conv2d_1.w_0').get_tensor())[:, :, 0, 0]
    a1 = np.einsum('oc,nchw->nohw', W1, xv)
    h1 = np.maximum(a1, 0)
    a2 = np.einsum('oc,nchw->nohw', W2, h1)
    d2 = (a2 > 0).astype(np.float32)
    d1 = np.einsum('oc,nohw->nchw', W2, d2) * (a1 > 0)
    ref = np.einsum('oc,nohw->nchw', W1, d1)
    np.testing.assert_allclose(g, ref, rtol=1e-4, atol=1e-5)


def test_seed_gradients_of_gradients():
    """PADDLE_SEMANTICS: x=1, y=x^2, dx1=grad(y,x)=2, z=dx1^2+y^2, grad(z,x)=12."""
    paddle.enable_static()
    x = paddle.static.data('x', [1], 'float32')
    x.stop_gradient = False
    y = x * x
    dx1 = paddle.static.gradients(y, x)
    z = dx1[0] * dx1[0] + y * y
    dz = paddle.static.gradients(z, x)
    exe = paddle.static.Executor()
    a, b = exe.run(feed={'x': np.ones(1, 'float32')}, fetch_list=[dx1[0], dz[0]])
    assert a.tolist() == [2.0] and b.tolist() == [12.0]
