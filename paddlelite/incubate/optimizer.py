"""LookAhead (Zhang et al. 2019): an inner optimizer takes the fast steps; every k steps the slow weights move alpha
of the way to the fast ones and the fast weights restart from them."""
from ..autograd import no_grad
from ..fluid.framework import dygraph_only
from ..optimizer.optimizer import Optimizer

__all__ = []


class LookAhead(Optimizer):
    """LookAhead(inner_optimizer, alpha=0.5, k=5): step() runs the inner optimizer's step, then on every k-th step
    sets slow = alpha * fast + (1 - alpha) * slow and fast = slow (slow starts as the weights after step 1)."""

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        if inner_optimizer is None:
            raise AssertionError("inner optimizer can not be None")
        if not 0.0 <= alpha <= 1.0:
            raise AssertionError("alpha should be larger or equal to 0.0, and less or equal than 1.0")
        if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
            raise AssertionError("k should be a positive integer")
        self.inner_optimizer = inner_optimizer
        super().__init__(learning_rate=alpha, parameters=inner_optimizer._parameter_list, name=name)
        self.alpha, self.k, self.type = alpha, k, "lookahead"
        self._steps = 0
        self._slow = {}

    @dygraph_only
    def step(self):
        self.inner_optimizer.step()
        self._steps += 1
        with no_grad():
            for p in self._parameter_list:
                if p.stop_gradient or p._grad is None:
                    continue
                if self._steps == 1:
                    self._slow[id(p)] = p.detach().clone()
                if self._steps % self.k == 0:
                    slow = self._slow[id(p)]
                    slow.set_value(self.alpha * p + (1.0 - self.alpha) * slow)
                    p.set_value(slow)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """loss.backward() has run (eager): one step; returns (None, the parameters with their gradients)."""
        params_grads = [(p, p._grad) for p in self._parameter_list if not p.stop_gradient and p._grad is not None]
        self.step()
        return None, params_grads

    def clear_grad(self, set_to_zero=True):
        self.inner_optimizer.clear_grad(set_to_zero)
