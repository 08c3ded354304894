"""NAdam (op `nadam`): Adam with Nesterov momentum on Paddle's schedule
mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))."""
from .adam import _float, set_moment_coefficients
from .optimizer import Optimizer

__all__ = ["NAdam"]


class NAdam(Optimizer):
    type = "nadam"

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1e-08, momentum_decay=0.004,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        api = "NAdam"
        set_moment_coefficients(self, beta1, beta2, epsilon)
        self._momentum_decay = _float(api, "momentum_decay", momentum_decay, 0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            # Paddle keeps these powers parameter-shaped, one value per element
            decay_pow, b2p, mu_product = (self._acc(n, p, 1.0) for n in ("momentum_decay_pow", "beta2_pow",
                                                                         "mu_product"))
            m1, m2 = self._acc("moment1", p), self._acc("moment2", p)
            self._run("nadam", {"Param": p, "Grad": g, "LearningRate": lr, "MomentumDecayPow": decay_pow,
                                "Beta2Pow": b2p, "MuProduct": mu_product, "Moment1": m1, "Moment2": m2},
                      {"ParamOut": p, "MomentumDecayPowOut": decay_pow, "Beta2PowOut": b2p,
                       "MuProductOut": mu_product, "Moment1Out": m1, "Moment2Out": m2},
                      {"beta1": float(group.get("beta1", self._beta1)), "beta2": float(group.get("beta2", self._beta2)),
                       "epsilon": float(group.get("epsilon", self._epsilon)),
                       "momentum_decay": float(group.get("momentum_decay", self._momentum_decay))})
