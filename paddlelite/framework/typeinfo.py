"""paddle.finfo / paddle.iinfo: the numeric limits of a dtype, printed as Paddle prints them."""
import numpy as np

from .dtype import convert_dtype


def _np_dtype(dtype, api):
    if str(dtype).replace("paddle.", "") == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return convert_dtype(dtype, api).np


class finfo:
    """Limits of a floating-point dtype: min, max, eps, resolution, smallest_normal, tiny, bits, dtype."""

    def __init__(self, dtype):
        npd = _np_dtype(dtype, "finfo")
        if npd.kind not in "fc" and npd.name != "bfloat16":
            raise ValueError(f"finfo: dtype must be a floating point or complex dtype, received {npd.name}")
        if npd.kind == "c":
            npd = np.dtype(f"f{npd.itemsize // 2}")
        info = np.finfo(npd) if npd.name != "bfloat16" else __import__("ml_dtypes").finfo(npd)
        self.min, self.max, self.eps = float(info.min), float(info.max), float(info.eps)
        self.resolution = 10.0 ** -int(info.precision)
        self.smallest_normal = self.tiny = float(info.smallest_normal)
        self.bits, self.dtype = int(info.bits), npd.name

    def __repr__(self):
        return (f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, resolution={self.resolution:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:
    """Limits of an integer dtype: min, max, bits, dtype."""

    def __init__(self, dtype):
        npd = _np_dtype(dtype, "iinfo")
        if npd.kind not in "iu":
            raise ValueError(f"iinfo: dtype must be an integer dtype, received {npd.name}")
        info = np.iinfo(npd)
        self.min, self.max = int(info.min), int(info.max)
        self.bits, self.dtype = npd.itemsize * 8, npd.name

    def __repr__(self):
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"

    __str__ = __repr__
