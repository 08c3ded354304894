"""paddle.distributed.fleet.recompute: activation recomputation in eager mode. `recompute(function, *args)` runs
`function` without keeping its intermediate results for backward; backward runs it again (from the same random
state, so dropout masks repeat) with gradients on and backpropagates through that second run. The values and
gradients are those of calling `function` directly; what changes is the memory held between forward and backward.
(Static programs recompute through RecomputeOptimizer; there, and where no gradient is recorded, `function` simply
runs.)"""
from ...autograd.api import backward
from ...autograd.pylayer import PyLayer
from ...framework.mode import enable_grad, in_static_mode, is_grad_enabled, no_grad
from ...framework.tensor import Tensor
from ...tensor.sampling import get_rng_state, set_rng_state

__all__ = []


class _RecomputeFunction(PyLayer):
    @staticmethod
    def forward(ctx, function, preserve_rng_state, *args, **kwargs):
        ctx.function, ctx.kwargs = function, kwargs
        ctx.rng_state = get_rng_state() if preserve_rng_state else None
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.other_args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with no_grad():
            return function(*args, **kwargs)

    @staticmethod
    def backward(ctx, *grads):
        args, inputs = list(ctx.other_args), []
        for index, tensor in zip(ctx.tensor_indices, ctx.saved_tensor()):
            detached = tensor.detach()
            detached.stop_gradient = tensor.stop_gradient
            args[index] = detached
            inputs.append(detached)
        current = get_rng_state() if ctx.rng_state is not None else None
        if ctx.rng_state is not None:
            set_rng_state(ctx.rng_state)
        try:
            with enable_grad():
                outputs = ctx.function(*args, **ctx.kwargs)
        finally:
            if current is not None:
                set_rng_state(current)
        outputs = [o for o in (outputs if isinstance(outputs, (list, tuple)) else [outputs]) if isinstance(o, Tensor)]
        pairs = [(o, g) for o, g in zip(outputs, grads) if not o.stop_gradient and g is not None]
        if pairs:
            backward([o for o, _ in pairs], [g for _, g in pairs])
        return tuple(None if t.stop_gradient else t.grad for t in inputs)


def recompute(function, *args, **kwargs):
    """function(*args, **kwargs), its activations recomputed in backward (see the module's docstring).
    preserve_rng_state (default True): the second run draws the same random numbers; use_reentrant is accepted
    (both of Paddle's implementations compute the same)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    kwargs.pop("use_reentrant", None)
    if in_static_mode() or not is_grad_enabled():
        return function(*args, **kwargs)
    return _RecomputeFunction.apply(function, preserve, *args, **kwargs)

