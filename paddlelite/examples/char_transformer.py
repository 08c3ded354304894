"""A small character-level transformer trained on bundled public-domain text (Shakespeare's sonnets).

    python -m paddlelite.examples.char_transformer --steps 300

Token + position embeddings, a causal nn.TransformerEncoder, a linear head; Adam with a linear
warm-up; shows progress (a bar on a terminal, the mean loss every --log-every steps) and a sample
generated from the trained model.
"""
import os
import sys
import time

import numpy as np

from . import cli

TEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sonnets.txt")


def load_text():
    with open(TEXT, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    return text, chars


def build_model(paddle, vocab, block, d_model=64, nhead=4, layers=2):
    nn = paddle.nn

    class CharTransformer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, d_model)
            self.pos = nn.Embedding(block, d_model)
            layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, dropout=0.0, activation="gelu",
                                               normalize_before=True)
            self.encoder = nn.TransformerEncoder(layer, layers)
            self.norm = nn.LayerNorm(d_model)
            self.head = nn.Linear(d_model, vocab)
            mask = np.triu(np.full((block, block), -1e9, dtype=np.float32), k=1)
            self.register_buffer("causal_mask", paddle.to_tensor(mask), persistable=False)

        def forward(self, idx):
            t = idx.shape[1]
            pos = paddle.arange(t, dtype="int64")
            h = self.tok(idx) + self.pos(pos)
            mask = self.causal_mask[:t, :t] if t < self.causal_mask.shape[0] else self.causal_mask
            h = self.encoder(h, src_mask=mask)
            return self.head(self.norm(h))

    return CharTransformer()


def sample(paddle, model, stoi, itos, block, prompt, n, temperature, rng):
    ids = [stoi[c] for c in prompt if c in stoi] or [0]
    model.eval()
    with paddle.no_grad():
        for _ in range(n):
            ctx = paddle.to_tensor(np.array([ids[-block:]], dtype=np.int64))
            logits = model(ctx).numpy()[0, -1] / temperature
            p = np.exp(logits - logits.max())
            ids.append(int(rng.choice(len(p), p=p / p.sum())))
    model.train()
    return "".join(itos[i] for i in ids)


def train(paddle, steps=300, batch_size=32, block=32, lr=3e-3, seed=0, log_every=10, quiet=False):
    text, chars = load_text()
    stoi = {c: i for i, c in enumerate(chars)}
    data = np.array([stoi[c] for c in text], dtype=np.int64)
    paddle.seed(seed)
    rng = np.random.default_rng(seed)
    model = build_model(paddle, len(chars), block)
    sched = paddle.optimizer.lr.LinearWarmup(lr, warmup_steps=max(steps // 10, 1), start_lr=lr / 10, end_lr=lr)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters(),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    loss_fn = paddle.nn.CrossEntropyLoss()
    losses = []
    t0 = time.perf_counter()
    progress = cli.Progress(steps, "training", quiet)
    for step in range(1, steps + 1):
        starts = rng.integers(0, len(data) - block - 1, size=batch_size)
        xb = np.stack([data[s:s + block] for s in starts])
        yb = np.stack([data[s + 1:s + block + 1] for s in starts])
        logits = model(paddle.to_tensor(xb))
        loss = loss_fn(logits.reshape([-1, len(chars)]), paddle.to_tensor(yb.reshape(-1)))
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        losses.append(float(loss))
        progress.update(losses[-1])
        if step % log_every == 0 or step == 1:
            progress.log(f"step {step:4d}  loss {np.mean(losses[-log_every:]):.3f}  lr {opt.get_lr():.5f}  "
                         f"({time.perf_counter() - t0:.1f}s)")
    progress.close()
    return {"model": model, "losses": losses, "stoi": stoi, "itos": chars, "block": block, "rng": rng}


def parse_args(argv):
    p = cli.ArgumentParser("paddlelite.examples.char_transformer",
                           description="Train a character-level transformer on the bundled sonnets, then sample from it.")
    p.add_argument("--steps", type=cli.positive(int), default=300, help="optimizer steps (Adam, linear warm-up)")
    p.add_argument("--batch-size", type=cli.positive(int), default=32, help="text windows per step")
    p.add_argument("--block", type=cli.positive(int), default=32, help="context length in characters")
    p.add_argument("--lr", type=cli.positive(float), default=3e-3, help="peak learning rate after the warm-up")
    cli.add_device(p)
    p.add_argument("--seed", type=cli.non_negative_int, default=0, help="seed of the initial weights, the batches and the sampling")
    p.add_argument("--sample-len", type=cli.non_negative_int, default=200,
                   help="characters to generate after training")
    p.add_argument("--temperature", type=cli.positive(float), default=0.8,
                   help="sampling temperature: lower is more conservative, higher more varied")
    p.add_argument("--log-every", type=cli.positive(int), default=10,
                   help="print the mean loss of the last N steps every N steps (on a terminal, with tqdm installed, "
                        "a bar also shows every step)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or loss lines while training")
    args = p.parse_args(argv)
    text_len = len(load_text()[0])
    if args.block >= text_len - 1:
        p.error(f"argument --block: must be less than the text length - 1 ({text_len - 1}), received {args.block}")
    return p, args


def main(argv=None):
    p, args = parse_args(argv)
    import paddlelite as paddle
    cli.set_device(p, paddle, args.device)
    res = train(paddle, args.steps, args.batch_size, args.block, args.lr, args.seed, args.log_every, args.quiet)
    first, last = np.mean(res["losses"][:10]), np.mean(res["losses"][-10:])
    print(f"loss {first:.3f} -> {last:.3f}")
    text = sample(paddle, res["model"], res["stoi"], res["itos"], res["block"], "Shall I ", args.sample_len,
                  args.temperature, res["rng"])
    print("---- sample ----")
    print(text)
    return res


if __name__ == "__main__":
    main(sys.argv[1:])
