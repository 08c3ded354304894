"""The argument checks paddle.geometric's APIs share: Paddle's error for a non-tensor or a tensor of a dtype the
op has no kernel for, naming the API and the argument."""
from ..framework.arg_errors import not_a_tensor
from ..tensor.tensor_args import is_tensor_like

VALUES = ("float16", "float32", "float64", "int32", "int64")
INDICES = ("int32", "int64")


def check_tensor(x, api, arg, dtypes):
    if not is_tensor_like(x):
        raise not_a_tensor(f"{api}: {arg} must be a Tensor, received {type(x).__name__}")
    if x.dtype.name not in dtypes:
        raise TypeError(f"{api}: {arg} must be a Tensor of dtype {list(dtypes)}, received {x.dtype.name}")
