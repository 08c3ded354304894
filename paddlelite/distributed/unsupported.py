"""The names of paddle.distributed that paddlelite does not implement: parameter servers, auto-parallel
sharding (DistTensor, meshes, tensor/sequence/context parallelism, sharded checkpoints) and pipeline
parallelism. Each raises NotImplementedError naming what it belongs to; the README lists them."""

FEATURES = {
    "auto-parallel sharding (DistTensor, ProcessMesh, placements, tensor/sequence/context parallelism)": [
        "ColWiseParallel", "ContextParallel", "ConvParallel", "DistAttr", "DistModel", "LocalLayer", "Partial",
        "Placement", "PrepareContextParallel", "PrepareLayerInput", "PrepareLayerOutput", "ProcessMesh",
        "ReduceType", "Replicate", "RowWiseParallel", "SequenceParallelBegin", "SequenceParallelDisable",
        "SequenceParallelEnable", "SequenceParallelEnd", "Shard", "ShardingStage1", "ShardingStage2",
        "ShardingStage3", "Strategy", "dtensor_from_fn", "get_mesh", "set_mesh", "local_map", "parallelize",
        "reshard", "shard_dataloader", "shard_layer", "shard_optimizer", "shard_scaler", "shard_tensor",
        "shard_weight", "split", "to_distributed", "to_static", "unshard_dtensor"],
    "sharded distributed checkpoints": [
        "ShardedStateDict", "ShardedWeight", "build_sharded_state_dict", "load_merged_state_dict",
        "load_state_dict", "save_state_dict"],
    "pipeline parallelism": ["SplitPoint"],
    "parameter-server training": ["CountFilterEntry", "ProbabilityEntry", "ShowClickEntry", "InMemoryDataset",
                                  "QueueDataset"],
}


def _message(name, feature):
    return (f"{name} belongs to {feature}, which paddlelite does not implement; paddlelite implements data "
            "parallelism (paddle.DataParallel, fleet's collective mode, the collectives) - see the README section "
            "'Data-parallel training (paddle.distributed)'")


def _unsupported(name, feature):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(_message(f"paddle.distributed.{name}", feature))
    unsupported.__name__ = unsupported.__qualname__ = name
    return unsupported


def unsupported_class(module, name, feature):
    """A class of Paddle's under `module` (its import path) that paddlelite does not implement: it can be imported,
    subclassed and named in isinstance checks (nothing is ever an instance), and creating one raises
    NotImplementedError naming `feature`."""
    def __new__(cls, *args, **kwargs):
        raise NotImplementedError(_message(f"{module}.{name}", feature))
    return type(name, (), {"__new__": __new__, "__module__": module, "__doc__": f"Not implemented: {feature}."})


NAMES = {name: _unsupported(name, feature) for feature, names in FEATURES.items() for name in names}

# the features of fleet's hybrid parallelism the classes of unsupported_class belong to
HYBRID = "hybrid parallelism (fleet's tensor model and sequence parallelism over more than one rank)"
PIPELINE = "pipeline parallelism"
SHARDING = "sharded data parallelism (optimizer states and gradients split across ranks)"
