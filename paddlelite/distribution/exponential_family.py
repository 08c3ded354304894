"""ExponentialFamily: distributions p(x) = h(x) exp(<eta, T(x)> - A(eta)); the entropy (and KL between two of
one kind, kl.py) follow from the log normalizer A by Bregman divergence, its gradient taken by autograd."""
from .. import autograd as _autograd
from . import distribution
from ..framework.mode import in_dynamic_mode
from ..static import backward as _static_backward


def natural_gradients(log_norm, params):
    """d(sum log_norm) / d params, kept differentiable (eager: paddle.grad with create_graph; static: gradients)."""
    if in_dynamic_mode():
        return _autograd.grad(log_norm.sum(), params, create_graph=True)
    return _static_backward.gradients(log_norm.sum(), params)


def detached_parameters(params):
    """Copies of the natural parameters cut from the graph and requiring gradients (the Bregman divergence's
    variables)."""
    out = []
    for p in params:
        p = p.detach()
        p.stop_gradient = False
        out.append(p)
    return out


class ExponentialFamily(distribution.Distribution):
    """Base of exponential-family distributions: subclasses give _natural_parameters and _log_normalizer
    (and _mean_carrier_measure for the generic entropy)."""

    @property
    def _natural_parameters(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_parameters):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """-E[log h(x)] + A(eta) - <eta, grad A(eta)>."""
        entropy = -self._mean_carrier_measure
        params = detached_parameters(self._natural_parameters)
        log_norm = self._log_normalizer(*params)
        entropy += log_norm
        for p, g in zip(params, natural_gradients(log_norm, params)):
            entropy -= p * g
        return entropy
