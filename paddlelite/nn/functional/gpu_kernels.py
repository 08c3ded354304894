"""Paddle APIs that exist only as GPU kernels in Paddle (variable-length and mask flash attention, block-sparse
attention, MoE token permutation). Paddle's CPU build raises when they are called; paddlelite keeps the names
with Paddle's signatures and raises the same way (README, Compatibility)."""

__all__ = ["flash_attention_v3_varlen", "flash_attn_varlen_qkvpacked", "flashmask_attention", "moe_permute",
           "moe_unpermute", "sparse_attention"]


def _no_kernel(api, kernel, cls=RuntimeError):
    raise cls(f"{api}: the kernel `{kernel}` is not registered: Paddle implements it for GPUs only "
              f"(its CPU build raises too), and paddlelite has no implementation")


def flash_attention_v3_varlen(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                              seqused_q=None, seqused_k=None, softmax_scale=None, causal=False, qv=None,
                              q_descale=None, k_descale=None, v_descale=None, window_size=(-1, -1), softcap=0.0,
                              num_splits=1, pack_gqa=None, sm_margin=0):
    _no_kernel("flash_attention_v3_varlen", "flash_attn_v3_varlen", ValueError)  # Paddle's CPU build: ValueError


def flash_attn_varlen_qkvpacked(qkv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, scale, dropout=0.0,
                                causal=False, return_softmax=False, fixed_seed_offset=None, rng_name="",
                                varlen_padded=True, training=True, name=None):
    _no_kernel("flash_attn_varlen_qkvpacked", "flash_attn_varlen_qkvpacked")


def flashmask_attention(query, key, value, startend_row_indices=None, *, dropout=0.0, causal=False,
                        window_size=None, return_softmax_lse=False, return_seed_offset=False, fixed_seed_offset=None,
                        rng_name="", training=True, name=None, softmax_scale=None, block_mask=None):
    _no_kernel("flashmask_attention", "flash_attn")


def sparse_attention(query, key, value, sparse_csr_offset, sparse_csr_columns, key_padding_mask=None,
                     attn_mask=None, name=None):
    _no_kernel("sparse_attention", "sparse_attention")


def moe_permute(hidden_states, scale, expert_routemap_topk, expert_prob_topk, num_experts, tokens_per_expert,
                padding_alignment, do_gather=True, using_ue8m0_scale=False, return_expert_indices=False,
                override_buffer_size=-1, name=None):
    _no_kernel("moe_permute", "moe_permute")


def moe_unpermute(hidden_states_unzipped, zipped_expertwise_rowmap, expert_routemap_topk, token_prob_unzipped,
                  total_zipped_tokens, num_experts, using_mix_precision=True, using_weighted_combine=False,
                  name=None):
    _no_kernel("moe_unpermute", "moe_unpermute")
