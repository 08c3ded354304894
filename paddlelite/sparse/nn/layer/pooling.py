"""paddle.sparse.nn.MaxPool3D."""
from ....nn.layer.layers import Layer
from .. import functional as F


class MaxPool3D(Layer):
    """Channel-wise max pooling of a point cloud [N, D, H, W, C] (COO)."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NDHWC", name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.data_format, self.name = return_mask, ceil_mode, data_format, name

    def forward(self, x):
        return F.max_pool3d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            ceil_mode=self.ceil_mode, data_format=self.data_format, name=self.name)

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"
