"""PyLayer: user-defined ops with a Python forward and backward."""
from ..framework.mode import is_grad_enabled, no_grad
from ..framework.tensor import Tensor, wrap_array
from .node import GradNode, _edge_of
from .saved_tensors_hooks import SavedTensor, pack_all, packing


class PyLayerContext:
    def __init__(self):
        self.container = ()
        self.not_inplace_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True
        self.grad_in_dtype_consistent = True

    def save_for_backward(self, *tensors):
        """Keep `tensors` for backward (packed by saved_tensors_hooks when they are registered)."""
        self.container = tuple(pack_all(tensors)) if packing() else tensors

    def saved_tensor(self):
        return tuple(t.unpack("PyLayerContext.saved_tensor") if t.__class__ is SavedTensor else t
                     for t in self.container)

    saved_tensors = property(saved_tensor)

    def mark_not_inplace(self, *tensors):
        """Inputs that forward may return: the output is then a new Tensor (the same storage), and the
        input keeps its own place in the graph."""
        self.not_inplace_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        """These outputs get stop_gradient=True; backward receives zeros (or None) for them."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        """False: backward receives None (not zeros) for an output no gradient reached."""
        self.materialize_grads = bool(value)

    def set_grad_in_dtype_consistent(self, flag):
        """True (the default): backward receives each output's gradient cast to that output's dtype;
        False: as it arrives."""
        self.grad_in_dtype_consistent = bool(flag)


def _tensor_inputs(args, kwargs):
    """(the Tensors among the arguments, as Paddle orders them: positional, then keyword in call order, each looking
    one level into lists and tuples; per argument holding any, None for a Tensor or the count of a list's)."""
    found, layout = [], []
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Tensor):
            found.append(a)
            layout.append(None)
        elif isinstance(a, (list, tuple)):
            tensors = [e for e in a if isinstance(e, Tensor)]
            if tensors:
                found.extend(tensors)
                layout.append(len(tensors))
    return found, layout


class PyLayerNode(GradNode):
    __slots__ = ("layer", "ctx", "in_shapes", "out_templates", "layout")

    grads_from_user = True  # backward's tensors are handed on as returned (Paddle keeps their flags)

    def __init__(self, layer, ctx, inputs, outputs, layout):
        GradNode.__init__(self, [_edge_of(t) for t in inputs], len(outputs))
        self.layer = layer
        self.ctx = ctx
        self.layout = layout
        self.in_shapes = [t.shape for t in inputs]
        self.out_templates = [(o._data.shape, o._data.dtype, o._place) for o in outputs]

    @property
    def name(self):
        return self.layer.__name__ + "_grad"

    def zeros_for_output(self, i):
        shape, dtype, place = self.out_templates[i]
        return wrap_array(place.xp.zeros(shape, dtype), place, True)

    def apply(self, grads, create_graph):
        if self.ctx.materialize_grads:
            grads = [g if g is not None else self.zeros_for_output(i) for i, g in enumerate(grads)]
        if self.ctx.grad_in_dtype_consistent:
            grads = [g if g is None or g._data.dtype == self.out_templates[i][1] else g.astype(self.out_templates[i][1])
                     for i, g in enumerate(grads)]
        try:
            result = self.layer.backward(self.ctx, *grads)
        except Exception as e:  # Paddle reports an error raised in backward as an External error: OSError
            raise OSError(f"(External) error in backward of {self.name}: {type(e).__name__}: {e}") from e
        # a tuple holds one gradient per input; anything else is one gradient (a list is refused, as in Paddle)
        # -- except for a list argument, whose gradients come as a list
        result = list(result) if isinstance(result, tuple) else [result]
        return self._per_input(self._flat(result))

    def _flat(self, result):
        """backward's gradients with those of a list argument (a list or tuple of them) in its Tensors' places."""
        if len(result) != len(self.layout) or all(n is None for n in self.layout):
            return result
        flat = []
        for n, g in zip(self.layout, result):
            if n is not None and isinstance(g, (list, tuple)) and len(g) == n:
                flat.extend(g)
            elif n is not None and g is None:
                flat.extend([None] * n)
            else:
                flat.append(g)
        return flat

    def _per_input(self, result):
        """backward's gradients, one per Tensor input: it returns one per input, or one per input that
        requires a gradient; None means no gradient."""
        api = f"{self.layer.__name__}.backward"
        needing = [k for k, e in enumerate(self.edges) if e is not None]
        if len(result) != len(self.edges):
            if len(result) != len(needing):
                raise ValueError(f"{api} returned {len(result)} gradient(s), but forward received "
                                 f"{len(self.edges)} Tensor input(s), {len(needing)} of them requiring a gradient; "
                                 "return one per Tensor input")
            full = [None] * len(self.edges)
            for k, g in zip(needing, result):
                full[k] = g
            result = full
        for k, g in enumerate(result):
            if g is None:
                continue
            if not isinstance(g, Tensor):  # ValueError as Paddle
                raise ValueError(f"{api}: gradient {k} must be a Tensor or None, received {type(g).__name__}")
            if g.shape != self.in_shapes[k]:
                raise ValueError(f"{api}: gradient {k} has shape {g.shape}, but Tensor input {k} has shape "
                                 f"{self.in_shapes[k]}")
        return result

    def release(self):
        self.released = True
        self.ctx = None


class PyLayer(PyLayerContext):
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`; call `apply`. (As in Paddle
    it is a PyLayerContext too, and paddle.autograd.Function is another name for it.)"""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        recording = is_grad_enabled()
        with no_grad():
            out = cls.forward(ctx, *args, **kwargs)
        inputs, layout = _tensor_inputs(args, kwargs)
        if ctx.not_inplace_tensors:
            out = _new_for_not_inplace(out, ctx.not_inplace_tensors, inputs)
        outs = [o for o in (out if isinstance(out, (list, tuple)) else [out]) if isinstance(o, Tensor)]
        if not outs:
            raise ValueError(f"{cls.__name__}: At least one output of `PyLayer.forward` is a `Tensor`; it returned "
                             f"{type(out).__name__}")
        if recording and any(not t.stop_gradient for t in inputs):
            _attach(cls, PyLayerNode(cls, ctx, inputs, outs, layout), inputs, outs)
        return out


def _new_for_not_inplace(out, marked, inputs):
    """`out` with each returned input that mark_not_inplace named replaced by a new Tensor viewing it."""
    ids = {id(t) for t in marked if any(t is i for i in inputs)}

    def new(o):
        return o.detach() if isinstance(o, Tensor) and id(o) in ids else o
    return type(out)(new(o) for o in out) if isinstance(out, (list, tuple)) else new(out)


def _attach(cls, node, inputs, outs):
    """Make the forward's outputs the node's. An output that is an input is rebound in place, as Paddle
    does -- which a leaf that requires a gradient cannot be."""
    for o in outs:
        if o._node is None and not o.stop_gradient and any(o is t for t in inputs):
            raise ValueError(f"{cls.__name__}.forward returned its input, a leaf Tensor that doesn't stop "
                             "gradient, which can't use inplace strategy; return a new tensor (e.g. x.clone())")
    non_diff = {id(t) for t in node.ctx.non_differentiable}
    for i, o in enumerate(outs):
        if id(o) in non_diff:
            o.stop_gradient = True
            continue
        if any(o is t for t in inputs):  # rebound in place: grad nodes that saved it see a new version
            o._bump_version()
        o._node = node
        o._out_index = i
        o.stop_gradient = False
