"""paddle.incubate.nn.functional's fused blocks are one registry op each: on a GPU one kernel launch per forward (and
the grad op's kernel plus its column-sum reduction per backward), counted on the CPU by
paddlelite.device.count_launches. Their values are tests/test_incubate_nn.py's; the kernels' own
tests/test_kernels_emu.py's."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite.device.launch_count import count_launches
from paddlelite.incubate.nn import functional as IF

R = np.random.default_rng(0)


def _tensor(*shape, dtype="float32"):
    return paddle.to_tensor(R.standard_normal(shape).astype(dtype), stop_gradient=False)


def _kernels(counter):
    """{op: launches} of the step just counted (raw kernels and CuPy's own)."""
    kinds = ("raw", "elementwise", "reduction", "library")
    return {label: n for label, k in counter.by_label.items() if (n := sum(k.get(kind, 0) for kind in kinds))}


RMS = {
    "fused_rms_norm": lambda x, r, w, b: IF.fused_rms_norm(x, w, None, 1e-5, 1)[0],
    "fused_rms_norm-residual-bias": lambda x, r, w, b: IF.fused_rms_norm(x, w, b, 1e-5, 1, bias=b, residual=r)[0],
    "fast_rms_norm": lambda x, r, w, b: IF.fast_rms_norm(x, w)[0],
    "fused_rms_norm_ext": lambda x, r, w, b: IF.fused_rms_norm_ext(x, w)[0],
}


LN = {
    "fused_layer_norm": lambda x, r, w, b: IF.fused_layer_norm(x, w, b, 1e-5)[0],
    "fused_layer_norm-residual-bias": lambda x, r, w, b: IF.fused_layer_norm(x, w, b, 1e-5, 0.5, 1, b, r)[0],
    "fast_ln": lambda x, r, w, b: IF.fast_ln(x, w, b)[0],
}


@pytest.mark.parametrize("op,grad_op,name", [("rms_norm", "rms_norm_grad", n) for n in sorted(RMS)]
                         + [("fused_bias_residual_layernorm", "layer_norm_grad", n) for n in sorted(LN)])
def test_fused_norms_are_one_launch_forward(op, grad_op, name):
    with count_launches() as c:
        args = (_tensor(4, 64), _tensor(4, 64), _tensor(64), _tensor(64))
        c.reset()
        out = {**RMS, **LN}[name](*args)
        assert _kernels(c) == {op: 1}
        c.reset()
        out.sum().backward()
        assert _kernels(c)[grad_op] == 2  # dh and the column partials, then their sums


@pytest.mark.parametrize("with_y", [True, False])
def test_swiglu_is_one_launch_each_way(with_y):
    with count_launches() as c:
        x, y = _tensor(4, 64), _tensor(4, 64)
        c.reset()
        out = IF.swiglu(x, y if with_y else None)
        assert _kernels(c) == {"swiglu": 1}
        c.reset()
        out.sum().backward()
        assert _kernels(c)["swiglu_grad"] == 1


@pytest.mark.parametrize("tables", [False, True])
def test_rotary_embedding_is_one_launch_each_way(tables):
    with count_launches() as c:
        q, k, v = _tensor(2, 5, 4, 8), _tensor(2, 5, 2, 8), _tensor(2, 5, 2, 8)
        sin, cos = (paddle.to_tensor(R.standard_normal((1, 5, 1, 8)).astype("float32")) for _ in "sc")
        c.reset()
        outs = IF.fused_rotary_position_embedding(q, k, v, *((sin, cos) if tables else ()))
        assert _kernels(c) == {"fused_rope": 1}
        c.reset()
        sum(o.sum() for o in outs).backward()
        assert _kernels(c)["fused_rope"] == 1  # the gradient: the inverse rotation of all three, one launch


@pytest.mark.parametrize("act_method", ["gelu", "relu", "swish", "identity"])
def test_bias_act_is_one_launch_each_way(act_method):
    """The bias add runs inside the activation's kernel, forward and backward (the bias gradient's column sum
    included)."""
    with count_launches() as c:
        x, bias = _tensor(4, 64), _tensor(64)
        c.reset()
        out = IF.fused_bias_act(x, bias, act_method=act_method)
        assert _kernels(c) == {"fused_bias_act": 1}
        dout = paddle.ones_like(out)
        c.reset()
        out.backward(dout)
        assert _kernels(c) == {"fused_bias_act_grad": 1}


def test_dropout_add_draws_dropouts_mask_in_one_kernel():
    """In training one kernel draws the mask from the global generator, scales and adds (with
    fused_bias_dropout_residual_layer_norm's bias too): the same values as F.dropout(x) + y from the same seed. The
    backward: dropout_grad's kernel (the residual's gradient is the output's)."""
    x, y, bias = _tensor(4, 64), _tensor(4, 64), _tensor(64)
    paddle.seed(5)
    want = paddle.nn.functional.dropout(x, 0.3) + y
    paddle.seed(5)
    np.testing.assert_array_equal(IF.fused_dropout_add(x, y, 0.3).numpy(), want.numpy())
    with count_launches() as c:
        x, y = _tensor(4, 64), _tensor(4, 64)
        c.reset()
        out = IF.fused_dropout_add(x, y, 0.3)
        assert _kernels(c) == {"fused_dropout_add": 1}  # the generator's words are computed in the kernel
        c.reset()
        out.backward(paddle.ones_like(out))
        assert _kernels(c)["dropout_grad"] == 1
        c.reset()
        IF.fused_bias_dropout_residual_layer_norm(x, y, bias)
        assert _kernels(c) == {"fused_dropout_add": 1, "layer_norm": 1}
