"""Sequence parallelism (Paddle's fleet.utils.sequence_parallel_utils): activations split along the sequence across a
model-parallel group -- not implemented (unsupported.py); marking a parameter is kept, as Paddle's attribute."""
from ...unsupported import HYBRID, _message, unsupported_class

__all__ = []

_PATH = "paddle.distributed.fleet.utils.sequence_parallel_utils"
(ScatterOp, GatherOp, AllGatherOp, ReduceScatterOp, ColumnSequenceParallelLinear,
 RowSequenceParallelLinear) = (unsupported_class(_PATH, name, HYBRID) for name in (
    "ScatterOp", "GatherOp", "AllGatherOp", "ReduceScatterOp", "ColumnSequenceParallelLinear",
    "RowSequenceParallelLinear"))


def mark_as_sequence_parallel_parameter(parameter):
    """Mark `parameter` as one whose gradient a sequence-parallel group all-reduces (its `sequence_parallel`)."""
    parameter.sequence_parallel = True


def is_sequence_parallel_parameter(parameter):
    return getattr(parameter, "sequence_parallel", False)


def register_sequence_parallel_allreduce_hooks(model, accumulation_steps, fuse_sequence_parallel_allreduce):
    raise NotImplementedError(_message(f"{_PATH}.register_sequence_parallel_allreduce_hooks", HYBRID))
