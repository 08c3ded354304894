"""paddle.sparse.nn.BatchNorm and SyncBatchNorm: the dense layers' normalisation of the values [nnz, C] of a
channels-last sparse tensor (every entry a sample, its channels the features)."""
from ....framework.user_warnings import warn
from ....nn import functional as _F
from ....nn.layer import norm as _norm
from ..._kinds import valuewise


class BatchNorm(_norm.BatchNorm1D):
    """Batch normalisation over the entries of a sparse [N, (D,) H, W, C] tensor."""

    _formats = ("NDHWC", "NHWC")

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NDHWC", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats,
                         name)

    def forward(self, input):
        if self.training:
            warn("When training, we now always track global mean and variance.")
        if self._use_global_stats is None:  # Paddle's: fixed by the mode of the first call -- after a training
            self._use_global_stats = not self.training  # call, eval() keeps using (and tracking) batch statistics
        return valuewise(input, lambda v: _F.batch_norm(
            v, self._mean, self._variance, weight=self.weight, bias=self.bias,
            training=self.training or not self._use_global_stats,
            momentum=self._momentum, epsilon=self._epsilon, data_format="NC",
            use_global_stats=self._use_global_stats), "sparse.nn.BatchNorm")


class SyncBatchNorm(_norm.SyncBatchNorm):
    """SyncBatchNorm over the entries of a sparse tensor: the statistics gathered across processes."""

    def forward(self, x):
        return valuewise(x, super().forward, "sparse.nn.SyncBatchNorm")

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """`layer` with every sparse BatchNorm in it replaced by a sparse SyncBatchNorm (sharing its parameters
        and statistics), and every dense one by paddle.nn.SyncBatchNorm."""
        if isinstance(layer, BatchNorm):
            out = cls(layer._num_features, layer._momentum, layer._epsilon, data_format=layer._data_format,
                      name=layer._name)
            out.weight, out.bias, out._mean, out._variance = layer.weight, layer.bias, layer._mean, layer._variance
        else:
            out = _norm.SyncBatchNorm.convert_sync_batchnorm(layer) if not list(layer.named_children()) else layer
        for name, sub in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out
