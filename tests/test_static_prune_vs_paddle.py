"""Executor.run(use_prune=True), optimizer ops in fetch_list and Program._prune_with_input, against Paddle: a run
computes only what the fetches (and the optimizer ops it is given, or all of them) need from the feeds."""
import numpy as np

from tests.differential import differential, raises


def _net(paddle, n_losses=2):
    """x -> fc(softmax) -> n cross-entropy losses (persistable, so the scope shows which ones a run computed)."""
    x = paddle.static.data("x", [-1, 2], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    w = paddle.ParamAttr(name="w", initializer=paddle.nn.initializer.Constant(1.0))
    y = paddle.static.nn.fc(x, 2, activation="softmax", weight_attr=w)
    losses = []
    for _ in range(n_losses):
        loss = paddle.mean(paddle.nn.functional.cross_entropy(y, label, use_softmax=False))
        loss.persistable = True
        losses.append(loss)
    return x, y, losses


FEED = {"x": np.array([[0.1, 0.9], [0.4, 0.2], [0.7, 0.3]], "float32"), "label": np.array([[0], [1], [0]], "int64")}


def _run(paddle, build, fetch, feed=FEED, **run_args):
    """(fetched values, names of the scope's variables, w) after one run of the program `build` makes."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope), paddle.static.program_guard(main, startup):
        built = build()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        out = exe.run(main, feed=dict(feed), fetch_list=fetch(built), **run_args)
        names = sorted(n for n in ("x", "mean_0.tmp_0", "mean_1.tmp_0", "w") if scope.find_var(n) is not None)
        return out, names, np.array(scope.find_var("w").get_tensor())


@differential()
def test_prune_fetches_without_optimizer(paddle):
    return _run(paddle, lambda: _net(paddle), lambda b: [b[2][0].name], use_prune=True)


@differential()
def test_prune_keeps_every_optimizer_op_when_none_is_fetched(paddle):
    def build():
        built = _net(paddle)
        paddle.optimizer.SGD(0.5).minimize(built[2][0])
        return built
    return _run(paddle, build, lambda b: [b[2][0]], use_prune=True)


@differential()
def test_a_fed_intermediate_cuts_what_computes_it(paddle):
    return _run(paddle, lambda: _net(paddle), lambda b: [b[1].name, b[2][0].name],
                feed={"fc_0.tmp_2": np.full((3, 2), 0.5, "float32"), "label": FEED["label"]}, use_prune=True)


@differential(expected=raises(ValueError))
def test_pruned_program_still_needs_what_the_optimizer_reads(paddle):
    def build():
        built = _net(paddle)
        paddle.optimizer.SGD(0.5).minimize(built[2][0])
        return built
    _run(paddle, build, lambda b: [b[2][0]],
         feed={"fc_0.tmp_2": np.full((3, 2), 0.5, "float32"), "label": FEED["label"]}, use_prune=True)


@differential()
def test_optimizer_ops_in_fetch_list_run_only_that_optimizer(paddle):
    def build():
        built = _net(paddle)
        sgd = paddle.optimizer.SGD(0.5)
        first = sgd.minimize(built[2][0])  # (ops, params_grads): a tuple in fetch_list
        second, _ = sgd.minimize(built[2][1])
        return built, first, second
    one = _run(paddle, build, lambda b: [b[0][2][0], b[1]])
    other = _run(paddle, build, lambda b: [b[0][2][1].name, b[2]])
    return one, other


@differential(expected=raises(TypeError))
def test_a_forward_op_in_fetch_list_is_refused(paddle):
    _run(paddle, lambda: _net(paddle), lambda b: [b[2][0], b[2][0].block.ops[0]])


@differential()
def test_prune_with_input(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x, y, losses = _net(paddle)
    pruned = main._prune_with_input([y.name], [losses[1]])
    whole = main._prune(losses[0].name)
    return ([op.type for op in pruned.global_block().ops], sorted(pruned.global_block().vars),
            [op.type for op in whole.global_block().ops], len(main.global_block().ops))


@differential(expected=raises(ValueError))
def test_prune_with_input_feed_names_must_be_str(paddle):
    paddle.enable_static()
    paddle.static.Program()._prune_with_input([2, 3], [])
