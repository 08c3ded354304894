"""Special functions: the gamma family (lgamma, digamma, polygamma, the regularized incomplete gammas), the
modified Bessel functions I0/I1 (and their exponentially scaled forms), erfinv, nextafter, kron and trace.

SciPy is no dependency: on the GPU the forwards call `cupyx.scipy.special` (CuPy ships it), elsewhere the
xp-generic series and asymptotic expansions below (float64, returned in the input's dtype) -- one binding,
`_special`, picks between them.
"""
import numpy as np

from ..device.cuda import cupyx_for

from .formula import _op_function, equal, exp, log, reduce_sum, sign, where, zeros_like
from .math import erf_array, erfc_fraction, unary_grad
from .registry import Meta, register_op
from .shape_rules import broadcast_shapes, check_same_dtype, float_only, float_rule

digamma, polygamma, lgamma, i0, i0e, i1, i1e = map(
    _op_function, ("digamma", "polygamma", "lgamma", "i0", "i0e", "i1", "i1e"))


def _special(series, on_cupy, paddle_edges=None):
    """A forward: `series(xp, *float64 arrays, **attrs)`, or on CuPy arrays `on_cupy(cupyx.scipy.special, *arrays,
    **attrs)` (both SciPy's conventions), then `paddle_edges(xp, *arrays, out, **attrs)` where Paddle's values at
    the domain's edges differ from SciPy's; the result in the first input's dtype."""
    def forward(xp, x, *rest, **attrs):
        if xp is not np:
            out = on_cupy(cupyx_for(xp).scipy.special, x, *rest, **attrs)
        else:
            with np.errstate(all="ignore"):
                out = xp.asarray(series(xp, x.astype(np.float64), *[r.astype(np.float64) for r in rest], **attrs))
        if paddle_edges is not None:
            out = paddle_edges(xp, x, *rest, out, **attrs)
        return out.astype(x.dtype, copy=False)
    forward.__name__ = series.__name__
    return forward


# ---- lgamma: Lanczos (g = 7, 9 terms) for x >= 1/2, the reflection formula below ----------------------
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)
_HALF_LOG_2PI = 0.5 * float(np.log(2 * np.pi))


def _lgamma_positive(xp, x):  # x >= 1/2
    z = x - 1.0
    a = xp.full_like(z, _LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], 1):
        a += c / (z + i)
    t = z + 7.5
    return _HALF_LOG_2PI + (z + 0.5) * xp.log(t) - t + xp.log(a)


def _pi_frac(xp, x):
    """pi (x - round(x)): sin and tan of it are +-sin(pi x), tan(pi x) without rounding pi x (0 at integers)."""
    return np.pi * (x - xp.round(x))


def lgamma_series(xp, x):
    small = x < 0.5
    right = _lgamma_positive(xp, xp.where(small, 1.0 - x, x))
    reflected = np.log(np.pi) - xp.log(xp.abs(xp.sin(_pi_frac(xp, x)))) - right
    out = xp.where(small, reflected, right)
    return xp.where((x == 1.0) | (x == 2.0), 0.0, out)  # exact, as the C library's


# ---- digamma: shift up to x >= 10, then the asymptotic series; reflection below 1/2 ------------------
_DIGAMMA_TAIL = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)  # B_2k / (2k)


def _digamma_positive(xp, x):  # x >= 1/2
    acc = xp.zeros_like(x)
    y = x
    for _ in range(10):
        low = y < 10.0
        acc -= xp.where(low, 1.0 / y, 0.0)
        y = xp.where(low, y + 1.0, y)
    inv2 = 1.0 / (y * y)
    tail = xp.zeros_like(y)
    for c in reversed(_DIGAMMA_TAIL):
        tail = (tail + c) * inv2
    return acc + xp.log(y) - 0.5 / y - tail


def digamma_series(xp, x):
    small = x < 0.5
    right = _digamma_positive(xp, xp.where(small, 1.0 - x, x))
    out = xp.where(small, right - np.pi / xp.tan(_pi_frac(xp, x)), right)
    # Paddle's values at the poles: -inf at +0, +inf at -0, NaN at the negative integers and at -inf
    pole = (x <= 0) & (x == xp.floor(x))
    out = xp.where(pole, xp.where(x == 0, xp.where(xp.signbit(x), np.inf, -np.inf), np.nan), out)
    return xp.where(x == np.inf, np.inf, out)


# ---- polygamma(n, x) = (-1)^(n+1) n! zeta(n+1, x) for n >= 1: shift, then Euler-Maclaurin -------------
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)  # B_2 ... B_16


def _hurwitz_zeta(xp, s, x):
    """zeta(s, x) = sum_k (x + k)^-s for an integer s >= 2 (x not a pole)."""
    threshold = max(12.0, float(s))
    acc = xp.zeros_like(x)
    y = x
    finite = xp.isfinite(x)
    lowest = float(xp.min(xp.where(finite, x, threshold))) if x.size else threshold
    for _ in range(max(0, int(np.ceil(threshold - lowest)))):
        low = y < threshold
        acc += xp.where(low, y ** -s, 0.0)
        y = xp.where(low, y + 1.0, y)
    tail = y ** (1.0 - s) / (s - 1.0) + 0.5 * y ** -s
    rising, power, fact = float(s), y ** (-s - 1.0), 2.0
    for j, b in enumerate(_BERNOULLI, 1):
        tail = tail + (b / fact * rising) * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        fact *= (2 * j + 1) * (2 * j + 2)
        power = power / (y * y)
    return acc + tail


def polygamma_series(xp, x, n):
    if n == 0:
        return digamma_series(xp, x)
    factorial = float(np.prod(np.arange(1, n + 1, dtype=np.float64)))
    out = (-1.0) ** (n + 1) * factorial * _hurwitz_zeta(xp, n + 1, x)
    pole = (x <= 0) & (x == xp.floor(x))
    return xp.where(pole, (-1.0) ** (n + 1) * np.inf, out)  # (-inf too)


# ---- I0, I1: the power series up to |x| = 30, the asymptotic expansion of I_nu(x) e^-x beyond ---------
def _bessel_scaled(xp, x, nu):
    """I_nu(|x|) exp(-|x|) for nu = 0 or 1."""
    a = xp.abs(x)
    s = xp.minimum(a, 30.0)
    q = s * s / 4.0
    term = xp.ones_like(s) if nu == 0 else s / 2.0
    total = term
    for k in range(1, 80):  # sum (s/2)^(2k + nu) / (k! (k + nu)!), positive terms: stop once negligible
        term = term * q / (k * (k + nu))
        total = total + term
        if k % 8 == 0 and not bool(xp.any(term > 1e-17 * total)):
            break
    small = total * xp.exp(-s)
    if not bool(xp.any(a > 30.0)):
        return small
    c = xp.maximum(a, 30.0)
    mu = 4.0 * nu * nu
    term = xp.ones_like(c)
    total = term
    for k in range(1, 30):  # I_nu(c) e^-c ~ (2 pi c)^-1/2 sum_k (-1)^k prod_j (mu - (2j-1)^2) / (k! (8c)^k)
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * c)
        total = total + term
    large = total / xp.sqrt(2 * np.pi * c)
    return xp.where(a <= 30.0, small, large)


def i0e_series(xp, x):
    return xp.where(xp.isinf(x), 0.0, _bessel_scaled(xp, x, 0))


def i1e_series(xp, x):
    return xp.where(xp.isinf(x), 0.0, xp.sign(x) * _bessel_scaled(xp, x, 1))


def i0_series(xp, x):  # (Paddle's I0 and I1 are NaN at +-inf)
    return xp.where(xp.isinf(x), np.nan, _bessel_scaled(xp, x, 0) * xp.exp(xp.abs(x)))


def i1_series(xp, x):
    return xp.where(xp.isinf(x), np.nan, xp.sign(x) * _bessel_scaled(xp, x, 1) * xp.exp(xp.abs(x)))


# ---- erfinv: Giles' single-precision approximation, polished by Halley steps on erf ----------------------
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
               0.00943887047, 1.00167406, 2.83297682)


def _horner(xp, coefs, w):
    p = xp.full_like(w, coefs[0])
    for c in coefs[1:]:
        p = p * w + c
    return p


def erfinv_series(xp, x):
    inside = xp.abs(x) < 1.0
    t = xp.where(inside, x, 0.0)
    w = -xp.log((1.0 - t) * (1.0 + t))
    central = w < 5.0
    y = t * xp.where(central, _horner(xp, _GILES_CENTRAL, w - 2.5),
                     _horner(xp, _GILES_TAIL, xp.sqrt(xp.maximum(w, 5.0)) - 3.0))
    tail = xp.abs(y) >= 2.5
    for _ in range(8):  # Halley on f(y) = erf(y) - t: y -= u / (1 + y u), u = f / f'
        # in the tails f = sign(t) ((1 - |t|) - erfc(|y|)): 1 - |t| is exact there, erf(y) - t is not
        f = xp.where(tail, xp.sign(t) * ((1.0 - xp.abs(t)) - erfc_fraction(xp, xp.maximum(xp.abs(y), 2.5))),
                     erf_array(xp, y) - t)
        u = f / (2.0 / np.sqrt(np.pi) * xp.exp(-y * y))
        y = y - u / (1.0 + y * u)
        if not bool(xp.any(xp.abs(u) > 1e-12 * xp.abs(y))):  # converged (cubically): the deep tails take longer
            break
    return xp.where(inside, y, xp.where(xp.abs(x) == 1.0, xp.sign(x) * np.inf, np.nan))


# ---- the regularized incomplete gammas P(a, y), Q(a, y): series for y < a + 1, continued fraction above ----
_TINY = 1e-300


def _log_prefactor(xp, a, y):  # log(y^a e^-y / Gamma(a))
    return a * xp.log(y) - y - lgamma_series(xp, a)


def _lower_series(xp, a, y):
    """P(a, y) by sum_n y^n / ((a+1)...(a+n)), to convergence."""
    term = 1.0 / a
    total = term
    ap = a
    for i in range(100000):
        ap = ap + 1.0
        term = term * y / ap
        total = total + term
        if i % 16 == 15 and not bool(xp.any(xp.abs(term) > xp.abs(total) * 1e-16)):
            break
    return total * xp.exp(_log_prefactor(xp, a, y))


def _upper_fraction(xp, a, y):
    """Q(a, y) by Lentz's evaluation of its continued fraction, to convergence."""
    b = y + 1.0 - a
    c = xp.full_like(y, 1.0 / _TINY)
    d = 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = xp.where(xp.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = xp.where(xp.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if i % 8 == 0 and not bool(xp.any(xp.abs(delta - 1.0) > 1e-15)):
            break
    return xp.exp(_log_prefactor(xp, a, y)) * h


def _regularized_gamma(xp, a, y, upper):
    """P(a, y) (or Q = 1 - P when `upper`), each branch computing the smaller of the two natively."""
    a, y = xp.broadcast_arrays(a, y)
    a, y = a.ravel(), y.ravel()
    out = xp.full(a.shape, np.nan)
    body = (a > 0) & (y > 0) & xp.isfinite(a) & xp.isfinite(y)
    use_series = body & (y < a + 1.0)
    use_fraction = body & ~use_series
    if bool(use_series.any()):
        p = _lower_series(xp, a[use_series], y[use_series])
        out[use_series] = 1.0 - p if upper else p
    if bool(use_fraction.any()):
        q = _upper_fraction(xp, a[use_fraction], y[use_fraction])
        out[use_fraction] = q if upper else 1.0 - q
    return out


def gammainc_series(xp, a, y):
    return _regularized_gamma(xp, a, y, upper=False).reshape(np.broadcast_shapes(a.shape, y.shape))


def gammaincc_series(xp, a, y):
    return _regularized_gamma(xp, a, y, upper=True).reshape(np.broadcast_shapes(a.shape, y.shape))


# ---- Paddle's values where SciPy's differ ----------------------------------------------------------------
def _lgamma_edges(xp, x, out):  # +inf at -inf (SciPy: -inf)
    return xp.where(xp.isinf(x), np.inf, out)


def _polygamma_edges(xp, x, out, n):  # NaN at +inf (SciPy: 0)
    return xp.where(x == np.inf, np.nan, out)


def _erfinv_edges(xp, x, out):  # +-inf beyond [-1, 1] (SciPy: NaN)
    return xp.where(xp.abs(x) > 1.0, xp.sign(x) * np.inf, out)


def _gamma_pair_edges(upper):
    def edges(xp, a, y, out):  # Q = 1 where a = 0 or y = 0; NaN at infinities (SciPy: limits)
        out = xp.where((a == 0) | (y == 0), 1.0 if upper else 0.0, out)
        return xp.where(xp.isinf(a) | xp.isinf(y), np.nan, out)
    return edges


# ---- the unary ops: forward and dx as a formula of x, out, dout (as ops/math.py's table) ----------------
def _special_unary(name, series, on_cupy, dx, attrs=None, paddle_edges=None):
    return register_op(name, inputs=("X",), outputs=("Out",),
                       forward=float_only(name, _special(series, on_cupy, paddle_edges)),
                       infer=float_rule(name), grad=unary_grad(dx), attrs=attrs, double_grad=True)


def _safe(x):  # x with its zeros replaced by ones (for formulas with a removable singularity at 0)
    return where(equal(x, zeros_like(x)), 1.0, x)


def _polygamma_on_cupy(special, x, n):
    import cupy  # cupyx's polygamma takes n elementwise: a Python int breaks its `where(n == 0, ...)`
    return special.polygamma(cupy.full(x.shape, n, dtype=np.float64), x)


_SQRT_PI_2 = float(np.sqrt(np.pi)) / 2.0

LGAMMA = _special_unary("lgamma", lgamma_series, lambda s, x: s.gammaln(x), lambda x, out, dout: dout * digamma(x),
                        paddle_edges=_lgamma_edges)
DIGAMMA = _special_unary("digamma", digamma_series, lambda s, x: s.digamma(x),
                         lambda x, out, dout: dout * polygamma(x, n=1))
POLYGAMMA = _special_unary("polygamma", polygamma_series, _polygamma_on_cupy,
                           lambda x, out, dout, n: dout * polygamma(x, n=n + 1), attrs={"n": 1},
                           paddle_edges=_polygamma_edges)
I0 = _special_unary("i0", i0_series, lambda s, x: s.i0(x), lambda x, out, dout: dout * i1(x))
I0E = _special_unary("i0e", i0e_series, lambda s, x: s.i0e(x), lambda x, out, dout: dout * (i1e(x) - sign(x) * out))
I1 = _special_unary("i1", i1_series, lambda s, x: s.i1(x),  # I1' = I0 - I1 / x (1/2 at 0)
                    lambda x, out, dout: dout * where(equal(x, zeros_like(x)), 0.5, i0(x) - out / _safe(x)))
I1E = _special_unary("i1e", i1e_series, lambda s, x: s.i1e(x), lambda x, out, dout: dout * where(
    equal(x, zeros_like(x)), 0.5, i0e(x) - out * (sign(x) + 1.0 / _safe(x))))
ERFINV = _special_unary("erfinv", erfinv_series, lambda s, x: s.erfinv(x),
                        lambda x, out, dout: dout * (exp(out ** 2) * _SQRT_PI_2), paddle_edges=_erfinv_edges)


# ---- gammainc / gammaincc (X = a, Y = the point): differentiable in Y only, as Paddle -------------------
def _gamma_pair_infer(name):
    def infer(x, y):
        check_same_dtype(name, x, y)
        float_rule(name)(x)
        return Meta(broadcast_shapes(name, x.shape, y.shape), x.dtype)
    return infer


def _gamma_pair_grad(sign_):
    def grad(g):  # d/dy P(a, y) = y^(a-1) e^-y / Gamma(a)
        if g.needs("Y"):
            a, y = g.input("X"), g.input("Y")
            density = exp((a - 1.0) * log(y) - y - lgamma(a))
            g.set_input_grad("Y", g.reduce_as(g.output_grad("Out") * density * sign_, y))
    return grad


def _gamma_pair(name, series, sign_):
    forward = _special(series, lambda s, a, y: getattr(s, name)(a, y), _gamma_pair_edges(upper=sign_ < 0))
    return register_op(name, inputs=("X", "Y"), outputs=("Out",), forward=forward,
                       infer=_gamma_pair_infer(name), grad=_gamma_pair_grad(sign_), nondiff_inputs=("X",),
                       same_dtype=("X", "Y"), double_grad=True)


GAMMAINC = _gamma_pair("gammainc", gammainc_series, 1.0)
GAMMAINCC = _gamma_pair("gammaincc", gammaincc_series, -1.0)


# ---- gammaincinv: y with P(a, y) = u, the inverse of gammainc in y. A uniform u through it is a Gamma(a, 1)
# draw that is a smooth function of (a, u): the reparameterised gamma sampler (implicit reparameterisation,
# Figurnov et al. 2018: dy/da = -(dP/da) / (dP/dy) at the draw), so its gradient is the op's own derivative.
_HALLEY_STEPS = 24


def _gamma_log_density(xp, a, y):  # log(y^(a-1) e^-y / Gamma(a)) = log dP/dy
    return (a - 1.0) * xp.log(y) - y - lgamma_series(xp, a)


def _gammaincinv_start(xp, a, u):
    """A first guess at P^-1(a, u): Wilson-Hilferty's cube of a normal quantile for a > 1; below, the inverse of
    P ~ y^a / Gamma(a + 1) near 0 for small u and of the exponential tail above (Numerical Recipes' invgammp)."""
    tail = xp.minimum(u, 1.0 - u)
    t = xp.sqrt(-2.0 * xp.log(xp.maximum(tail, _TINY)))
    z = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t  # ~ the normal quantile of `tail`
    z = xp.where(u < 0.5, z, -z)
    big = xp.maximum(a, 1.0)
    wilson = xp.maximum(1e-3, big * (1.0 - 1.0 / (9.0 * big) + z / (3.0 * xp.sqrt(big))) ** 3)
    knee = 1.0 - a * (0.253 + a * 0.12)
    small = xp.where(u < knee, (u / knee) ** (1.0 / a), 1.0 - xp.log1p(-(u - knee) / (1.0 - knee)))
    return xp.where(a > 1.0, wilson, small)


def gammaincinv_series(xp, a, u):
    """Halley's iteration on P(a, y) - u from _gammaincinv_start, kept positive (float64)."""
    a, u = xp.broadcast_arrays(a, u)
    shape = a.shape
    a, u = a.ravel(), u.ravel()
    live = (a > 0) & (u > 0) & (u < 1)
    y = xp.where(live, _gammaincinv_start(xp, a, u), 1.0)
    todo = xp.nonzero(live)[0]  # the draws still moving: most converge in two or three steps, a few take more
    for _ in range(_HALLEY_STEPS):
        if todo.size == 0:
            break
        at, yt = a[todo], y[todo]
        newton = (_regularized_gamma(xp, at, yt, upper=False) - u[todo]) / xp.exp(_gamma_log_density(xp, at, yt))
        step = newton / (1.0 - 0.5 * xp.minimum(1.0, newton * ((at - 1.0) / yt - 1.0)))
        step = xp.where(xp.isfinite(step), step, 0.0)
        moved = yt - step
        yt = xp.where(moved > 0, moved, 0.5 * yt)  # an overshoot past 0 halves y instead
        y[todo] = yt
        todo = todo[xp.abs(step) > 1e-13 * yt]
    y = xp.where(u == 0, 0.0, xp.where(u == 1, np.inf, y))
    return xp.where((a > 0) & (u >= 0) & (u <= 1), y, np.nan).reshape(shape)


def _gammainc_da(xp, a, y):
    """dP(a, y)/da by the series P = sum_n t_n, t_n = y^(a+n) e^-y / Gamma(a+n+1) (differentiated termwise:
    d t_n / da = t_n (log y - psi(a+n+1))); log t_n is accumulated so that no term underflows before its peak."""
    log_y = xp.log(y)
    log_t = a * log_y - y - lgamma_series(xp, a + 1.0)
    psi = digamma_series(xp, a + 1.0)
    total = xp.exp(log_t) * (log_y - psi)
    scale = xp.abs(total)
    for n in range(1, 100000):
        log_t = log_t + log_y - xp.log(a + n)
        psi = psi + 1.0 / (a + n)
        term = xp.exp(log_t) * (log_y - psi)
        total = total + term
        scale = scale + xp.abs(term)
        if n % 16 == 0 and not bool(xp.any((a + n < y) | (xp.abs(term) > 1e-17 * scale))):
            break
    return total


def _gammaincinv_grad_forward(xp, a, out, dout):
    """(dA, dU) of y = P^-1(a, u): dy/du = 1 / density(y), dy/da = -(dP/da)(a, y) / density(y), in float64."""
    a64, y = a.astype(np.float64), out.astype(np.float64)
    with np.errstate(all="ignore"):
        density = xp.exp(_gamma_log_density(xp, a64, y))
        du = dout / density
        da = xp.where(y > 0, -_gammainc_da(xp, a64, xp.where(y > 0, y, 1.0)), 0.0) * du
    return da.astype(a.dtype), du.astype(a.dtype)


def _gammaincinv_grad(g):
    grads = g.op("gammaincinv_grad", g.input("X"), g.output("Out"), g.output_grad("Out"))
    for slot, grad in zip(("X", "U"), grads):
        if g.needs(slot):
            g.set_input_grad(slot, g.reduce_as(grad, g.input(slot)))


def _gammaincinv_infer(a, u):
    check_same_dtype("gammaincinv", a, u)
    float_rule("gammaincinv")(a)
    return Meta(broadcast_shapes("gammaincinv", a.shape, u.shape), a.dtype)


GAMMAINCINV = register_op(
    "gammaincinv", inputs=("X", "U"), outputs=("Out",),
    forward=_special(gammaincinv_series, lambda s, a, u: s.gammaincinv(a, u)), infer=_gammaincinv_infer,
    grad=_gammaincinv_grad, same_dtype=("X", "U"), host_sync="iterates to convergence on the host")
GAMMAINCINV_GRAD = register_op(
    "gammaincinv_grad", inputs=("X", "Out", "DOut"), outputs=("DX", "DU"), forward=_gammaincinv_grad_forward,
    infer=lambda a, out, dout: (Meta(out.shape, a.dtype), Meta(out.shape, a.dtype)),
    host_sync="sums a series to convergence on the host")


# ---- nextafter: the next representable float after x toward y (not differentiable) ---------------------
def _nextafter_infer(x, y):
    check_same_dtype("nextafter", x, y)
    if np.dtype(x.dtype) not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"op 'nextafter': inputs must be float32 or float64 tensors, received {np.dtype(x.dtype)}")
    return Meta(broadcast_shapes("nextafter", x.shape, y.shape), x.dtype)


NEXTAFTER = register_op("nextafter", inputs=("X", "Y"), outputs=("Out",),
                        forward=lambda xp, x, y: xp.nextafter(x, y), infer=_nextafter_infer, same_dtype=("X", "Y"))


# ---- kron: out[i * m + k] = x[i] y[k] in every dim (the lower rank padded with leading ones) ------------
def _kron_shapes(xs, ys):
    n = max(len(xs), len(ys))
    return (1,) * (n - len(xs)) + tuple(xs), (1,) * (n - len(ys)) + tuple(ys)


def _kron_forward(xp, x, y):
    xs, ys = _kron_shapes(x.shape, y.shape)
    n = len(xs)
    a = x.reshape(tuple(d for s in xs for d in (s, 1)))  # x[i0, 1, i1, 1, ...] * y[1, k0, 1, k1, ...]
    b = y.reshape(tuple(d for s in ys for d in (1, s)))
    return (a * b).reshape(tuple(xs[i] * ys[i] for i in range(n)))


def _kron_infer(x, y):
    check_same_dtype("kron", x, y)
    xs, ys = _kron_shapes(x.shape, y.shape)
    return Meta(tuple(-1 if a < 0 or b < 0 else a * b for a, b in zip(xs, ys)), x.dtype)


def _kron_grad(g):
    # with out viewed as [x0, y0, x1, y1, ...]: dx = sum over the y dims of dout * y, dy likewise
    x, y, dout = g.input("X"), g.input("Y"), g.output_grad("Out")
    xs, ys = _kron_shapes(g.shape(x), g.shape(y))
    interleaved = [d for a, b in zip(xs, ys) for d in (a, b)]
    d4 = g.op("reshape", dout, shape=interleaved)
    x_dims, y_dims = list(range(0, 2 * len(xs), 2)), list(range(1, 2 * len(xs), 2))
    if g.needs("X"):
        yb = g.op("reshape", y, shape=[d for s in ys for d in (1, s)])
        dx = reduce_sum(d4 * yb, axis=y_dims, keepdim=False)
        g.set_input_grad("X", g.op("reshape", dx, shape=list(g.shape(x))))
    if g.needs("Y"):
        xb = g.op("reshape", x, shape=[d for s in xs for d in (s, 1)])
        dy = reduce_sum(d4 * xb, axis=x_dims, keepdim=False)
        g.set_input_grad("Y", g.op("reshape", dy, shape=list(g.shape(y))))


KRON = register_op("kron", inputs=("X", "Y"), outputs=("Out",), forward=_kron_forward, infer=_kron_infer,
                   grad=_kron_grad, same_dtype=("X", "Y"), double_grad=True)


# ---- trace: the sum of the `offset` diagonal of the matrices in dims (axis1, axis2) ----------------------
def _trace_forward(xp, x, offset, axis1, axis2):
    return xp.asarray(xp.trace(x, offset=offset, axis1=axis1, axis2=axis2).astype(x.dtype, copy=False))


def _trace_infer(x, offset, axis1, axis2):
    nd = len(x.shape)
    if nd < 2:
        raise IndexError(f"op 'trace': input 'X' must be at least 2-D, received shape {list(x.shape)}")
    for arg, a in (("axis1", axis1), ("axis2", axis2)):
        if not -nd <= a < nd:
            raise IndexError(f"op 'trace': {arg} must be in [{-nd}, {nd - 1}], received {a}")
    if axis1 % nd == axis2 % nd:
        raise ValueError(f"op 'trace': axis1 and axis2 must differ, received {axis1} and {axis2}")
    keep = [d for i, d in enumerate(x.shape) if i not in (axis1 % nd, axis2 % nd)]
    return Meta(tuple(keep), x.dtype)


def _trace_grad(g):  # dx = dout on the diagonal, zeros elsewhere: the grad op trace_grad
    if g.needs("X"):
        g.set_input_grad("X", g.op("trace_grad", g.input("X"), g.output_grad("Out"), **g.attrs))


def _trace_grad_forward(xp, x, dout, offset, axis1, axis2):
    nd = x.ndim
    a1, a2 = axis1 % nd, axis2 % nd
    rows, cols = x.shape[a1], x.shape[a2]
    mask = xp.eye(rows, cols, k=offset, dtype=x.dtype)  # [rows, cols]
    others = [d for d in range(nd) if d not in (a1, a2)]
    full = dout.reshape(dout.shape + (1, 1)) * mask  # [others..., rows, cols]
    order = others + [a1, a2]
    return xp.ascontiguousarray(full.transpose(np.argsort(order)))


def _trace_grad_grad(g):  # linear in DOut: d(DOut) = trace(dOut), the mask reads only X's shape
    if g.needs("DOut"):
        g.set_input_grad("DOut", g.op("trace", g.output_grad("Out"), **g.attrs))


_TRACE_ATTRS = {"offset": 0, "axis1": 0, "axis2": 1}
TRACE = register_op("trace", inputs=("X",), outputs=("Out",), forward=_trace_forward, infer=_trace_infer,
                    grad=_trace_grad, attrs=_TRACE_ATTRS, double_grad=True)
TRACE_GRAD = register_op("trace_grad", inputs=("X", "DOut"), outputs=("Out",), forward=_trace_grad_forward,
                         infer=lambda x, dout, **attrs: Meta(x.shape, x.dtype), grad=_trace_grad_grad,
                         attrs=_TRACE_ATTRS, nondiff_inputs=("X",), meta_inputs=("X",), same_dtype=("X", "DOut"),
                         double_grad=True)

