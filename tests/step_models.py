"""The benchmark models' training steps, in paddlelite's three modes and in PyTorch: one definition each, for the
launch budgets (tests/test_launch_budgets.py), the GPU benchmark's profiler counts (bench/profile_steps.py) and
anything else that wants "a training step of model X".

A model is a `Spec`: how to build it from a framework module (`paddle` or `torch`, both written against the same
layer vocabulary), its batch (NumPy arrays from a seeded generator), its optimizer and loss. A step takes a fresh
batch from the host (as a training loop does) and runs forward, backward, the update and clear_grad.

* mlp: 784-256-128-10, batch 128, cross-entropy, SGD
* cnn: conv(1->8) relu maxpool conv(8->16) relu maxpool linear, batch 32 of 1x28x28, SGD
* encoder: 2 TransformerEncoderLayers d256 h4 ffn512, seq 64, batch 16, mean-pooled to 10 classes, SGD
* char_transformer: paddlelite.examples.char_transformer's model (token + position embeddings, 2 pre-LN causal
  layers d64 h4, gelu), batch 32 of 32 characters, Adam + ClipGradByGlobalNorm + LinearWarmup, as the example
* resnet18: paddle.vision.models.resnet18(num_classes=10), batch 8 of 3x64x64, Momentum
* gpt: a GPT-style decoder (token + position embeddings, 2 pre-LN blocks of causal scaled_dot_product_attention
  and a gelu MLP, d128 h4, final LayerNorm, linear head), vocab 256, batch 8 of 64 tokens, AdamW
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np

MODES = ("eager", "static", "to_static")


@dataclass
class Spec:
    make: Callable          # make(paddle) -> Layer
    batch: Callable         # batch(rng, small) -> (x, y) NumPy arrays; small: a cheaper batch (for the CPU's tests)
    optimizer: Callable     # optimizer(paddle, parameters) -> Optimizer (parameters None in static mode)
    flat_logits: bool = False  # a sequence model: logits [B, T, V] and labels [B, T] flattened for the loss
    x_dtype: str = "float32"


def _sgd(paddle, parameters):
    return paddle.optimizer.SGD(0.01, parameters=parameters)


def _mlp(paddle):
    nn = paddle.nn
    return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))


def _cnn(paddle):
    nn = paddle.nn
    return nn.Sequential(nn.Conv2D(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
                         nn.Conv2D(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


def _encoder(paddle):
    nn = paddle.nn

    class Encoder(nn.Layer):
        def __init__(self):
            super().__init__()
            self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0), 2)
            self.head = nn.Linear(256, 10)

        def forward(self, x):
            return self.head(self.enc(x).mean(axis=1))
    return Encoder()


CHAR_VOCAB, CHAR_BLOCK = 65, 32


def _char_transformer(paddle):
    from paddlelite.examples.char_transformer import build_model
    return build_model(paddle, CHAR_VOCAB, CHAR_BLOCK)


def _char_optimizer(paddle, parameters):
    sched = paddle.optimizer.lr.LinearWarmup(3e-3, warmup_steps=30, start_lr=3e-4, end_lr=3e-3)
    return paddle.optimizer.Adam(learning_rate=sched, parameters=parameters,
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))


def _resnet18(paddle):
    return paddle.vision.models.resnet18(num_classes=10)


GPT_VOCAB, GPT_BLOCK, GPT_D, GPT_HEADS = 256, 64, 128, 4


def _gpt(paddle):
    nn, F = paddle.nn, paddle.nn.functional

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(GPT_D), nn.LayerNorm(GPT_D)
            self.qkv, self.proj = nn.Linear(GPT_D, 3 * GPT_D), nn.Linear(GPT_D, GPT_D)
            self.fc, self.out = nn.Linear(GPT_D, 4 * GPT_D), nn.Linear(4 * GPT_D, GPT_D)

        def forward(self, h):
            b, t = h.shape[0], h.shape[1]
            q, k, v = paddle.split(self.qkv(self.ln1(h)).reshape([b, t, 3 * GPT_HEADS, GPT_D // GPT_HEADS]), 3, axis=2)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            h = h + self.proj(a.reshape([b, t, GPT_D]))
            return h + self.out(F.gelu(self.fc(self.ln2(h))))

    class GPT(nn.Layer):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(GPT_VOCAB, GPT_D), nn.Embedding(GPT_BLOCK, GPT_D)
            self.blocks = nn.LayerList([Block() for _ in range(2)])
            self.ln, self.head = nn.LayerNorm(GPT_D), nn.Linear(GPT_D, GPT_VOCAB)

        def forward(self, idx):
            h = self.tok(idx) + self.pos(paddle.arange(idx.shape[1], dtype="int64"))
            for block in self.blocks:
                h = block(h)
            return self.head(self.ln(h))
    return GPT()


def _adamw(paddle, parameters):
    return paddle.optimizer.AdamW(1e-3, parameters=parameters, weight_decay=0.01)


def _images(shape, small_shape, classes=10):
    def draw(rng, small=False):
        s = small_shape if small else shape
        return rng.standard_normal(s, dtype=np.float32), rng.integers(0, classes, s[0])
    return draw


def _tokens(batch, small_batch, block, vocab):
    def draw(rng, small=False):
        ids = rng.integers(0, vocab, (small_batch if small else batch, block + 1))
        return ids[:, :-1], ids[:, 1:]
    return draw


MODELS = {
    "mlp": Spec(_mlp, _images((128, 784), (128, 784)), _sgd),
    "cnn": Spec(_cnn, _images((32, 1, 28, 28), (2, 1, 28, 28)), _sgd),
    "encoder": Spec(_encoder, _images((16, 64, 256), (5, 64, 256)), _sgd),
    "char_transformer": Spec(_char_transformer, _tokens(32, 9, CHAR_BLOCK, CHAR_VOCAB), _char_optimizer,
                             flat_logits=True, x_dtype="int64"),
    "resnet18": Spec(_resnet18, _images((8, 3, 64, 64), (2, 3, 32, 32)),
                     lambda paddle, parameters: paddle.optimizer.Momentum(0.01, parameters=parameters)),
    "gpt": Spec(_gpt, _tokens(8, 5, GPT_BLOCK, GPT_VOCAB), _adamw, flat_logits=True, x_dtype="int64"),
}


def _loss(paddle, spec, logits, y):
    if spec.flat_logits:
        logits, y = logits.reshape([-1, logits.shape[-1]]), y.reshape([-1])
    return paddle.nn.CrossEntropyLoss()(logits, y)


def train_step(paddle, name, mode, small=False, seed=0):
    """A function running one training step of model `name` in `mode` (eager, static or to_static) on a new batch
    each call (`small`: a smaller batch, the same layers); it returns the loss (a Tensor; in static mode the fetched
    array)."""
    from paddlelite.utils import unique_name
    spec, rng = MODELS[name], np.random.default_rng(seed)
    paddle.seed(seed)
    if mode == "static":
        return _static_step(paddle, name, rng, small)
    with unique_name.guard():
        model = spec.make(paddle)
    if mode == "to_static":
        model = paddle.jit.to_static(model)
    opt = spec.optimizer(paddle, model.parameters())

    def step():
        x, y = spec.batch(rng, small)
        loss = _loss(paddle, spec, model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        if hasattr(opt._learning_rate, "step"):
            opt._learning_rate.step()
        return loss
    return step


def static_program(paddle, name, small=False):
    """Model `name`'s static training program: (main, startup, loss Variable, optimizer); feeds 'x' and 'y'."""
    from paddlelite.utils import unique_name
    spec = MODELS[name]
    x0, _ = spec.batch(np.random.default_rng(0), small)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), unique_name.guard():
            x = paddle.static.data("x", [None, *x0.shape[1:]], spec.x_dtype)
            y = paddle.static.data("y", [None, *x0.shape[1:]] if spec.flat_logits else [None], "int64")
            loss = _loss(paddle, spec, spec.make(paddle)(x), y)
            opt = spec.optimizer(paddle, None)
            opt.minimize(loss)
    finally:
        paddle.disable_static()
    return main, startup, loss, opt


def _static_step(paddle, name, rng, small):
    spec = MODELS[name]
    main, startup, loss, opt = static_program(paddle, name, small)
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)

    def step():
        xb, yb = spec.batch(rng, small)
        with paddle.static.scope_guard(scope):
            out = exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])
        if hasattr(opt._learning_rate, "step"):
            opt._learning_rate.step()
        return out
    return step
