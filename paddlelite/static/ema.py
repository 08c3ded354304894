"""paddle.static.ExponentialMovingAverage: shadow copies of the parameters, updated by ops update() adds
to the main program (ema = decay * ema + (1 - decay) * param) and swapped in by apply() with Paddle's bias
correction (param = ema / (1 - decay ** step) once a step ran); restore() puts the trained values back.

It builds programs from tensor APIs, so it sits on the nn floor with layer_apis.
"""
import contextlib

from .. import tensor as paddle
from ..framework.mode import in_dynamic_mode
from ..utils import unique_name
from .control_flow import cond
from .framework import Program, default_main_program, program_guard
from .layer_apis import create_global_var

_STEP_COUNTER = "@EMA_STEP_COUNTER@"


def _mirror(block, var):
    """`var` declared in another program's block: persistable, so runs of that program read and write the
    scope's value."""
    return block.create_var(name=var.name, shape=list(var.shape), dtype=var.dtype, persistable=True,
                            stop_gradient=True)


class ExponentialMovingAverage:
    """Moving averages of the main program's parameters (those with do_model_average, Paddle's default)."""

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        if in_dynamic_mode():
            raise Exception("In dygraph, don't support ExponentialMovingAverage.")
        self._decay = decay
        self._thres_steps = thres_steps
        self._name = name if name is not None else ""
        self._decay_var = self._get_ema_decay()
        self._params_tmps = []
        for param in default_main_program().global_block().all_parameters():
            if getattr(param, "do_model_average", True) is not False:
                tmp = param.block.create_var(name=unique_name.generate(f"{self._name}{param.name}.ema_tmp"),
                                             shape=list(param.shape), dtype=param.dtype, persistable=True,
                                             stop_gradient=True)
                self._params_tmps.append((param, tmp))
        self._ema_vars = {param.name: create_global_var(list(param.shape), 0.0, param.dtype, persistable=True,
                                                        name=unique_name.generate(f"{self._name}{param.name}_ema"))
                          for param, _ in self._params_tmps}
        self.apply_program = Program()
        with program_guard(self.apply_program):
            block = self.apply_program.global_block()
            step = paddle.cast(block.create_var(name=_STEP_COUNTER, shape=[1], dtype="int64", persistable=True,
                                                stop_gradient=True), "float32")
            decay_pow = paddle.pow(_mirror(block, self._decay_var), step)
            for param, tmp in self._params_tmps:
                param, tmp, ema = _mirror(block, param), _mirror(block, tmp), _mirror(block, self._ema_vars[param.name])
                paddle.assign(param, output=tmp)
                corrected = cond(paddle.greater_than(step, paddle.zeros([1], "float32")),
                                 lambda ema=ema: paddle.divide(ema, paddle.scale(decay_pow, -1.0, 1.0)),
                                 lambda ema=ema: paddle.assign(ema))
                paddle.assign(corrected, output=param)
        self.restore_program = Program()
        with program_guard(self.restore_program):
            block = self.restore_program.global_block()
            for param, tmp in self._params_tmps:
                paddle.assign(_mirror(block, tmp), output=_mirror(block, param))

    def _get_ema_decay(self):
        decay_var = create_global_var([1], self._decay, "float32", persistable=True, name="scheduled_ema_decay_rate")
        if self._thres_steps is not None:
            steps = paddle.cast(self._thres_steps, "float32")
            decay_t = paddle.divide(paddle.scale(steps, 1.0, 1.0), paddle.scale(steps, 1.0, 10.0))
            decay_val = cond(paddle.less_than(decay_t, paddle.full([1], self._decay, "float32")),
                             lambda: paddle.assign(decay_t), lambda: paddle.full([1], self._decay, "float32"))
            paddle.assign(decay_val, output=decay_var)
        return decay_var

    def update(self):
        """Add the ops that move every average one step (call after the optimizer's minimize)."""
        main = default_main_program()
        counter = main.global_block()._lookup(_STEP_COUNTER)
        if counter is None:
            counter = create_global_var([1], 0, "int64", persistable=True, name=_STEP_COUNTER)
        paddle.assign(paddle.increment(counter), output=counter)
        keep = paddle.scale(self._decay_var, -1.0, 1.0)  # 1 - decay
        for param, _ in self._params_tmps:
            ema = self._ema_vars[param.name]
            paddle.assign(paddle.add(paddle.multiply(ema, self._decay_var), paddle.multiply(param, keep)),
                          output=ema)

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        """Within the block the parameters hold their (bias-corrected) averages; restored after unless
        need_restore=False."""
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        """Put back the parameter values apply() replaced."""
        executor.run(self.restore_program)
