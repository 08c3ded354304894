import numpy as np

from paddlelite.ops import moe

from . import OpCase, positive, rand


def _local_loss(np, gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, **attrs):
    """The loss without the global/local token-count factor: what cal_aux_loss's gradient differentiates when the
    dispatch was counted over more tokens than gate_prob holds (Paddle's "forward local me, backward global me")."""
    return moe.CAL_AUX_LOSS.forward(np, gate_prob, dispatch_mask, None, dispatch_tokens_mask, **attrs)[:1]

# gate probabilities spread well apart (no top-k ties within a finite-difference step); 6 tokens, 4 experts, k=2
# and capacity 2 drop some pairs, so the masked gradients are exercised too
_GATE = positive(6, 4, low=0.05, high=1.0, seed=3)
_X = rand(6, 5, seed=4)
_BIAS = rand(4, low=-0.2, high=0.2, seed=5)

CASES = [
    OpCase("moe_gate_dispatch", {"x": _X, "gate_logits": _GATE, "corr_bias": None},
           attrs={"k": 2, "capacity": 2, "use_pad": True}, id="moe_gate_dispatch_pad"),
    OpCase("moe_gate_dispatch", {"x": _X, "gate_logits": _GATE, "corr_bias": _BIAS},
           attrs={"k": 2, "capacity": 2, "use_pad": False}, id="moe_gate_dispatch_bias_nopad"),
    OpCase("moe_gate_dispatch_permute", {"x": _X, "gate_logits": _GATE, "corr_bias": None},
           attrs={"k": 2, "capacity": 3, "world_size": 2}, id="moe_gate_dispatch_permute"),
    OpCase("moe_gate_dispatch_partial_nosoftmaxtopk",
           {"x": _X, "combine_weights": _GATE[:, :2], "expert_id": np.argsort(-_GATE, axis=1)[:, :2].astype(np.int32)},
           attrs={"k": 2, "capacity": 2, "num_experts": 4, "use_pad": True, "expert_start_index": 1,
                  "expert_end_index": 4, "reverse_token_drop": False}, id="moe_partial_pad"),
    OpCase("moe_gate_dispatch_partial_nosoftmaxtopk",
           {"x": _X, "combine_weights": _GATE[:, :2], "expert_id": np.argsort(-_GATE, axis=1)[:, :2].astype(np.int32)},
           attrs={"k": 2, "capacity": 1, "num_experts": 4, "use_pad": False, "expert_start_index": 0,
                  "expert_end_index": 3, "reverse_token_drop": True}, id="moe_partial_reverse"),
    OpCase("moe_combine", {"x": rand(7, 5, seed=6), "combine_weights": rand(4, 2, seed=7),
                           "scatter_index": np.array([[0, 3], [3, 1], [6, 2], [5, 0]], dtype=np.int32)},
           id="moe_combine"),
    OpCase("cal_aux_loss", {"gate_prob": positive(5, 3, low=0.1, high=1.0, seed=8),
                            "dispatch_mask": np.array([2, 1, 3], dtype=np.int64), "tokens_mask": None,
                            "dispatch_tokens_mask": None},
           attrs={"num_experts": 3, "use_group": True, "moe_k": 2, "clip_min": 1e-6}, id="cal_aux_loss"),
    OpCase("cal_aux_loss", {"gate_prob": positive(4, 3, low=0.1, high=1.0, seed=9),
                            "dispatch_mask": np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]], dtype=np.int32),
                            "tokens_mask": np.array([1.0, 1.0, 0.0, 1.0]),
                            "dispatch_tokens_mask": np.array([1, 1, 1, 0, 1, 1], dtype=bool)},
           attrs={"num_experts": 3, "use_group": False, "moe_k": 2, "clip_min": 1e-6}, surrogate=_local_loss,
           id="cal_aux_loss_scaled"),
]
