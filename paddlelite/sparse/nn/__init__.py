"""paddle.sparse.nn: the layers of sparse (point-cloud) networks."""
from . import functional
from .layer.activation import LeakyReLU, ReLU, ReLU6, Softmax
from .layer.conv import Conv2D, Conv3D, SubmConv2D, SubmConv3D
from .layer.norm import BatchNorm, SyncBatchNorm
from .layer.pooling import MaxPool3D

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax", "BatchNorm", "SyncBatchNorm", "Conv2D", "Conv3D", "SubmConv2D",
           "SubmConv3D", "MaxPool3D"]
