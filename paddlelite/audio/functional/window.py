"""Window functions (paddle.audio.functional.get_window and Paddle's top-level hann_window, ...): SciPy's windows
written over the tensor API, in float64 unless asked otherwise, as Paddle computes them."""
import math
import warnings

from ... import tensor as T
from ...device.place import parse_place


def _len_guards(M):
    """True for a window of length 0 or 1 (all ones); an invalid length is a ValueError."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _extend(M, sym):
    """A periodic (not symmetric) window is the symmetric one of M + 1 points without its last."""
    return (M, False) if sym else (M + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _general_cosine(M, a, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    fac = T.linspace(-math.pi, math.pi, M, dtype=dtype)
    w = T.zeros((M,), dtype=dtype)
    for k in range(len(a)):
        w += a[k] * T.cos(k * fac)
    return _truncate(w, needs_trunc)


def _general_hamming(M, alpha, sym=True, dtype="float64"):
    return _general_cosine(M, [alpha, 1.0 - alpha], sym, dtype=dtype)


def _hamming(M, sym=True, dtype="float64"):
    return _general_hamming(M, 0.54, sym, dtype=dtype)


def _hann(M, sym=True, dtype="float64"):
    return _general_hamming(M, 0.5, sym, dtype=dtype)


def _blackman(M, sym=True, dtype="float64"):
    return _general_cosine(M, [0.42, 0.50, 0.08], sym, dtype=dtype)


def _nuttall(M, sym=True, dtype="float64"):
    return _general_cosine(M, T.to_tensor([0.3635819, 0.4891775, 0.1365995, 0.0106411], dtype=dtype), sym,
                           dtype=dtype)


def _bartlett(M, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    n = T.arange(0, M, dtype=dtype)
    M = T.to_tensor(M, dtype=dtype)
    w = T.where(T.less_equal(n, (M - 1) / 2.0), 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _truncate(w, needs_trunc)


def _kaiser(M, beta, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    beta = T.to_tensor(beta, dtype=dtype)
    n = T.arange(0, M, dtype=dtype)
    M = T.to_tensor(M, dtype=dtype)
    alpha = (M - 1) / 2.0
    w = T.i0(beta * T.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / T.i0(beta)
    return _truncate(w, needs_trunc)


def _gaussian(M, std, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    n = T.arange(0, M, dtype=dtype) - (M - 1.0) / 2.0
    w = T.exp(-(n ** 2) / (2 * std * std))
    return _truncate(w, needs_trunc)


def _general_gaussian(M, p, sig, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    n = T.arange(0, M, dtype=dtype) - (M - 1.0) / 2.0
    w = T.exp(-0.5 * T.abs(n / sig) ** (2 * p))
    return _truncate(w, needs_trunc)


def _exponential(M, center=None, tau=1.0, sym=True, dtype="float64"):
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    n = T.arange(0, M, dtype=dtype)
    w = T.exp(-T.abs(n - center) / tau)
    return _truncate(w, needs_trunc)


def _triang(M, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    n = T.arange(1, (M + 1) // 2 + 1, dtype=dtype)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        w = T.concat([w, w[::-1]])
    else:
        w = 2 * n / (M + 1.0)
        w = T.concat([w, w[-2::-1]])
    return _truncate(w, needs_trunc)


def _bohman(M, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    fac = T.abs(T.linspace(-1, 1, M, dtype=dtype)[1:-1])
    w = (1 - fac) * T.cos(math.pi * fac) + 1.0 / math.pi * T.sin(math.pi * fac)
    zero = T.zeros([1], dtype=dtype)
    return _truncate(T.concat([zero, w, zero]), needs_trunc)


def _cosine(M, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    w = T.sin(math.pi / M * (T.arange(0, M, dtype=dtype) + 0.5))
    return _truncate(w, needs_trunc)


def _tukey(M, alpha=0.5, sym=True, dtype="float64"):
    if _len_guards(M) or alpha <= 0:
        return T.ones((M,), dtype=dtype)
    if alpha >= 1.0:
        return _hann(M, sym=sym)  # in float64, as Paddle's
    M, needs_trunc = _extend(M, sym)
    n = T.arange(0, M, dtype=dtype)
    width = int(alpha * (M - 1) / 2.0)
    n1, n2, n3 = n[0:width + 1], n[width + 1:M - width - 1], n[M - width - 1:]
    w1 = 0.5 * (1 + T.cos(math.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w2 = T.ones(n2.shape, dtype=dtype)
    w3 = 0.5 * (1 + T.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return _truncate(T.concat([w1, w2, w3]), needs_trunc)


def _taylor(M, nbar=4, sll=30, norm=True, sym=True, dtype="float64"):
    if _len_guards(M):
        return T.ones((M,), dtype=dtype)
    M, needs_trunc = _extend(M, sym)
    B = 10 ** (sll / 20)  # the sidelobe level, positive (SciPy's convention)
    A = math.log(B + math.sqrt(B ** 2 - 1)) / math.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = T.arange(1, nbar, dtype=dtype)
    signs = T.to_tensor([(-1.0) ** k for k in range(nbar - 1)], dtype=dtype)
    m2 = ma * ma
    coefficients = []
    for mi in range(nbar - 1):
        numer = signs[mi] * T.prod(1 - m2[mi] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * T.prod(1 - m2[mi] / m2[:mi]) * T.prod(1 - m2[mi] / m2[mi + 1:])
        coefficients.append(numer / denom)
    Fm = T.stack(coefficients) if coefficients else T.zeros([0], dtype=dtype)

    def W(n):
        return 1 + 2 * T.matmul(Fm.unsqueeze(0), T.cos(2 * math.pi * ma.unsqueeze(1) * (n - M / 2.0 + 0.5) / M))

    w = W(T.arange(0, M, dtype=dtype))
    if norm:  # normalised to 1 at the centre (not in Taylor's text; SciPy's and Paddle's)
        w *= 1.0 / W((M - 1) / 2)
    return _truncate(w.squeeze(), needs_trunc)


_WINDOWS = {"hamming": _hamming, "hann": _hann, "kaiser": _kaiser, "bartlett": _bartlett, "nuttall": _nuttall,
            "gaussian": _gaussian, "exponential": _exponential, "triang": _triang, "bohman": _bohman,
            "blackman": _blackman, "cosine": _cosine, "tukey": _tukey, "taylor": _taylor,
            "general_gaussian": _general_gaussian, "general_cosine": _general_cosine,
            "general_hamming": _general_hamming}


def get_window(window, win_length, fftbins=True, dtype="float64"):
    """The window `window` (a name, or a tuple of a name and its parameters: ('kaiser', beta), ('gaussian', std),
    ('exponential', center, tau), ...) of `win_length` points; periodic (for an FFT) when fftbins, else
    symmetric."""
    args = ()
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        if window in ("gaussian", "exponential", "kaiser"):
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name = window
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    fn = _WINDOWS.get(name)
    if fn is None:
        raise ValueError(f"Unknown window type: {name!r}; expected one of {sorted(_WINDOWS)}")
    return fn(win_length, *args, sym=not fftbins, dtype=dtype)


def _placed(w, layout, device, pin_memory, requires_grad):
    """A window moved where the torch-style creation arguments say."""
    if layout is not None:
        warnings.warn("layout only supports 'strided' in Paddle; ignored")
    if device is not None:
        w = w._copy_to(parse_place(device)) if w.place != parse_place(device) else w
    if pin_memory:
        w = w.pin_memory()
    if requires_grad is True:
        w.stop_gradient = False
    return w


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype="float32", layout=None,
                   device=None, pin_memory=False, requires_grad=False):
    """alpha - beta * cos(...): the Hamming window generalised (torch.hamming_window's parameters)."""
    w0 = get_window("hamming", window_length, fftbins=periodic, dtype=dtype)
    scale = beta / 0.46
    return _placed(alpha - scale * 0.54 + scale * w0, layout, device, pin_memory, requires_grad)


def hann_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                requires_grad=False):
    return _placed(get_window("hann", window_length, fftbins=periodic, dtype=dtype), layout, device, pin_memory,
                   requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype="float32", layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    return _placed(get_window(("kaiser", beta), window_length, fftbins=periodic, dtype=dtype), layout, device,
                   pin_memory, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    return _placed(get_window("blackman", window_length, fftbins=periodic, dtype=dtype), layout, device, pin_memory,
                   requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype="float32", layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    return _placed(get_window("bartlett", window_length, fftbins=periodic, dtype=dtype), layout, device, pin_memory,
                   requires_grad)
