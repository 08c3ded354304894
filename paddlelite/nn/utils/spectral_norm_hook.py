"""spectral_norm: a layer's weight divided by its largest singular value, estimated by power iteration on the
buffers <name>_u and <name>_v (updated in training); the parameter itself becomes <name>_orig."""
from ... import tensor as _t
from ...autograd import no_grad
from .. import functional as F
from ..layer.common import Linear
from ..layer.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose

__all__ = []


class SpectralNorm:
    """The forward pre-hook: sets layer.<name> = <name>_orig / sigma before each forward."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """[shape[dim], everything else]."""
        if self.dim != 0:
            weight = _t.transpose(weight, [self.dim] + [d for d in range(len(weight.shape)) if d != self.dim])
        return _t.reshape(weight, [weight.shape[0], -1])

    def compute_weight(self, layer, do_power_iteration):
        weight = getattr(layer, self.name + "_orig")
        u, v = getattr(layer, self.name + "_u"), getattr(layer, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    _t.assign(F.normalize(_t.matmul(weight_mat, u, transpose_x=True), axis=0, epsilon=self.eps), v)
                    _t.assign(F.normalize(_t.matmul(weight_mat, v), axis=0, epsilon=self.eps), u)
                u, v = _t.assign(u), _t.assign(v)  # the buffers change next step; this step's sigma keeps these
        sigma = _t.dot(u, _t.mv(weight_mat, v))
        return weight / sigma

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        if name not in layer._parameters:
            raise ValueError(f"spectral_norm: {type(layer).__name__} has no parameter '{name}'")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        with no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).shape
            u = F.normalize(_t.normal(0.0, 1.0, shape=[h]).astype(weight.dtype), axis=0, epsilon=fn.eps)
            v = F.normalize(_t.normal(0.0, 1.0, shape=[w]).astype(weight.dtype), axis=0, epsilon=fn.eps)
        delattr(layer, name)
        layer.add_parameter(name + "_orig", weight)
        setattr(layer, name, weight * 1.0)
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(fn)
        return fn


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide layer.<name> by its spectral norm before each forward (dim: the output-channel dim, 1 for Linear
    and transposed convolutions, else 0)."""
    if dim is None:
        dim = 1 if isinstance(layer, (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
