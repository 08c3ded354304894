"""paddle.incubate.nn.functional's backward steps of large-model training called as functions, each a registry op
of ops/training_grads.py (where the formulas are written). Paddle ships them as GPU kernels; here they run on the CPU
and the GPU alike."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...ops import training_grads as _grads
from ...ops.dispatch import apply
from ...tensor.manipulation import inplace_apply
from ...tensor.tensor_args import is_tensor_like

if TYPE_CHECKING:
    from ...framework.tensor import Tensor

__all__ = ["cross_entropy_with_softmax_bwd_w_downcast", "embedding_grad_add_to_", "fused_swiglu_weighted_bwd"]


def _check_tensors(api, **tensors):
    for arg, t in tensors.items():
        if not is_tensor_like(t):
            raise TypeError(f"{api}: {arg} must be a Tensor, received {type(t).__name__}")


def cross_entropy_with_softmax_bwd_w_downcast(label: Tensor, softmax: Tensor, loss_grad: Tensor,
                                              name: str | None = None) -> Tensor:
    """The logits' gradient of softmax cross entropy with hard labels (last axis; label -100 ignored),
    (softmax - onehot(label)) * loss_grad, as bfloat16."""
    _check_tensors("cross_entropy_with_softmax_bwd_w_downcast", label=label, softmax=softmax, loss_grad=loss_grad)
    return apply(_grads.CROSS_ENTROPY_WITH_SOFTMAX_BWD_W_DOWNCAST, label, softmax, loss_grad)


def embedding_grad_add_to_(token_indices: Tensor, main_grad_: Tensor, out_grad: Tensor,
                           name: str | None = None) -> Tensor:
    """In place: main_grad_ [vocab, dim] += the embedding table's gradient of out_grad [..., dim] for the
    lookups token_indices [...]; returns main_grad_."""
    api = "embedding_grad_add_to_"
    _check_tensors(api, token_indices=token_indices, main_grad_=main_grad_, out_grad=out_grad)
    return inplace_apply(main_grad_, api, lambda g: apply(_grads.EMBEDDING_GRAD_ADD_TO, token_indices, g, out_grad))


def fused_swiglu_weighted_bwd(o1: Tensor, do2_s: Tensor, unzipped_probs: Tensor, name: str | None = None):
    """For o2_s = silu(x1) * x2 * prob over o1's halves [..., 2I]: (do1, probs_grad, o2_s) given the upstream
    gradient do2_s [..., I]."""
    _check_tensors("fused_swiglu_weighted_bwd", o1=o1, do2_s=do2_s, unzipped_probs=unzipped_probs)
    return tuple(apply(_grads.FUSED_SWIGLU_WEIGHTED_BWD, o1, do2_s, unzipped_probs))
