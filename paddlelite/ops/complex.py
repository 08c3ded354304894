"""Complex numbers: real/imag parts, conj, angle, building complex tensors (complex, as_complex, as_real).

Gradients follow Paddle's (and PyTorch's) convention for complex inputs: a tensor's gradient is
dL/d(re) + i dL/d(im), so the grad of an op holomorphic in x is dout * conj(f'(x)) (see `conj_if_complex`).
"""
import numpy as np

from .formula import as_complex, as_real, conj, imag, make_complex, real, zeros_like
from .registry import Meta, register_op
from .shape_rules import broadcast_shapes

# the real dtype of a complex one (and back)
REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}
_COMPLEX_OF = {v: k for k, v in REAL_OF.items()}


def _require(api, x, kinds, what):
    if np.dtype(x.dtype).kind not in kinds:
        raise TypeError(f"op '{api}': input 'X' must be {what}, received {np.dtype(x.dtype).name}")


def _part_infer(name):
    def infer(x):
        _require(name, x, "c", "a complex tensor (complex64 or complex128)")
        return Meta(x.shape, REAL_OF[np.dtype(x.dtype)])
    return infer


def _real_grad(g):
    if g.needs("X"):
        dout = g.output_grad("Out")
        g.set_input_grad("X", make_complex(dout, zeros_like(dout)))


def _imag_grad(g):
    if g.needs("X"):
        dout = g.output_grad("Out")
        g.set_input_grad("X", make_complex(zeros_like(dout), dout))


# a C-ordered copy of the part (ascontiguousarray would make a 0-D input 1-D)
REAL = register_op("real", inputs=("X",), outputs=("Out",), forward=lambda xp, x: x.real.copy(),
                   infer=_part_infer("real"), grad=_real_grad, double_grad=True)
IMAG = register_op("imag", inputs=("X",), outputs=("Out",), forward=lambda xp, x: x.imag.copy(),
                   infer=_part_infer("imag"), grad=_imag_grad, double_grad=True)


def _conj_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", conj(g.output_grad("Out")))


def _conj_infer(x):
    _require("conj", x, "iufc", "a numeric tensor")
    return Meta(x.shape, np.dtype(x.dtype))


CONJ = register_op("conj", inputs=("X",), outputs=("Out",), forward=lambda xp, x: xp.conj(x), infer=_conj_infer,
                   grad=_conj_grad, double_grad=True)


def _angle_infer(x):
    _require("angle", x, "fc", "a floating or complex tensor")
    dtype = np.dtype(x.dtype)
    return Meta(x.shape, REAL_OF.get(dtype, dtype))


def _angle_grad(g):  # angle = atan2(im, re): d/dre = -im / |z|^2, d/dim = re / |z|^2; real x: piecewise constant
    if not g.needs("X"):
        return
    x, dout = g.input("X"), g.output_grad("Out")
    if not x.is_complex:
        g.set_input_grad("X", zeros_like(x))
        return
    re, im = real(x), imag(x)
    s = dout / (re * re + im * im)
    g.set_input_grad("X", make_complex(-(s * im), s * re))


def _angle_forward(xp, x):
    return xp.angle(x).astype(REAL_OF.get(x.dtype, x.dtype), copy=False)


ANGLE = register_op("angle", inputs=("X",), outputs=("Out",), forward=_angle_forward, infer=_angle_infer,
                    grad=_angle_grad, double_grad=True)


# ---- complex(real, imag): broadcasting, like a binary elementwise op ---------------------------------------
def _complex_infer(x, y):
    for slot, t in (("real", x), ("imag", y)):
        if np.dtype(t.dtype) not in _COMPLEX_OF:
            raise TypeError(f"op 'complex': input '{slot}' must be float32 or float64, received {np.dtype(t.dtype).name}")
    if np.dtype(x.dtype) != np.dtype(y.dtype):
        raise TypeError(f"op 'complex': real and imag must have the same dtype, received "
                        f"{np.dtype(x.dtype).name} and {np.dtype(y.dtype).name}")
    return Meta(broadcast_shapes("complex", x.shape, y.shape), _COMPLEX_OF[np.dtype(x.dtype)])


def _complex_forward(xp, x, y):
    out = xp.empty(xp.broadcast_shapes(x.shape, y.shape), _COMPLEX_OF[x.dtype])
    out.real, out.imag = x, y
    return out


def _complex_grad(g):
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    if g.needs("X"):
        g.set_input_grad("X", g.reduce_as(real(dout), x))
    if g.needs("Y"):
        g.set_input_grad("Y", g.reduce_as(imag(dout), y))


COMPLEX = register_op("complex", inputs=("X", "Y"), outputs=("Out",), forward=_complex_forward,
                      infer=_complex_infer, grad=_complex_grad, double_grad=True)


# ---- as_complex / as_real: a trailing axis of 2 <-> complex ------------------------------------------------
def _as_complex_infer(x):
    if np.dtype(x.dtype) not in _COMPLEX_OF:
        raise TypeError(f"op 'as_complex': input 'X' must be float32 or float64, received {np.dtype(x.dtype).name}")
    if not x.shape or x.shape[-1] not in (2, -1):
        raise ValueError(f"op 'as_complex': the last dimension of 'X' must be 2, received shape {list(x.shape)}")
    return Meta(tuple(x.shape[:-1]), _COMPLEX_OF[np.dtype(x.dtype)])


def _as_complex_forward(xp, x):
    if x.ndim == 0 or x.shape[-1] != 2:  # eager runs skip the shape rule: [..., 3] must not pair up silently
        raise ValueError(f"op 'as_complex': the last dimension of 'X' must be 2, received shape {list(x.shape)}")
    return _complex_forward(xp, x[..., 0], x[..., 1])


def _as_real_infer(x):
    _require("as_real", x, "c", "a complex tensor (complex64 or complex128)")
    return Meta(tuple(x.shape) + (2,), REAL_OF[np.dtype(x.dtype)])


def _as_real_forward(xp, x):
    return xp.stack([x.real, x.imag], axis=-1)


def _as_complex_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", as_real(g.output_grad("Out")))


def _as_real_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", as_complex(g.output_grad("Out")))


AS_COMPLEX = register_op("as_complex", inputs=("X",), outputs=("Out",), forward=_as_complex_forward,
                         infer=_as_complex_infer, grad=_as_complex_grad, double_grad=True)
AS_REAL = register_op("as_real", inputs=("X",), outputs=("Out",), forward=_as_real_forward,
                      infer=_as_real_infer, grad=_as_real_grad, double_grad=True)
