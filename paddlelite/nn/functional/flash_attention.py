"""paddle.nn.functional.flash_attention, the module Paddle's flash-attention APIs are imported from
(`from paddle.nn.functional.flash_attention import flash_attention`); they live in attention.py and gpu_kernels.py."""
from .attention import calc_reduced_attention_scores, flash_attention, flash_attn_qkvpacked, flash_attn_unpadded
from .attention import sdp_kernel  # noqa: F401  (outside __all__, as in Paddle)
from ..attention import SDPBackend, sdpa_kernel  # noqa: F401  (Paddle's imports there)
from .gpu_kernels import flash_attention_v3_varlen, flash_attn_varlen_qkvpacked, flashmask_attention

__all__ = ["calc_reduced_attention_scores", "flash_attention", "flash_attention_v3_varlen", "flash_attn_qkvpacked", "flash_attn_unpadded",
           "flash_attn_varlen_qkvpacked", "flashmask_attention"]
