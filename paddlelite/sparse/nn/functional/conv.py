"""paddle.sparse.nn.functional's convolutions of point clouds (channels-last COO tensors): regular ones, whose
output sites are every position the kernel reaches, and submanifold ones (subm_*), which keep the input's sites.
The *_igemm variants (Paddle's implicit-GEMM kernels) compute the same submanifold convolution."""
from ....nn.functional.conv import int_tuple, padding_attrs
from ....ops import dispatch
from ....ops import sparse_conv as _ops
from ....ops.conv import resolve_pads
from ..._kinds import check_sparse
from ...binary import add


def _conv(x, weight, bias, stride, padding, dilation, groups, subm, data_format, nd, api):
    check_sparse(x, api)
    if groups != 1:
        raise ValueError(f"{api}: only groups=1 is supported (as in Paddle), received {groups}")
    layout = "NDHWC" if nd == 3 else "NHWC"
    if data_format != layout:
        raise ValueError(f"{api}: Attr(data_format) should be '{layout}'. Received Attr(data_format): {data_format}.")
    if len(x.shape) != nd + 2:
        raise ValueError(f"{api}: Input x should be {nd + 2}D tensor, but received x with the shape of "
                         f"{list(x.shape)}")
    if len(weight.shape) != nd + 2:
        raise ValueError(f"{api}: weight must be {nd + 2}-D [*kernel, in_channels, out_channels], received "
                         f"{list(weight.shape)}")
    strides = int_tuple(stride, nd, api, "stride")
    dilations = int_tuple(dilation, nd, api, "dilation")
    paddings, algorithm = padding_attrs(padding, nd, api, True)
    pads, dilations = resolve_pads(api, paddings, algorithm, list(x.shape[1:-1]), list(weight.shape[:nd]), strides,
                                   dilations)
    if any(before != after for before, after in pads):
        raise ValueError(f"{api}: sparse convolutions pad both sides of a dim alike, received {pads}")
    out = dispatch.apply(_ops.SPARSE_CONV, x, weight, strides=strides, paddings=[p for p, _ in pads],
                         dilations=dilations, subm=subm)
    return out if bias is None else add(out, bias)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", name=None):
    """The 3-D convolution of a point cloud x [N, D, H, W, C] (COO) with weight [kD, kH, kW, C, M]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, False, data_format, 3,
                 "sparse.nn.functional.conv3d")


def subm_conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", key=None,
                name=None):
    """The submanifold 3-D convolution: outputs at x's own sites only."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 3,
                 "sparse.nn.functional.subm_conv3d")


def subm_conv3d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC",
                      key=None, name=None):
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 3,
                 "sparse.nn.functional.subm_conv3d_igemm")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", name=None):
    """The 2-D convolution of a sparse x [N, H, W, C] (COO) with weight [kH, kW, C, M]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, False, data_format, 2,
                 "sparse.nn.functional.conv2d")


def subm_conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", key=None,
                name=None):
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 2,
                 "sparse.nn.functional.subm_conv2d")


def subm_conv2d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC",
                      key=None, name=None):
    return _conv(x, weight, bias, stride, padding, dilation, groups, True, data_format, 2,
                 "sparse.nn.functional.subm_conv2d_igemm")
