"""Paddle's model-parallel layers (fleet.layers.mpu.mp_layers) at model-parallel degree 1, the only degree paddlelite
has: each holds the whole weight of the layer it splits in Paddle -- VocabParallelEmbedding an Embedding's,
ColumnParallelLinear and RowParallelLinear a Linear's -- with Paddle's parameter shapes, names, initialisation and
attributes (`is_distributed` False), and computes what Paddle computes on a one-rank group. A group of more than
one rank (`mp_group`) raises NotImplementedError: splitting a layer across ranks is tensor model parallelism."""
from .....nn import functional as F
from .....nn.initializer import Constant
from .....nn.layer.layers import Layer
from .....tensor.manipulation import unsqueeze
from .... import unsupported

__all__ = []


def _degree(mp_group, layer):
    size = 1 if mp_group is None else mp_group.nranks
    if size > 1:
        raise NotImplementedError(unsupported._message(f"paddle.distributed.fleet.meta_parallel.{layer} over "
                                                       f"{size} ranks", unsupported.HYBRID))
    return size


class VocabParallelEmbedding(Layer):
    """An embedding table of [num_embeddings, embedding_dim] (Paddle splits its rows across the group)."""

    def __init__(self, num_embeddings, embedding_dim, weight_attr=None, mp_group=None, name=None):
        super().__init__()
        self.model_parallel_group = mp_group
        self.world_size = _degree(mp_group, "VocabParallelEmbedding")
        self.rank = 0
        self.origin_num_embeddings = self.num_embeddings = num_embeddings
        self.is_mp = False
        self.vocab_start_index = 0
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr = weight_attr
        self._name = name
        self.weight = self.create_parameter(attr=weight_attr, shape=self._size, dtype=self._dtype, is_bias=False)

    def forward(self, x):
        return F.embedding(x, weight=self.weight, padding_idx=None, sparse=False, name=self._name)


class _WholeLinear(Layer):
    """x @ weight + bias, weight [in_features, out_features] and a zero-initialised bias when `has_bias`: what both
    parallel linears are on one rank."""

    def __init__(self, in_features, out_features, weight_attr, has_bias, fuse_matmul_bias, mp_group, name):
        super().__init__()
        self.model_parallel_group = mp_group
        self.world_size = _degree(mp_group, type(self).__name__)
        self._name = name
        self.is_mp = False
        self._weight_attr = weight_attr
        self.weight = self.create_parameter(shape=[in_features, out_features], attr=weight_attr, dtype=self._dtype,
                                            is_bias=False)
        self.bias = None
        if has_bias:
            self.bias = self.create_parameter(shape=[out_features], attr=Constant(value=0.0), dtype=self._dtype,
                                              is_bias=True)
        self.fuse_matmul_bias = fuse_matmul_bias
        self.linear = F.linear

    def forward(self, x):
        return self.linear(x, self.weight, self.bias, name=self._name)


class ColumnParallelLinear(_WholeLinear):
    """Paddle splits the weight's columns across the group; `has_bias` None or False: no bias, as Paddle's."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None, gather_output=True,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__(in_features, out_features, weight_attr, has_bias, fuse_matmul_bias, mp_group, name)
        self.gather_output = gather_output
        self.output_size_per_partition = out_features


class RowParallelLinear(_WholeLinear):
    """Paddle splits the weight's rows across the group."""

    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True, input_is_parallel=False,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__(in_features, out_features, weight_attr, has_bias, fuse_matmul_bias, mp_group, name)
        self.in_features, self.out_features = in_features, out_features
        self.input_is_parallel = input_is_parallel
        self.input_size_per_partition = in_features


class ParallelCrossEntropy(Layer):
    """Softmax cross entropy over the last axis (Paddle splits the classes across the group); a label without the
    trailing axis of 1 gets one; the loss has the label's shape."""

    def __init__(self, mp_group=None, name=None, ignore_index=-100):
        super().__init__()
        self.name = name
        self.model_parallel_group = mp_group
        self.world_size = _degree(mp_group, "ParallelCrossEntropy")
        self.rank = 0
        self.ignore_index = ignore_index

    def forward(self, input, label):
        if len(input.shape) - 1 == len(label.shape):
            label = unsqueeze(label, -1)
        elif len(input.shape) != len(label.shape):
            raise ValueError(f"ParallelCrossEntropy: expected input_dims - 1 = label_dims or input_dims == "
                             f"label_dims (got input_dims {len(input.shape)}, label_dims {len(label.shape)})")
        return F.softmax_with_cross_entropy(input, label, ignore_index=self.ignore_index)
