"""Kernels generated from the registry ops' CUDA expressions (ops/launch/generated.py) and the executor's fusion of
elementwise chains (static/fusion.py), without a GPU: each op's generated kernel and each chain of the benchmark
models' plans run through the CUDA emulator (tests/cuda_emu) against the ops' NumPy forwards run one by one --
bit for bit in float32 where no transcendental function is involved (the kernels compile with --fmad=false, so
each step rounds as its op does) -- and the sources compile with NVRTC."""
import re
import shutil

import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device import kernels as K
from paddlelite.device.launch_count import count_launches
from paddlelite.ops.launch import generated
from paddlelite.ops.registry import all_ops
from paddlelite.static import fusion
from paddlelite.static.executor import Plan
from tests.cuda_emu import nvrtc

ELEMENTWISE = sorted(t for t, op in all_ops().items() if op.elementwise is not None)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 1e-40, 3.5, -2.25, 88.0, -100.0], np.float32)
_TRANSCENDENTAL = re.compile(r"\b(expf|logf|tanhf|erff|powf)\(")
_needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="the CUDA emulation needs g++")


@pytest.fixture(scope="module")
def emu():
    from tests.cuda_emu.emu import EmuModules
    with K.use_backend(EmuModules()) as modules:
        yield modules


def _compare(got, ref, exact):
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    if exact:  # NaN payloads aside, the same bits
        same = (got == ref) | (np.isnan(got) & np.isnan(ref))
        assert same.all() and (np.signbit(got) == np.signbit(ref))[~np.isnan(ref)].all(), np.flatnonzero(~same)[:8]
    else:
        rtol = 1e-5 if got.dtype == np.float32 else 2e-2
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=rtol,
                                   equal_nan=True)


def _operands(op, layout, dtype, rng):
    """The op's array inputs: 33 float32 values (the specials first) in the layout asked for."""
    n = sum(1 for s in op.inputs if s not in op.optional_inputs)
    base = np.concatenate([SPECIAL, rng.standard_normal(21).astype(np.float32) * 3]).astype(dtype)
    arrays = [np.roll(base, 5 * k) for k in range(n)]
    if layout == "strided":  # [3, 11] read through a transposed [11, 3]
        arrays = [np.ascontiguousarray(a.reshape(3, 11).T).T for a in arrays]
    elif layout == "broadcast":  # a row against a [3, 11] matrix
        arrays = [a.reshape(3, 11) if k == 0 else a[:11] for k, a in enumerate(arrays)]
    return arrays + [None] * (len(op.inputs) - n)


@_needs_gxx
@pytest.mark.parametrize("layout", ["flat", "strided", "broadcast"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("op_type", ELEMENTWISE)
def test_generated_kernel_of_each_op_computes_its_forward(emu, op_type, dtype, layout):
    op = all_ops()[op_type]
    arrays = _operands(op, layout, np.dtype(dtype), np.random.default_rng(0))
    attrs = op.fill_attrs({})
    with np.errstate(all="ignore"):
        ref = op.forward(np, *arrays, **attrs)
        got = generated.single_op(op)(np, *arrays, **attrs)
    assert got is not None, f"{op_type}: the generated kernel did not cover {dtype} {layout}"
    expr = op.elementwise(*["x" if a is not None else None for a in arrays], **attrs)
    _compare(got, ref, exact=dtype == "float32" and not _TRANSCENDENTAL.search(expr))


@_needs_gxx
@pytest.mark.parametrize("shape", [(7,), (5, 1023), (130, 1000)])
def test_generated_kernel_unrolled_rounds_and_tails(emu, shape):
    """Each thread takes generated.UNROLL elements a round: loops shorter than one round, ending inside one, and
    of many rounds of the grid (one wave of blocks) compute every element once, a row broadcast included."""
    ops = all_ops()
    steps = [(ops["multiply"], ops["multiply"].fill_attrs({}), [("in", 0), ("in", 1)]),
             (ops["add"], ops["add"].fill_attrs({}), [("step", 0), ("in", 2)])]
    chain = generated.Chain(steps, 3, [0, 1])
    rng = np.random.default_rng(3)
    x, z = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    y = rng.standard_normal(shape[-1]).astype(np.float32)
    product, total = generated.launch(np, chain, [x, y, z])
    np.testing.assert_array_equal(product, x * y)
    np.testing.assert_array_equal(total, x * y + z)


def test_uncovered_calls_fall_back():
    relu = all_ops()["relu"]
    assert generated.single_op(relu)(np, np.ones(3)) is None  # float64: the op's forward runs
    add = all_ops()["add"]
    assert generated.single_op(add)(np, np.ones((2, 3), np.float32), np.ones(2, np.float32), axis=0) is None


def _model_chains(name):
    """The chains static/fusion.py makes of model `name`'s static training program, each with random inputs shaped
    as the program's variables (-1: 3)."""
    from tests.step_models import static_program
    main, _, loss, _ = static_program(paddle, name, small=True)
    plan = Plan(main, ["x", "y"], [loss.name], paddle.CPUPlace())
    block = main.global_block()
    rng = np.random.default_rng(1)
    out = []
    for chain, inputs in fusion.chains(plan.steps, lambda slot: tuple(block._lookup(plan.names[slot]).shape)):
        arrays = []
        for slot in inputs:
            var = block._lookup(plan.names[slot])
            shape = [3 if d == -1 else d for d in var.shape]
            arrays.append(rng.standard_normal(shape).astype(var.dtype.np))
        out.append((chain, arrays))
    return out


@_needs_gxx
@pytest.mark.parametrize("name", ["mlp", "encoder", "gpt"])
def test_model_chains_compute_their_ops_one_by_one(emu, name):
    chains = _model_chains(name)
    assert chains, f"{name}'s static program has no elementwise chain"
    for chain, arrays in chains:
        with np.errstate(all="ignore"):
            ref = fusion.FusedOp(chain).forward(np, *arrays)
            got = generated.launch(np, chain, arrays)
        ref = ref if isinstance(ref, tuple) else (ref,)
        assert got is not None and len(got) == len(ref), chain.label
        for g, r in zip(got, ref):
            _compare(g, r, exact=not _TRANSCENDENTAL.search(chain.code))


_NVRTC = nvrtc.load()


@pytest.mark.skipif(_NVRTC is None, reason="NVRTC not installed (pip install nvidia-cuda-nvrtc-cu12)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_generated_sources_compile_with_nvrtc(arch):
    sources = []
    for op_type in ELEMENTWISE:
        op = all_ops()[op_type]
        n = sum(1 for s in op.inputs if s not in op.optional_inputs)
        args = [("in", k) for k in range(n)] + [None] * (len(op.inputs) - n)
        chain = generated.Chain([(op, op.fill_attrs({}), args)], n, [0])
        sources.append(chain.source("f32", 1, (True,) * n))
        sources.append(chain.source("bf16", 3, (False,) * n))
        sources.append(chain.source("f16", 2, (False,) * n, index64=True))  # a loop of 2^31 elements or more
    for chain, _ in _model_chains("gpt"):
        sources.append(chain.source("f16", 2, (True,) + (False,) * (chain.n_in - 1)))
    for name, source in sources:
        ptx = nvrtc.compile_ptx(_NVRTC, source, f"{name}.cu", arch, options=K.CupyModules.GENERATED_OPTIONS)
        assert f".entry {name}(" in ptx


def _chain_program(dtype="float32"):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], dtype)
            b = paddle.static.data("b", [4], dtype)
            h = paddle.nn.functional.relu(x + b)          # bias + activation
            y = paddle.scale(h, 2.0, bias=1.0) * x        # fetched below with h: both are written
            z = paddle.exp(y)
    finally:
        paddle.disable_static()
    return main, [h, y, z]


def test_executor_runs_a_chain_as_one_launch():
    main, fetch = _chain_program()
    feed = {"x": np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4), "b": np.float32([0.5, -0.5, 1.0, 0.0])}
    exe = paddle.static.Executor("cpu")
    plain = exe.run(main, feed=feed, fetch_list=fetch)
    with count_launches() as c:
        fused = exe.run(main, feed=feed, fetch_list=fetch)
    assert c.by_label["fused(add+relu+scale+multiply+exp)"] == {"raw": 1, "alloc": 3}
    for p, f in zip(plain, fused):
        np.testing.assert_array_equal(p, f)


def test_a_chain_the_kernel_does_not_cover_runs_its_ops():
    main, fetch = _chain_program("float64")
    feed = {"x": np.ones((2, 4)), "b": np.ones(4)}
    with count_launches() as c:
        out = paddle.static.Executor("cpu").run(main, feed=feed, fetch_list=fetch[2:])
    np.testing.assert_allclose(out[0], np.exp(5.0))  # relu(1 + 1) * 2 + 1, times x = 1
    # no kernel of the chain's: its ops ran one by one, each counted as its own
    assert "fused(add+relu+scale+multiply+exp)" not in c.by_label and c.by_label["exp"] == {"elementwise": 1, "alloc": 1}


@pytest.mark.gpu
@pytest.mark.parametrize("op_type", ELEMENTWISE)
def test_generated_kernel_on_the_gpu(op_type):
    cp = pytest.importorskip("cupy")
    op = all_ops()[op_type]
    arrays = _operands(op, "broadcast", np.dtype(np.float32), np.random.default_rng(0))
    attrs = op.fill_attrs({})
    with np.errstate(all="ignore"):
        ref = op.forward(np, *arrays, **attrs)
    got = generated.single_op(op)(cp, *[None if a is None else cp.asarray(a) for a in arrays], **attrs)
    expr = op.elementwise(*["x" if a is not None else None for a in arrays], **attrs)
    _compare(got.get(), ref, exact=not _TRANSCENDENTAL.search(expr))


@pytest.mark.gpu
def test_executor_fuses_on_the_gpu():
    pytest.importorskip("cupy")
    main, fetch = _chain_program()
    feed = {"x": np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4), "b": np.float32([0.5, -0.5, 1.0, 0.0])}
    cpu = paddle.static.Executor("cpu").run(main, feed=feed, fetch_list=fetch)
    gpu = paddle.static.Executor("gpu").run(main, feed=feed, fetch_list=fetch)
    for c, g in zip(cpu, gpu):
        _compare(g, c, exact=False)
