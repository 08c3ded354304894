"""Reductions over axes: sum, mean, ..."""
from .registry import Meta, register_op
from .shape_rules import normalize_axes


def reduced_shape(op, shape, axis, keepdim):
    axes = normalize_axes(op, axis, len(shape))
    if keepdim:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce_infer(name):
    def infer(x, axis=None, keepdim=False, **attrs):
        return Meta(reduced_shape(name, x.shape, axis, keepdim), x.dtype)
    return infer


def _axes(x, axis):
    return None if axis is None else tuple(normalize_axes("reduce", axis, x.ndim))


def _broadcast_back(g, dout):
    """dout of a reduction, reshaped to keep the reduced dims, then broadcast to the input's shape."""
    x = g.input("X")
    if not g.attrs["keepdim"]:
        kept = g.op("reshape_as", dout, g.op("sum", x, axis=g.attrs["axis"], keepdim=True))
    else:
        kept = dout
    return g.op("expand_as", kept, x)


def _sum_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", _broadcast_back(g, g.output_grad("Out")))


def _mean_grad(g):
    if g.needs("X"):
        g.set_input_grad("X", g.op("mean_grad", g.input("X"), g.output_grad("Out"), axis=g.attrs["axis"],
                                   keepdim=g.attrs["keepdim"]))


SUM = register_op("sum", inputs=("X",), outputs=("Out",),
                  forward=lambda xp, x, axis, keepdim: xp.asarray(x.sum(axis=_axes(x, axis), keepdims=keepdim)),
                  infer=_reduce_infer("sum"), grad=_sum_grad, attrs={"axis": None, "keepdim": False},
                  double_grad=True)

MEAN = register_op("mean", inputs=("X",), outputs=("Out",),
                   forward=lambda xp, x, axis, keepdim: xp.asarray(x.mean(axis=_axes(x, axis), keepdims=keepdim)),
                   infer=_reduce_infer("mean"), grad=_mean_grad, attrs={"axis": None, "keepdim": False},
                   double_grad=True)


def _mean_grad_forward(xp, x, dout, axis, keepdim):
    axes = normalize_axes("mean", axis, x.ndim)
    count = 1
    for a in axes:
        count *= x.shape[a]
    if not keepdim:
        dout = dout.reshape(reduced_shape("mean", x.shape, axis, True))
    return xp.broadcast_to(dout / x.dtype.type(max(count, 1)), x.shape).astype(x.dtype, copy=False)


def _mean_grad_grad(g):
    # mean_grad is linear in dOut: its own gradient w.r.t. dOut is the mean of the incoming grad.
    if g.needs("Dout"):
        g.set_input_grad("Dout", g.op("mean", g.output_grad("Out"), axis=g.attrs["axis"],
                                      keepdim=g.attrs["keepdim"]))


MEAN_GRAD = register_op("mean_grad", inputs=("X", "Dout"), outputs=("Out",), forward=_mean_grad_forward,
                        infer=lambda x, dout, axis=None, keepdim=False: Meta(x.shape, x.dtype),
                        grad=_mean_grad_grad, attrs={"axis": None, "keepdim": False},
                        nondiff_inputs=("X",), double_grad=True)
