"""Rotary position embedding (incubate's fused_rotary_position_embedding), one tensor at a time:

- fused_rope(X, Sin, Cos; use_neox_rotary_style, time_major): Out = X cos + R(X) sin, X [batch, seq, heads, dim]
  ([seq, batch, ...] when time_major), Sin / Cos [1 or batch, seq, dim] in X's dtype; R rotates the two halves of
  dim (neox style: (a, b) -> (-b, a)) or adjacent pairs ((x0, x1) -> (-x1, x0)).
- fused_rope_grad(DOut, Sin, Cos): DX = DOut cos - R(DOut sin), R being antisymmetric. The tables get no gradient,
  as in Paddle.

kernels/rope.cu computes both in one launch each.
"""
from .launch import rope as _launch
from .registry import Meta, register_op
from .shape_rules import check_float

_ATTRS = {"use_neox_rotary_style": True, "time_major": False}


def _rotated(xp, x, neox):
    """R(x) over the last axis."""
    if neox:
        half = x.shape[-1] // 2
        return xp.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    return xp.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(x.shape)


def _tables(sin, time_major):
    """[Bs, S, D] -> broadcastable against X: [Bs, S, 1, D], or [S, Bs, 1, D] when time_major."""
    t = sin[:, :, None, :]
    return t.transpose(1, 0, 2, 3) if time_major else t


def _rope_infer(x, sin, cos, use_neox_rotary_style, time_major, op="fused_rope"):
    check_float(op, x, real=True)
    if len(x.shape) != 4 or (x.shape[-1] != -1 and x.shape[-1] % 2):
        raise ValueError(f"op '{op}': X must be 4-D [batch, seq, heads, dim] with an even dim, received shape "
                         f"{list(x.shape)}")
    seq, batch = (x.shape[0], x.shape[1]) if time_major else (x.shape[1], x.shape[0])
    for slot, t in (("Sin", sin), ("Cos", cos)):
        if t.dtype != x.dtype or len(t.shape) != 3 or any(
                a != b and -1 not in (a, b) for a, b in zip(t.shape[1:], (seq, x.shape[-1]))) or \
                t.shape[0] not in (1, batch, -1):
            raise ValueError(f"op '{op}': {slot} must be [1 or batch, seq, dim] = [1 or {batch}, {seq}, "
                             f"{x.shape[-1]}] in X's dtype {x.dtype}, received {list(t.shape)} {t.dtype}")
    return Meta(tuple(x.shape), x.dtype)


def _rope_forward(xp, x, sin, cos, use_neox_rotary_style, time_major):
    s, c = _tables(sin, time_major), _tables(cos, time_major)
    return (x * c + _rotated(xp, x, use_neox_rotary_style) * s).astype(x.dtype, copy=False)


def _rope_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("fused_rope_grad", g.output_grad("Out"), g.input("Sin"), g.input("Cos"),
                                   **g.attrs))


def _rope_grad_forward(xp, dout, sin, cos, use_neox_rotary_style, time_major):
    s, c = _tables(sin, time_major), _tables(cos, time_major)
    return (dout * c - _rotated(xp, dout * s, use_neox_rotary_style)).astype(dout.dtype, copy=False)


FUSED_ROPE = register_op("fused_rope", inputs=("X", "Sin", "Cos"), outputs=("Out",), forward=_rope_forward,
                         infer=_rope_infer, grad=_rope_grad, attrs=dict(_ATTRS), nondiff_inputs=("Sin", "Cos"),
                         gpu=_launch.rope)

# The gradient is the same rotation taken back: its own grad would be fused_rope again (not registered: double
# backward through it is not supported).
FUSED_ROPE_GRAD = register_op("fused_rope_grad", inputs=("DOut", "Sin", "Cos"), outputs=("DX",),
                              forward=_rope_grad_forward,
                              infer=lambda dout, sin, cos, **attrs: _rope_infer(dout, sin, cos, **attrs,
                                                                                op="fused_rope_grad"),
                              attrs=dict(_ATTRS), gpu=_launch.rope_grad)
