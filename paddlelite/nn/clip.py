"""Gradient clipping: ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue.

An optimizer calls `clip(params_grads)` with a list of (param, grad) pairs and gets new pairs back.
The arithmetic goes through the public tensor APIs, so in static mode it appends the clipping ops
to the program, and eagerly it runs under no_grad without touching the gradients' arrays.
"""
from .. import tensor as paddle
from ..autograd import no_grad
from ..ops import dispatch
from ..ops.math import CLIP_BY_NORM
from ..static.framework import OP_ROLE_VAR_ATTR, name_scope

__all__ = ["ClipGradBase", "ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue"]


def _check_positive(api, name, value):
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: {name} must be a positive number, received {value!r}")
    return float(value)


def _clippable(p, g):
    return g is not None and getattr(p, "need_clip", True)


def _clip_each(params_grads, clip):
    """(param, clip(grad)) for each clippable pair; in a static program under name scope 'gradient_clip', each op
    recording the (param, clipped grad) it belongs to, as Paddle's."""
    out = []
    with name_scope("gradient_clip"):
        for p, g in params_grads:
            if not _clippable(p, g):
                out.append((p, g))
                continue
            new = clip(g)
            if getattr(new, "_is_variable", False):
                new.op._set_attr(OP_ROLE_VAR_ATTR, [p.name, new.name])
            out.append((p, new))
    return out


class ClipGradBase:
    def __call__(self, params_grads):
        with no_grad():
            return self._clip(list(params_grads))

    def _clip(self, params_grads):
        raise TypeError(f"{type(self).__name__} does not define _clip")


class ClipGradByValue(ClipGradBase):
    """Clamp every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        if min is None:
            if max <= 0:
                raise ValueError(f"ClipGradByValue: max must be positive when min is omitted, received {max}")
            min = -max
        if min > max:
            raise ValueError(f"ClipGradByValue: min ({min}) must not exceed max ({max})")
        self.max, self.min = float(max), float(min)

    def _clip(self, params_grads):
        return _clip_each(params_grads, lambda g: paddle.clip(g, self.min, self.max))

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient whose L2 norm exceeds clip_norm to have norm clip_norm."""

    def __init__(self, clip_norm):
        self.clip_norm = _check_positive("ClipGradByNorm", "clip_norm", clip_norm)

    def _clip(self, params_grads):
        return _clip_each(params_grads, lambda g: dispatch.apply(CLIP_BY_NORM, g, max_norm=self.clip_norm))

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients by clip_norm / max(global_norm, clip_norm), global_norm = sqrt(sum ||g||^2)."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        self.clip_norm = _check_positive("ClipGradByGlobalNorm", "clip_norm", clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def global_norm(self, grads):
        """sqrt of the sum of squares of all `grads` (accumulated in float32 or wider)."""
        total = None
        for g in grads:
            if g.dtype.name in ("float16", "bfloat16"):
                g = g.astype("float32")
            sq = paddle.sum(paddle.multiply(g, g))
            if total is not None and sq.dtype != total.dtype:
                sq = sq.astype(total.dtype)
            total = sq if total is None else paddle.add(total, sq)
        return None if total is None else paddle.sqrt(total)

    def _clip(self, params_grads):
        grads = [g for p, g in params_grads if _clippable(p, g)]
        norm = self.global_norm(grads)
        if norm is None:
            return params_grads
        limit = paddle.full([], self.clip_norm, dtype=norm.dtype)
        scale = paddle.divide(limit, paddle.maximum(norm, limit))
        out = []
        for p, g in params_grads:
            if not _clippable(p, g):
                out.append((p, g))
                continue
            s = scale if scale.dtype == g.dtype else scale.astype(g.dtype)
            out.append((p, paddle.multiply(g, s)))
        return out

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"


# fluid-era names
GradientClipByValue = ClipGradByValue
GradientClipByNorm = ClipGradByNorm
GradientClipByGlobalNorm = ClipGradByGlobalNorm
