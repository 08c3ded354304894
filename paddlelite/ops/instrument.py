"""Every op's forward wrapped while a tool watches (paddle.profiler times them): `instrumented(wrap)`.

Inside, each registered op's forward and device bindings are `wrap(op, fn)` -- functions with the forward's
signature -- so the dispatcher, grad nodes and static plans compiled inside run them, on every device. Outside,
the ops hold their own functions again: nothing here is consulted on the hot path, so watching costs nothing when
off. Plans compiled inside are kept apart by `token` (part of the static executor's and paddle.jit's plan keys),
so a plan holding wrapped forwards is never run once the watch is over.
"""
import contextlib

from .registry import all_ops

token = [None]  # while instrumented: an object unique to this watch; else None


@contextlib.contextmanager
def instrumented(wrap):
    if token[0] is not None:
        raise RuntimeError("ops are already instrumented (one profiler records at a time)")
    saved = []
    for op in all_ops().values():
        saved.append((op, op.forward, op.impls, dict(op._forwards)))
        if op.forward is not None:
            op.forward = wrap(op, op.forward)
        op.impls = {device: wrap(op, fn) for device, fn in op.impls.items()}
        op._forwards.clear()  # resolved again (forward_for) from the wrapped functions
    token[0] = object()
    try:
        yield
    finally:
        token[0] = None
        for op, forward, impls, forwards in saved:
            op.forward, op.impls = forward, impls
            op._forwards.clear()
            op._forwards.update(forwards)
