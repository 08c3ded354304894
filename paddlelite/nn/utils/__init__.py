"""paddle.nn.utils: gradient clipping in place and parameters as one flat vector."""
from .clip_grad import clip_grad_norm_, clip_grad_value_
from .transform_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]
