"""cuDNN on a real GPU (skipped without one, or without cuDNN Frontend): the convolution and batch-norm bindings
against the im2col / CuPy reference on the same GPU (cuDNN switched off) and against PyTorch's cuDNN."""
import numpy as np
import pytest

from paddlelite.device import cudnn as dcudnn
from paddlelite.ops.cudnn import conv as conv_launch
from paddlelite.ops.registry import device_impls, get_op
from tests.references import torch
from tests.test_cudnn_graphs import BNS, CONVS

pytestmark = pytest.mark.gpu

# relative error in the 2-norm: float32 convolutions may run on TF32 tensor cores (Paddle's default for cuDNN)
REL = {"float32": 3e-3, "float16": 5e-3, "bfloat16": 3e-2}


@pytest.fixture(scope="module")
def cp():
    cupy = pytest.importorskip("cupy")
    if dcudnn.frontend() is None:
        pytest.skip("cuDNN Frontend (pip install paddlelite[cudnn]) or its cuDNN library is missing")
    return cupy


def rel_err(got, ref):
    got, ref = (np.asarray(a.get() if hasattr(a, "get") else a, dtype=np.float64) for a in (got, ref))
    return np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30)


def dtype_of(name):
    if name == "bfloat16":
        return np.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    return np.dtype(name)


def both(cp, op, arrays, attrs):
    """(cuDNN, reference) results of the registry's GPU implementation of `op`, asserting cuDNN ran."""
    attrs = get_op(op).fill_attrs(attrs)
    impl = device_impls("gpu")[op]
    built = sum(1 for g in dcudnn._caches for v in g._built.values() if v is not None)
    got = impl(cp, *arrays, **attrs)
    assert sum(1 for g in dcudnn._caches for v in g._built.values() if v is not None) >= max(built, 1), \
        f"{op}: cuDNN declined {[a.shape for a in arrays if a is not None]} {attrs}"
    with dcudnn.disabled():
        ref = impl(cp, *arrays, **attrs)
    return (got if isinstance(got, tuple) else (got,)), (ref if isinstance(ref, tuple) else (ref,))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("op,xs,ws,attrs", CONVS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CONVS)])
def test_conv_vs_im2col(cp, op, xs, ws, attrs, dtype):
    rng = np.random.default_rng(1)
    dt = dtype_of(dtype)
    x, w = (cp.asarray(rng.standard_normal(s).astype(np.float32)).astype(dt) for s in (xs, ws))
    (y,), (ref,) = both(cp, op, [x, w], attrs)
    assert y.dtype == dt and rel_err(y.astype(cp.float32), ref.astype(cp.float32)) < REL[dtype]
    dy = cp.asarray(rng.standard_normal(y.shape).astype(np.float32)).astype(dt)
    got, ref = both(cp, f"{op}_grad", [x, w, dy], {**attrs, "input_grad": True})
    for g, r in zip(got, ref):
        assert rel_err(g.astype(cp.float32), r.astype(cp.float32)) < REL[dtype]


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("shape,layout", BNS, ids=[b[1] for b in BNS])
def test_batch_norm_vs_cupy(cp, shape, layout, dtype):
    rng = np.random.default_rng(2)
    c = shape[-1] if layout in ("NHWC", "NLC", "NDHWC") else shape[1]
    x = cp.asarray(rng.standard_normal(shape)).astype(dtype)
    scale, bias, mean = (cp.asarray(rng.standard_normal(c), dtype=cp.float32) for _ in range(3))
    var = cp.abs(cp.asarray(rng.standard_normal(c), dtype=cp.float32)) + 0.5
    attrs = {"data_layout": layout, "epsilon": 1e-5, "momentum": 0.9}
    got, ref = both(cp, "batch_norm", [x, scale, bias, mean, var], attrs)
    for g, r in zip(got, ref):
        assert rel_err(g.astype(cp.float32), r.astype(cp.float32)) < REL[dtype]
    dy = cp.asarray(rng.standard_normal(shape)).astype(dtype)
    got, ref = both(cp, "batch_norm_grad", [x, scale, got[3], got[4], dy], attrs)
    for g, r in zip(got, ref):
        assert rel_err(g.astype(cp.float32), r.astype(cp.float32)) < REL[dtype]


def test_resnet_block_vs_torch(cp):
    """conv -> batch norm -> relu -> conv, forward and backward through paddlelite's API on the GPU, against
    PyTorch's (cuDNN) on the same GPU with the same weights."""
    import paddlelite as paddle
    paddle.set_device("gpu")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 16, 28, 28)).astype(np.float32)
    w1 = rng.standard_normal((32, 16, 3, 3)).astype(np.float32) * 0.1
    w2 = rng.standard_normal((32, 32, 3, 3)).astype(np.float32) * 0.1

    def ours():
        xs = paddle.to_tensor(x, stop_gradient=False)
        p1, p2 = (paddle.to_tensor(w, stop_gradient=False) for w in (w1, w2))
        bn = paddle.nn.BatchNorm2D(32)
        h = paddle.nn.functional.conv2d(xs, p1, padding=1, stride=2)
        out = paddle.nn.functional.conv2d(paddle.nn.functional.relu(bn(h)), p2, padding=1)
        out.sum().backward()
        return [t.numpy() for t in (out, xs.grad, p1.grad, p2.grad)]

    def theirs():
        dev = "cuda"
        xs = torch.tensor(x, device=dev, requires_grad=True)
        p1, p2 = (torch.tensor(w, device=dev, requires_grad=True) for w in (w1, w2))
        bn = torch.nn.BatchNorm2d(32).to(dev)
        h = torch.nn.functional.conv2d(xs, p1, padding=1, stride=2)
        out = torch.nn.functional.conv2d(torch.relu(bn(h)), p2, padding=1)
        out.sum().backward()
        return [t.detach().cpu().numpy() for t in (out, xs.grad, p1.grad, p2.grad)]

    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    for got, ref in zip(ours(), theirs()):
        assert rel_err(got, ref) < 1e-2
    assert any(v is not None for v in conv_launch._FPROP._built.values())
