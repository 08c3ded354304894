"""paddle.incubate.nn.functional's mixture-of-experts routing names, each one registry op of ops/moe.py (the
routing rules are written there): dispatch tokens to their top-k experts, combine the experts' outputs, the
load-balancing loss and the expert-id bookkeeping of expert parallelism. Paddle ships these for GPU builds only;
here they run on the CPU and the GPU alike, in eager and static mode, with gradients where Paddle has grad ops
(moe_gate_dispatch, moe_gate_dispatch_permute, moe_combine, cal_aux_loss)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...ops import moe as _moe
from ...ops.dispatch import apply
from ...tensor.math import check_float_tensor
from .fp8 import check_tensor, fp8_quant_blockwise

if TYPE_CHECKING:
    from ...framework.tensor import Tensor

__all__ = ["moe_gate_dispatch", "moe_gate_dispatch_permute", "moe_gate_dispatch_and_quant",
           "moe_gate_dispatch_partial_nosoftmaxtopk", "moe_combine", "cal_aux_loss",
           "expand_modality_expert_id", "build_src_rank_and_local_expert_id"]


def _int_arg(value, api, arg, low=0):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{api}: {arg} must be an int >= {low}, received {value!r}")
    return value


def _gate_args(api, x, gate_logits, corr_bias, k, capacity):
    check_float_tensor(x, api)
    check_float_tensor(gate_logits, api, "gate_logits")
    check_tensor(corr_bias, api, "corr_bias", optional=True)
    experts = gate_logits.shape[-1]
    if not (isinstance(k, int) and 1 <= k <= experts):
        raise ValueError(f"{api}: k must be an int in [1, num_experts={experts}], received {k!r}")
    if len(x.shape) != 2 or len(gate_logits.shape) != 2 or x.shape[0] != gate_logits.shape[0]:
        raise ValueError(f"{api}: x [S, H] and gate_logits [S, E] must be 2-D with equal rows, received shapes "
                         f"{list(x.shape)} and {list(gate_logits.shape)}")
    return k, _int_arg(capacity, api, "capacity")


def moe_gate_dispatch(x: Tensor, gate_logits: Tensor, corr_bias: Tensor | None, k: int, capacity: int,
                      use_pad: bool, name: str | None = None):
    """(y, combine_weights, scatter_index, expert_offset, expert_id): x's rows [S, H] sent to each token's top-k
    experts by gate_logits [S, E] (+ corr_bias [E] for the choice), at most `capacity` per expert; with use_pad y is
    [E * capacity, H], expert e's rows at e * capacity."""
    k, capacity = _gate_args("moe_gate_dispatch", x, gate_logits, corr_bias, k, capacity)
    return tuple(apply(_moe.MOE_GATE_DISPATCH, x, gate_logits, corr_bias, k=k, capacity=capacity,
                       use_pad=bool(use_pad)))


def moe_gate_dispatch_and_quant(x: Tensor, gate_logits: Tensor, corr_bias: Tensor | None, k: int, capacity: int,
                                use_pad: bool, use_pow2_scale: bool):
    """(fp8_out, scale, combine_weights, scatter_index, expert_offset, expert_id): moe_gate_dispatch with its y
    quantized to float8_e4m3fn in 1 x 128 blocks (decode scales [rows, H / 128]), as Paddle composes them."""
    y, *routing = moe_gate_dispatch(x, gate_logits, corr_bias, k, capacity, use_pad)
    y_fp8, scale = fp8_quant_blockwise(y, quant_method="1x128", output_scale_transpose=False,
                                       using_pow2_scale=use_pow2_scale)
    return (y_fp8, scale, *routing)


def moe_gate_dispatch_permute(x: Tensor, gate_logits: Tensor, corr_bias: Tensor | None, k: int, capacity: int,
                              world_size: int, name: str | None = None):
    """moe_gate_dispatch with padding, y laid out [E / world_size, world_size, capacity, H] (local expert, rank)."""
    api = "moe_gate_dispatch_permute"
    k, capacity = _gate_args(api, x, gate_logits, corr_bias, k, capacity)
    world_size = _int_arg(world_size, api, "world_size", 1)
    if gate_logits.shape[1] % world_size:
        raise ValueError(f"{api}: num_experts ({gate_logits.shape[1]}) must be divisible by world_size, received "
                         f"world_size={world_size}")
    return tuple(apply(_moe.MOE_GATE_DISPATCH_PERMUTE, x, gate_logits, corr_bias, k=k, capacity=capacity,
                       world_size=world_size))


def moe_gate_dispatch_partial_nosoftmaxtopk(x: Tensor, combine_weights: Tensor, expert_id: Tensor, k: int,
                                            capacity: int, num_experts: int, use_pad: bool, expert_start_index: int,
                                            expert_end_index: int, reverse_token_drop: bool, name: str | None = None):
    """(y, combine_weights_out, scatter_index, scatter_index_rev, expert_offset, expert_nums_local): this rank's
    experts [expert_start_index, expert_end_index) of a top-k already chosen (combine_weights float32 and expert_id
    int32, [S, k]), each keeping `capacity` pairs (the last ones with reverse_token_drop)."""
    api = "moe_gate_dispatch_partial_nosoftmaxtopk"
    check_float_tensor(x, api)
    check_float_tensor(combine_weights, api, "combine_weights")
    check_tensor(expert_id, api, "expert_id")
    if combine_weights.dtype.name != "float32" or expert_id.dtype.name != "int32":
        raise TypeError(f"{api}: combine_weights must be float32 and expert_id int32, received "
                        f"{combine_weights.dtype.name} and {expert_id.dtype.name}")
    num_experts = _int_arg(num_experts, api, "num_experts", 1)
    start, end = _int_arg(expert_start_index, api, "expert_start_index"), _int_arg(expert_end_index, api,
                                                                                  "expert_end_index")
    if not start < end <= num_experts:
        raise ValueError(f"{api}: need expert_start_index < expert_end_index <= num_experts, received [{start}, "
                         f"{end}) of {num_experts}")
    if reverse_token_drop and use_pad:
        raise ValueError(f"{api}: use_pad must be False when reverse_token_drop is True")
    if list(expert_id.shape) != list(combine_weights.shape) or len(x.shape) != 2 or x.shape[0] != expert_id.shape[0] \
            or expert_id.shape[1] != k:
        raise ValueError(f"{api}: x [S, H], combine_weights and expert_id [S, k={k}] must agree, received shapes "
                         f"{list(x.shape)}, {list(combine_weights.shape)}, {list(expert_id.shape)}")
    return tuple(apply(_moe.MOE_GATE_DISPATCH_PARTIAL_NOSOFTMAXTOPK, x, combine_weights, expert_id,
                       k=_int_arg(k, api, "k", 1), capacity=_int_arg(capacity, api, "capacity"),
                       num_experts=num_experts, use_pad=bool(use_pad), expert_start_index=start,
                       expert_end_index=end, reverse_token_drop=bool(reverse_token_drop)))


def moe_combine(x: Tensor, combine_weights: Tensor, scatter_index: Tensor, name: str | None = None) -> Tensor:
    """y [S, H]: y[s] = sum_j combine_weights[s, j] * x[scatter_index[s, j]] (scatter_index int32)."""
    api = "moe_combine"
    check_float_tensor(x, api)
    check_float_tensor(combine_weights, api, "combine_weights")
    check_tensor(scatter_index, api, "scatter_index")
    if scatter_index.dtype.name != "int32":
        raise TypeError(f"{api}: scatter_index must be int32, received {scatter_index.dtype.name}")
    if list(scatter_index.shape) != list(combine_weights.shape):
        raise ValueError(f"{api}: scatter_index must be shaped as combine_weights {list(combine_weights.shape)}, "
                         f"received {list(scatter_index.shape)}")
    return apply(_moe.MOE_COMBINE, x, combine_weights, scatter_index)


def cal_aux_loss(gate_prob: Tensor, dispatch_mask: Tensor, tokens_mask: Tensor | None,
                 dispatch_tokens_mask: Tensor | None, num_experts: int, use_group: bool, moe_k: int,
                 clip_min: float, name: str | None = None):
    """(l_aux_loss, seqlen_float, ce): the MoE load-balancing loss of gate probabilities [S, E] and the dispatch
    counts (dispatch_mask [E] or [S, E]); differentiable in gate_prob."""
    api = "cal_aux_loss"
    check_float_tensor(gate_prob, api, "gate_prob")
    check_tensor(dispatch_mask, api, "dispatch_mask")
    check_tensor(tokens_mask, api, "tokens_mask", optional=True)
    check_tensor(dispatch_tokens_mask, api, "dispatch_tokens_mask", optional=True)
    return tuple(apply(_moe.CAL_AUX_LOSS, gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask,
                       num_experts=_int_arg(num_experts, api, "num_experts", 1), use_group=bool(use_group),
                       moe_k=_int_arg(moe_k, api, "moe_k"), clip_min=float(clip_min)))


def expand_modality_expert_id(expert_id: Tensor, num_expert_per_modality: int, group_size: int,
                              modality_offset: int, is_group_expert: bool, name: str | None = None) -> Tensor:
    """expert_id [S, k] renumbered for two modalities: (+ choice * group_size when is_group_expert), then
    rank * 2 * num_expert_per_modality + id_in_rank + modality_offset * num_expert_per_modality."""
    api = "expand_modality_expert_id"
    check_tensor(expert_id, api, "expert_id")
    return apply(_moe.EXPAND_MODALITY_EXPERT_ID, expert_id, num_expert_per_modality=int(num_expert_per_modality),
                 group_size=int(group_size), modality_offset=int(modality_offset),
                 is_group_expert=bool(is_group_expert))


def build_src_rank_and_local_expert_id(expert_num_global_tensor: Tensor, expert_num_global: list,
                                       num_local_experts: int, name: str | None = None):
    """(src_rank, local_expert_id), int32 of sum(expert_num_global) tokens: for the tokens counted per global
    expert, in expert order, expert // num_local_experts and expert % num_local_experts."""
    api = "build_src_rank_and_local_expert_id"
    check_tensor(expert_num_global_tensor, api, "expert_num_global_tensor")
    counts = [_int_arg(int(n), api, "expert_num_global") for n in expert_num_global]
    return tuple(apply(_moe.BUILD_SRC_RANK_AND_LOCAL_EXPERT_ID, expert_num_global_tensor, expert_num_global=counts,
                       num_local_experts=_int_arg(num_local_experts, api, "num_local_experts", 1)))
