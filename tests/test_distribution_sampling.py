"""Draws of paddle.distribution's distributions, judged by the distributions themselves rather than by Paddle's
random bits: Kolmogorov-Smirnov against SciPy's CDF (continuous), frequencies against the pmf (discrete), sample
moments against the closed forms, and reparameterised gradients against the derivatives of the closed-form means."""
import numpy as np
import pytest

import paddlelite as paddle

stats = pytest.importorskip("scipy.stats")
D = paddle.distribution
N = 20000


@pytest.fixture(autouse=True)
def _seeded():
    paddle.seed(2024)


def _t(values, dtype="float32", **kw):
    return paddle.to_tensor(np.asarray(values, dtype), **kw)


def _ks(draws, cdf):
    assert stats.kstest(np.asarray(draws, np.float64).ravel(), cdf).pvalue > 1e-3


CONTINUOUS = {
    "normal": (lambda: D.Normal(_t(1.5), _t(2.0)), stats.norm(1.5, 2.0)),
    "uniform": (lambda: D.Uniform(_t(-1.0), _t(3.0)), stats.uniform(-1.0, 4.0)),
    "exponential": (lambda: D.Exponential(_t(2.5)), stats.expon(scale=1 / 2.5)),
    "gamma": (lambda: D.Gamma(_t(0.7), _t(2.0)), stats.gamma(0.7, scale=0.5)),
    "gamma-large": (lambda: D.Gamma(_t(30.0), _t(1.0)), stats.gamma(30.0)),
    "chi2": (lambda: D.Chi2(_t(3.0)), stats.chi2(3.0)),
    "beta": (lambda: D.Beta(_t(0.5), _t(2.0)), stats.beta(0.5, 2.0)),
    "laplace": (lambda: D.Laplace(_t(1.0), _t(0.5)), stats.laplace(1.0, 0.5)),
    "cauchy": (lambda: D.Cauchy(_t(1.0), _t(0.5)), stats.cauchy(1.0, 0.5)),
    "gumbel": (lambda: D.Gumbel(_t(1.0), _t(2.0)), stats.gumbel_r(1.0, 2.0)),
    "lognormal": (lambda: D.LogNormal(_t(0.2), _t(0.5)), stats.lognorm(0.5, scale=np.exp(0.2))),
    "student_t": (lambda: D.StudentT(_t(4.0), _t(1.0), _t(2.0)), stats.t(4.0, 1.0, 2.0)),
    "continuous_bernoulli": (lambda: D.ContinuousBernoulli(_t(0.8)), None),
}


@pytest.mark.parametrize("name", CONTINUOUS)
@pytest.mark.parametrize("method", ["sample", "rsample"])
def test_continuous_draws_follow_the_distribution(name, method):
    make, ref = CONTINUOUS[name]
    d = make()
    draws = getattr(d, method)([N])
    assert list(draws.shape) == [N] + list(d.batch_shape)
    if ref is None:  # the continuous Bernoulli: its own cdf
        _ks(draws.numpy(), lambda x: d.cdf(paddle.to_tensor(x.astype(np.float32))).numpy())
    else:
        _ks(draws.numpy(), ref.cdf)


@pytest.mark.parametrize("name, make, pmf", [
    ("bernoulli", lambda: D.Bernoulli(_t(0.3)), stats.bernoulli(0.3).pmf),
    ("geometric", lambda: D.Geometric(_t(0.4)), lambda k: stats.geom(0.4).pmf(k + 1)),  # failures before success
    ("poisson", lambda: D.Poisson(_t(3.5)), stats.poisson(3.5).pmf),
    ("binomial", lambda: D.Binomial(paddle.to_tensor(12), _t(0.35)), stats.binom(12, 0.35).pmf),
    ("categorical", lambda: D.Categorical(_t([0.2, 1.0, -0.5])),
     lambda k: np.exp([0.2, 1.0, -0.5])[k.astype(int)] / np.exp([0.2, 1.0, -0.5]).sum()),
])
def test_discrete_frequencies_match_the_pmf(name, make, pmf):
    draws = make().sample([N]).numpy().ravel()
    values, counts = np.unique(draws, return_counts=True)
    expected = pmf(values.astype(np.float64)) * N
    # every frequent value within 5 standard deviations of its binomial count
    frequent = expected > 20
    assert np.all(np.abs(counts[frequent] - expected[frequent]) < 5 * np.sqrt(expected[frequent]) + 1)


def test_multivariate_draws_moments():
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    mvn = D.MultivariateNormal(_t([1.0, -1.0]), covariance_matrix=_t(cov))
    x = mvn.rsample([N]).numpy().astype(np.float64)
    np.testing.assert_allclose(x.mean(0), [1.0, -1.0], atol=0.05)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.08)
    dirichlet = D.Dirichlet(_t([1.0, 2.0, 3.0]))
    y = dirichlet.sample([N]).numpy()
    np.testing.assert_allclose(y.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(y.mean(0), dirichlet.mean.numpy(), atol=0.01)
    np.testing.assert_allclose(y.var(0), dirichlet.variance.numpy(), rtol=0.06)
    multinomial = D.Multinomial(10, _t([0.2, 0.3, 0.5]))
    z = multinomial.sample([N]).numpy()
    assert (z.sum(-1) == 10).all()
    np.testing.assert_allclose(z.mean(0), multinomial.mean.numpy(), atol=0.05)
    np.testing.assert_allclose(z.var(0), multinomial.variance.numpy(), rtol=0.06)


@pytest.mark.parametrize("method", ["onion", "cvine"])
def test_lkj_draws_are_correlation_factors(method):
    """Rows of unit norm, lower triangular, and the off-diagonal correlation's marginal: for the LKJ distribution
    with concentration eta in dimension d, (r + 1) / 2 ~ Beta(eta - 1 + d/2, eta - 1 + d/2)."""
    dim, eta = 3, 2.0
    L = D.LKJCholesky(dim, eta, method).sample([N]).numpy().astype(np.float64)
    np.testing.assert_allclose((L ** 2).sum(-1), 1.0, atol=1e-5)
    assert np.allclose(np.triu(L, 1), 0.0)
    corr = L @ np.swapaxes(L, -1, -2)
    a = eta - 1 + dim / 2
    _ks((corr[:, 1, 0] + 1) / 2, stats.beta(a, a).cdf)


def test_gamma_reparameterised_gradients():
    """d E[x] / d concentration = 1 / rate and d E[x] / d rate = -concentration / rate^2, averaged over draws."""
    conc = _t([0.6, 3.0], "float64", stop_gradient=False)
    rate = _t([2.0, 0.5], "float64", stop_gradient=False)
    D.Gamma(conc, rate).rsample([N]).mean(0).sum().backward()
    np.testing.assert_allclose(conc.grad.numpy(), [0.5, 2.0], rtol=0.05)
    np.testing.assert_allclose(rate.grad.numpy(), [-0.15, -12.0], rtol=0.05)


def test_dirichlet_and_beta_reparameterised_gradients():
    """d E[x_0] / d alpha for the Dirichlet mean alpha_0 / sum(alpha)."""
    alpha = _t([1.0, 2.0, 3.0], "float64", stop_gradient=False)
    D.Dirichlet(alpha).rsample([N]).mean(0)[0].backward()
    total = 6.0
    np.testing.assert_allclose(alpha.grad.numpy(), [(total - 1.0) / total ** 2, -1.0 / total ** 2,
                                                    -1.0 / total ** 2], atol=0.01)
    a = _t(2.0, "float64", stop_gradient=False)
    b = _t(3.0, "float64", stop_gradient=False)
    D.Beta(a, b).rsample([N]).mean().backward()
    np.testing.assert_allclose([a.grad.item(), b.grad.item()], [3 / 25, -2 / 25], atol=0.01)


def test_student_t_and_chi2_rsample_reach_df():
    df = _t(5.0, "float64", stop_gradient=False)
    D.Chi2(df).rsample([N]).mean().backward()  # E = df
    np.testing.assert_allclose(df.grad.item(), 1.0, rtol=0.05)
    df2 = _t(5.0, "float64", stop_gradient=False)
    D.StudentT(df2, _t(0.0, "float64"), _t(1.0, "float64")).rsample([N]).abs().mean().backward()
    assert np.isfinite(df2.grad.item()) and df2.grad.item() < 0  # heavier tails at lower df


@pytest.mark.parametrize("make", [lambda: D.Normal(_t(1.0, stop_gradient=False), _t(2.0, stop_gradient=False)),
                                  lambda: D.Laplace(_t(1.0, stop_gradient=False), _t(2.0, stop_gradient=False)),
                                  lambda: D.Gumbel(_t(1.0, stop_gradient=False), _t(2.0, stop_gradient=False)),
                                  lambda: D.Uniform(_t(1.0, stop_gradient=False), _t(2.0, stop_gradient=False))],
                         ids=["normal", "laplace", "gumbel", "uniform"])
def test_location_scale_rsample_gradients(make):
    """d E[x] / d loc = 1 for a location family (Uniform: d E / d low = 1/2). sample() carries no gradient, except
    Normal's and Uniform's, which Paddle computes as loc + scale * draws too."""
    d = make()
    first = d.loc if hasattr(d, "loc") else d.low
    d.rsample([N]).mean().backward()
    np.testing.assert_allclose(first.grad.numpy(), 1.0 if hasattr(d, "loc") else 0.5, rtol=0.02)
    assert d.sample([4]).stop_gradient == (type(d).__name__ in ("Laplace", "Gumbel"))
