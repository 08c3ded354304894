"""Discrete Fourier transforms (Paddle's fft_c2c, fft_r2c, fft_c2r) on numpy.fft / cupy.fft.

`axes` are the transformed axes (non-negative, the last one is the real/half-spectrum axis of r2c/c2r),
`normalization` is "backward" | "ortho" | "forward", `forward` picks the transform's direction.
Gradients (Paddle's convention for complex tensors: dL/d(re) + i dL/d(im)) are adjoints: the adjoint
of a normalised DFT is the DFT of the other direction with the swapped norm; r2c's adjoint zero-extends
the half spectrum first and keeps the real part; c2r's adjoint is r2c with the entries that stand for a
conjugate pair (all but DC and Nyquist) doubled.
"""
import numpy as np

from .complex import REAL_OF
from .formula import concat, real
from .registry import Meta, register_op

_COMPLEX_OF = {v: k for k, v in REAL_OF.items()}
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
_INT_MAX = 2147483647


def _check(op, x, dtypes, what, normalization):
    if np.dtype(x.dtype) not in dtypes:
        raise TypeError(f"op '{op}': input 'X' must be {what}, received {np.dtype(x.dtype).name}")
    if normalization not in _SWAP:
        raise ValueError(f"op '{op}': normalization must be 'forward', 'backward' or 'ortho', "
                         f"received {normalization!r}")


def _last_dim_size(x_shape, axes, last_dim_size):
    """c2r's output length along the last axis: given, or 2 * (m - 1) for a half spectrum of m."""
    if last_dim_size:
        return last_dim_size
    m = x_shape[axes[-1]]
    return -1 if m == -1 else 2 * (m - 1)


# ---- c2c ---------------------------------------------------------------------------------------
def _c2c_forward(xp, x, axes, normalization, forward):
    transform = xp.fft.fftn if forward else xp.fft.ifftn
    return transform(x, axes=tuple(axes), norm=normalization).astype(x.dtype, copy=False)


def _c2c_infer(x, axes, normalization, forward):
    _check("fft_c2c", x, REAL_OF, "complex64 or complex128", normalization)
    return Meta(x.shape, x.dtype)


def _c2c_grad(g):
    if g.needs("X"):
        a = g.attrs
        g.set_input_grad("X", g.op("fft_c2c", g.output_grad("Out"), axes=a["axes"],
                                   normalization=_SWAP[a["normalization"]], forward=not a["forward"]))


FFT_C2C = register_op("fft_c2c", inputs=("X",), outputs=("Out",), forward=_c2c_forward, infer=_c2c_infer,
                      grad=_c2c_grad, attrs={"axes": [], "normalization": "backward", "forward": True},
                      double_grad=True)


# ---- r2c: real in, (half) spectrum out ----------------------------------------------------------
def _r2c_forward(xp, x, axes, normalization, forward, onesided):
    complex_dtype = _COMPLEX_OF[x.dtype]
    axes = tuple(axes)
    if not onesided:
        return _c2c_forward(xp, x.astype(complex_dtype), axes, normalization, forward)
    if forward:
        out = xp.fft.rfftn(x, axes=axes, norm=normalization)
    else:  # the inverse transform's half spectrum: conj of the forward one with the swapped norm
        out = xp.conj(xp.fft.rfftn(x, axes=axes, norm=_SWAP[normalization]))
    return out.astype(complex_dtype, copy=False)


def _r2c_infer(x, axes, normalization, forward, onesided):
    _check("fft_r2c", x, _COMPLEX_OF, "float32 or float64", normalization)
    shape = list(x.shape)
    if onesided and shape[axes[-1]] != -1:
        shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    return Meta(tuple(shape), _COMPLEX_OF[np.dtype(x.dtype)])


def _r2c_grad(g):
    if not g.needs("X"):
        return
    a, dout = g.attrs, g.output_grad("Out")
    if a["onesided"]:  # zero-extend the half spectrum to the full length n
        last = a["axes"][-1]
        missing = g.shape(g.input("X"))[last] - g.shape(dout)[last]
        if missing:
            paddings = [0] * (2 * dout.ndim)
            paddings[2 * last + 1] = missing
            dout = g.op("pad", dout, paddings=paddings, pad_value=0.0)
    full = g.op("fft_c2c", dout, axes=a["axes"], normalization=_SWAP[a["normalization"]], forward=not a["forward"])
    g.set_input_grad("X", real(full))


FFT_R2C = register_op("fft_r2c", inputs=("X",), outputs=("Out",), forward=_r2c_forward, infer=_r2c_infer,
                      grad=_r2c_grad, attrs={"axes": [], "normalization": "backward", "forward": True,
                                             "onesided": True}, double_grad=True)


# ---- c2r: half spectrum in, real out ------------------------------------------------------------
def _c2r_forward(xp, x, axes, normalization, forward, last_dim_size):
    n = _last_dim_size(x.shape, axes, last_dim_size)
    s = [x.shape[a] for a in axes[:-1]] + [n]
    if forward:  # hfft: the spectrum of a Hermitian signal is the inverse real transform of its conj
        out = xp.fft.irfftn(xp.conj(x), s=s, axes=tuple(axes), norm=_SWAP[normalization])
    else:
        out = xp.fft.irfftn(x, s=s, axes=tuple(axes), norm=normalization)
    return out.astype(REAL_OF[x.dtype], copy=False)


def _c2r_infer(x, axes, normalization, forward, last_dim_size):
    _check("fft_c2r", x, REAL_OF, "complex64 or complex128", normalization)
    shape = list(x.shape)
    n = _last_dim_size(shape, axes, last_dim_size)
    if n == 0:
        raise ValueError(f"op 'fft_c2r': the output length along axis {axes[-1]} must be positive; a half "
                         f"spectrum of length 1 needs last_dim_size, received shape {shape}")
    shape[axes[-1]] = n
    return Meta(tuple(shape), REAL_OF[np.dtype(x.dtype)])


def _c2r_grad(g):
    if not g.needs("X"):
        return
    a = g.attrs
    last = a["axes"][-1]
    m = g.shape(g.input("X"))[last]
    n = _last_dim_size(g.shape(g.input("X")), a["axes"], a["last_dim_size"])
    half = g.op("fft_r2c", g.output_grad("Out"), axes=a["axes"], normalization=_SWAP[a["normalization"]],
                forward=not a["forward"], onesided=True)
    # every entry but DC and (n even) Nyquist stands for itself and its conjugate mirror: weight 2
    pair_end = min(m, n // 2 if n % 2 == 0 else n // 2 + 1)
    parts = [g.op("slice", half, axes=[last], starts=[0], ends=[1])]
    if pair_end > 1:
        parts.append(g.op("slice", half, axes=[last], starts=[1], ends=[pair_end]) * 2.0)
    if pair_end < m:
        parts.append(g.op("slice", half, axes=[last], starts=[pair_end], ends=[_INT_MAX]))
    g.set_input_grad("X", concat(parts, axis=last) if len(parts) > 1 else parts[0])


FFT_C2R = register_op("fft_c2r", inputs=("X",), outputs=("Out",), forward=_c2r_forward, infer=_c2r_infer,
                      grad=_c2r_grad, attrs={"axes": [], "normalization": "backward", "forward": False,
                                             "last_dim_size": 0}, double_grad=True)
