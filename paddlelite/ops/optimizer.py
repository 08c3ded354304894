"""Optimizer update ops, with Paddle's op types, slots and attrs: sgd, momentum, adam, adamw, merged_adam.

They have no grad makers. Forwards return new arrays (ParamOut, ...) and never write into their
inputs; eager optimizers rebind the parameter's array, static programs write ParamOut back to the
Param variable. Each op is bound to its fused kernel in kernels/optimizer.cu (`gpu=`).

Learning rates and beta powers are 1-element tensors (shape [1], as in Paddle), so one compiled
program serves every step of a schedule.
"""
from .launch import optimizer as _launch
from .registry import Meta, register_op


def _meta(m):
    return Meta(tuple(m.shape), m.dtype)


def _check_like(op, param, other, slot):
    if other is not None and tuple(other.shape) != tuple(param.shape) and -1 not in other.shape \
            and -1 not in param.shape:
        raise ValueError(f"op '{op}': {slot} has shape {list(other.shape)} but Param has {list(param.shape)}")


def _lr(xp, lr, dtype):
    """The learning rate as a 0-D array of the parameter's dtype (lr tensors are [1] or [])."""
    return lr.reshape(()).astype(dtype, copy=False)


def _l2(xp, grad, param, regularization_method, regularization_coeff):
    if regularization_method == "l2_decay" and regularization_coeff:
        return grad + param.dtype.type(regularization_coeff) * param
    return grad


# ---- sgd: ParamOut = Param - lr * Grad --------------------------------------------------------------
def _sgd_forward(xp, param, lr, grad, master_param, multi_precision):
    return param - _lr(xp, lr, param.dtype) * grad.astype(param.dtype, copy=False)


def _sgd_infer(param, lr, grad, master_param=None, **attrs):
    _check_like("sgd", param, grad, "Grad")
    return _meta(param)


SGD = register_op("sgd", inputs=("Param", "LearningRate", "Grad", "MasterParam"), outputs=("ParamOut",),
                  forward=_sgd_forward, infer=_sgd_infer, optional_inputs=("MasterParam",),
                  attrs={"multi_precision": False},
                  gpu=lambda xp, param, lr, grad, master_param, multi_precision: _launch.sgd(xp, param, lr, grad))


# ---- momentum ---------------------------------------------------------------------------------------
def _momentum_forward(xp, param, grad, velocity, lr, master_param, mu, use_nesterov,
                      regularization_method, regularization_coeff, multi_precision,
                      rescale_grad):
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    if rescale_grad != 1.0:
        g = g * dt.type(rescale_grad)
    g = _l2(xp, g, param, regularization_method, regularization_coeff)
    mu = dt.type(mu)
    v_out = velocity * mu + g
    lr = _lr(xp, lr, dt)
    if use_nesterov:
        p_out = param - (g + v_out * mu) * lr
    else:
        p_out = param - lr * v_out
    return p_out, v_out


def _momentum_infer(param, grad, velocity, lr, master_param=None, **attrs):
    _check_like("momentum", param, grad, "Grad")
    _check_like("momentum", param, velocity, "Velocity")
    return _meta(param), _meta(velocity)


def _momentum_kernel(xp, param, grad, velocity, lr, master_param, mu, use_nesterov, regularization_method,
                     regularization_coeff, multi_precision, rescale_grad):
    l2 = regularization_coeff if regularization_method == "l2_decay" else 0.0
    return _launch.momentum(xp, param, grad, velocity, lr, mu, use_nesterov, l2, rescale_grad)


MOMENTUM = register_op(
    "momentum", inputs=("Param", "Grad", "Velocity", "LearningRate", "MasterParam"),
    outputs=("ParamOut", "VelocityOut"), forward=_momentum_forward, infer=_momentum_infer,
    optional_inputs=("MasterParam",),
    attrs={"mu": 0.9, "use_nesterov": False, "regularization_method": "", "regularization_coeff": 0.0,
           "multi_precision": False, "rescale_grad": 1.0},
    gpu=_momentum_kernel)


# ---- adam / adamw -----------------------------------------------------------------------------------
def adam_update(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff=0.0, lr_ratio=1.0):
    """One Adam(W) step on arrays; returns (param, m1, m2, beta1_pow_out, beta2_pow_out).

    Paddle's formula: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);
    p -= lr_t * m1 / (sqrt(m2) + eps * sqrt(1 - b2^t)). AdamW first decays p by lr * ratio * coeff.
    """
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    b1, b2 = dt.type(beta1), dt.type(beta2)
    lr = _lr(xp, lr, dt) * dt.type(lr_ratio)
    if coeff:
        param = param - param * (lr * dt.type(coeff))
    m1_out = m1 * b1 + g * (1 - b1)
    m2_out = m2 * b2 + (g * g) * (1 - b2)
    bp1 = b1p.reshape(()).astype(dt, copy=False)
    bp2 = b2p.reshape(()).astype(dt, copy=False)
    sq = xp.sqrt(1 - bp2)
    lr_t = lr * sq / (1 - bp1)
    p_out = param - lr_t * (m1_out / (xp.sqrt(m2_out) + dt.type(epsilon) * sq))
    return p_out, m1_out, m2_out, b1p * b1p.dtype.type(beta1), b2p * b2p.dtype.type(beta2)


_ADAM_ATTRS = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "lazy_mode": False,
               "min_row_size_to_use_multithread": 1000, "multi_precision": False, "use_global_beta_pow": False}


def _adamw_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, beta1, beta2, epsilon, use_global_beta_pow,
                   coeff, lr_ratio, with_decay, **unused):
    p, a, b, c, d = adam_update(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon,
                                coeff if with_decay else 0.0, lr_ratio)
    if use_global_beta_pow:  # the caller advances the beta powers itself
        c, d = b1p, b2p
    return p, a, b, c, d


def _adam_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, **attrs):
    """adam: adamw without the decay."""
    return _adamw_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, coeff=0.0, lr_ratio=1.0,
                          with_decay=False, **attrs)


def _adam_infer(param, grad, lr, m1, m2, b1p, b2p, master_param=None, **attrs):
    for slot, m in (("Grad", grad), ("Moment1", m1), ("Moment2", m2)):
        _check_like("adam", param, m, slot)
    return _meta(param), _meta(m1), _meta(m2), _meta(b1p), _meta(b2p)


def _adam_kernel(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, beta1, beta2, epsilon, use_global_beta_pow,
                 **unused):
    """adam: adamw's kernel without the decay."""
    return _launch.adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, 0.0, 1.0,
                        not use_global_beta_pow)


def _adamw_kernel(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, beta1, beta2, epsilon, use_global_beta_pow,
                  coeff, lr_ratio, with_decay, **unused):
    return _launch.adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff if with_decay else 0.0,
                        lr_ratio, not use_global_beta_pow)


_ADAM_IN = ("Param", "Grad", "LearningRate", "Moment1", "Moment2", "Beta1Pow", "Beta2Pow", "MasterParam")
_ADAM_OUT = ("ParamOut", "Moment1Out", "Moment2Out", "Beta1PowOut", "Beta2PowOut")

ADAM = register_op("adam", inputs=_ADAM_IN, outputs=_ADAM_OUT,
                   forward=_adam_forward, infer=_adam_infer,
                   optional_inputs=("MasterParam",), attrs=dict(_ADAM_ATTRS), gpu=_adam_kernel)

ADAMW = register_op("adamw", inputs=_ADAM_IN, outputs=_ADAM_OUT, forward=_adamw_forward, infer=_adam_infer,
                    optional_inputs=("MasterParam",),
                    attrs={**_ADAM_ATTRS, "coeff": 0.01, "lr_ratio": 1.0, "with_decay": True}, gpu=_adamw_kernel)


# ---- merged_adam: one op updating a list of parameters (one GPU launch for all of them) -------------
def _merged_adam_forward(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, master_params, beta1,
                         beta2, epsilon, multi_precision, use_global_beta_pow,
                         weight_decay, use_adamw):
    n = len(params)
    for slot, group in (("Grad", grads), ("Moment1", m1s), ("Moment2", m2s), ("Beta1Pow", b1ps),
                        ("Beta2Pow", b2ps)):
        if len(group) != n:
            raise ValueError(f"op 'merged_adam': {n} Params but {len(group)} {slot}")
    if len(lrs) not in (1, n):
        raise ValueError(f"op 'merged_adam': LearningRate must hold 1 or {n} tensors, received {len(lrs)}")
    coeff = weight_decay if use_adamw else 0.0
    outs = ([], [], [], [], [])
    for i in range(n):
        lr = lrs[i] if len(lrs) == n else lrs[0]
        res = adam_update(xp, params[i], grads[i], lr, m1s[i], m2s[i], b1ps[i], b2ps[i],
                          beta1, beta2, epsilon, coeff)
        if use_global_beta_pow:
            res = res[:3] + (b1ps[i], b2ps[i])
        for lst, r in zip(outs, res):
            lst.append(r)
    return outs + ([] if master_params is None else list(master_params),)


def _merged_adam_infer(params, grads, lrs, m1s, m2s, b1ps, b2ps, master_params=None, **attrs):
    if len(grads) != len(params):
        raise ValueError(f"op 'merged_adam': {len(params)} Params but {len(grads)} Grads")
    for p, g in zip(params, grads):
        _check_like("merged_adam", p, g, "Grad")
    return ([_meta(p) for p in params], [_meta(m) for m in m1s], [_meta(m) for m in m2s],
            [_meta(b) for b in b1ps], [_meta(b) for b in b2ps],
            [] if master_params is None else [_meta(m) for m in master_params])


def _merged_adam_kernel(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, master_params, beta1, beta2, epsilon,
                        multi_precision, use_global_beta_pow, weight_decay, use_adamw):
    """Every parameter in one launch (kernels/optimizer.cu adam_multi)."""
    n = len(params)
    if any(len(g) != n for g in (grads, m1s, m2s, b1ps, b2ps)) or len(lrs) not in (1, n):
        return None  # the reference raises the explanatory error
    outs = _launch.adam_multi(xp, params, grads, lrs, m1s, m2s, b1ps, b2ps, beta1, beta2, epsilon,
                              weight_decay if use_adamw else 0.0, not use_global_beta_pow)
    if outs is None:
        return None
    return tuple(outs) + ([] if master_params is None else list(master_params),)


MERGED_ADAM = register_op(
    "merged_adam", inputs=_ADAM_IN, outputs=_ADAM_OUT + ("MasterParamOut",),
    forward=_merged_adam_forward, infer=_merged_adam_infer,
    variadic_inputs=_ADAM_IN, optional_inputs=("MasterParam",),
    variadic_outputs=_ADAM_OUT + ("MasterParamOut",),
    attrs={"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "multi_precision": False,
           "use_global_beta_pow": False, "weight_decay": 0.0, "use_adamw": False},
    gpu=_merged_adam_kernel)
