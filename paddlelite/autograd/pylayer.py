"""PyLayer: user-defined ops with a Python forward and backward."""
from ..framework.mode import grad_state
from ..framework.tensor import Tensor, wrap_array
from .node import GradNode, _edge_of


class PyLayerContext:
    def __init__(self):
        self.container = ()
        self.not_inplace_tensors = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        self.container = tensors

    def saved_tensor(self):
        return self.container

    saved_tensors = property(saved_tensor)

    def mark_not_inplace(self, *tensors):
        self.not_inplace_tensors = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class PyLayerNode(GradNode):
    __slots__ = ("layer", "ctx", "tensor_positions", "out_templates")

    def __init__(self, layer, ctx, inputs, outputs):
        self.tensor_positions = [i for i, a in enumerate(inputs) if isinstance(a, Tensor)]
        edges = [_edge_of(inputs[i]) for i in self.tensor_positions]
        GradNode.__init__(self, edges, len(outputs))
        self.layer = layer
        self.ctx = ctx
        self.out_templates = [(o._data.shape, o._data.dtype, o._place) for o in outputs]

    @property
    def name(self):
        return self.layer.__name__ + "_grad"

    def apply(self, grads, create_graph):
        if self.ctx.materialize_grads:
            grads = [g if g is not None else wrap_array(p.xp.zeros(s, d), p, True)
                     for g, (s, d, p) in zip(grads, self.out_templates)]
        result = self.layer.backward(self.ctx, *grads)
        result = list(result) if isinstance(result, (list, tuple)) else [result]
        if len(result) != len(self.edges):
            raise ValueError(f"{self.layer.__name__}.backward returned {len(result)} gradient(s), but "
                             f"forward received {len(self.edges)} Tensor input(s); return one per Tensor input")
        for k, (g, e) in enumerate(zip(result, self.edges)):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"{self.layer.__name__}.backward: gradient {k} must be a Tensor or None, "
                                f"received {type(g).__name__}")
            if e is not None and g is None:
                raise ValueError(f"{self.layer.__name__}.backward returned None for Tensor input {k}, which "
                                 "needs a gradient")
        return result

    def release(self):
        self.released = True
        self.ctx = None


class PyLayer:
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`; call `apply`."""

    @classmethod
    def apply(cls, *args, **kwargs):
        for method in ("forward", "backward"):
            if not callable(getattr(cls, method, None)):
                raise TypeError(f"PyLayer {cls.__name__} must define a static method {method}(ctx, ...)")
        ctx = PyLayerContext()
        prev = grad_state.enabled
        grad_state.enabled = False
        try:
            out = cls.forward(ctx, *args, **kwargs)
        finally:
            grad_state.enabled = prev
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        tensor_outs = [o for o in outs if isinstance(o, Tensor)]
        needs = prev and any(isinstance(a, Tensor) and not a.stop_gradient for a in args)
        if needs and tensor_outs:
            node = PyLayerNode(cls, ctx, args, tensor_outs)
            for i, o in enumerate(tensor_outs):
                if o._node is not None or any(o is a for a in args):
                    raise RuntimeError(f"{cls.__name__}.forward must return new tensors, not its inputs")
                o._node = node
                o._out_index = i
                o.stop_gradient = False
        return out
