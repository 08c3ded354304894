"""Optimizer update ops, with Paddle's op types, slots and attrs: sgd, momentum, merged_momentum, adam, adamw,
merged_adam, adagrad, rmsprop, adamax, adadelta, lamb, nadam, radam; and merged_sgd (paddlelite's own: sgd over a
list of parameters, which eager SGD runs as one launch).

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
    step = _lr(xp, lr, param.dtype) * grad.astype(param.dtype, copy=False)
    # the difference goes into the step's own array: one temporary per update, not two (a 0-D step is a scalar)
    return param - step if step.ndim == 0 else xp.subtract(param, step, out=step)


def _sgd_infer(param, lr, grad, master_param=None, **attrs):
    _check_like("sgd", param, grad, "Grad")
    return _meta(param)


SGD = register_op("sgd", inputs=("Param", "LearningRate", "Grad", "MasterParam"), outputs=("ParamOut",),
                  forward=_sgd_forward, infer=_sgd_infer, optional_inputs=("MasterParam",),
                  attrs={"multi_precision": False},
                  gpu=lambda xp, param, lr, grad, master_param, multi_precision: _launch.sgd(xp, param, lr, grad),
                  batched=lambda multi_precision: None if multi_precision else ("merged_sgd", {}, {}))


# ---- merged_sgd: sgd over lists of parameters in one launch on a GPU (paddlelite's: eager SGD's whole update;
# Paddle launches sgd per parameter, PyTorch's foreach SGD one multi-tensor kernel) --------------------------------
def _merged_sgd_check(params, lrs, grads):
    if len(grads) != len(params):
        raise ValueError(f"op 'merged_sgd': {len(params)} Params but {len(grads)} Grads")
    if len(lrs) not in (1, len(params)):
        raise ValueError(f"op 'merged_sgd': LearningRate must hold 1 or {len(params)} tensors, received {len(lrs)}")


def _merged_sgd_forward(xp, params, lrs, grads, master_params, multi_precision):
    _merged_sgd_check(params, lrs, grads)
    return ([_sgd_forward(xp, p, lrs[i if len(lrs) > 1 else 0], g, None, multi_precision)
             for i, (p, g) in enumerate(zip(params, grads))], [] if master_params is None else list(master_params))


def _merged_sgd_infer(params, lrs, grads, master_params=None, **attrs):
    _merged_sgd_check(params, lrs, grads)
    for p, g in zip(params, grads):
        _check_like("merged_sgd", p, g, "Grad")
    return [_meta(p) for p in params], [] if master_params is None else [_meta(m) for m in master_params]


def _merged_sgd_kernel(xp, params, lrs, grads, master_params, multi_precision):
    """Every parameter in one launch (kernels/optimizer.cu momentum_multi without velocities)."""
    if len(grads) != len(params) or len(lrs) not in (1, len(params)):
        return None  # the reference raises the explanatory error
    outs = _launch.momentum_multi(xp, params, grads, None, lrs, None, 0.0, False, 1.0)
    return None if outs is None else (outs[0], [] if master_params is None else list(master_params))


MERGED_SGD = register_op("merged_sgd", inputs=("Param", "LearningRate", "Grad", "MasterParam"),
                         outputs=("ParamOut", "MasterParamOut"), forward=_merged_sgd_forward,
                         infer=_merged_sgd_infer, variadic_inputs=("Param", "LearningRate", "Grad", "MasterParam"),
                         optional_inputs=("MasterParam",), variadic_outputs=("ParamOut", "MasterParamOut"),
                         attrs={"multi_precision": False}, gpu=_merged_sgd_kernel)


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


def _momentum_batched(mu, use_nesterov, regularization_method, regularization_coeff, multi_precision, rescale_grad):
    if multi_precision:
        return None
    return ("merged_momentum", {"mu": mu, "use_nesterov": use_nesterov, "rescale_grad": rescale_grad},
            {"regularization_method": regularization_method, "regularization_coeff": regularization_coeff})


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
    gpu=_momentum_kernel, batched=_momentum_batched)


# ---- merged_momentum: momentum over lists of parameters (Paddle's op for use_multi_tensor), one launch on a GPU ----
_MERGED_MOMENTUM_LISTS = ("Grad", "Velocity")


def _merged_momentum_check(params, grads, velocities, lrs, regularization_method, regularization_coeff):
    n = len(params)
    for slot, group in zip(_MERGED_MOMENTUM_LISTS, (grads, velocities)):
        if len(group) != n:
            raise ValueError(f"op 'merged_momentum': {n} Params but {len(group)} {slot}")
    if len(lrs) not in (1, n):
        raise ValueError(f"op 'merged_momentum': LearningRate must hold 1 or {n} tensors, received {len(lrs)}")
    for name, attr in (("regularization_method", regularization_method),
                       ("regularization_coeff", regularization_coeff)):
        if len(attr) not in (0, n):
            raise ValueError(f"op 'merged_momentum': {name} must hold 0 or {n} values, received {len(attr)}")


def _per_param(attr, i):
    return attr[i] if attr else None


def _merged_momentum_forward(xp, params, grads, velocities, lrs, master_params, mu, use_nesterov,
                             regularization_method, regularization_coeff, multi_precision, rescale_grad):
    _merged_momentum_check(params, grads, velocities, lrs, regularization_method, regularization_coeff)
    p_out, v_out = [], []
    for i, (p, g, v) in enumerate(zip(params, grads, velocities)):
        p_new, v_new = _momentum_forward(xp, p, g, v, lrs[i if len(lrs) > 1 else 0], None, mu, use_nesterov,
                                         _per_param(regularization_method, i) or "",
                                         _per_param(regularization_coeff, i) or 0.0, multi_precision,
                                         rescale_grad)
        p_out.append(p_new)
        v_out.append(v_new)
    return p_out, v_out, [] if master_params is None else list(master_params)


def _merged_momentum_infer(params, grads, velocities, lrs, master_params=None, **attrs):
    _merged_momentum_check(params, grads, velocities, lrs, attrs["regularization_method"],
                           attrs["regularization_coeff"])
    for p, g, v in zip(params, grads, velocities):
        _check_like("merged_momentum", p, g, "Grad")
        _check_like("merged_momentum", p, v, "Velocity")
    return ([_meta(p) for p in params], [_meta(v) for v in velocities],
            [] if master_params is None else [_meta(m) for m in master_params])


def _merged_momentum_kernel(xp, params, grads, velocities, lrs, master_params, mu, use_nesterov,
                            regularization_method, regularization_coeff, multi_precision, rescale_grad):
    """Every parameter in one launch (kernels/optimizer.cu momentum_multi)."""
    n = len(params)
    if any(len(g) != n for g in (grads, velocities)) or len(lrs) not in (1, n) \
            or len(regularization_method) not in (0, n) or len(regularization_coeff) not in (0, n):
        return None  # the reference raises the explanatory error
    l2 = [_per_param(regularization_coeff, i) or 0.0 if _per_param(regularization_method, i) == "l2_decay" else 0.0
          for i in range(n)]
    outs = _launch.momentum_multi(xp, params, grads, velocities, lrs, l2, mu, use_nesterov, rescale_grad)
    return None if outs is None else (*outs, [] if master_params is None else list(master_params))


MERGED_MOMENTUM = register_op(
    "merged_momentum", inputs=("Param", "Grad", "Velocity", "LearningRate", "MasterParam"),
    outputs=("ParamOut", "VelocityOut", "MasterParamOut"), forward=_merged_momentum_forward,
    infer=_merged_momentum_infer, variadic_inputs=("Param", "Grad", "Velocity", "LearningRate", "MasterParam"),
    optional_inputs=("MasterParam",), variadic_outputs=("ParamOut", "VelocityOut", "MasterParamOut"),
    attrs={"mu": 0.9, "use_nesterov": False, "regularization_method": [], "regularization_coeff": [],
           "multi_precision": False, "rescale_grad": 1.0},
    gpu=_merged_momentum_kernel)


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


def _adam_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, sparse_grad, **attrs):
    """adam: adamw without the decay. sparse_grad: Grad is a SELECTED_ROWS variable (a sparse embedding's), so the
    step is Paddle's adam_dense_param_sparse_grad kernel, which advances the beta powers (in place in a program)
    before its update reads them, and with lazy_mode updates only the rows the gradient holds (its nonzero rows)."""
    if not sparse_grad:
        return _adamw_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, coeff=0.0, lr_ratio=1.0,
                              with_decay=False, **attrs)
    b1p_out, b2p_out = b1p * b1p.dtype.type(attrs["beta1"]), b2p * b2p.dtype.type(attrs["beta2"])
    p, a, b, _, _ = adam_update(xp, param, grad, lr, m1, m2, b1p_out, b2p_out, attrs["beta1"], attrs["beta2"],
                                attrs["epsilon"])
    if attrs["lazy_mode"]:
        rows = xp.any(grad.reshape(grad.shape[0], -1) != 0, axis=1).reshape((-1,) + (1,) * (grad.ndim - 1))
        p, a, b = xp.where(rows, p, param), xp.where(rows, a, m1), xp.where(rows, b, m2)
    return (p, a, b) + ((b1p, b2p) if attrs["use_global_beta_pow"] else (b1p_out, b2p_out))


def _adam_infer(param, grad, lr, m1, m2, b1p, b2p, master_param=None, **attrs):
    for slot, m in (("Grad", grad), ("Moment1", m1), ("Moment2", m2)):
        _check_like("adam", param, m, slot)
    return _meta(param), _meta(m1), _meta(m2), _meta(b1p), _meta(b2p)


def _adam_kernel(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, beta1, beta2, epsilon, use_global_beta_pow,
                 sparse_grad, **unused):
    """adam: adamw's kernel without the decay (a sparse gradient's step is the reference forward's)."""
    if sparse_grad:
        return None
    return _launch.adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, 0.0, 1.0,
                        not use_global_beta_pow)


def _adamw_kernel(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, beta1, beta2, epsilon, use_global_beta_pow,
                  coeff, lr_ratio, with_decay, **unused):
    return _launch.adam(xp, param, grad, lr, m1, m2, b1p, b2p, beta1, beta2, epsilon, coeff if with_decay else 0.0,
                        lr_ratio, not use_global_beta_pow)


_ADAM_IN = ("Param", "Grad", "LearningRate", "Moment1", "Moment2", "Beta1Pow", "Beta2Pow", "MasterParam")
_ADAM_OUT = ("ParamOut", "Moment1Out", "Moment2Out", "Beta1PowOut", "Beta2PowOut")

def _adam_batched(beta1, beta2, epsilon, multi_precision, use_global_beta_pow, sparse_grad=False, coeff=0.0,
                  lr_ratio=1.0, with_decay=False, **unused):
    """merged_adam's attrs for an adam (adamw) step it can take: dense, without master weights or a rate ratio."""
    if sparse_grad or multi_precision or lr_ratio != 1.0:
        return None
    decay = coeff if with_decay else 0.0
    return ("merged_adam", {"beta1": beta1, "beta2": beta2, "epsilon": epsilon,
                            "use_global_beta_pow": use_global_beta_pow, "weight_decay": decay,
                            "use_adamw": decay != 0.0}, {})


ADAM = register_op("adam", inputs=_ADAM_IN, outputs=_ADAM_OUT,
                   forward=_adam_forward, infer=_adam_infer,
                   optional_inputs=("MasterParam",), attrs={**_ADAM_ATTRS, "sparse_grad": False}, gpu=_adam_kernel,
                   batched=_adam_batched)

ADAMW = register_op("adamw", inputs=_ADAM_IN, outputs=_ADAM_OUT, forward=_adamw_forward, infer=_adam_infer,
                    optional_inputs=("MasterParam",),
                    attrs={**_ADAM_ATTRS, "coeff": 0.01, "lr_ratio": 1.0, "with_decay": True}, gpu=_adamw_kernel,
                    batched=_adam_batched)


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


# ---- the element-wise adaptive optimizers (Paddle's phi kernels' math, in the parameter's dtype) ------
def _scalar(x, dt):
    """A [1]-shaped (or parameter-shaped) accumulator as a value of dtype `dt`."""
    return x.reshape(()).astype(dt, copy=False) if x.size == 1 else x.astype(dt, copy=False)


def _like_infer(op, grad_slot_outputs):
    """infer for an update op: ParamOut and each accumulator output take their input's meta."""
    def infer(param, grad, *rest, **attrs):
        _check_like(op, param, grad, "Grad")
        return tuple(_meta(m) for m in (param,) + tuple(rest[i] for i in grad_slot_outputs))
    return infer


def _adagrad_forward(xp, param, grad, moment, lr, master_param, epsilon, multi_precision):
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    m_out = moment + g * g
    return param - _lr(xp, lr, dt) * g / (xp.sqrt(m_out) + dt.type(epsilon)), m_out


ADAGRAD = register_op("adagrad", inputs=("Param", "Grad", "Moment", "LearningRate", "MasterParam"),
                      outputs=("ParamOut", "MomentOut"), forward=_adagrad_forward,
                      infer=_like_infer("adagrad", (0,)), optional_inputs=("MasterParam",),
                      attrs={"epsilon": 1e-6, "multi_precision": False},
                      gpu=lambda xp, param, grad, moment, lr, master_param, epsilon, multi_precision:
                      _launch.elementwise(xp, "adagrad", param, (param, grad, moment), (lr,), 2, (epsilon,)))


def _rmsprop_forward(xp, param, mean_square, grad, moment, lr, mean_grad, master_param, epsilon, decay, momentum,
                     centered, multi_precision):
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    rho, eps, mu = dt.type(decay), dt.type(epsilon), dt.type(momentum)
    ms_out = rho * mean_square + (1 - rho) * g * g
    if centered:
        mg_out = rho * mean_grad + (1 - rho) * g
        denom = ms_out - mg_out * mg_out + eps
    else:
        mg_out = mean_grad
        denom = ms_out + eps
    mom_out = mu * moment + _lr(xp, lr, dt) * g / xp.sqrt(denom)
    return param - mom_out, mom_out, ms_out, mg_out


def _rmsprop_infer(param, mean_square, grad, moment, lr, mean_grad=None, master_param=None, **attrs):
    _check_like("rmsprop", param, grad, "Grad")
    return _meta(param), _meta(moment), _meta(mean_square), _meta(mean_grad if mean_grad is not None else param)


def _rmsprop_kernel(xp, param, mean_square, grad, moment, lr, mean_grad, master_param, epsilon, decay, momentum,
                    centered, multi_precision):
    if mean_grad is None:
        return None
    return _launch.elementwise(xp, "rmsprop", param, (param, mean_square, grad, moment, mean_grad), (lr,), 4,
                               (epsilon, decay, momentum, bool(centered)))


RMSPROP = register_op("rmsprop", inputs=("Param", "MeanSquare", "Grad", "Moment", "LearningRate", "MeanGrad",
                                         "MasterParam"),
                      outputs=("ParamOut", "MomentOut", "MeanSquareOut", "MeanGradOut"), forward=_rmsprop_forward,
                      infer=_rmsprop_infer, optional_inputs=("MeanGrad", "MasterParam"),
                      attrs={"epsilon": 1e-10, "decay": 0.9, "momentum": 0.0, "centered": False,
                             "multi_precision": False}, gpu=_rmsprop_kernel)


def _adamax_forward(xp, param, grad, lr, moment, inf_norm, beta1_pow, master_param, beta1, beta2, epsilon,
                    multi_precision):
    """The beta1 power is advanced by a separate `scale` op, as Paddle's Adamax does."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    b1 = dt.type(beta1)
    m_out = b1 * moment + (1 - b1) * g
    inf_out = xp.maximum(dt.type(beta2) * inf_norm + dt.type(epsilon), xp.abs(g))
    lr_t = _lr(xp, lr, dt) / (1 - _scalar(beta1_pow, dt))
    return param - lr_t * (m_out / inf_out), m_out, inf_out


ADAMAX = register_op("adamax", inputs=("Param", "Grad", "LearningRate", "Moment", "InfNorm", "Beta1Pow",
                                       "MasterParam"),
                     outputs=("ParamOut", "MomentOut", "InfNormOut"), forward=_adamax_forward,
                     infer=lambda param, grad, lr, moment, inf_norm, *rest, **attrs: (
                         _meta(param), _meta(moment), _meta(inf_norm)),
                     optional_inputs=("MasterParam",),
                     attrs={"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "multi_precision": False},
                     gpu=lambda xp, param, grad, lr, moment, inf_norm, beta1_pow, master_param, beta1, beta2, epsilon,
                     multi_precision: _launch.elementwise(xp, "adamax", param, (param, grad, moment, inf_norm),
                                                          (lr, beta1_pow), 3, (beta1, beta2, epsilon)))


def _adadelta_forward(xp, param, grad, avg_sq_grad, avg_sq_update, lr, master_param, rho, epsilon,
                      multi_precision):
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    rho, eps = dt.type(rho), dt.type(epsilon)
    asg_out = rho * avg_sq_grad + (1 - rho) * g * g
    update = -xp.sqrt((avg_sq_update + eps) / (asg_out + eps)) * g
    asu_out = rho * avg_sq_update + (1 - rho) * update * update
    return param + _lr(xp, lr, dt) * update, asg_out, asu_out


ADADELTA = register_op("adadelta", inputs=("Param", "Grad", "AvgSquaredGrad", "AvgSquaredUpdate", "LearningRate",
                                           "MasterParam"),
                       outputs=("ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut"), forward=_adadelta_forward,
                       infer=_like_infer("adadelta", (0, 1)), optional_inputs=("MasterParam",),
                       attrs={"rho": 0.95, "epsilon": 1e-6, "multi_precision": False},
                       gpu=lambda xp, param, grad, asg, asu, lr, master_param, rho, epsilon, multi_precision:
                       _launch.elementwise(xp, "adadelta", param, (param, grad, asg, asu), (lr,), 3, (rho, epsilon)))


def _lamb_forward(xp, param, grad, lr, m1, m2, b1p, b2p, master_param, weight_decay, beta1, beta2, epsilon,
                  always_adapt, multi_precision):
    """Adam's moments, then a layer-wise trust ratio ||param|| / ||update|| scales the step."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    b1, b2 = dt.type(beta1), dt.type(beta2)
    m1_out = b1 * m1 + (1 - b1) * g
    m2_out = b2 * m2 + (1 - b2) * g * g
    m1_hat = m1_out / (1 - _scalar(b1p, dt))
    m2_hat = m2_out / (1 - _scalar(b2p, dt))
    update = m1_hat / (xp.sqrt(m2_hat) + dt.type(epsilon)) + dt.type(weight_decay) * param
    lr = _lr(xp, lr, dt)
    if weight_decay > 0 or always_adapt:
        p_norm = xp.sqrt(xp.sum(param * param))
        u_norm = xp.sqrt(xp.sum(update * update))
        ratio = xp.where((p_norm > 0) & (u_norm > 0), p_norm / xp.where(u_norm > 0, u_norm, 1), dt.type(1))
        lr = lr * ratio.astype(dt, copy=False)
    return (param - lr * update, m1_out, m2_out, b1p * b1p.dtype.type(beta1), b2p * b2p.dtype.type(beta2))


LAMB = register_op("lamb", inputs=_ADAM_IN, outputs=_ADAM_OUT, forward=_lamb_forward,
                   infer=_adam_infer, optional_inputs=("MasterParam",),
                   attrs={"weight_decay": 0.01, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-6,
                          "always_adapt": False, "multi_precision": False})


def _nadam_forward(xp, param, grad, lr, decay_pow, b2p, mu_product, m1, m2, master_param, beta1, beta2, epsilon,
                   momentum_decay, multi_precision):
    """Nesterov Adam with Paddle's momentum schedule mu_t = beta1 (1 - 0.5 * 0.96^(t * momentum_decay))."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    b1, b2 = dt.type(beta1), dt.type(beta2)
    psi, base = dt.type(momentum_decay), dt.type(0.96)
    decay_pow_out = decay_pow * base  # 0.96^t
    mu_t = b1 * (1 - dt.type(0.5) * decay_pow_out ** psi)
    mu_t1 = b1 * (1 - dt.type(0.5) * (decay_pow_out * base) ** psi)
    mu_product_out = mu_product * mu_t
    b2p_out = b2p * b2
    m1_out = b1 * m1 + (1 - b1) * g
    m2_out = b2 * m2 + (1 - b2) * g * g
    m1_hat = mu_t1 * m1_out / (1 - mu_product_out * mu_t1) + (1 - mu_t) * g / (1 - mu_product_out)
    m2_hat = m2_out / (1 - b2p_out)
    p_out = param - _lr(xp, lr, dt) * m1_hat / (xp.sqrt(m2_hat) + dt.type(epsilon))
    return p_out, decay_pow_out, b2p_out, mu_product_out, m1_out, m2_out


def _nadam_infer(param, grad, lr, decay_pow, b2p, mu_product, m1, m2, master_param=None, **attrs):
    _check_like("nadam", param, grad, "Grad")
    return tuple(_meta(m) for m in (param, decay_pow, b2p, mu_product, m1, m2))


NADAM = register_op("nadam", inputs=("Param", "Grad", "LearningRate", "MomentumDecayPow", "Beta2Pow", "MuProduct",
                                     "Moment1", "Moment2", "MasterParam"),
                    outputs=("ParamOut", "MomentumDecayPowOut", "Beta2PowOut", "MuProductOut", "Moment1Out",
                             "Moment2Out"),
                    forward=_nadam_forward, infer=_nadam_infer, optional_inputs=("MasterParam",),
                    attrs={"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "momentum_decay": 0.004,
                           "multi_precision": False},
                    gpu=lambda xp, param, grad, lr, decay_pow, b2p, mu_product, m1, m2, master_param, beta1, beta2,
                    epsilon, momentum_decay, multi_precision: _launch.elementwise(
                        xp, "nadam", param, (param, grad, decay_pow, b2p, mu_product, m1, m2), (lr,), 6,
                        (beta1, beta2, epsilon, momentum_decay)))


def _radam_forward(xp, param, grad, lr, b1p, b2p, rho, m1, m2, master_param, beta1, beta2, epsilon,
                   multi_precision):
    """Rectified Adam. `Rho` holds t * beta2^t / (1 - beta2^t), advanced without a step counter."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    b1, b2 = dt.type(beta1), dt.type(beta2)
    b1p_out, b2p_out = b1p * b1, b2p * b2
    rho_out = (rho * (b2 - b2p_out) + b2p_out) / (1 - b2p_out)
    m1_out = b1 * m1 + (1 - b1) * g
    m2_out = b2 * m2 + (1 - b2) * g * g
    m1_hat = m1_out / (1 - b1p_out)
    rho_inf = 2 / (1 - b2) - 1
    rho_t = rho_inf - 2 * rho_out
    lr = _lr(xp, lr, dt)
    # clamped: the rectifier is only used where rho_t > 5, and is NaN below 4
    rect = xp.sqrt(xp.maximum((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t), 0))
    adaptive = xp.sqrt(1 - b2p_out) / (xp.sqrt(m2_out) + dt.type(epsilon))
    p_out = xp.where(rho_t > 5, param - lr * m1_hat * rect * adaptive, param - lr * m1_hat)
    return p_out, b1p_out, b2p_out, rho_out, m1_out, m2_out


def _radam_infer(param, grad, lr, b1p, b2p, rho, m1, m2, master_param=None, **attrs):
    _check_like("radam", param, grad, "Grad")
    return tuple(_meta(m) for m in (param, b1p, b2p, rho, m1, m2))


RADAM = register_op("radam", inputs=("Param", "Grad", "LearningRate", "Beta1Pow", "Beta2Pow", "Rho", "Moment1",
                                     "Moment2", "MasterParam"),
                    outputs=("ParamOut", "Beta1PowOut", "Beta2PowOut", "RhoOut", "Moment1Out", "Moment2Out"),
                    forward=_radam_forward, infer=_radam_infer, optional_inputs=("MasterParam",),
                    attrs={"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "multi_precision": False},
                    gpu=lambda xp, param, grad, lr, b1p, b2p, rho, m1, m2, master_param, beta1, beta2, epsilon,
                    multi_precision: _launch.elementwise(xp, "radam", param, (param, grad, b1p, b2p, rho, m1, m2),
                                                         (lr,), 6, (beta1, beta2, epsilon)))


def _rprop_forward(xp, param, grad, prev, learning_rate, master_param, learning_rate_range, etas,
                   multi_precision):
    """Resilient backprop: each element's own step grows by etas[1] while its gradient keeps its sign and
    shrinks by etas[0] when it flips (that step is skipped and its gradient forgotten)."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    lr_min, lr_max = (dt.type(v) for v in learning_rate_range)
    eta_neg, eta_pos = (dt.type(v) for v in etas)
    product = g * prev
    lr_out = xp.where(product > 0, xp.minimum(learning_rate * eta_pos, lr_max),
                      xp.where(product < 0, xp.maximum(learning_rate * eta_neg, lr_min), learning_rate))
    g = xp.where(product < 0, dt.type(0), g)
    return param - xp.sign(g) * lr_out, g, lr_out


RPROP = register_op("rprop", inputs=("param", "grad", "prev", "learning_rate", "master_param"),
                    outputs=("param_out", "prev_out", "learning_rate_out"), forward=_rprop_forward,
                    infer=_like_infer("rprop", (0, 1)), optional_inputs=("master_param",),
                    attrs={"learning_rate_range": [1e-5, 50.0], "etas": [0.5, 1.2], "multi_precision": False},
                    gpu=lambda xp, param, grad, prev, learning_rate, master_param, learning_rate_range, etas,
                    multi_precision: _launch.elementwise(xp, "rprop", param, (param, grad, prev, learning_rate), (),
                                                         3, (*map(float, learning_rate_range), *map(float, etas))))


def _asgd_forward(xp, param, grad, lr, d, ys, m, master_param, batch_num, multi_precision):
    """Stochastic average gradient over `batch_num` slots: d += g - ys[m % n]; ys[m % n] = g;
    param -= lr * d / min(m + 1, n); m += 1."""
    dt = param.dtype
    g = grad.astype(dt, copy=False)
    slot = (xp.arange(batch_num) == m.reshape(()) % batch_num).reshape((batch_num,) + (1,) * g.ndim)
    y = xp.sum(xp.where(slot, ys, dt.type(0)), axis=0)
    m_out = m + 1
    d_out = d - y + g
    n = xp.minimum(m_out, batch_num).reshape(()).astype(dt)
    return param - _lr(xp, lr, dt) / n * d_out, d_out, xp.where(slot, g, ys), m_out


def _asgd_infer(param, grad, lr, d, ys, m, master_param=None, **attrs):
    _check_like("asgd", param, grad, "Grad")
    return _meta(param), _meta(d), _meta(ys), _meta(m)


ASGD = register_op("asgd", inputs=("param", "grad", "learning_rate", "d", "y", "m", "master_param"),
                   outputs=("param_out", "d_out", "y_out", "m_out"), forward=_asgd_forward, infer=_asgd_infer,
                   optional_inputs=("master_param",), attrs={"batch_num": 1, "multi_precision": False})
