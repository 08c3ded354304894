"""GPU benchmarks of the fused kernels (skipped without a GPU; run: pytest bench/test_bench_kernels.py).

For each kernel: the fewest bytes it must move (every input it reads, read once, plus every output, written
once) over its device time per call (back-to-back calls between CUDA events, gpu_throughput), against a
device-to-device memcpy that moves the same bytes (half read, half written) in the same run: the achievable
bandwidth. The time of one call alone (cupyx.profiler.benchmark: the host's launch work included) is shown too. Sizes are well
above the H100's 50 MB L2, so both measure device memory, not the cache. Also
the speedup over the unfused CuPy composition of the same math (the registry op's reference
forward run on CuPy arrays), and over PyTorch on the GPU when it is installed with CUDA. Plus
end-to-end training steps (an MLP and a small transformer block) against PyTorch, through the
public API. Results are printed and attached to pytest-benchmark's extra_info.
"""
import numpy as np
import pytest

from paddlelite.device import cuda as _cuda
from paddlelite.ops.registry import device_impls, get_op

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def impls():
    return device_impls("gpu")


def _torch_cuda():
    try:
        import torch
        return torch if torch.cuda.is_available() else None
    except ImportError:
        return None


def gpu_median(fn, n_repeat=50):
    from cupyx.profiler import benchmark
    r = benchmark(fn, n_repeat=n_repeat, n_warmup=5)
    return float(np.median(r.gpu_times[0]))


def gpu_throughput(cp, fn, calls=10, n_repeat=20):
    """Median seconds per call over `calls` back-to-back calls between two CUDA events on the current (legacy
    default) stream, which PyTorch's default stream is too. Once the queue is non-empty the host's launch
    work overlaps the device's, so this is the device time per call wherever the host keeps up -- a training
    loop's steady state (one call timed alone also counts the host's launch work, the GPU idling)."""
    for _ in range(3):
        fn()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(n_repeat):
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3 / calls)
    return float(np.median(times))


def copy_time(cp, nbytes):
    """A device-to-device memcpy moving nbytes in all: nbytes / 2 read and nbytes / 2 written."""
    src = cp.ones(max(nbytes // 8, 1), cp.float32)
    dst = cp.empty_like(src)
    return gpu_throughput(cp, lambda: dst.data.copy_from_device_async(src.data, src.nbytes))


def torch_time(torch, fn, n_repeat=50):
    for _ in range(5):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(n_repeat):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return float(np.median(times))


def report(benchmark, name, nbytes, t_fused, t_copy, t_unfused, t_one, t_torch=None):
    info = {"GB/s": nbytes / t_fused / 1e9, "copy GB/s": nbytes / t_copy / 1e9,
            "fraction of copy bandwidth": t_copy / t_fused, "one call alone us": t_one * 1e6,
            "speedup vs unfused CuPy": t_unfused / t_fused}
    if t_torch is not None:
        info["speedup vs torch"] = t_torch / t_fused
    benchmark.extra_info.update(info)
    print(f"\n{name}: " + ", ".join(f"{k}={v:.3g}" for k, v in info.items()))


def _nbytes(out):
    if isinstance(out, (tuple, list)):
        return sum(_nbytes(o) for o in out)
    return 0 if out is None else out.nbytes


def _bench(cp, benchmark, impls, name, op, arrays, attrs, out_bytes=None, torch_fn=None, unread=()):
    """out_bytes: what the op writes (None: its outputs' sizes); `unread`: positions of arguments passed only for
    their shape. The op's attribute defaults are filled in, as the dispatcher does."""
    attrs = get_op(op).fill_attrs(attrs)
    dev = [None if a is None else [cp.asarray(e) for e in a] if isinstance(a, list) else cp.asarray(a)
           for a in arrays]
    fused = lambda: impls[op](cp, *dev, **attrs)  # noqa: E731
    if out_bytes is None:
        out_bytes = _nbytes(fused())
    nbytes = out_bytes + sum(sum(e.nbytes for e in a) if isinstance(a, list) else a.nbytes
                             for i, a in enumerate(arrays) if a is not None and i not in unread)
    unfused = lambda: get_op(op).forward(cp, *dev, **attrs)  # noqa: E731
    t_f, t_u, t_c = gpu_throughput(cp, fused), gpu_throughput(cp, unfused), copy_time(cp, nbytes)
    torch = _torch_cuda()
    t_t = gpu_throughput(cp, torch_fn(torch)) if (torch is not None and torch_fn is not None) else None
    benchmark.pedantic(lambda: (fused(), cp.cuda.Device().synchronize()), rounds=10, iterations=1)
    report(benchmark, name, nbytes, t_f, t_c, t_u, gpu_median(fused), t_t)


R = np.random.default_rng(0)
M, N = 8192, 4096  # 128 MB per float32 [M, N] array


def test_bench_softmax_ce_grad(cp, benchmark, impls):
    sm = R.uniform(size=(M, N)).astype(np.float32)
    lab = R.integers(0, N, (M, 1)).astype(np.int64)
    dl = R.standard_normal((M, 1)).astype(np.float32)

    def torch_fn(torch):
        s, l, d = (torch.as_tensor(a, device="cuda") for a in (sm, lab, dl))
        return lambda: (s - torch.nn.functional.one_hot(l[:, 0], N).to(s.dtype)) * d
    _bench(cp, benchmark, impls, "softmax_ce_grad", "softmax_with_cross_entropy_grad", (lab, sm, dl),
           dict(soft_label=False, ignore_index=-100, axis=-1, numeric_stable_mode=True), sm.nbytes, torch_fn)


# ---- kernels/softmax_ce.cu's row kernels: one warp per row ------------------------------------------------------
@pytest.mark.parametrize("C", [1024, 4096, 32768])
def test_bench_softmax(cp, benchmark, impls, C):
    """softmax over rows of C (128 MB in, 128 MB out): a warp reads its row three times (max, sum, write), so
    rows longer than what L1 keeps for the resident warps are read from L2 or memory again."""
    x = R.standard_normal((32 * 2 ** 20 // C, C)).astype(np.float32)
    _bench(cp, benchmark, impls, f"softmax C={C}", "softmax", (x,), {"axis": -1},
           torch_fn=lambda torch: (lambda t=torch.as_tensor(x, device="cuda"): torch.softmax(t, -1)))


def test_bench_softmax_grad(cp, benchmark, impls):
    out = R.uniform(size=(M, N)).astype(np.float32)
    d = R.standard_normal((M, N)).astype(np.float32)

    def torch_fn(torch):
        o, g = torch.as_tensor(out, device="cuda"), torch.as_tensor(d, device="cuda")
        return lambda: torch._softmax_backward_data(g, o, -1, o.dtype)
    _bench(cp, benchmark, impls, "softmax_grad", "softmax_grad", (out, d), {"axis": -1}, torch_fn=torch_fn)


def test_bench_softmax_ce(cp, benchmark, impls):
    """softmax_with_cross_entropy, hard labels: logits in; softmax and the loss column out (PyTorch's
    cross_entropy writes no softmax: its figure is the speed of the loss alone)."""
    x = R.standard_normal((M, N)).astype(np.float32)
    lab = R.integers(0, N, (M, 1)).astype(np.int64)

    def torch_fn(torch):
        t, la = torch.as_tensor(x, device="cuda"), torch.as_tensor(lab[:, 0], device="cuda")
        return lambda: torch.nn.functional.cross_entropy(t, la, reduction="none")
    _bench(cp, benchmark, impls, "softmax_ce", "softmax_with_cross_entropy", (x, lab), {}, torch_fn=torch_fn)


def test_bench_softmax_ce_grad_soft(cp, benchmark, impls):
    sm, lab = (R.uniform(size=(M, N)).astype(np.float32) for _ in range(2))
    dl = R.standard_normal((M, 1)).astype(np.float32)
    _bench(cp, benchmark, impls, "softmax_ce_grad soft", "softmax_with_cross_entropy_grad", (lab, sm, dl),
           dict(soft_label=True), sm.nbytes,
           lambda torch: (lambda s=torch.as_tensor(sm, device="cuda"), la=torch.as_tensor(lab, device="cuda"),
                          d=torch.as_tensor(dl, device="cuda"): (s - la) * d))


# ---- generated elementwise kernels (ops/launch/generated.py) ----------------------------------------------------
@pytest.mark.parametrize("case", ["flat", "row-bias", "bf16"])
def test_bench_generated_add(cp, benchmark, impls, case):
    """The add op's generated kernel: flat (both inputs at the output's index), a bias row broadcast over [M, N]
    (the row index computed per element), and bfloat16 (2-byte elements)."""
    x = R.standard_normal((M, N)).astype(np.float32)
    y = R.standard_normal(N if case == "row-bias" else (M, N)).astype(np.float32)
    if case == "bf16":
        bf16 = pytest.importorskip("ml_dtypes").bfloat16
        x, y = x.astype(bf16), y.astype(bf16)
    torch_fn = None if case == "bf16" else (
        lambda torch: (lambda a=torch.as_tensor(x, device="cuda"), b=torch.as_tensor(y, device="cuda"): a + b))
    _bench(cp, benchmark, impls, f"generated add {case}", "add", (x, y), {}, torch_fn=torch_fn)


def test_bench_generated_chain(cp, benchmark):
    """A chain the fusion pass makes of a training step's elementwise ops -- relu(x * y + z), scaled -- as one
    generated kernel, against its four ops one by one on CuPy (four launches, three temporaries)."""
    from paddlelite.ops.launch import generated
    from paddlelite.ops.registry import all_ops
    ops = all_ops()
    steps = [(ops["multiply"], ops["multiply"].fill_attrs({}), [("in", 0), ("in", 1)]),
             (ops["add"], ops["add"].fill_attrs({}), [("step", 0), ("in", 2)]),
             (ops["relu"], ops["relu"].fill_attrs({}), [("step", 1)]),
             (ops["scale"], ops["scale"].fill_attrs({"scale": 0.5}), [("step", 2), None])]
    chain = generated.Chain(steps, 3, [3])
    host = [R.standard_normal((M, N)).astype(np.float32) for _ in range(3)]
    dev = [cp.asarray(a) for a in host]
    fused = lambda: generated.launch(cp, chain, dev)  # noqa: E731

    def unfused():
        v = [*dev]
        for op, attrs, args in steps:
            v.append(op.forward(cp, *[None if a is None else v[a[1] if a[0] == "in" else 3 + a[1]] for a in args],
                                **attrs))
        return v[-1]
    nbytes = 4 * host[0].nbytes
    t_f, t_u, t_c = gpu_throughput(cp, fused), gpu_throughput(cp, unfused), copy_time(cp, nbytes)
    benchmark.pedantic(lambda: (fused(), cp.cuda.Device().synchronize()), rounds=10, iterations=1)
    report(benchmark, "generated chain multiply+add+relu+scale", nbytes, t_f, t_c, t_u, gpu_median(fused))


@pytest.mark.parametrize("N", [1024, 4096])
@pytest.mark.parametrize("occupancy", [True, False], ids=["warp4", "warp8"])
def test_bench_layer_norm_grad(cp, benchmark, impls, N, occupancy, monkeypatch):
    """Both warp kernels (ln_bwd_warp4: 16 elements per lane, two blocks per SM, the default; ln_bwd_warp8: 32,
    one block per SM, no barrier for rows up to 1024)."""
    from paddlelite.ops.launch import layer_norm as ln_launch
    monkeypatch.setattr(ln_launch, "PREFER_OCCUPANCY", occupancy)
    M = 32 * 2 ** 20 // N  # x, dy, dx: 128 MB each
    x = R.standard_normal((M, N)).astype(np.float32)
    _, mean, var = get_op("layer_norm").forward(np, x, None, None, epsilon=1e-5, begin_norm_axis=1)
    scale, dy = R.standard_normal(N).astype(np.float32), R.standard_normal((M, N)).astype(np.float32)

    def torch_fn(torch):
        xt = torch.as_tensor(x, device="cuda").requires_grad_()
        w = torch.as_tensor(scale, device="cuda").requires_grad_()
        b = torch.zeros(N, device="cuda", requires_grad=True)
        y = torch.nn.functional.layer_norm(xt, (N,), w, b)
        g = torch.as_tensor(dy, device="cuda")
        return lambda: torch.autograd.grad(y, (xt, w, b), g, retain_graph=True)
    _bench(cp, benchmark, impls, f"layer_norm_grad N={N} {'warp4' if occupancy else 'warp8'}", "layer_norm_grad",
           (x, scale, mean, var, dy),
           dict(epsilon=1e-5, begin_norm_axis=1), x.nbytes + 2 * scale.nbytes, torch_fn)


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_bench_bias_act_grad(cp, benchmark, impls, act):
    x, d = (R.standard_normal((M, N)).astype(np.float32) for _ in range(2))
    b = R.standard_normal(N).astype(np.float32)

    def torch_fn(torch):
        xt = torch.as_tensor(x, device="cuda").requires_grad_()
        bt = torch.as_tensor(b, device="cuda").requires_grad_()
        f = torch.relu if act == "relu" else torch.nn.functional.gelu
        y = f(xt + bt)
        g = torch.as_tensor(d, device="cuda")
        return lambda: torch.autograd.grad(y, (xt, bt), g, retain_graph=True)
    _bench(cp, benchmark, impls, f"bias_{act}_grad", "fused_bias_act_grad", (x, b, d), {"act": act},
           x.nbytes + b.nbytes, torch_fn)


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_bench_act_grad(cp, benchmark, impls, act):
    a, d = (R.standard_normal((M, N)).astype(np.float32) for _ in range(2))
    _bench(cp, benchmark, impls, f"{act}_grad", f"{act}_grad", (np.maximum(a, 0) if act == "relu" else a, d),
           get_op(f"{act}_grad").attrs)


def test_bench_bias_act(cp, benchmark, impls):
    x, b = R.standard_normal((M, N)).astype(np.float32), R.standard_normal(N).astype(np.float32)
    _bench(cp, benchmark, impls, "bias_gelu", "fused_bias_act", (x, b), {"act": "gelu"},
           torch_fn=lambda torch: (lambda t=torch.as_tensor(x, device="cuda"), u=torch.as_tensor(b, device="cuda"):
                                   torch.nn.functional.gelu(t + u)))


def test_bench_dropout_grad(cp, benchmark, impls):
    mask = (R.uniform(size=(M, N)) > 0.1).astype(np.uint8)
    d = R.standard_normal((M, N)).astype(np.float32)
    _bench(cp, benchmark, impls, "dropout_grad", "dropout_grad", (mask, d),
           dict(dropout_prob=0.1, is_test=False, dropout_implementation="upscale_in_train"))


def test_bench_dropout_gelu_grad(cp, benchmark, impls):
    mask = (R.uniform(size=(M, N)) > 0.1).astype(np.uint8)
    a, d = (R.standard_normal((M, N)).astype(np.float32) for _ in range(2))
    _bench(cp, benchmark, impls, "dropout_gelu_grad", "fused_dropout_act_grad", (mask, a, d),
           dict(act="gelu", dropout_prob=0.1, is_test=False, dropout_implementation="upscale_in_train"), a.nbytes)


def test_bench_embedding_grad(cp, benchmark, impls):
    ids = R.integers(0, 32000, 16384).astype(np.int64)
    d = R.standard_normal((16384, 1024)).astype(np.float32)
    _bench(cp, benchmark, impls, "embedding_grad", "embedding_grad", (ids, np.empty((32000, 1024), np.float32), d),
           {"padding_idx": -1}, 32000 * 1024 * 4, unread=(1,))


def test_bench_reduce_as(cp, benchmark, impls):
    x = R.standard_normal((M, N)).astype(np.float32)
    _bench(cp, benchmark, impls, "reduce_as (bias grad)", "reduce_as", (x, np.empty((N,), np.float32)), {}, N * 4,
           lambda torch: (lambda t=torch.as_tensor(x, device="cuda"): t.sum(0)), unread=(1,))


@pytest.mark.parametrize("op", ["lstm_cell", "lstm_cell_grad", "gru_cell", "gru_cell_grad"])
def test_bench_rnn_cells(cp, benchmark, impls, op):
    """One LSTM / GRU step's elementwise part, batch 2048 x hidden 2048 (the gate matmuls are cuBLAS's): 16 MB
    per state-sized array, 64 MB for the LSTM's gates."""
    B, H = 2048, 2048
    c_prev, dh, dc = (R.standard_normal((B, H)).astype(np.float32) for _ in range(3))
    if op.startswith("lstm"):
        gates = R.standard_normal((B, 4 * H)).astype(np.float32)
        c = get_op("lstm_cell").forward(np, gates, c_prev)[1]
        arrays = (gates, c_prev) if op == "lstm_cell" else (gates, c_prev, c, dh, dc)
        out_bytes = 2 * c.nbytes if op == "lstm_cell" else gates.nbytes + c.nbytes
    else:
        xg, hg = (R.standard_normal((B, 3 * H)).astype(np.float32) for _ in range(2))
        arrays = (xg, hg, c_prev) if op == "gru_cell" else (xg, hg, c_prev, dh)
        out_bytes = c_prev.nbytes if op == "gru_cell" else 2 * xg.nbytes + c_prev.nbytes
    _bench(cp, benchmark, impls, op, op, arrays, {}, out_bytes)


def test_bench_merged_adam(cp, benchmark, impls):
    shapes = [(1024, 1024)] * 24 + [(1024,)] * 48
    ps = [R.standard_normal(s).astype(np.float32) for s in shapes]
    args = (ps, [p * 0.1 for p in ps], [np.array([1e-3], np.float32)], [p * 0 for p in ps], [p * 0 + 1 for p in ps],
            [np.array([0.9], np.float32)] * len(ps), [np.array([0.999], np.float32)] * len(ps), None)
    total = sum(p.nbytes for p in ps)  # 96 MB of parameters: p, g, m1, m2 read, p, m1, m2 written
    _bench(cp, benchmark, impls, "merged_adam", "merged_adam", args, {**get_op("merged_adam").attrs, "use_adamw": True},
           3 * total)


NOPT = 1 << 25  # 128 MB per float32 optimizer array


def _opt_args(op):
    p, g = R.standard_normal(NOPT).astype(np.float32), R.standard_normal(NOPT).astype(np.float32)
    a, b = (np.abs(R.standard_normal(NOPT)).astype(np.float32) * 0.1 + 0.5 for _ in range(2))
    mg, lr = R.standard_normal(NOPT).astype(np.float32) * 0.1, np.array([1e-3], np.float32)
    one = np.array([0.9 ** 5], np.float32)
    return {"sgd": (p, lr, g, None), "momentum": (p, g, a, lr, None), "adam": (p, g, lr, mg, a, one, one, None),
            "adagrad": (p, g, a, lr, None), "rmsprop": (p, a, g, b, lr, mg, None), "adadelta": (p, g, a, b, lr, None),
            "adamax": (p, g, lr, mg, a, one, None), "rprop": (p, g, mg, a * 0.01, None)}[op]


@pytest.mark.parametrize("op", ["sgd", "momentum", "adam", "adagrad", "rmsprop", "adadelta", "adamax", "rprop"])
def test_bench_optimizer(cp, benchmark, impls, op):
    """One parameter of 32M elements: the single-tensor update kernels (every stream read once, written once)."""
    _bench(cp, benchmark, impls, op, op, _opt_args(op), {**get_op(op).attrs, "centered": True}
           if op == "rmsprop" else get_op(op).attrs)


# ---- fused attention (compute-bound: FLOP/s, not bandwidth) ----------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("path", ["kernels", "cudnn"])
def test_bench_attention(cp, benchmark, impls, dtype, path):
    """GPT-2-small's attention (batch 8, seq 1024, 12 heads of 64, causal), forward and backward: paddlelite's
    flash kernels (kernels/attention.cu, CUDA cores) or cuDNN's SDPA, against PyTorch's SDPA, in TFLOP/s (4 B H S^2 D
    for the forward and 10 for the backward, halved for the causal mask)."""
    from paddlelite.device import cudnn as dcudnn
    from paddlelite.ops.launch import attention as attn_launch
    from paddlelite.ops.cudnn import attention as attn_cudnn
    if path == "cudnn" and (dcudnn.frontend() is None or dtype == "float32"):
        pytest.skip("cuDNN's SDPA: float16/bfloat16, with cuDNN Frontend installed")
    b, s, h, d = 8, 1024, 12, 64
    dt = cp.dtype(dtype) if dtype == "float32" else cp.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    q, k, v, do = (cp.asarray(R.standard_normal((b, s, h, d)).astype(np.float32)).astype(dt) for _ in range(4))
    so = cp.zeros(2, cp.int64)
    run = attn_cudnn if path == "cudnn" else attn_launch
    fwd = (lambda: run.sdpa_forward(cp, q, k, v, None, so, 0.0, True)) if path == "cudnn" else \
        (lambda: run.attention_forward(cp, q, k, v, None, so, 0.0, True))
    out, lse = fwd()
    bwd = (lambda: run.sdpa_backward(cp, q, k, v, out, lse, so, None, do, 0.0, True)) if path == "cudnn" else \
        (lambda: run.attention_backward(cp, q, k, v, out, lse, so, None, do, 0.0, True))
    flops = 4 * b * h * s * s * d / 2
    t_f, t_b = gpu_throughput(cp, fwd, calls=3, n_repeat=5), gpu_throughput(cp, bwd, calls=3, n_repeat=5)
    benchmark.pedantic(lambda: (fwd(), cp.cuda.Device().synchronize()), rounds=3, iterations=1)
    info = {"forward TFLOP/s": flops / t_f / 1e12, "backward TFLOP/s": 2.5 * flops / t_b / 1e12,
            "forward ms": t_f * 1e3, "backward ms": t_b * 1e3}
    torch = _torch_cuda()
    if torch is not None:
        tdt = getattr(torch, dtype)
        tq, tk, tv = (torch.randn(b, h, s, d, device="cuda", dtype=tdt, requires_grad=True) for _ in range(3))
        tout = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
        tdo = torch.randn_like(tout)
        t_tf = gpu_throughput(cp, lambda: torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True),
                              calls=3, n_repeat=5)
        t_tb = gpu_throughput(cp, lambda: torch.autograd.grad(tout, (tq, tk, tv), tdo, retain_graph=True), calls=3,
                              n_repeat=5)
        info.update({"torch forward TFLOP/s": flops / t_tf / 1e12, "torch backward TFLOP/s": 2.5 * flops / t_tb / 1e12})
    benchmark.extra_info.update(info)
    print(f"\nattention {path} {dtype}: " + ", ".join(f"{k}={v:.3g}" for k, v in info.items()))


# ---- end-to-end training steps vs PyTorch --------------------------------------------------------
def _train_step_paddle(model, opt, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    return loss


@pytest.mark.parametrize("kind", ["mlp", "transformer"])
def test_bench_train_step_vs_torch(cp, benchmark, kind):
    import paddlelite as paddle
    paddle.set_device("gpu")
    B, D = 64, 512
    if kind == "mlp":
        model = paddle.nn.Sequential(paddle.nn.Linear(D, 4 * D), paddle.nn.GELU(), paddle.nn.Linear(4 * D, D))
        x = paddle.to_tensor(R.standard_normal((B * 16, D)).astype(np.float32))
    else:
        model = paddle.nn.TransformerEncoderLayer(D, 8, 4 * D, dropout=0.1)
        x = paddle.to_tensor(R.standard_normal((B, 128, D)).astype(np.float32))
    y = paddle.to_tensor(np.zeros(x.shape, np.float32))
    opt = paddle.optimizer.AdamW(learning_rate=1e-4, parameters=model.parameters())
    loss_fn = paddle.nn.functional.mse_loss
    t_pl = gpu_median(lambda: _train_step_paddle(model, opt, x, y, loss_fn), n_repeat=20)
    benchmark.pedantic(lambda: (_train_step_paddle(model, opt, x, y, loss_fn), cp.cuda.Device().synchronize()),
                       rounds=5, iterations=1)
    info = {"paddlelite step s": t_pl}
    torch = _torch_cuda()
    if torch is not None:
        if kind == "mlp":
            tm = torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.GELU(), torch.nn.Linear(4 * D, D)).cuda()
        else:
            tm = torch.nn.TransformerEncoderLayer(D, 8, 4 * D, dropout=0.1, batch_first=True).cuda()
        topt = torch.optim.AdamW(tm.parameters(), lr=1e-4)
        tx = torch.as_tensor(np.asarray(x.numpy()), device="cuda")
        ty = torch.zeros_like(tx)

        def tstep():
            loss = torch.nn.functional.mse_loss(tm(tx), ty)
            loss.backward()
            topt.step()
            topt.zero_grad()
        info["torch step s"] = torch_time(torch, tstep, n_repeat=20)
        info["paddlelite / torch time"] = t_pl / info["torch step s"]
    benchmark.extra_info.update(info)
    print(f"\ntrain step {kind}: " + ", ".join(f"{k}={v:.3g}" for k, v in info.items()))
