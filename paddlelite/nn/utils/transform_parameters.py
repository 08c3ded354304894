"""parameters_to_vector and vector_to_parameters: parameters as one flat vector and back."""
import numpy as np

from ...framework.tensor import Tensor
from ...tensor.manipulation import concat, reshape

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def param_list(parameters, api):
    """A Tensor or an iterable of Tensors -> a list of Tensors (TypeError naming `api` otherwise)."""
    if isinstance(parameters, Tensor):
        return [parameters]
    params = list(parameters)
    for p in params:
        if not isinstance(p, Tensor):
            raise TypeError(f"{api}: parameters must be Tensors, received {type(p).__name__}")
    return params


def parameters_to_vector(parameters, name=None):
    params = param_list(parameters, "parameters_to_vector")
    return concat([reshape(p, [-1]) for p in params])


def vector_to_parameters(vec, parameters, name=None):
    params = param_list(parameters, "vector_to_parameters")
    data = vec.numpy() if isinstance(vec, Tensor) else np.asarray(vec)
    total = sum(p.size for p in params)
    if data.size != total:
        raise ValueError(f"vector_to_parameters: vec has {data.size} elements, the parameters {total}")
    off = 0
    for p in params:
        chunk = data[off:off + p.size].reshape(p.shape).astype(p._data.dtype)
        p._write(p._place.xp.asarray(chunk))
        off += p.size
