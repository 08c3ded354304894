"""Beam search decoding against real Paddle 3.3.1: gather_tree, BeamSearchDecoder + dynamic_decode over GRU and
LSTM cells (same weights from NumPy), a custom Decoder through dynamic_decode's own finished tracking, and errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

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

        class Greedy(nn.decode.Decoder):
            def __init__(self, cell, out):
                self.cell, self.out = cell, out

            def initialize(self, inits):
                batch = inits.shape[0]
                return paddle.zeros([batch, 4]), inits, paddle.full([batch], False, dtype="bool")

            def step(self, time, inputs, states, **kwargs):
                h, new_h = self.cell(inputs, states)
                logits = self.out(h)
                token = paddle.argmax(logits, axis=-1)
                return logits, new_h, paddle.nn.functional.one_hot(token, 4), token == 3

        cell, out = nn.SimpleRNNCell(4, 5), nn.Linear(5, 4)
        _set_weights([cell, out], seed=3)
        init = paddle.to_tensor(np.random.default_rng(2).uniform(-1, 1, (3, 5)).astype("float32"))
        logits, states, lengths = nn.dynamic_decode(Greedy(cell, out), inits=init, max_step_num=4,
                                                    impute_finished=True, return_length=True)
        return {"logits": logits, "states": states, "lengths": lengths}
    body()
