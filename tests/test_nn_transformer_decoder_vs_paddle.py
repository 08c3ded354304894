"""TransformerDecoderLayer, TransformerDecoder and Transformer against real Paddle 3.3.1: the same weights (set
from NumPy in both, in named_parameters order) give the same outputs and gradients, with masks, pre-norm,
incremental decoding caches and generate_square_subsequent_mask; parameter names, printing and errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(5)
SRC = RNG.uniform(-1, 1, (2, 5, 8)).astype("float32")
TGT = RNG.uniform(-1, 1, (2, 4, 8)).astype("float32")
MEMORY_MASK = np.where(RNG.uniform(size=(2, 1, 4, 5)) > 0.3, 0.0, -1e9).astype("float32")
PAD_MASK = RNG.uniform(size=(2, 1, 1, 5)) > 0.2  # bool: True = attend


def _set_weights(model, seed=0):
    rng = np.random.default_rng(seed)
    for _, p in model.named_parameters():
        p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    return model


MODELS = {  # name -> (make(nn), run(paddle, model, src, tgt))
    "decoder_layer": (lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
                      lambda p, m, s, t: m(t, s)),
    "decoder_layer_masks_prenorm_gelu": (
        lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, activation="gelu", normalize_before=True),
        lambda p, m, s, t: m(t, s, tgt_mask=p.nn.Transformer.generate_square_subsequent_mask(None, 4),
                             memory_mask=p.to_tensor(MEMORY_MASK))),
    "decoder_stack_bool_mask": (
        lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 4, 16, dropout=0.0), 2, nn.LayerNorm(8)),
        lambda p, m, s, t: m(t, s, memory_mask=p.to_tensor(PAD_MASK))),
    "decoder_stack_int_mask": (  # an integer mask is a keep-mask too (1 attends), not added to the scores
        lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 4, 16, dropout=0.0), 1),
        lambda p, m, s, t: m(t, s, memory_mask=p.to_tensor(PAD_MASK.astype("int64")))),
    "transformer": (lambda nn: nn.Transformer(8, 2, 2, 2, 16, dropout=0.0),
                    lambda p, m, s, t: m(s, t, tgt_mask=m.generate_square_subsequent_mask(4))),
    "transformer_prenorm_attrs": (
        lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, normalize_before=True,
                                  bias_attr=[None, False]),
        lambda p, m, s, t: m(s, t, src_mask=p.to_tensor(PAD_MASK))),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_value_and_grad(name):
    make, run = MODELS[name]

    @differential(rtol=1e-4, atol=1e-5)
    def body(paddle):
        model = _set_weights(make(paddle.nn))
        src = paddle.to_tensor(SRC, stop_gradient=False)
        tgt = paddle.to_tensor(TGT, stop_gradient=False)
        out = run(paddle, model, src, tgt)
        (out * out).sum().backward()
        return {"out": out, "src_grad": src.grad, "tgt_grad": tgt.grad,
                "param_grads": {n: p.grad for n, p in model.named_parameters()}}
    body()


@differential(rtol=1e-4, atol=1e-5)
def test_incremental_decoding_matches_the_full_pass(paddle):
    """Step-by-step decoding with gen_cache gives each step what the masked full pass gives."""
    nn = paddle.nn
    decoder = _set_weights(nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2))
    decoder.eval()
    memory, tgt = paddle.to_tensor(SRC), paddle.to_tensor(TGT)
    full = decoder(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(None, 4))
    cache = decoder.gen_cache(memory)
    steps = []
    for i in range(4):
        out, cache = decoder(tgt[:, i:i + 1], memory, cache=cache)
        steps.append(out)
    zipped = decoder.gen_cache(memory, do_zip=True)
    return {"full": full, "steps": paddle.concat(steps, axis=1), "cache_k": cache[1][0].k,
            "zipped": [len(zipped), len(zipped[0]), type(zipped[1][0]).__name__]}


@differential()
def test_structure_and_printing(paddle):
    nn = paddle.nn
    model = nn.Transformer(8, 2, 1, 2, 16, weight_attr=[None, None, None])
    layer = nn.TransformerDecoderLayer(8, 2, 16, bias_attr=False)
    return {"names": [(n, list(p.shape)) for n, p in model.named_parameters()],
            "layer": [(n, list(p.shape)) for n, p in layer.named_parameters()],
            "repr": repr(layer), "mask": model.generate_square_subsequent_mask(paddle.to_tensor(3))}


@pytest.mark.parametrize("make,exc", [
    (lambda nn: nn.Transformer(8, 2, bias_attr=[None] * 4), AssertionError),
])
def test_bad_arguments(make, exc):
    @differential(expected=raises(exc))
    def body(paddle):
        make(paddle.nn)
    body()
