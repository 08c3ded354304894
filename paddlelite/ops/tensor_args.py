"""Op arguments given as tensors, as Paddle's ops take them (OpDef.host_inputs): a reshape's `Shape` (one 1-D int
tensor) or `ShapeTensor` (one 1-element tensor per entry), a slice's `StartsTensor` / `StartsTensorList`, a
fill_constant's `ValueTensor`. Forwards read them on the host when they run; shape rules see only their metas, so
what depends on the values is unknown (-1) there.
"""


def int_values(tensor, tensors, attr):
    """The ints of an argument: those 1-D int array `tensor` holds, else one per 1-element array of `tensors`,
    else the attr's own list."""
    if tensor is not None:
        return [int(v) for v in tensor.reshape(-1).tolist()]
    if tensors:
        return [int(t.reshape(-1).tolist()[0]) for t in tensors]
    return attr


def scalar_value(tensor, attr):
    """The number 1-element array `tensor` holds (a Python int or float), else the attr's."""
    return attr if tensor is None else tensor.reshape(-1).tolist()[0]


def known_ints(tensor, attr, unknown=-1):
    """What a shape rule knows of such an argument: for a 1-D tensor (meta), `unknown` per entry, or None when its
    length is unknown too; else the attr (for a list of tensors, the API set its entries to `unknown` where a
    tensor gives them, as Paddle's descs show such placeholders)."""
    if tensor is not None:
        n = tensor.shape[0] if len(tensor.shape) == 1 else (1 if len(tensor.shape) == 0 else -1)
        return None if n == -1 else [unknown] * n
    return attr
