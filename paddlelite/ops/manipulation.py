"""Shape and layout ops: cast, reshape, transpose, (un)squeeze, ..."""
import numpy as np

from .registry import Meta, register_op
from .shape_rules import normalize_axis


# ---- cast -----------------------------------------------------------------------------------------
def _cast_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("cast", g.output_grad("Out"), dtype=g.input("X").dtype.name))


CAST = register_op("cast", inputs=("X",), outputs=("Out",),
                   forward=lambda xp, x, dtype: x.astype(np.dtype(dtype)),
                   infer=lambda x, dtype: Meta(x.shape, np.dtype(dtype)), grad=_cast_grad,
                   attrs={"dtype": "float32"}, double_grad=True)


# ---- reshape --------------------------------------------------------------------------------------
def resolve_shape(op, in_shape, shape):
    """Paddle's reshape rule: 0 copies the input dim, one -1 is inferred."""
    out = [in_shape[i] if d == 0 else d for i, d in enumerate(shape)]
    if out.count(-1) > 1:
        raise ValueError(f"op '{op}': shape {list(shape)} has more than one -1")
    known = int(np.prod([d for d in out if d != -1])) if out else 1
    total = int(np.prod(in_shape)) if -1 not in in_shape else -1
    if -1 in out:
        if total != -1:
            if known == 0 or total % known:
                raise ValueError(f"op '{op}': cannot reshape an input of shape {list(in_shape)} "
                                 f"({total} elements) to {list(shape)}")
            out[out.index(-1)] = total // known
    elif total != -1 and known != total:
        raise ValueError(f"op '{op}': cannot reshape an input of shape {list(in_shape)} ({total} elements) "
                         f"to {list(shape)} ({known} elements)")
    return tuple(out)


def _reshape_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("reshape_as", g.output_grad("Out"), g.input("X")))


RESHAPE = register_op("reshape", inputs=("X",), outputs=("Out",),
                      forward=lambda xp, x, shape: x.reshape(resolve_shape("reshape", x.shape, shape)),
                      infer=lambda x, shape: Meta(resolve_shape("reshape", x.shape, shape), x.dtype),
                      grad=_reshape_grad, attrs={"shape": []}, double_grad=True)


def _reshape_as_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("reshape_as", g.output_grad("Out"), g.input("X")))


RESHAPE_AS = register_op("reshape_as", inputs=("X", "Target"), outputs=("Out",),
                         forward=lambda xp, x, t: x.reshape(t.shape),
                         infer=lambda x, t: Meta(t.shape, x.dtype), grad=_reshape_as_grad,
                         nondiff_inputs=("Target",), double_grad=True)


# ---- transpose ------------------------------------------------------------------------------------
def _check_perm(x, perm):
    if sorted(p % max(len(x.shape), 1) for p in perm) != list(range(len(x.shape))):
        raise ValueError(f"op 'transpose': perm {list(perm)} is not a permutation of the {len(x.shape)} "
                         f"dims of an input of shape {list(x.shape)}")
    return [p % len(x.shape) for p in perm]


def _transpose_grad(g):
    if g.needs("X"):
        perm = g.attrs["perm"]
        inverse = list(np.argsort([p % len(perm) for p in perm]))
        g.set_input_grad("X", g.op("transpose", g.output_grad("Out"), perm=[int(i) for i in inverse]))


TRANSPOSE = register_op("transpose", inputs=("X",), outputs=("Out",),
                        forward=lambda xp, x, perm: xp.transpose(x, perm),
                        infer=lambda x, perm: Meta(tuple(x.shape[p] for p in _check_perm(x, perm)), x.dtype),
                        grad=_transpose_grad, attrs={"perm": []}, double_grad=True)


# ---- unsqueeze / squeeze --------------------------------------------------------------------------
def unsqueeze_shape(shape, axes):
    out = list(shape)
    for a in axes:
        a = a if a >= 0 else a + len(out) + 1
        out.insert(a, 1)
    return tuple(out)


UNSQUEEZE = register_op("unsqueeze", inputs=("X",), outputs=("Out",),
                        forward=lambda xp, x, axis: x.reshape(unsqueeze_shape(x.shape, axis)),
                        infer=lambda x, axis: Meta(unsqueeze_shape(x.shape, axis), x.dtype),
                        grad=_reshape_grad, attrs={"axis": []}, double_grad=True)
