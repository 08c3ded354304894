"""paddle.incubate.optimizer's static wrappers against real Paddle: RecomputeOptimizer (a recomputing backward,
append_backward with checkpoints: Paddle's op sequence, the ordinary backward's gradients) and GradientMergeOptimizer
(k steps' gradients summed, one update)."""
import numpy as np

from tests.differential import differential

RNG = np.random.default_rng(0)
X, Y = RNG.standard_normal((8, 6)).astype("float32"), RNG.standard_normal((8, 1)).astype("float32")


def _train(paddle, checkpoints, steps=3):
    """(op types of the program, losses of `steps` SGD steps) of a three-layer MLP, recomputing between the
    checkpoints given as layer indices (None: the ordinary backward)."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        main.random_seed = startup.random_seed = 5
        with paddle.static.program_guard(main, startup):
            h = paddle.static.data("x", [None, 6])
            layers = []
            for i, size in enumerate((5, 4, 1)):
                h = paddle.static.nn.fc(h, size, weight_attr=paddle.ParamAttr(
                    initializer=paddle.nn.initializer.Constant(0.1 * (i + 1))), activation="tanh" if i < 2 else None)
                layers.append(h)
            loss = paddle.nn.functional.mse_loss(h, paddle.static.data("y", [None, 1]))
            sgd = paddle.optimizer.SGD(0.1)
            if checkpoints is not None:
                sgd = paddle.incubate.optimizer.RecomputeOptimizer(sgd)
                sgd._set_checkpoints([layers[i] for i in checkpoints])
            sgd.minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        losses = [float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0]) for _ in range(steps)]
        return [op.type for op in main.global_block().ops], losses
    finally:
        paddle.disable_static()


@differential(rtol=1e-5, atol=1e-6)
def test_recompute_between_checkpoints_gives_the_ordinary_gradients(paddle):
    plain_ops, plain = _train(paddle, None)
    ops, losses = _train(paddle, [0, 1])
    one_ops, one = _train(paddle, [1])
    np.testing.assert_allclose(losses, plain, rtol=1e-6)
    np.testing.assert_allclose(one, plain, rtol=1e-6)
    assert len(ops) > len(plain_ops) and len(one_ops) > len(plain_ops)  # forward ops computed again
    return {"ops": ops, "one_checkpoint_ops": one_ops, "losses": losses}


def test_a_recomputed_dropout_draws_its_mask_again_from_one_seed():
    """A recomputed segment holding dropout: a seed op before the dropout draws once, and the dropout computed again
    in the backward (its output '<name>.subprog_<n>') gives the forward's values, mask and all."""
    import paddlelite as paddle
    paddle.seed(1)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 6])
            dropped = paddle.nn.functional.dropout(paddle.static.nn.fc(x, 5), 0.5)
            checkpoint = paddle.static.nn.fc(dropped, 4)
            loss = paddle.mean(paddle.static.nn.fc(checkpoint, 1))
            sgd = paddle.incubate.optimizer.RecomputeOptimizer(paddle.optimizer.SGD(0.1))
            sgd._set_checkpoints([checkpoint])
            sgd.minimize(loss)
        types = [op.type for op in main.global_block().ops]
        copy = next(n for op in main.global_block().ops[types.index("fill_constant"):] if op.type == "dropout"
                    for n in op.output("Out"))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        forward, again = exe.run(main, feed={"x": X}, fetch_list=[dropped.name, copy])
    finally:
        paddle.disable_static()
    assert types.count("seed") == 1 and types.index("seed") < types.index("dropout") and types.count("dropout") == 2
    assert copy.endswith(".subprog_0") and 0 < (forward == 0).sum() < forward.size
    np.testing.assert_array_equal(forward, again)


@differential(rtol=1e-5, atol=1e-6)
def test_gradient_merge_updates_every_k_steps_with_the_averaged_gradients(paddle):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x, y = paddle.static.data("x", [None, 6]), paddle.static.data("y", [None, 1])
            out = paddle.static.nn.fc(x, 1, weight_attr=paddle.ParamAttr(
                initializer=paddle.nn.initializer.Constant(0.2)))
            loss = paddle.nn.functional.mse_loss(out, y)
            opt = paddle.incubate.optimizer.GradientMergeOptimizer(paddle.optimizer.SGD(0.1), k_steps=2)
            opt.minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        losses = [float(exe.run(main, feed={"x": X[2 * i:2 * i + 2], "y": Y[2 * i:2 * i + 2]}, fetch_list=[loss])[0])
                  for i in range(4)]
        return {"losses": losses, "main": [op.type for op in main.global_block().ops],
                "update": [op.type for op in main.block(1).ops]}
    finally:
        paddle.disable_static()
