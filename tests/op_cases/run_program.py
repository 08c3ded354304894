"""run_program: a traced program (paddle.jit) as one op; its gradient runs the program's appended backward."""
import numpy as np

from tests.op_cases import OpCase, rand


def _traced():
    import paddlelite as paddle
    from paddlelite.jit.program import trace

    w = paddle.to_tensor(rand(3, 4, seed=1), stop_gradient=False)

    def f(x):
        return paddle.tanh(paddle.matmul(x, w)) * x.sum(), paddle.exp(x)

    x = paddle.to_tensor(np.zeros((2, 3)), stop_gradient=False)
    return trace(f, (x,), {}, [None], x.place)[0]


CASES = [OpCase("run_program", {"X": [rand(2, 3, seed=2)], "Params": [rand(3, 4, seed=1)]},
                {"program": _traced()}, double=False)]
