"""paddle.static.CompiledProgram and BuildStrategy, and the IPU names of Paddle's CPU build.

Paddle's CompiledProgram hands a Program to its graph compiler with a BuildStrategy's fusion and memory
switches. paddlelite's Executor already compiles every program into a cached plan (and frees each
temporary at its last use), so a CompiledProgram is the Program plus the strategy it was given: the
Executor runs its `_runnable()`, the program itself, and the switches are kept as the user set them --
except `sync_batch_norm`, which changes the numbers: as Paddle's sync_batch_norm_pass it runs a copy of the
program whose batch_norm ops (and their grad ops) are sync_batch_norm.
"""
import contextlib
import enum

from .framework import Program


class _ReduceStrategy(enum.IntEnum):
    AllReduce = 0
    Reduce = 1
    _NoReduce = 2


class _GradientScaleStrategy(enum.IntEnum):
    CoeffNumDevice = 0
    One = 1
    Customized = 2


class BuildStrategy:
    """Paddle's graph-build switches with Paddle's defaults (fusions, inplace, memory_optimize, ...)."""

    ReduceStrategy = _ReduceStrategy
    GradientScaleStrategy = _GradientScaleStrategy

    def __init__(self):
        self.allow_cuda_graph_capture = False
        self.async_mode = False
        self.bkcl_comm_num = 1
        self.build_cinn_pass = False
        self.cache_runtime_context = False
        self.debug_graphviz_path = ""
        self.enable_addto = False
        self.enable_auto_fusion = False
        self.enable_backward_optimizer_op_deps = True
        self.enable_inplace = True
        self.fuse_adamw = False
        self.fuse_all_optimizer_ops = False
        self.fuse_all_reduce_ops = True
        self.fuse_bn_act_ops = False
        self.fuse_bn_add_act_ops = True
        self.fuse_broadcast_ops = True
        self.fuse_dot_product_attention = False
        self.fuse_elewise_add_act_ops = False
        self.fuse_gemm_epilogue = False
        self.fuse_relu_depthwise_conv = False
        self.fuse_resunit = False
        self.fused_attention = False
        self.fused_feedforward = False
        self.hierarchical_allreduce_inter_nranks = 0
        self.memory_optimize = None
        self.mkldnn_enabled_op_types = set()
        self.nccl_comm_num = 1
        self.num_trainers = 1
        self.onednn_enabled_op_types = set()
        self.reduce_strategy = _ReduceStrategy.AllReduce
        self.gradient_scale_strategy = _GradientScaleStrategy.CoeffNumDevice
        self.sequential_run = False
        self.sync_batch_norm = False
        self.trainer_id = 0
        self.trainers_endpoints = []
        self.use_hierarchical_allreduce = False

    def __setattr__(self, name, value):
        if not hasattr(self, "use_hierarchical_allreduce") or hasattr(self, name):
            object.__setattr__(self, name, value)
        else:  # Paddle's BuildStrategy is a C++ object with fixed fields
            raise AttributeError(f"'BuildStrategy' object has no attribute '{name}'")


class CompiledProgram:
    """A Program (and the BuildStrategy it is compiled with) that Executor.run accepts in its place."""

    def __init__(self, program_or_graph, build_strategy=None):
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"The type of program_to_graph parameter is wrong, expected Graph or Program, but "
                            f"received {type(program_or_graph)}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"CompiledProgram: build_strategy must be a BuildStrategy, received "
                            f"{type(build_strategy).__name__}")
        self._program = program_or_graph
        self._build_strategy = build_strategy if build_strategy is not None else BuildStrategy()
        self._is_inference = False
        self._synced = None  # ((program uid, version), the copy with sync_batch_norm ops)

    def _runnable(self):
        """The program the Executor runs (the user's program stays as built)."""
        if not self._build_strategy.sync_batch_norm:
            return self._program
        key = (self._program._uid, self._program._version)
        if self._synced is None or self._synced[0] != key:
            self._synced = key, _sync_batch_norm_pass(self._program.clone())
        return self._synced[1]

    def __repr__(self):
        return f"CompiledProgram({self._program!r})"


def _sync_batch_norm_pass(program):
    """Paddle's sync_batch_norm_pass: every batch_norm op and batch_norm grad op becomes its sync_batch_norm
    counterpart (same slots and attrs; statistics over every rank of the world)."""
    for block in program.blocks:
        for op in block.ops:
            for o in (op, *getattr(op, "_body", ())):
                if o.type in ("batch_norm", "batch_norm_grad"):
                    o.type = "sync_" + o.type
    program._bump()
    return program


_NO_IPU = "Can not use this function since PaddlePaddle is not compiled with IPU"


class IpuStrategy:
    """Exists as in Paddle's CPU build: constructing one raises (no IPU support)."""

    def __init__(self):
        raise RuntimeError("Can not use IpuStrategy in non IPU compiled environment, please re-compile with "
                           "WITH_IPU=ON.")


class IpuCompiledProgram:
    """Exists as in Paddle's CPU build: constructing one raises (no IPU support)."""

    def __init__(self, program=None, scope=None, ipu_strategy=None):
        raise ValueError(_NO_IPU)


@contextlib.contextmanager
def ipu_shard_guard(index=-1, stage=-1):
    """Exists as in Paddle's CPU build: entering it raises (no IPU support)."""
    raise ValueError(_NO_IPU)
    yield  # unreachable: it makes this a generator, so the error comes on entering, as in Paddle


def set_ipu_shard(call_func, index=-1, stage=-1):
    """Exists as in Paddle's CPU build: the wrapped function raises when called (no IPU support)."""
    if not callable(call_func):
        raise TypeError("Unsupported type. Only accept paddle.nn.Layer or function.")

    def wrapper(*args, **kwargs):
        with ipu_shard_guard(index=index, stage=stage):
            return call_func(*args, **kwargs)
    return wrapper
