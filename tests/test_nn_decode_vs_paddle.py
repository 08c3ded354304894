"""Beam search decoding against real Paddle 3.3.1: gather_tree, BeamSearchDecoder + dynamic_decode over GRU and
LSTM cells (same weights from NumPy), a custom Decoder through dynamic_decode's own finished tracking, and errors."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.differential import differential, raises

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDS = [[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]]
PARENTS = [[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]]


@differential(expected={"out": [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]})
def test_gather_tree(paddle):
    return {"out": paddle.nn.functional.gather_tree(paddle.to_tensor(IDS), paddle.to_tensor(PARENTS))}


@pytest.mark.parametrize("ids,parents", [(IDS, PARENTS[:2]), (IDS[0], PARENTS[0])])
def test_gather_tree_bad_shapes(ids, parents):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.nn.functional.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents))
    body()


def _set_weights(layers, seed=0):
    rng = np.random.default_rng(seed)
    for m in layers:
        for _, p in m.named_parameters():
            p.set_value(rng.uniform(-1, 1, p.shape).astype("float32"))
    return layers


@pytest.mark.parametrize("cell_kind", ["gru", "lstm"])
@pytest.mark.parametrize("time_major", [False, True])
def test_beam_search(cell_kind, time_major):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        nn = paddle.nn
        emb, out = nn.Embedding(10, 4), nn.Linear(6, 10)
        cell = nn.GRUCell(4, 6) if cell_kind == "gru" else nn.LSTMCell(4, 6)
        _set_weights([emb, cell, out])
        decoder = nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb,
                                       output_fn=out)
        rng = np.random.default_rng(1)
        h = paddle.to_tensor(rng.uniform(-1, 1, (2, 6)).astype("float32"))
        inits = h if cell_kind == "gru" else (h, paddle.to_tensor(rng.uniform(-1, 1, (2, 6)).astype("float32")))
        ids, states, lengths = nn.dynamic_decode(decoder, inits=inits, max_step_num=5, return_length=True,
                                                 output_time_major=time_major)
        return {"ids": ids, "lengths": lengths, "log_probs": states.log_probs, "finished": states.finished,
                "cell_states": states.cell_states,
                "tiled": nn.BeamSearchDecoder.tile_beam_merge_with_batch(h, 3)}
    body()


def test_custom_decoder_with_imputed_states():
    """A greedy decoder that leaves finished-tracking to dynamic_decode (impute_finished keeps their states)."""
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        nn = paddle.nn
        cell, out = _set_weights([nn.SimpleRNNCell(4, 5), nn.Linear(5, 4)], seed=3)
        init = paddle.to_tensor(GREEDY_INIT)
        logits, states, lengths = nn.dynamic_decode(_greedy(paddle, cell, out), inits=init, max_step_num=4,
                                                    impute_finished=True, return_length=True)
        return {"logits": logits, "states": states, "lengths": lengths}
    body()


def test_nothing_to_decode():
    """Every sequence finished before the first step: a ValueError naming the cause (Paddle's eager loop then
    fails on its empty outputs with an AttributeError, its static one with a ValueError)."""
    import paddlelite as paddle

    class Finished(paddle.nn.decode.Decoder):
        def initialize(self, inits):
            return inits, inits, paddle.full([3], True, dtype="bool")

    with pytest.raises(ValueError, match="every sequence finished"):
        paddle.nn.dynamic_decode(Finished(), inits=paddle.ones([3, 5]), max_step_num=4)


GREEDY_INIT = np.random.default_rng(2).uniform(-1, 1, (3, 5)).astype("float32")


def _greedy(paddle, cell, out):
    """A greedy decoder over `cell` (4 tokens, 3 ends a sequence) that leaves finished-tracking to dynamic_decode."""
    class Greedy(paddle.nn.decode.Decoder):
        def initialize(self, inits):
            batch = inits.shape[0]
            return paddle.zeros([batch, 4]), inits, paddle.full([batch], False, dtype="bool")

        def step(self, time, inputs, states, **kwargs):
            h, new_h = cell(inputs, states)
            logits = out(h)
            token = paddle.argmax(logits, axis=-1)
            return logits, new_h, paddle.nn.functional.one_hot(token, 4), token == 3
    return Greedy()


# ---- static mode: dynamic_decode builds one while_loop -----------------------------------------------
def _scope_weights(paddle, layers, seed=0):
    """Set the parameters in the static scope after startup, from the NumPy stream _set_weights uses."""
    rng = np.random.default_rng(seed)
    scope = paddle.static.global_scope()
    for m in layers:
        for _, p in m.named_parameters():
            scope.find_var(p.name).get_tensor().set(rng.uniform(-1, 1, p.shape).astype("float32"), paddle.CPUPlace())


def _static_program(paddle, build, feed):
    """run_static with the weights set between startup and main."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetch, layers, seed = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    _scope_weights(paddle, layers, seed)
    return [np.asarray(r) for r in exe.run(main, feed=feed, fetch_list=fetch)]


H_INIT = np.random.default_rng(1).uniform(-1, 1, (2, 6)).astype("float32")
C_INIT = np.random.default_rng(2).uniform(-1, 1, (2, 6)).astype("float32")


def _beam_layers(nn, cell_kind):
    return nn.Embedding(10, 4), nn.GRUCell(4, 6) if cell_kind == "gru" else nn.LSTMCell(4, 6), nn.Linear(6, 10)


def _beam_search_decode(paddle, layers, cell_kind, h, c, time_major=False, is_test=False):
    emb, cell, out = layers
    decoder = paddle.nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb,
                                          output_fn=out)
    return paddle.nn.dynamic_decode(decoder, inits=h if cell_kind == "gru" else (h, c), max_step_num=5,
                                    return_length=True, output_time_major=time_major, is_test=is_test)


def _beam_search(paddle, layers, cell_kind, h, c, time_major=False, is_test=False):
    ids, states, lengths = _beam_search_decode(paddle, layers, cell_kind, h, c, time_major, is_test)
    return [ids, lengths, states.log_probs, states.finished]


def _paddle_pir(tmp_path, name, *args):
    """`name(paddle, *args)` (a function of this module returning arrays) under real Paddle on its PIR, in a
    subprocess; None without Paddle. Paddle 3.3.1 builds dynamic_decode statically on the PIR only (on the
    legacy IR the harness uses, paddle.all takes no Variables)."""
    if importlib.util.find_spec("paddle") is None:
        return None
    out = tmp_path / "reference.npz"
    code = (f"import os, sys; os.environ['FLAGS_enable_pir_api'] = '1'; sys.path.insert(0, {ROOT!r})\n"
            f"import numpy as np, paddle\nfrom tests.test_nn_decode_vs_paddle import {name}\n"
            f"np.savez({str(out)!r}, *{name}(paddle, *{args!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as saved:
        return [saved[f"arr_{k}"] for k in range(len(saved.files))]


def _assert_all_close(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def beam_search_static(paddle, cell_kind, time_major, batch, is_test):
    def build():
        h = paddle.static.data("h", [batch, 6], "float32")
        c = paddle.static.data("c", [batch, 6], "float32")
        layers = _beam_layers(paddle.nn, cell_kind)
        return _beam_search(paddle, layers, cell_kind, h, c, time_major, is_test=is_test), layers, 0
    try:
        return _static_program(paddle, build, {"h": H_INIT, "c": C_INIT})
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("cell_kind,time_major,batch", [("gru", False, 2), ("lstm", True, 2), ("gru", False, -1)])
def test_beam_search_static(tmp_path, cell_kind, time_major, batch):
    """The static program (one while_loop) gives Paddle's static results and paddlelite's eager ones. Paddle
    builds it with is_test=True only: without, its tensor arrays lose the step inputs' shapes and the beam
    reshape fails (AssertionError); paddlelite builds both."""
    import paddlelite
    ours = beam_search_static(paddlelite, cell_kind, time_major, batch, True)
    layers = _set_weights(_beam_layers(paddlelite.nn, cell_kind))
    eager = _beam_search(paddlelite, layers, cell_kind, paddlelite.to_tensor(H_INIT), paddlelite.to_tensor(C_INIT),
                         time_major)
    _assert_all_close(ours, [t.numpy() for t in eager])
    _assert_all_close(beam_search_static(paddlelite, cell_kind, time_major, batch, False), ours)
    theirs = _paddle_pir(tmp_path, "beam_search_static", cell_kind, time_major, batch, True)
    if theirs is not None:
        _assert_all_close(ours, theirs)


def greedy_static(paddle, impute_finished, is_test, with_grad, seed):
    def build():
        init = paddle.static.data("init", [3, 5], "float32")
        init.stop_gradient = False
        cell, out = paddle.nn.SimpleRNNCell(4, 5), paddle.nn.Linear(5, 4)
        logits, states, lengths = paddle.nn.dynamic_decode(
            _greedy(paddle, cell, out), inits=init, max_step_num=4, impute_finished=impute_finished,
            is_test=is_test, return_length=True)
        fetch = [logits, states, lengths]
        if with_grad:
            loss = paddle.mean(logits * logits) + paddle.mean(states)
            fetch += paddle.static.gradients([loss], [init, cell.weight_hh, out.weight])
        return fetch, [cell, out], seed
    try:
        return _static_program(paddle, build, {"init": GREEDY_INIT})
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("impute_finished,is_test,with_grad,seed,lengths", [
    (True, True, False, 3, [5, 5, 5]), (False, False, True, 7, [2, 5, 5]), (True, False, True, 3, [5, 5, 5]),
    (True, False, True, 1, [1, 1, 3])])  # eagerly: [4, 5, 5], [1, 4, 4], [4, 5, 5], [0, 0, 2]
def test_custom_decoder_static(tmp_path, impute_finished, is_test, with_grad, seed, lengths):
    """A custom Decoder in a static program, with gradients through the loop: Paddle's static results. Paddle's
    static loop counts a step into the lengths (and imputes states) by the finished flags from before the step,
    its dynamic loop by those after it; paddlelite follows each mode."""
    import paddlelite
    ours = greedy_static(paddlelite, impute_finished, is_test, with_grad, seed)
    assert ours[2].tolist() == lengths
    theirs = _paddle_pir(tmp_path, "greedy_static", impute_finished, is_test, with_grad, seed)
    if theirs is not None:
        _assert_all_close(ours, theirs)


@pytest.mark.parametrize("full_graph", [False, True])
def test_to_static_layer_with_beam_search(full_graph):
    """jit.to_static on a Layer that decodes gives its eager results (Paddle 3.3.1's default to_static does
    too; its full_graph=True conversion fails on the decode loop, paddlelite's traces it into a while_loop)."""
    import paddlelite as paddle

    class Translator(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb, self.cell, self.out = _set_weights(_beam_layers(paddle.nn, "gru"))

        def forward(self, h):
            ids, states, lengths = _beam_search_decode(paddle, (self.emb, self.cell, self.out), "gru", h, None)
            return ids, lengths, states.log_probs

    model = Translator()
    h = paddle.to_tensor(H_INIT)
    eager = model(h)
    traced = paddle.jit.to_static(model, full_graph=full_graph)(h)
    _assert_all_close([t.numpy() for t in traced], [t.numpy() for t in eager])
