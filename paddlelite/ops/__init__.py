"""THE op registry. Importing this package registers every op family."""
from . import creation, elementwise, grad_support, manipulation, math, reduce  # noqa: F401  (registration)
from . import indexing  # noqa: F401  (getitem, set_value, gather, gather_nd, scatter)
from . import search  # noqa: F401  (take_along_axis, top_k_v2, argsort, where_index, unique, accuracy)
from . import optimizer  # noqa: F401  (sgd, momentum, adam, adamw, merged_adam)
from . import activation  # noqa: F401  (relu, gelu, softmax, ... and their grad ops)
from . import linalg  # noqa: F401  (inverse, determinant, solve, cholesky, qr, svd, eigh, cross)
from . import conv, loss, nn, norm, pooling  # noqa: F401  (conv2d, pool2d, layer/batch_norm, embedding, dropout, losses)
from . import fused  # noqa: F401  (fused_bias_act, fused_bias_act_grad, fused_dropout_act_grad)
from . import rnn  # noqa: F401  (lstm_cell, gru_cell and their grad ops: the recurrent layers' cell steps)
from . import complex  # noqa: F401  (real, imag, conj, angle, complex, as_complex, as_real)
from . import fft  # noqa: F401  (fft_c2c, fft_r2c, fft_c2r: paddle.fft)
from . import histogram  # noqa: F401  (bincount, histogram, histogramdd)
from . import special  # noqa: F401  (lgamma, digamma, polygamma, i0, i1, erfinv, gammainc, kron, trace, ...)
from . import collective  # noqa: F401  (c_allreduce_*, c_broadcast, ...: paddle.distributed's ops)
from . import run_program  # noqa: F401  (run_program, run_program_grad: paddle.jit.to_static's traced programs)
from . import deform_conv  # noqa: F401  (deformable_conv, deformable_conv_v1: paddle.static.nn.deform_conv2d)
from . import nce  # noqa: F401  (nce: paddle.static.nn.nce)
from . import interpolate  # noqa: F401  (nearest/linear/bilinear/bicubic/trilinear_interp_v2: F.interpolate)
from . import attention  # noqa: F401  (flash_attn, flash_attn_grad: fused attention)
from . import moe  # noqa: F401  (moe_gate_dispatch, moe_combine, cal_aux_loss, ...: incubate's MoE routing)
from . import fp8  # noqa: F401  (fp8_quant_blockwise, fp8_gemm_blockwise, ...: incubate's float8 blocks)
from . import training_grads  # noqa: F401  (cross_entropy_with_softmax_bwd_w_downcast, fused_swiglu_weighted_bwd, ...)
from . import tensor_array  # noqa: F401  (write_to_array, read_from_array, lod_array_length: static tensor arrays)
from . import sparse, sparse_conv  # noqa: F401  (sparse tensors: values, conversions, products, point-cloud conv)
from . import geometric  # noqa: F401  (segment_pool, send_u_recv/ue_recv/uv, graph sampling and reindexing)
from . import quant  # noqa: F401  (fake_quantize_dequantize_moving_average_abs_max, quantize_linear, dequantize_linear)
from . import detection  # noqa: F401  (roi_align, roi_pool, psroi_pool, nms, box_coder: paddle.vision.ops)
from .dispatch import apply
from .registry import GradBuilder, Meta, OpDef, all_ops, device_impls, get_op, register_impl, register_op

__all__ = ["apply", "GradBuilder", "Meta", "OpDef", "all_ops", "device_impls", "get_op", "register_impl",
           "register_op"]
