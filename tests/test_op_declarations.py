"""How ops are declared: attr defaults live in the registry only, kernel launch code mirrors kernels/."""
import inspect
import os

import pytest

from paddlelite.device import kernels as K
from paddlelite.ops.registry import all_ops, device_impls

OPS = all_ops()


def _functions(op):
    for what, fn in (("forward", op.forward), ("infer", op.infer), *((f"{d} binding", f) for d, f in op.impls.items())):
        if fn is not None:  # structural ops (conditional_block, while) run through their runner
            yield what, fn


@pytest.mark.parametrize("op", sorted(OPS), ids=str)
def test_attr_defaults_are_declared_once(op):
    """Forwards, shape rules and kernel bindings receive every attr filled in from the registry's `attrs`,
    so none of them restates a default (which could drift from the declared one)."""
    opdef = OPS[op]
    for what, fn in _functions(opdef):
        params = inspect.signature(fn).parameters.values()
        repeated = [p.name for p in params if p.name in opdef.attrs and p.default is not inspect.Parameter.empty]
        assert not repeated, (f"op '{op}': the {what} ({fn.__module__}.{fn.__qualname__}) gives attr(s) {repeated} "
                              "a default; the registry's attrs are the only place for it")


def test_launch_modules_mirror_the_kernel_families():
    """kernels/<family>.cu is launched from paddlelite/ops/launch/<family>.py."""
    launch_dir = os.path.join(os.path.dirname(inspect.getfile(K)), "..", "ops", "launch")
    # generated.py launches the kernels generated from the ops' elementwise expressions: no kernels/*.cu of its own
    modules = {f[:-3] for f in os.listdir(launch_dir) if f.endswith(".py")} - {"__init__", "common", "generated"}
    assert modules == set(K.FAMILIES)



def test_fused_kernels_are_bound_to_their_ops():
    """Every fused kernel and cuDNN graph reaches the ops it implements through the registry (a lost `gpu=` shows
    here); an op declaring its elementwise expression and no kernel of its own runs as a generated kernel."""
    impls = device_impls("gpu")
    generated = {t for t, fn in impls.items() if fn.__wrapped__.__name__ == f"{t}_generated"}
    bound = set(impls) - generated
    assert generated == {t for t, op in all_ops().items() if op.elementwise is not None} - bound
    assert bound == {"softmax", "softmax_grad", "softmax_with_cross_entropy", "softmax_with_cross_entropy_grad",
                     "layer_norm", "layer_norm_grad", "fused_bias_residual_layernorm", "rms_norm", "rms_norm_grad",
                     "swiglu", "swiglu_grad", "fused_glu", "fused_glu_grad", "fused_rope", "fused_dropout_add", "relu_grad", "sigmoid_grad", "tanh_grad", "gelu_grad", "silu_grad", "dropout_grad", "fused_dropout_act_grad", "embedding_grad",
                     "reduce_as", "sgd", "momentum", "adam", "adamw", "merged_adam", "merged_momentum", "merged_sgd", "adagrad", "rmsprop", "adadelta",
                     "adamax", "nadam", "radam", "rprop", "fused_bias_act", "fused_bias_act_grad", "lstm_cell",
                     "lstm_cell_grad", "gru_cell", "gru_cell_grad", "flash_attn", "flash_attn_grad",
                     # cuDNN graphs (ops/cudnn/; flash_attn's too, beside kernels/attention.cu)
                     "conv2d", "conv2d_grad", "conv3d", "conv3d_grad", "conv2d_transpose", "conv3d_transpose",
                     "batch_norm", "batch_norm_grad"}
