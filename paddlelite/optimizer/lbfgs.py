"""L-BFGS, closure-driven and eager only (as Paddle's): each `step(closure)` runs up to max_iter
quasi-Newton iterations on the flattened parameters, with the two-loop recursion over the last
history_size curvature pairs and an optional strong-Wolfe line search (Nocedal & Wright, Alg. 3.5/3.6,
7.5). Like Paddle, it reads the parameters' raw gradients (no clipping or decay) and its state is
`state_dict()["state"]`."""
import collections
import functools

from ..autograd import enable_grad, no_grad
from ..framework.mode import in_static_mode
from ..tensor import concat, to_tensor, zeros_like
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(x, y):
    return (x * y).sum(axis=-1)


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to `bounds`."""
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(obj_func, xk, alpha, d, loss, grad, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """(loss, grad, alpha, evaluations) at a step satisfying the strong Wolfe conditions along d."""
    d_norm = d.abs().max()
    grad = grad.clone()
    loss_new, grad_new = obj_func(xk, alpha, d)
    evals = 1
    gtd_new = _dot(grad_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0, loss, grad, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:  # bracketing
        if loss_new > loss + c1 * alpha * gtd or (ls_iter > 1 and loss_new >= f_prev):
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [alpha], [loss_new], [grad_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new.clone()], [gtd_prev, gtd_new]
            break
        min_step, max_step = alpha + 0.01 * (alpha - t_prev), alpha * 10
        prev = alpha
        alpha = _cubic_interpolate(t_prev, f_prev, gtd_prev, alpha, loss_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = prev, loss_new, grad_new.clone(), gtd_new
        loss_new, grad_new = obj_func(xk, alpha, d)
        evals += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, alpha], [loss, loss_new], [grad, grad_new]

    insuf_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:  # zoom
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        alpha = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1],
                                   bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - alpha, alpha - min(bracket)) < eps:
            # too close to an end of the bracket: step away from it, unless progress was fine
            if insuf_progress or alpha >= max(bracket) or alpha <= min(bracket):
                alpha = max(bracket) - eps if abs(alpha - max(bracket)) < abs(alpha - min(bracket)) \
                    else min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        loss_new, grad_new = obj_func(xk, alpha, d)
        evals += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1
        if loss_new > loss + c1 * alpha * gtd or loss_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = alpha, loss_new
            bracket_g[high], bracket_gtd[high] = grad_new.clone(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = alpha, loss_new
            bracket_g[low], bracket_gtd[low] = grad_new.clone(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-07, tolerance_change=1e-09,
                 history_size=100, line_search_fn=None, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"LBFGS: line_search_fn must be None or 'strong_wolfe', received {line_search_fn!r}")
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad, self.tolerance_change = tolerance_grad, tolerance_change
        self.history_size, self.line_search_fn = history_size, line_search_fn
        self.state = collections.defaultdict(dict)
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        self._params = self._parameter_list
        self._numel_cache = None

    def state_dict(self):
        return {"state": dict(self.state)}

    def set_state_dict(self, state_dict):
        if not isinstance(state_dict, dict) or "state" not in state_dict:
            raise TypeError("LBFGS.set_state_dict: expected the dict state_dict() returns ({'state': ...})")
        self.state = collections.defaultdict(dict, state_dict["state"])

    set_dict = set_state_dict

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = functools.reduce(lambda total, p: total + p.numel(), self._params, 0)
        return self._numel_cache

    def _gather_flat_grad(self):
        return concat([(zeros_like(p) if p.grad is None else p.grad).reshape([-1]) for p in self._params], axis=0)

    def _add_grad(self, alpha, direction):
        offset = 0
        for p in self._params:
            numel = functools.reduce(lambda x, y: x * y, p.shape, 1)
            p._write(p.add(direction[offset:offset + numel].reshape(p.shape) * alpha)._data)
            offset += numel

    # parameters are written through their storage, as the update ops' results are (Optimizer._run)
    def _set_param(self, params_data):
        for p, data in zip(self._params, params_data):
            p._write(data._data)

    def _directional_evaluate(self, closure, x, alpha, d):
        self._add_grad(alpha, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        """Run up to max_iter L-BFGS iterations; `closure` clears the gradients, recomputes the loss,
        calls backward and returns the loss. Returns the loss of the first evaluation."""
        if in_static_mode():
            raise RuntimeError("LBFGS.step() is only supported in dynamic mode")
        if not callable(closure):
            raise TypeError(f"LBFGS.step: closure must be callable, received {type(closure).__name__}")
        with no_grad():
            return self._step(enable_grad()(closure))

    def _step(self, closure):
        lr, state = self.learning_rate, self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= self.tolerance_grad:
            return orig_loss
        d, alpha = state.get("d"), state.get("alpha")
        old_yk, old_sk, ro = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_flat_grad, prev_loss = state.get("H_diag"), state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_yk, old_sk, ro = [], [], []
                h_diag = to_tensor(1.0, dtype=orig_loss.dtype)
            else:
                y = flat_grad.subtract(prev_flat_grad)
                s = d.multiply(to_tensor(alpha, dtype=d.dtype))
                ys = _dot(y, s)
                if ys > 1e-10:  # keep only pairs of positive curvature
                    if len(old_yk) == self.history_size:
                        old_yk.pop(0)
                        old_sk.pop(0)
                        ro.pop(0)
                    old_yk.append(y)
                    old_sk.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _dot(y, y)
                al = state.setdefault("al", [None] * self.history_size)
                q = flat_grad.neg()
                for i in range(len(old_yk) - 1, -1, -1):
                    al[i] = _dot(old_sk[i], q) * ro[i]
                    q = q.add(old_yk[i] * -al[i])
                d = r = q.multiply(h_diag)
                for i in range(len(old_yk)):
                    be_i = _dot(old_yk[i], r) * ro[i]
                    r = r.add(old_sk[i] * (al[i] - be_i))
                d = r
            prev_flat_grad = flat_grad.clone()
            prev_loss = loss
            alpha = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = _dot(flat_grad, d)
            if gtd > -self.tolerance_change:
                break
            ls_func_evals = 0
            if self.line_search_fn is not None:
                x_init = [p.clone() for p in self._params]
                loss, flat_grad, alpha, ls_func_evals = _strong_wolfe(
                    lambda x, a, dd: self._directional_evaluate(closure, x, a, dd), x_init, alpha, d, loss,
                    flat_grad, gtd)
                self._add_grad(alpha, d)
                opt_cond = flat_grad.abs().max() <= self.tolerance_grad
            else:
                self._add_grad(alpha, d)
                opt_cond = False
                if n_iter != self.max_iter:
                    with enable_grad():
                        loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= self.tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if opt_cond or (d * alpha).abs().max() <= self.tolerance_change \
                    or abs(loss - prev_loss) < self.tolerance_change or current_evals >= self.max_eval:
                break
        state.update({"d": d, "alpha": alpha, "old_yk": old_yk, "old_sk": old_sk, "ro": ro, "H_diag": h_diag,
                      "prev_flat_grad": prev_flat_grad, "prev_loss": prev_loss})
        return orig_loss

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError("LBFGS.minimize: LBFGS is driven by a closure; call optimizer.step(closure)")
