"""cuDNN Frontend without a GPU: the real `cudnn` package builds the graphs (its Python graph IR needs no device),
and this module stands in for what needs one -- planning and execution.

`installed()` makes paddlelite.device.cudnn use the real Frontend module with a fake planner (every step records
what it was asked, nothing is lowered) and a fake executor that runs each node of the graph with NumPy. The
executor reads every operand through the dims and strides the graph declares for it, and writes every output the
same way, so the launch code's descriptors (logical order, strides, channel-last layouts, padding, groups) are
checked against what cuDNN is documented to compute, on the arrays the launch code passes (NumPy arrays stand in
for device pointers). The math is paddlelite's own NumPy reference (im2col convolutions), an independent
softmax-attention and the batch-norm formulas.
"""
import contextlib

import numpy as np
import pytest

from paddlelite.device import cudnn as dcudnn
from paddlelite.ops.registry import get_op


def view(t, a):
    """Tensor `t` of a graph as cuDNN sees the memory at array `a`'s address (its declared dims and element
    strides), checked to stay within the elements `a` spans."""
    assert t.dim is not None and t.stride is not None, f"{t.name}: dims and strides must be declared"
    assert len(t.dim) == len(t.stride), t
    assert a.dtype.name == {"FLOAT": "float32", "HALF": "float16", "BFLOAT16": "bfloat16", "INT64": "int64",
                            "INT32": "int32"}[t.data_type.name], (t.name, t.data_type, a.dtype)
    assert min(t.stride) >= 0 and min(a.strides, default=0) >= 0, t
    declared = sum((d - 1) * s for d, s in zip(t.dim, t.stride)) * a.itemsize
    spanned = sum((n - 1) * s for n, s in zip(a.shape, a.strides))
    assert declared <= spanned, f"{t.name}: dims {t.dim} / strides {t.stride} reach past the array {a.shape}"
    return np.lib.stride_tricks.as_strided(a, tuple(t.dim), tuple(s * a.itemsize for s in t.stride))


def _conv_attrs(node, nd, groups):
    p = node.params
    pads = [v for pair in zip(p["pre_padding"], p["post_padding"]) for v in pair]
    return {"strides": list(p["stride"]), "paddings": pads, "padding_algorithm": "EXPLICIT",
            "dilations": list(p["dilation"]), "groups": groups, "data_format": "NCHW" if nd == 2 else "NCDHW"}


def _f64(a):
    return np.ascontiguousarray(a, dtype=np.float64)


def _conv_fprop(node, get):
    x, w = _f64(get("image")), _f64(get("weight"))
    nd = x.ndim - 2
    return {"Y": get_op(f"conv{nd}d").forward(np, x, w, **_conv_attrs(node, nd, x.shape[1] // w.shape[1]))}


def _conv_dgrad(node, get):
    dy, w, out = _f64(get("loss")), _f64(get("filter")), node.outputs["DX"]
    nd = dy.ndim - 2
    x = np.zeros(out.dim)
    return {"DX": get_op(f"conv{nd}d_grad").forward(np, x, w, dy, True,
                                                    **_conv_attrs(node, nd, out.dim[1] // w.shape[1]))[0]}


def _conv_wgrad(node, get):
    x, dy, out = _f64(get("image")), _f64(get("loss")), node.outputs["DW"]
    nd = x.ndim - 2
    w = np.zeros(out.dim)
    return {"DW": get_op(f"conv{nd}d_grad").forward(np, x, w, dy, False,
                                                    **_conv_attrs(node, nd, x.shape[1] // out.dim[1]))[1]}


def _bn_axes(x):
    return (0, *range(2, x.ndim))


def _batchnorm(node, get):
    x, scale, bias = _f64(get("input")), _f64(get("scale")), _f64(get("bias"))
    eps = node.inputs["epsilon"].pass_by_value
    mean = x.mean(axis=_bn_axes(x), keepdims=True)
    inv = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=_bn_axes(x), keepdims=True) + eps)
    return {"Y": (x - mean) * inv * scale + bias, "mean": mean, "inv_var": inv}


def _batchnorm_inference(node, get):
    x, mean, inv = _f64(get("input")), _f64(get("mean")), _f64(get("inv_variance"))
    return {"Y": (x - mean) * inv * _f64(get("scale")) + _f64(get("bias"))}


def _batchnorm_backward(node, get):
    dy, x, scale = _f64(get("grad")), _f64(get("input")), _f64(get("scale"))
    mean, inv = _f64(get("mean")), _f64(get("inv_variance"))
    axes = _bn_axes(x)
    xhat = (x - mean) * inv
    dbias, dscale = dy.sum(axis=axes, keepdims=True), (dy * xhat).sum(axis=axes, keepdims=True)
    n = x.size // x.shape[1]
    dx = scale * inv / n * (n * dy - dbias - xhat * dscale)
    return {"DX": dx, "DScale": dscale, "DBias": dbias}


def _scores(node, get):
    """Scaled scores [B, H, Sq, Sk] with bias and causal mask, K/V heads repeated for grouped queries."""
    q, k, v = _f64(get("q")), _f64(get("k")), _f64(get("v"))
    rep = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    s = np.einsum("bhid,bhjd->bhij", q, k) * node.params["attn_scale"]
    if node.inputs.get("bias") is not None:
        s = s + _f64(get("bias"))
    if node.params.get("use_causal_mask"):
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    assert node.params.get("dropout") is None, "the fake executor has no Philox generator"
    return q, k, v, s, rep


def _sdpa(node, get):
    _, _, v, s, _ = _scores(node, get)
    lse = np.log(np.exp(s - s.max(-1, keepdims=True)).sum(-1, keepdims=True)) + s.max(-1, keepdims=True)
    return {"O": np.exp(s - lse) @ v, "Stats": lse}


def _sdpa_backward(node, get):
    q, k, v, s, rep = _scores(node, get)
    do, lse = _f64(get("dO")), _f64(get("stats"))
    p = np.exp(s - lse)
    dv = np.einsum("bhij,bhid->bhjd", p, do)
    dp = do @ v.swapaxes(-1, -2)
    ds = p * (dp - (do * _f64(get("o"))).sum(-1, keepdims=True)) * node.params["attn_scale"]
    dq, dk = ds @ k, np.einsum("bhij,bhid->bhjd", ds, q)
    b, h = dk.shape[:2]
    fold = (lambda a: a.reshape(b, h // rep, rep, *a.shape[2:]).sum(2))
    return {"dQ": dq, "dK": fold(dk), "dV": fold(dv)}


RUN = {"CONV_FPROP": _conv_fprop, "CONV_DGRAD": _conv_dgrad, "CONV_WGRAD": _conv_wgrad, "BATCHNORM": _batchnorm,
       "BATCHNORM_INFERENCE": _batchnorm_inference, "BATCHNORM_BWD": _batchnorm_backward, "SDPA": _sdpa,
       "SDPA_BWD": _sdpa_backward}


class Fake:
    """What the planner was asked, per graph name, and what the executor ran."""

    def __init__(self):
        self.planned = []   # (graph name, [(step, args)])
        self.executions = 0
        self.plans = 3      # plans each graph offers to an exhaustive search
        self.times = {}     # plan index -> milliseconds the fake timer reports
        self.decline = ()   # node types the fake planner refuses (cudnnGraphNotSupportedError)
        self.plan = None    # the plan build_plan_at_index selected last

    def execute(self, graph, pack):
        self.executions += 1
        by_uid = {t.uid: a for t, a in pack.items()}
        for node in graph.nodes:
            def get(port, node=node):
                return view(node.inputs[port], by_uid[node.inputs[port].uid])
            results = RUN[node.node_type.name](node, get)
            for port, t in node.outputs.items():
                if t is None or t.is_virtual:
                    continue
                out = view(t, by_uid[t.uid])
                out[...] = np.broadcast_to(results[port], out.shape).astype(out.dtype)


@contextlib.contextmanager
def installed(monkeypatch):
    """paddlelite.device.cudnn on the real Frontend's graph IR with the fake planner and executor."""
    cudnn = pytest.importorskip("cudnn")
    fake = Fake()
    pg = cudnn.pygraph
    steps = {}

    def record(step):
        def method(self, *args, **kwargs):
            steps.setdefault(id(self), (self._cpp_graph_kwargs["name"], []))[1].append((step, args))
            if step == "check_support" and any(n.node_type.name in fake.decline for n in self.nodes):
                raise cudnn.cudnnGraphNotSupportedError("declined by the fake planner")
            if step == "build_plan_at_index":
                fake.plan = args[0]
            return self
        return method

    for step in ("validate", "build_operation_graph", "create_execution_plans", "check_support", "build_plans",
                 "deselect_numeric_notes", "deselect_workspace_greater_than", "build_plan_at_index"):
        monkeypatch.setattr(pg, step, record(step))
    monkeypatch.setattr(pg, "get_execution_plan_count", lambda self: fake.plans)
    monkeypatch.setattr(pg, "get_workspace_size", lambda self: 16)
    monkeypatch.setattr(pg, "execute", lambda self, pack, ws, handle=None: fake.execute(self, pack))
    monkeypatch.setitem(dcudnn._state, "cudnn", cudnn)
    monkeypatch.setattr(dcudnn, "device_module", lambda xp: xp is np)  # NumPy arrays stand in for CuPy's
    monkeypatch.setattr(dcudnn, "device_id", lambda: 0)
    monkeypatch.setattr(dcudnn, "handle", lambda: None)
    monkeypatch.setattr(dcudnn, "workspace", lambda n: np.empty(n, np.uint8))
    monkeypatch.setattr(dcudnn, "elapsed_ms", lambda run: (run(), fake.times.get(fake.plan, 1.0))[1])
    fake.steps = steps
    dcudnn.clear()
    try:
        yield fake
    finally:
        dcudnn.clear()
