"""Paddle's legacy-IR op types: the one table from our registry types to the types Paddle's ProgramDesc
shows (`add` is `elementwise_add`, `matmul` is `matmul_v2`, `embedding` is `lookup_table_v2`, ...).

Static Operators carry the legacy type, so `op.type`, printed programs, append_backward callbacks and
tools that read op descs see what Paddle shows; `registry.get_op` resolves either name to the same op.
The gradient of an op is shown as Paddle names its grad op: `<legacy type>_grad`. Ops missing here
already have Paddle's name. Slot names are Paddle's in the registry itself.
"""

LEGACY_TYPES = {
    "add": "elementwise_add",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "maximum": "elementwise_max",
    "minimum": "elementwise_min",
    "remainder": "elementwise_mod",
    "floor_divide": "elementwise_floordiv",
    "matmul": "matmul_v2",
    "mean": "reduce_mean",
    "max": "reduce_max",
    "min": "reduce_min",
    "amax": "reduce_amax",
    "amin": "reduce_amin",
    "prod": "reduce_prod",
    "all": "reduce_all",
    "any": "reduce_any",
    "embedding": "lookup_table_v2",
    "reshape": "reshape2",
    "transpose": "transpose2",
    "squeeze": "squeeze2",
    "unsqueeze": "unsqueeze2",
    "flatten": "flatten_contiguous_range",
    "expand": "expand_v2",
    "expand_as": "expand_as_v2",
    "argmax": "arg_max",
    "argmin": "arg_min",
    "one_hot": "one_hot_v2",
}


def legacy_type(type):
    """The op type Paddle's legacy IR shows for our registry type `type`."""
    return LEGACY_TYPES.get(type, type)


def grad_type(forward_type):
    """The type Paddle gives the gradient of a forward op (whose type is already the legacy one)."""
    return forward_type + "_grad"
