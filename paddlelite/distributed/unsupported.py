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


def _unsupported(name, feature):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(
            f"paddle.distributed.{name} belongs to {feature}, which paddlelite does not implement; paddlelite "
            "implements data parallelism (paddle.DataParallel, fleet's collective mode, the collectives) - "
            "see the README section 'Data-parallel training (paddle.distributed)'")
    unsupported.__name__ = unsupported.__qualname__ = name
    return unsupported


NAMES = {name: _unsupported(name, feature) for feature, names in FEATURES.items() for name in names}
