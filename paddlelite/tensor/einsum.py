"""paddle.einsum: an Einstein-summation equation reduced to registered ops (diagonal, sum, transpose, reshape,
matmul), so both modes run it and every gradient comes from those ops' grad rules.

Operands are contracted left to right; each pairwise contraction is one batched matmul: labels both operands
share and a later operand or the output needs are batch dims (matmul broadcasts them), shared labels nobody
needs later are the contracted K, the rest are M and N.
"""
import math as _pymath
from collections import Counter

from . import creation as _creation
from . import manipulation as _manip
from . import math as _math
from . import reduce as _reduce
from .diagonals import diagonal
from .math import _check_tensor

_DTYPES = ("float32", "float64", "complex64", "complex128")


def _invalid(message):
    # Paddle checks the equation's syntax with assertions: AssertionError is the class its users catch
    return AssertionError(f"einsum: invalid equation: {message}")


def _parse(equation, operands):
    """(labels of each operand with '...' spelled out, output labels); broadcast dims get upper-case labels."""
    lhs, *rhs = equation.replace(" ", "").lower().split("->")
    if len(rhs) > 1:
        raise _invalid("multiple `->` were found")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise _invalid(f"the number of operands is {len(operands)}, but found {len(terms)} segments in "
                       f"the label equation {equation!r}")
    n_bcast = 0
    for term, x in zip(terms, operands):
        for c in term.replace(".", ""):
            if not c.isalpha():
                raise _invalid(f"{c!r} is not a valid label, which should be a letter")
        if "." in term.replace("...", "", 1):
            raise _invalid(f"`.` is found outside of an ellipsis in {term!r}")
        named = len(term.replace("...", ""))
        if ("..." in term and named > x.ndim) or ("..." not in term and named != x.ndim):
            raise _invalid(f"the label string {term!r} does not match an operand of {x.ndim} dimensions")
        if "..." in term:
            n_bcast = max(n_bcast, x.ndim - named)
    if rhs:
        out = rhs[0]
    else:  # implicit output: the ellipsis, then the labels used once, sorted
        counts = Counter(lhs.replace(".", "").replace(",", ""))
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, n in counts.items() if n == 1))
    if "..." in lhs and "..." not in out:
        raise _invalid("missing ellipsis in output labels")
    bcast = "".join(chr(ord("A") + k) for k in range(n_bcast))
    labels = [term.replace("...", bcast[n_bcast - (x.ndim - len(term.replace("...", ""))):])
              for term, x in zip(terms, operands)]
    out = out.replace("...", bcast)
    used = set("".join(labels))
    for c in out:
        if not (c.isalpha() and c in used):
            raise ValueError(f"einsum: output label {c!r} of {equation!r} is not used by any input")

    return labels, out


def _label_sizes(labels, operands):
    """Each label's size; a label may be 1 in some operands (broadcast), otherwise sizes must agree."""
    sizes = {}
    for term, x in zip(labels, operands):
        for c, n in zip(term, x.shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = n
            elif n not in (1, sizes[c]):
                raise ValueError(f"einsum: label {c!r} has different sizes in the operands: {sizes[c]} and {n}")
    return sizes


def _diagonalize(x, term):
    """x with every repeated label reduced to its diagonal (the label moves last)."""
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        i = term.index(c)
        j = term.index(c, i + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: repeated label {c!r} has different sizes {x.shape[i]} and {x.shape[j]}")
        x = diagonal(x, 0, i, j)
        term = term[:i] + term[i + 1:j] + term[j + 1:] + c
    return x, term


def _sum_out(x, term, keep):
    """x summed over the labels not in `keep`."""
    axes = [d for d, c in enumerate(term) if c not in keep]
    if not axes:
        return x, term
    return _reduce.sum(x, axes), "".join(c for c in term if c in keep)


def _contract(a, la, b, lb, keep):
    """The pairwise contraction of a (labels la) and b (labels lb), keeping the labels in `keep`."""
    a, la = _sum_out(a, la, keep | set(lb))
    b, lb = _sum_out(b, lb, keep | set(la))
    for c in [c for c in la if c in lb and c not in keep]:  # K of size 1 on one side: sum the other side
        na, nb = a.shape[la.index(c)], b.shape[lb.index(c)]
        if na != nb:
            if na == 1:
                b = _reduce.sum(b, [lb.index(c)], keepdim=True)
            else:
                a = _reduce.sum(a, [la.index(c)], keepdim=True)
    batch = [c for c in la if c in lb and c in keep]
    k = [c for c in la if c in lb and c not in keep]
    m = [c for c in la if c not in lb]
    n = [c for c in lb if c not in la]
    size_a = dict(zip(la, a.shape))
    size_b = dict(zip(lb, b.shape))
    a = _manip.transpose(a, [la.index(c) for c in batch + m + k])
    b = _manip.transpose(b, [lb.index(c) for c in batch + k + n])
    prod = _pymath.prod
    a = _manip.reshape(a, [size_a[c] for c in batch] + [prod(size_a[c] for c in m), prod(size_a[c] for c in k)])
    b = _manip.reshape(b, [size_b[c] for c in batch] + [prod(size_b[c] for c in k), prod(size_b[c] for c in n)])
    out = _math.matmul(a, b)
    shape = [max(size_a[c], size_b[c]) for c in batch] + [size_a[c] for c in m] + [size_b[c] for c in n]
    return _manip.reshape(out, shape), "".join(batch + m + n)


def einsum(equation, *operands):
    """Einstein summation over the operands as `equation` writes it ('ij,jk->ik', '...ii->...i', 'ij'):
    ellipsis for broadcast dims, repeated labels in one operand for diagonals, implicit output (the labels
    used once, sorted) when there is no '->'. Labels are letters, case-insensitive (as in Paddle)."""
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a str, received {type(equation).__name__}")
    if not operands:
        raise _invalid("required at least one operand, but received 0")
    for k, x in enumerate(operands):
        _check_tensor(x, "einsum", f"operands[{k}]")
        if x.dtype.name not in _DTYPES:
            raise TypeError(f"einsum: operands must be one of {', '.join(_DTYPES)}, operands[{k}] is {x.dtype.name}")
        if x.dtype != operands[0].dtype:
            raise ValueError(f"einsum: operands must share one dtype, operands[0] is {operands[0].dtype.name} "
                             f"and operands[{k}] is {x.dtype.name}")
    labels, out = _parse(equation, operands)
    _label_sizes(labels, operands)
    terms = [_diagonalize(x, term) for x, term in zip(operands, labels)]
    x, term = terms[0]
    for k in range(1, len(terms)):
        keep = set(out).union(*(t for _, t in terms[k + 1:]))
        x, term = _contract(x, term, *terms[k], keep)
    x, term = _sum_out(x, term, set(out))
    unique = "".join(dict.fromkeys(out))
    if term != unique:
        x = _manip.transpose(x, [term.index(c) for c in unique])
    return _repeat_labels(x, unique, out)


def _repeat_labels(x, term, out):
    """x (labels `term`, each once) spread over the output labels `out`, a label repeated in `out` giving a
    diagonal ('i->ii' is diag_embed): a new axis per repeat, times the identity over it and the label's first axis."""
    if term == out:
        return x
    axes = list(term)  # the label of each axis of x as it grows
    for c in _repeats(out):
        first = axes.index(c)
        n = x.shape[first]
        eye_shape = [1] * (len(axes) + 1)
        eye_shape[first], eye_shape[-1] = n, n
        x = _math.multiply(_manip.unsqueeze(x, -1), _manip.reshape(_creation.eye(n, dtype=x.dtype), eye_shape))
        axes.append(c + "'" * axes.count(c))
    names = [c + "'" * out[:k].count(c) for k, c in enumerate(out)]
    return _manip.transpose(x, [axes.index(name) for name in names])


def _repeats(out):
    """The labels of `out` after their first occurrence, in order."""
    return [c for k, c in enumerate(out) if c in out[:k]]


__all__ = ["einsum"]
