"""Adam and AdamW through `merged_adam`: one op updates every parameter that shares a learning rate
(and, for AdamW, a decay coefficient), so a GPU kernel can do them all in one launch."""
import numbers

from ..framework.mode import in_static_mode
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


def _float(api, name, value, low=None, high=None):
    if hasattr(value, "item") and not isinstance(value, numbers.Real):
        value = value.item()
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{api}: {name} must be a float, received {type(value).__name__}")
    value = float(value)
    if (low is not None and value < low) or (high is not None and value >= high):
        raise ValueError(f"{api}: {name} must be in [{low}, {high}), received {value}")
    return value


def set_moment_coefficients(opt, beta1, beta2, epsilon):
    """The checked beta1/beta2/epsilon of an Adam-family optimizer, set on it (errors name its class)."""
    api = type(opt).__name__
    opt._beta1 = _float(api, "beta1", beta1, 0.0, 1.0)
    opt._beta2 = _float(api, "beta2", beta2, 0.0, 1.0)
    opt._epsilon = _float(api, "epsilon", epsilon, 0.0)


class Adam(Optimizer):
    type = "adam"  # Paddle's name of the optimizer (its op type)
    # the accumulators' names: Paddle's class attributes, which subclasses read
    _moment1_acc_str, _moment2_acc_str = "moment1", "moment2"
    _beta1_pow_acc_str, _beta2_pow_acc_str = "beta1_pow_acc", "beta2_pow_acc"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=None, grad_clip=None, lazy_mode=False, multi_precision=False, use_multi_tensor=False,
                 amsgrad=False, name=None):
        api = type(self).__name__
        set_moment_coefficients(self, beta1, beta2, epsilon)
        if amsgrad:
            raise ValueError(f"{api}: amsgrad=True is not supported by the adam ops; use amsgrad=False")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._lazy_mode = lazy_mode

    def _decay_coeff(self, param):
        return 0.0

    def _append_updates(self, entries):
        groups = {}
        for p, g, lr, group in entries:
            b1 = float(group.get("beta1", self._beta1))
            b2 = float(group.get("beta2", self._beta2))
            eps = float(group.get("epsilon", self._epsilon))
            key = (id(lr), b1, b2, eps, self._decay_coeff(p))
            groups.setdefault(key, (lr, []))[1].append((p, g))
        for (_, b1, b2, eps, coeff), (lr, pgs) in groups.items():
            params = [p for p, _ in pgs]
            m1, m2, b1p, b2p = map(list, zip(*[self._moments(p, b1, b2) for p in params]))
            if in_static_mode():  # a program shows Paddle's static update: one adam (adamw) op per parameter
                for (p, g), acc in zip(pgs, zip(m1, m2, b1p, b2p)):
                    self._update_one(p, g, lr, acc, {"beta1": b1, "beta2": b2, "epsilon": eps}, coeff)
                continue
            self._run("merged_adam",
                      {"Param": params, "Grad": [g for _, g in pgs], "LearningRate": [lr] * len(params),
                       "Moment1": m1, "Moment2": m2, "Beta1Pow": b1p, "Beta2Pow": b2p, "MasterParam": None},
                      {"ParamOut": params, "Moment1Out": m1, "Moment2Out": m2, "Beta1PowOut": b1p,
                       "Beta2PowOut": b2p},
                      {"beta1": b1, "beta2": b2, "epsilon": eps, "weight_decay": coeff, "use_adamw": coeff != 0.0})


    def _moments(self, p, b1, b2):
        """p's moment1, moment2, beta1_pow_acc, beta2_pow_acc (created in that order, parameter by parameter,
        as Paddle creates them)."""
        pow_dtype = "float64" if p.dtype.name == "float64" else "float32"
        return (self._acc(self._moment1_acc_str, p), self._acc(self._moment2_acc_str, p),
                self._acc(self._beta1_pow_acc_str, p, b1, [1], pow_dtype, "cpu"),
                self._acc(self._beta2_pow_acc_str, p, b2, [1], pow_dtype, "cpu"))

    def _update_one(self, p, g, lr, acc, attrs, coeff):
        m1, m2, b1p, b2p = acc
        sparse = {"sparse_grad": getattr(g, "type", None) == "SELECTED_ROWS"}  # a sparse embedding's (static) gradient
        op, extra = ("adam", sparse) if not self._decoupled_decay else \
            ("adamw", {"coeff": self._coeff, "lr_ratio": 1.0, "with_decay": coeff != 0.0})  # lr is scaled already
        self._run(op, {"Param": p, "Grad": g, "LearningRate": lr, "Moment1": m1, "Moment2": m2, "Beta1Pow": b1p,
                       "Beta2Pow": b2p, "MasterParam": None},
                  {"ParamOut": p, "Moment1Out": m1, "Moment2Out": m2, "Beta1PowOut": b1p, "Beta2PowOut": b2p},
                  {**attrs, "lazy_mode": self._lazy_mode, "multi_precision": self._multi_precision, **extra})


class AdamW(Adam):
    """Adam with decoupled weight decay: param -= lr * coeff * param before the Adam step.

    apply_decay_param_fun(name) -> bool picks the decayed parameters; lr_ratio(param) -> float scales a
    parameter's learning rate."""

    type = "adamw"
    _decoupled_decay = True

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=0.01, lr_ratio=None, apply_decay_param_fun=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, amsgrad=False, name=None):
        if weight_decay is None:
            weight_decay = 0.0
        if not isinstance(weight_decay, numbers.Real) or isinstance(weight_decay, bool):
            raise TypeError(f"AdamW: weight_decay must be a float coefficient, received {type(weight_decay).__name__}")
        if lr_ratio is not None and not callable(lr_ratio):
            raise TypeError(f"AdamW: lr_ratio must be callable, received {type(lr_ratio).__name__}")
        if apply_decay_param_fun is not None and not callable(apply_decay_param_fun):
            raise TypeError(f"AdamW: apply_decay_param_fun must be callable, received "
                            f"{type(apply_decay_param_fun).__name__}")
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip, lazy_mode,
                         multi_precision, name=name)
        self._coeff = float(weight_decay)
        self._lr_ratio_fn = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun

    def _lr_ratio(self, param):
        return 1.0 if self._lr_ratio_fn is None else float(self._lr_ratio_fn(param))

    def _decay_coeff(self, param):
        if self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(self._param_name(param)):
            return 0.0
        return self._coeff

