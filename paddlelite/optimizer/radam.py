"""RAdam (op `radam`): Adam whose adaptive step is rectified once the variance estimate is tractable
(rho_t > 5) and plain momentum SGD before."""
from .adam import set_moment_coefficients
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    type = "radam"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        set_moment_coefficients(self, beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _append_updates(self, entries):
        for p, g, lr, group in entries:
            b1p, b2p, rho = (self._acc(n, p, 1.0) for n in ("beta1_pow", "beta2_pow", "rho"))
            m1, m2 = self._acc("moment1", p), self._acc("moment2", p)
            self._run("radam", {"Param": p, "Grad": g, "LearningRate": lr, "Beta1Pow": b1p, "Beta2Pow": b2p,
                                "Rho": rho, "Moment1": m1, "Moment2": m2},
                      {"ParamOut": p, "Beta1PowOut": b1p, "Beta2PowOut": b2p, "RhoOut": rho, "Moment1Out": m1,
                       "Moment2Out": m2},
                      {"beta1": float(group.get("beta1", self._beta1)), "beta2": float(group.get("beta2", self._beta2)),
                       "epsilon": float(group.get("epsilon", self._epsilon))})
