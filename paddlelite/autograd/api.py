"""Public eager autograd entry points: backward() and grad(), with Paddle's argument checks."""
from ..framework.tensor import Tensor
from .engine import _ones_like, run_backward


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _seeds(tensors, grads, api, names, no_graph, bad_shape):
    """The starting gradient of each output: the given one (shape-checked) or ones.
    Paddle raises different classes in backward() and grad(); callers pass theirs."""
    seeds = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if t.stop_gradient:
            raise no_graph(f"{api}: {names[0]}[{i}] has stop_gradient=True; it does not depend on any "
                           "tensor that requires a gradient, so there is no graph to differentiate")
        if g is None:
            g = _ones_like(t)
        elif g.shape != t.shape:
            raise bad_shape(f"{api}: {names[1]}[{i}] has shape {g.shape}, expected {t.shape}")
        seeds.append(g)
    return seeds


def backward(tensors, grad_tensors=None, retain_graph=False, *, dump_backward_graph_path=None):
    """Accumulate d(sum of tensors * grad_tensors)/d(leaf) into every leaf's `.grad`.

    Bad arguments raise AssertionError, as Paddle does (explicitly, so `python -O` keeps the checks)."""
    if tensors is None:
        raise AssertionError("autograd.backward: tensors must not be None")
    tensors = _as_list(tensors)
    if not tensors:
        raise AssertionError("autograd.backward: tensors must not be empty")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise AssertionError(f"autograd.backward: tensors[{i}] must be a Tensor, received {type(t).__name__}")
    if len({id(t) for t in tensors}) != len(tensors):
        raise AssertionError("autograd.backward: tensors must not contain the same tensor twice")
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    else:
        grad_tensors = _as_list(grad_tensors)
        for i, g in enumerate(grad_tensors):
            if g is not None and not isinstance(g, Tensor):
                raise AssertionError(f"autograd.backward: grad_tensors[{i}] must be a Tensor or None, "
                                     f"received {type(g).__name__}")
        if len(grad_tensors) != len(tensors):
            raise AssertionError(f"autograd.backward: grad_tensors has {len(grad_tensors)} elements but tensors "
                                 f"has {len(tensors)}; they must have the same length")
    if not isinstance(retain_graph, bool):
        raise AssertionError(f"autograd.backward: retain_graph must be a bool, received "
                             f"{type(retain_graph).__name__}")
    seeds = _seeds(tensors, grad_tensors, "autograd.backward", ("tensors", "grad_tensors"),
                   no_graph=RuntimeError, bad_shape=AssertionError)
    if dump_backward_graph_path is not None:
        from .dump import dump_graphs
        dump_graphs(tensors, dump_backward_graph_path)
    run_backward(tensors, seeds, retain_graph, create_graph=False)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None):
    """Gradients of `outputs` with respect to `inputs`, returned (leaves' `.grad` untouched)."""
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    for name, seq in (("outputs", outputs), ("inputs", inputs)):
        if not seq:
            raise ValueError(f"grad: {name} must not be empty")
        for i, t in enumerate(seq):
            if not isinstance(t, Tensor):
                raise TypeError(f"grad: {name}[{i}] must be a Tensor, received {type(t).__name__}")
    if len({id(t) for t in inputs}) != len(inputs):
        raise ValueError("grad: inputs must not contain the same tensor twice")
    if len({id(t) for t in outputs}) != len(outputs):
        raise ValueError("grad: outputs must not contain the same tensor twice")
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    else:
        grad_outputs = _as_list(grad_outputs)
        if len(grad_outputs) != len(outputs):
            raise ValueError(f"grad: grad_outputs has {len(grad_outputs)} elements but outputs has "
                             f"{len(outputs)}")
    if not isinstance(create_graph, bool):
        raise TypeError(f"grad: create_graph must be a bool, received {type(create_graph).__name__}")
    if retain_graph is None:
        retain_graph = True  # Paddle's grad() keeps the graph unless told otherwise
    for i, g in enumerate(grad_outputs):
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"grad: grad_outputs[{i}] must be a Tensor or None, received {type(g).__name__}")
    seeds = _seeds(outputs, grad_outputs, "grad", ("outputs", "grad_outputs"),
                   no_graph=ValueError, bad_shape=ValueError)
    capture = {}
    for i, t in enumerate(inputs):
        if t.stop_gradient:
            if not allow_unused:
                raise ValueError(f"grad: inputs[{i}] has stop_gradient=True, so no gradient can reach it; "
                                 "pass allow_unused=True to get None for it")
            continue
        capture[_key(t)] = i
    cut = None
    if no_grad_vars is not None:
        cut = {_key(t) for t in _as_list(no_grad_vars)}
    got = run_backward(outputs, seeds, retain_graph, create_graph, capture=capture, cut=cut,
                       accumulate=False)
    result = []
    for i, t in enumerate(inputs):
        g = got.get(i)
        if g is None and not allow_unused:
            raise ValueError(f"grad: inputs[{i}] is not reached from the outputs (it was not used to compute "
                             "them); pass allow_unused=True to get None for it")
        if g is not None:
            if not create_graph:
                g = g.detach()
            g.stop_gradient = not create_graph
        result.append(g)
    return result


def _key(t):
    return id(t) if t._node is None else (t._node, t._out_index)
