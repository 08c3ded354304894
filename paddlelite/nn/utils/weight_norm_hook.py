"""weight_norm / remove_weight_norm: a layer's weight re-expressed as g * v / ||v|| (norms over every dim but
`dim`), g and v the trainable parameters <name>_g and <name>_v; a forward pre-hook recomputes the weight."""
from ... import tensor as _t
from ...autograd import no_grad
from .. import functional as F

__all__ = []


def _l2_norm(x, axis, epsilon=1e-12):
    return _t.sqrt(_t.sum(_t.square(x), axis=axis) + epsilon)


def norm_except_dim(p, dim):
    """||p|| over every dim but `dim` (shape [p.shape[dim]]); dim=-1: the norm of the whole tensor."""
    shape = p.shape
    if dim == -1:
        return _t.sqrt(_t.sum(_t.square(p)) + 1e-12)
    if dim == 0:
        return _l2_norm(_t.reshape(p, (shape[0], -1)), axis=1)
    if dim == len(shape) - 1:
        return _l2_norm(_t.reshape(p, (-1, shape[-1])), axis=0)
    perm = list(range(len(shape)))
    perm[0], perm[dim] = dim, 0
    return norm_except_dim(_t.transpose(p, perm), 0)


def _weight_norm(v, g, dim):
    shape = v.shape
    if dim == -1:
        return v / (_t.sqrt(_t.sum(_t.square(v))) + 1e-12) * g
    perm = list(range(len(shape)))
    perm[0], perm[dim] = dim, 0
    moved = _t.transpose(v, perm) if dim != 0 else v
    normed = _t.reshape(F.normalize(_t.reshape(moved, (moved.shape[0], -1)), axis=1), moved.shape)
    normed = _t.transpose(normed, perm) if dim != 0 else normed
    g_shape = [1] * len(shape)
    g_shape[dim] = shape[dim]
    return normed * _t.reshape(g, g_shape)


class WeightNorm:
    """The forward pre-hook: sets layer.<name> = g * v / ||v|| before each forward."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, layer):
        return _weight_norm(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"), self.dim)

    @staticmethod
    def apply(layer, name, dim):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if name not in layer._parameters:
            raise ValueError(f"weight_norm: {type(layer).__name__} has no parameter '{name}'")
        dim = -1 if dim is None else dim
        rank = len(layer._parameters[name].shape)
        if not -rank <= dim < rank:  # AssertionError, as Paddle raises
            raise AssertionError("dim must set between [-R, R), R means the dimension of weight.")
        if dim != -1:
            dim = (dim + rank) % rank
        fn = WeightNorm(name, dim)
        w = getattr(layer, name)
        delattr(layer, name)
        g_value = norm_except_dim(w, dim)
        v = layer.create_parameter(w.shape, dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(g_value.shape, dtype=g_value.dtype)
        layer.add_parameter(name + "_g", g)
        with no_grad():
            _t.assign(w, v)
            _t.assign(g_value, g)
        setattr(layer, name, fn.compute_weight(layer))
        layer.register_forward_pre_hook(fn)
        return fn

    def remove(self, layer):
        w_value = self.compute_weight(layer)
        for attr in (self.name, self.name + "_g", self.name + "_v"):
            delattr(layer, attr)
        w = layer.create_parameter(w_value.shape, dtype=w_value.dtype)
        layer.add_parameter(self.name, w)
        with no_grad():
            _t.assign(w_value, w)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name="weight", dim=0):
    """Reparameterise layer.<name> as g * v / ||v|| (norm over every dim but `dim`; None: the whole tensor)."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo weight_norm: <name> becomes a plain parameter again holding the current g * v / ||v||."""
    for key, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")
