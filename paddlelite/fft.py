"""paddle.fft: discrete Fourier transforms (ops/fft.py) and their frequency/shift helpers.

As in Paddle, `n`/`s` crop or zero-pad the input along the transformed axes (slice/pad ops) before the
transform; real input to a complex transform takes the r2c op with the full spectrum.
"""
import functools
from collections.abc import Sequence

import numpy as np

from .framework import get_default_dtype
from .ops import fft as _f
from .ops import manipulation as _mo
from .ops.dispatch import apply
from .tensor.creation import arange, assign
from .tensor.manipulation import cast, roll
from .tensor.math import _check_tensor, check_tensor_type

_COMPLEX_NAME = {"float32": "complex64", "float64": "complex128"}


def _is_integer(x):
    return x.dtype.np.kind in "iu"


def _deliver(result, out):
    """Paddle's `out=` here: the result is also written into `out`, and the result itself returned."""
    if out is not None:
        assign(result, output=out)
    return result


def _check_norm(api, norm):
    if norm not in ("forward", "backward", "ortho"):
        raise ValueError(f"{api}: unexpected norm {norm!r}; norm should be 'forward', 'backward' or 'ortho'")


def _check_n(api, n):
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise ValueError(f"{api}: invalid FFT argument n ({n!r}), it should be an integer")
    if n <= 0:
        raise ValueError(f"{api}: invalid FFT argument n ({n}), it should be positive")


def _check_axis(api, x, axis):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise ValueError(f"{api}: invalid FFT axis ({axis!r}), it should be an integer")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{api}: invalid FFT axis ({axis}), it should be in range [-{x.ndim}, {x.ndim})")
    return int(axis) % x.ndim


def _check_s(api, x, s):
    if not isinstance(s, Sequence):
        raise ValueError(f"{api}: invalid FFT argument s ({s!r}), it should be a sequence of integers")
    if len(s) > x.ndim:
        raise ValueError(f"{api}: length of FFT argument s should not be larger than the rank of input; "
                         f"received s: {list(s)}, rank of x: {x.ndim}")
    for size in s:
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"{api}: FFT sizes {list(s)} contain an invalid value ({size!r})")


def _check_axes(api, x, axes):
    if not isinstance(axes, Sequence):
        raise ValueError(f"{api}: invalid FFT axes ({axes!r}), it should be a sequence of integers")
    if len(axes) > x.ndim:
        raise ValueError(f"{api}: length of fft axes should not be larger than the rank of input; "
                         f"received len of axes: {len(axes)}, rank of x: {x.ndim}")
    for axis in axes:
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool) or not -x.ndim <= axis < x.ndim:
            raise ValueError(f"{api}: FFT axes {list(axes)} contain an invalid value ({axis!r}), it should be "
                             f"in range [-{x.ndim}, {x.ndim})")
    return [int(a) % x.ndim for a in axes]


def _resize(x, sizes, axes):
    """Crop, then zero-pad, x to `sizes` along `axes`."""
    crop = [(a, n) for a, n in zip(axes, sizes) if x.shape[a] > n]
    if crop:
        x = apply(_mo.SLICE, x, axes=[a for a, _ in crop], starts=[0] * len(crop), ends=[n for _, n in crop])
    pad = [(a, n - x.shape[a]) for a, n in zip(axes, sizes) if x.shape[a] < n]
    if pad:
        paddings = [0] * (2 * x.ndim)
        for a, p in pad:
            paddings[2 * a + 1] = p
        x = apply(_mo.PAD, x, paddings=paddings, pad_value=0.0)
    return x


def _as_real_input(x):
    """r2c's input: integers become the default float dtype."""
    return cast(x, get_default_dtype()) if _is_integer(x) else x


def _as_complex_input(x):
    """c2c/c2r's input: integers become the default dtype's complex, floats their complex."""
    if x.dtype.is_complex:
        return x
    name = get_default_dtype() if _is_integer(x) else x.dtype.name
    return cast(x, _COMPLEX_NAME.get(name, name))  # other dtypes reach the op's dtype check


def _is_real(x):
    return not x.dtype.is_complex


def _axes_and_sizes(api, x, s, axes, sort_all):
    """Paddle's fftn argument rules: the axes (default: the last len(s), or all), sorted (all of them for
    c2c, all but the last for r2c/c2r), with s reordered alike."""
    if s is not None:
        _check_s(api, x, s)
    if axes is None:
        axes = list(range(x.ndim - len(s), x.ndim)) if s is not None else list(range(x.ndim))
        return axes, None if s is None else [int(n) for n in s]
    axes = _check_axes(api, x, axes)
    order = np.argsort(axes if sort_all else axes[:-1], kind="stable").tolist()
    if not sort_all:
        order.append(len(axes) - 1)
    if s is not None and len(s) != len(axes):
        raise ValueError(f"{api}: length of s ({len(s)}) and length of axes ({len(axes)}) does not match")
    return [axes[i] for i in order], None if s is None else [int(s[i]) for i in order]


def _c2c(api, x, s, axes, norm, forward):
    _check_norm(api, norm)
    x = _as_complex_input(x)
    axes, s = _axes_and_sizes(api, x, s, axes, sort_all=True)
    if s is not None:
        x = _resize(x, s, axes)
    return apply(_f.FFT_C2C, x, axes=axes, normalization=norm, forward=forward)


def _r2c(api, x, s, axes, norm, forward, onesided):
    _check_norm(api, norm)
    x = _as_real_input(x)
    axes, s = _axes_and_sizes(api, x, s, axes, sort_all=False)
    if s is not None:
        x = _resize(x, s, axes)
    return apply(_f.FFT_R2C, x, axes=axes, normalization=norm, forward=forward, onesided=onesided)


def _c2r(api, x, s, axes, norm, forward):
    _check_norm(api, norm)
    x = _as_complex_input(x)
    axes, s = _axes_and_sizes(api, x, s, axes, sort_all=False)
    if s is not None:
        x = _resize(x, s[:-1] + [s[-1] // 2 + 1], axes)
    return apply(_f.FFT_C2R, x, axes=axes, normalization=norm, forward=forward, last_dim_size=s[-1] if s else 0)


def _one_dim(api, x, n, axis):
    check_tensor_type(x, api)
    axis = _check_axis(api, x, -1 if axis is None else axis)
    if n is not None:
        _check_n(api, n)
    return None if n is None else [n], [axis]


def _checked_nd(api, x, s, axes, rank=None):
    check_tensor_type(x, api)
    if rank is not None:  # the 2-D transforms
        if x.ndim < rank:
            raise ValueError(f"{api}: the rank of the input ({x.ndim}) should >= {rank}")
        for arg, value in (("s", s), ("axes", axes)):
            if value is not None and (not isinstance(value, Sequence) or len(value) != rank):
                raise ValueError(f"{api}: invalid FFT argument {arg} ({value!r}), it should be a sequence of "
                                 f"{rank} integers")
    return s, axes


def _paddle_signature(axis_name):
    """Paddle's extras around a transform: keyword aliases `input` (for x) and `dim` (for axis/axes), and
    the keyword-only `out=` that receives the result."""
    def decorate(fn):
        @functools.wraps(fn)
        def api(*args, out=None, **kwargs):
            for alias, name in (("input", "x"), ("dim", axis_name)):
                if alias in kwargs:
                    if name in kwargs:
                        raise TypeError(f"{fn.__name__}() got both '{name}' and its alias '{alias}'")
                    kwargs[name] = kwargs.pop(alias)
            return _deliver(fn(*args, **kwargs), out)
        return api
    return decorate


def _full_spectrum(api, x, s, axes, norm, forward):
    """The full (two-sided) transform: a real input through the r2c op, a complex one through c2c."""
    if _is_real(x):
        return _r2c(api, x, s, axes, norm, forward, False)
    return _c2c(api, x, s, axes, norm, forward)


# ---- 1-D ---------------------------------------------------------------------------------------
@_paddle_signature("axis")
def fft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D discrete Fourier transform along `axis` (cropped/zero-padded to `n`)."""
    s, axes = _one_dim("fft", x, n, axis)
    return _full_spectrum("fft", x, s, axes, norm, True)


@_paddle_signature("axis")
def ifft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D inverse discrete Fourier transform."""
    s, axes = _one_dim("ifft", x, n, axis)
    return _full_spectrum("ifft", x, s, axes, norm, False)


@_paddle_signature("axis")
def rfft(x, n=None, axis=-1, norm="backward", name=None):
    """1-D transform of a real signal: the n // 2 + 1 non-negative frequencies."""
    s, axes = _one_dim("rfft", x, n, axis)
    return _r2c("rfft", x, s, axes, norm, True, True)


@_paddle_signature("axis")
def irfft(x, n=None, axis=-1, norm="backward", name=None):
    """Inverse of rfft: a real signal of length n (default 2 * (m - 1)) from a half spectrum."""
    s, axes = _one_dim("irfft", x, n, axis)
    return _c2r("irfft", x, s, axes, norm, False)


@_paddle_signature("axis")
def hfft(x, n=None, axis=-1, norm="backward", name=None):
    """The (real) spectrum of a Hermitian-symmetric signal given by its first half."""
    s, axes = _one_dim("hfft", x, n, axis)
    return _c2r("hfft", x, s, axes, norm, True)


@_paddle_signature("axis")
def ihfft(x, n=None, axis=-1, norm="backward", name=None):
    """Inverse of hfft: the first half of the inverse transform of a real spectrum."""
    s, axes = _one_dim("ihfft", x, n, axis)
    return _r2c("ihfft", x, s, axes, norm, False, True)


# ---- N-D and 2-D -------------------------------------------------------------------------------
@_paddle_signature("axes")
def fftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D discrete Fourier transform over `axes` (default: the last len(s), or all)."""
    s, axes = _checked_nd("fftn", x, s, axes)
    return _full_spectrum("fftn", x, s, axes, norm, True)


@_paddle_signature("axes")
def ifftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D inverse discrete Fourier transform."""
    s, axes = _checked_nd("ifftn", x, s, axes)
    return _full_spectrum("ifftn", x, s, axes, norm, False)


@_paddle_signature("axes")
def rfftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D transform of a real signal, the last axis halved."""
    s, axes = _checked_nd("rfftn", x, s, axes)
    return _r2c("rfftn", x, s, axes, norm, True, True)


@_paddle_signature("axes")
def irfftn(x, s=None, axes=None, norm="backward", name=None):
    """Inverse of rfftn."""
    s, axes = _checked_nd("irfftn", x, s, axes)
    return _c2r("irfftn", x, s, axes, norm, False)


@_paddle_signature("axes")
def hfftn(x, s=None, axes=None, norm="backward", name=None):
    """N-D spectrum of a Hermitian-symmetric signal given by its half along the last axis."""
    s, axes = _checked_nd("hfftn", x, s, axes)
    return _c2r("hfftn", x, s, axes, norm, True)


@_paddle_signature("axes")
def ihfftn(x, s=None, axes=None, norm="backward", name=None):
    """Inverse of hfftn."""
    s, axes = _checked_nd("ihfftn", x, s, axes)
    return _r2c("ihfftn", x, s, axes, norm, False, True)


def _two_dim(nd, api):
    def fn(x, s=None, axes=(-2, -1), norm="backward", name=None):
        s, axes = _checked_nd(api, x, s, axes, rank=2)
        return nd(x, s, axes, norm, name)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = f"{nd.__name__} over two axes (default the last two)."
    return _paddle_signature("axes")(fn)


fft2, ifft2 = _two_dim(fftn, "fft2"), _two_dim(ifftn, "ifft2")
rfft2, irfft2 = _two_dim(rfftn, "rfft2"), _two_dim(irfftn, "irfft2")
hfft2, ihfft2 = _two_dim(hfftn, "hfft2"), _two_dim(ihfftn, "ihfft2")


# ---- frequencies and shifts --------------------------------------------------------------------
def _frequencies(result, out, requires_grad):
    result.stop_gradient = not requires_grad
    return _deliver(result, out)


def fftfreq(n, d=1.0, dtype=None, name=None, *, out=None, requires_grad=False):
    """The sample frequencies [0, 1, ..., -1] / (d * n) of an n-point transform."""
    if d * n == 0:
        raise ValueError("fftfreq: d or n should not be 0")
    neg = n // 2
    freq = roll(arange(-neg, (n + 1) // 2, dtype=dtype or get_default_dtype()), -neg) * (1.0 / (n * d))
    return _frequencies(freq, out, requires_grad)


def rfftfreq(n, d=1.0, dtype=None, name=None, *, out=None, requires_grad=False):
    """The non-negative sample frequencies [0, 1, ..., n // 2] / (d * n) of an n-point rfft."""
    if d * n == 0:
        raise ValueError("rfftfreq: d or n should not be 0")
    freq = arange(0, n // 2 + 1, dtype=dtype or get_default_dtype()) * (1.0 / (n * d))
    return _frequencies(freq, out, requires_grad)


def _shift(api, x, axes, extra):
    _check_tensor(x, api)
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = [int(axes)]
    else:
        axes = [int(a) for a in axes]
    return roll(x, [(x.shape[a] + extra) // 2 for a in axes], axes)


@_paddle_signature("axes")
def fftshift(x, axes=None, name=None):
    """Move the zero-frequency term to the centre of `axes` (all by default)."""
    return _shift("fftshift", x, axes, 0)


@_paddle_signature("axes")
def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift."""
    return _shift("ifftshift", x, axes, 1)


__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft", "ifft2", "ifftn",
           "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq",
           "rfftn"]
