"""Train an MLP classifier on the UCI handwritten digits (8x8 images, 10 classes), eagerly or as a
static program, with the same model code.

    python -m paddlelite.examples.train --mode eager --epochs 20
    python -m paddlelite.examples.train --mode static --device cpu --out runs/digits

The data ships with the package (examples/data/digits.npz, 1797 images, generated once from
scikit-learn's copy of the UCI set), so nothing is downloaded. Prints a progress bar (tqdm when
installed), the final test accuracy, and writes a checkpoint plus a loss curve (PNG when matplotlib is
installed, CSV always) to --out.
"""
import os
import sys
import time

import numpy as np

from . import cli

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.npz")


def load_digits(test_fraction=0.2, seed=0):
    """(x_train, y_train, x_test, y_test): float32 pixels in [0, 1] (64 features), int64 labels."""
    with np.load(DATA, allow_pickle=False) as f:
        images, labels = f["images"], f["labels"]
    x = images.reshape(len(images), -1).astype(np.float32) / 16.0
    y = labels.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = int(len(x) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def build_model(paddle, hidden=128):
    nn = paddle.nn
    return nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, 10))


def _batches(loader):
    for xb, yb in loader:
        yield xb, yb


def train_eager(paddle, data, epochs, batch_size, lr, seed, quiet):
    x_tr, y_tr, x_te, y_te = data
    paddle.seed(seed)
    model = build_model(paddle)
    opt = paddle.optimizer.Adam(learning_rate=lr, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    paddle.seed(seed + 1)
    np.random.seed(seed + 1)  # the shuffling order: Paddle samplers draw from NumPy
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([x_tr, y_tr]), batch_size=batch_size, shuffle=True)
    losses = []
    for epoch in range(epochs):
        model.train()
        bar = cli.Progress(len(loader), f"epoch {epoch + 1}/{epochs}", quiet)
        for xb, yb in _batches(loader):
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
            bar.update(losses[-1])
        bar.close(f"mean loss {np.mean(losses[-len(loader):]):.4f}")
    model.eval()
    with paddle.no_grad():
        logits = model(paddle.to_tensor(x_te)).numpy()
    acc = float((logits.argmax(-1) == y_te).mean())
    return {"model": model, "optimizer": opt, "losses": losses, "accuracy": acc}


def train_static(paddle, data, epochs, batch_size, lr, seed, quiet):
    x_tr, y_tr, x_te, y_te = data
    static = paddle.static
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            paddle.seed(seed)
            x = static.data("x", [None, 64], "float32")
            y = static.data("y", [None], "int64")
            model = build_model(paddle)
            logits = model(x)
            test_program = main.clone(for_test=True)  # inference only: cloned before the loss
            loss = paddle.nn.CrossEntropyLoss()(logits, y)
            opt = paddle.optimizer.Adam(learning_rate=lr)
            opt.minimize(loss)
        exe = static.Executor(paddle.get_device())
        paddle.seed(seed)  # parameters get the same values as eagerly: same ops, same order, same seed
        exe.run(startup)
        paddle.seed(seed + 1)
        np.random.seed(seed + 1)  # the shuffling order: Paddle samplers draw from NumPy
        loader = paddle.io.DataLoader(paddle.io.TensorDataset([x_tr, y_tr]), batch_size=batch_size, shuffle=True)
        losses = []
        for epoch in range(epochs):
            bar = cli.Progress(len(loader), f"epoch {epoch + 1}/{epochs}", quiet)
            for xb, yb in _batches(loader):
                lv, = exe.run(main, feed={"x": xb.numpy(), "y": yb.numpy()}, fetch_list=[loss])
                losses.append(float(lv))
                bar.update(losses[-1])
            bar.close(f"mean loss {np.mean(losses[-len(loader):]):.4f}")
        out, = exe.run(test_program, feed={"x": x_te}, fetch_list=[logits])
        acc = float((np.asarray(out).argmax(-1) == y_te).mean())
        scope = static.global_scope()
        params = {name: np.asarray(scope.find_var(p.name).get_tensor()) for name, p in model.state_dict().items()}
        # the optimizer's state: every other persistable variable (moments, beta powers, learning rate), under
        # the names the eager optimizer's state_dict uses
        param_names = {p.name for p in main.all_parameters()}
        opt_state = {v.name: np.asarray(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
                     if v.persistable and v.name not in param_names and scope.find_var(v.name) is not None}
        return {"model": model, "params": params, "optimizer_state": opt_state, "losses": losses, "accuracy": acc,
                "program": main, "exe": exe, "x": x, "logits": logits}
    finally:
        paddle.disable_static()


def write_outputs(paddle, result, out, mode, quiet):
    os.makedirs(out, exist_ok=True)
    if mode == "eager":
        paddle.save(result["model"].state_dict(), os.path.join(out, "digits_mlp.pdparams"))
        paddle.save(result["optimizer"].state_dict(), os.path.join(out, "digits_mlp.pdopt"))
    else:
        paddle.save(result["params"], os.path.join(out, "digits_mlp.pdparams"))
        paddle.save(result["optimizer_state"], os.path.join(out, "digits_mlp.pdopt"))
    losses = result["losses"]
    np.savetxt(os.path.join(out, "loss.csv"), np.asarray(losses), header="loss per step", fmt="%.6f")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if not quiet:
            print("matplotlib is not installed: wrote loss.csv only")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(losses, lw=0.8)
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy loss")
    ax.set_yscale("log")
    ax.set_title(f"digits MLP ({mode}), test accuracy {result['accuracy']:.3f}")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "loss.png"), dpi=120)
    plt.close(fig)


def parse_args(argv):
    p = cli.ArgumentParser("paddlelite.examples.train",
                           description="Train an MLP on the bundled UCI digits with paddlelite (eager or static).")
    p.add_argument("--mode", choices=["eager", "static"], default="eager",
                   help="eager Tensors, or a static Program run by an Executor (same model code)")
    cli.add_device(p)
    p.add_argument("--epochs", type=cli.positive(int), default=20, help="passes over the 1438 training images")
    p.add_argument("--batch-size", type=cli.positive(int), default=64, help="images per optimizer step")
    p.add_argument("--lr", type=cli.positive(float), default=0.003, help="Adam's learning rate")
    p.add_argument("--seed", type=cli.non_negative_int, default=0, help="seed of the initial weights, the split and the shuffling")
    p.add_argument("--out", default="runs/digits",
                   help="directory for the checkpoint (.pdparams/.pdopt) and the loss curve (loss.csv, loss.png)")
    p.add_argument("--quiet", action="store_true", help="print only the final accuracy line")
    return p, p.parse_args(argv)


def main(argv=None):
    p, args = parse_args(argv)
    import paddlelite as paddle
    cli.set_device(p, paddle, args.device)
    cli.check_output_dir(p, args.out)
    data = load_digits(seed=args.seed)
    if not args.quiet:
        print(f"digits: {len(data[0])} train / {len(data[2])} test images, mode={args.mode}, "
              f"device={paddle.get_device()}")
    t0 = time.perf_counter()
    fn = train_eager if args.mode == "eager" else train_static
    result = fn(paddle, data, args.epochs, args.batch_size, args.lr, args.seed, args.quiet)
    elapsed = time.perf_counter() - t0
    write_outputs(paddle, result, args.out, args.mode, args.quiet)
    print(f"test accuracy: {result['accuracy'] * 100:.2f}%  ({elapsed:.1f}s, final loss "
          f"{result['losses'][-1]:.4f}); checkpoint and loss curve in {args.out}")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
