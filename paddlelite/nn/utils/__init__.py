"""paddle.nn.utils: gradient clipping in place, parameters as one flat vector, weight and spectral normalisation
hooks."""
import sys as _sys

from . import clip_grad as _clip_grad
from .clip_grad import clip_grad_norm_, clip_grad_value_
from .spectral_norm_hook import spectral_norm
from .transform_parameters import parameters_to_vector, vector_to_parameters
from .weight_norm_hook import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters", "weight_norm",
           "remove_weight_norm", "spectral_norm"]

# Paddle's modules of these two functions, which Paddle code imports from: clip_grad holds both here
for _path in ("clip_grad_norm_", "clip_grad_value_"):
    _sys.modules[f"{__name__}.{_path}"] = _clip_grad
