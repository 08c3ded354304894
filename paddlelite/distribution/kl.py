"""kl_divergence(p, q) and register_kl: KL formulas looked up by the classes of p and q, the most specific
registered pair winning (as Paddle's and PyTorch's registries)."""
import functools

from ..framework.user_warnings import warn
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution, sum_rightmost
from .exponential import Exponential
from .exponential_family import ExponentialFamily, detached_parameters, natural_gradients
from .gamma import Gamma
from .geometric import Geometric
from .laplace import Laplace
from .lognormal import LogNormal
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .poisson import Poisson
from .uniform import Uniform

__all__ = ["register_kl", "kl_divergence"]

_REGISTER_TABLE = {}


def kl_divergence(p, q):
    """KL(p || q) by the formula registered for the classes of p and q."""
    return _dispatch(type(p), type(q))(p, q)


def register_kl(cls_p, cls_q):
    """Decorator registering `f(p, q)` as the KL divergence of a cls_p from a cls_q."""
    if not issubclass(cls_p, Distribution) or not issubclass(cls_q, Distribution):
        raise TypeError("cls_p and cls_q must be subclass of Distribution")

    def decorator(f):
        _REGISTER_TABLE[cls_p, cls_q] = f
        return f
    return decorator


def _dispatch(cls_p, cls_q):
    matches = [(p, q) for p, q in _REGISTER_TABLE if issubclass(cls_p, p) and issubclass(cls_q, q)]
    if not matches:
        raise NotImplementedError
    left_p, left_q = min(_Compare(*m) for m in matches).classes
    right_q, right_p = min(_Compare(*reversed(m)) for m in matches).classes  # (Paddle reads them unswapped)
    if _REGISTER_TABLE[left_p, left_q] is not _REGISTER_TABLE[right_p, right_q]:
        warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}). Please register_kl("
             f"{left_p.__name__}, {right_q.__name__})", RuntimeWarning)
    return _REGISTER_TABLE[left_p, left_q]


@functools.total_ordering
class _Compare:
    """A registered class pair, ordered so that the more specific pair is smaller."""

    def __init__(self, *classes):
        self.classes = classes

    def __eq__(self, other):
        return self.classes == other.classes

    def __le__(self, other):
        for x, y in zip(self.classes, other.classes):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _own(p, q):
    return p.kl_divergence(q)


for _cls in (Bernoulli, Binomial, Categorical, Cauchy, ContinuousBernoulli, Normal, MultivariateNormal, Uniform,
             Laplace, Geometric, Exponential, Gamma, Poisson):
    register_kl(_cls, _cls)(_own)


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    sum_p, sum_q = p.alpha + p.beta, q.alpha + q.beta
    return (q.alpha.lgamma() + q.beta.lgamma() + sum_p.lgamma() - (p.alpha.lgamma() + p.beta.lgamma() + sum_q.lgamma())
            + (p.alpha - q.alpha) * p.alpha.digamma() + (p.beta - q.beta) * p.beta.digamma()
            + (sum_q - sum_p) * sum_p.digamma())


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    a, b = p.concentration, q.concentration
    return (a.sum(-1).lgamma() - b.sum(-1).lgamma() - (a.lgamma() - b.lgamma()).sum(-1)
            + ((a - b) * (a.digamma() - a.sum(-1).digamma().unsqueeze(-1))).sum(-1))


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log normalizer, between two distributions of one exponential family."""
    if type(p) is not type(q):
        raise NotImplementedError
    p_params = detached_parameters(p._natural_parameters)
    q_params = q._natural_parameters
    p_log_norm = p._log_normalizer(*p_params)
    try:
        p_grads = natural_gradients(p_log_norm, p_params)
    except RuntimeError as e:
        raise TypeError(f"Can't compute kl_divergence({type(p).__name__}, {type(q).__name__}) use bregman "
                        f"divergence. Please register_kl({type(p).__name__}, {type(q).__name__}).") from e
    kl = q._log_normalizer(*q_params) - p_log_norm
    for p_param, q_param, p_grad in zip(p_params, q_params, p_grads):
        kl -= sum_rightmost((q_param - p_param) * p_grad, len(q.event_shape))
    return kl


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    return p._base.kl_divergence(q._base)
