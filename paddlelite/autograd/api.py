"""Public eager autograd entry points: backward() and grad(), with Paddle's argument checks.

Bad arguments raise the classes Paddle raises (AssertionError for most, explicitly so `python -O`
keeps them); the messages name the API and the argument.
"""
from ..framework.tensor import Tensor
from .engine import _ones_like, run_backward


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _seed(t, g, api, i, bad_shape):
    """The starting gradient of output `t`: ones, or `g` in t's dtype and shape (Paddle casts it, and
    reshapes it when it has as many elements: a [1] seed for a 0-D output); `bad_shape` is the class
    Paddle's API raises otherwise."""
    if g is None:
        return _ones_like(t)
    if g.shape != t.shape:
        if g.size != t.size:
            arg = "grad_outputs" if api == "grad" else "grad_tensors"
            raise bad_shape(f"{api}: {arg}[{i}] has shape {g.shape}, expected the output's shape {t.shape}")
        g = g.reshape(t.shape)
    if g.dtype != t.dtype:
        g = g.astype(t.dtype)
    return g


def _check_backward_args(tensors, grad_tensors, retain_graph):
    """(tensors, grad_tensors) as lists, checked (messages are formatted only on failure: this runs per step)."""
    if tensors is None:
        raise AssertionError("autograd.backward: tensors must not be None")
    tensors = _as_list(tensors)
    if not tensors:
        raise AssertionError("autograd.backward: tensors must not be empty")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise AssertionError(f"autograd.backward: tensors[{i}] must be a Tensor, received {type(t).__name__}")
    if len(tensors) > 1 and len({id(t) for t in tensors}) != len(tensors):
        raise AssertionError("autograd.backward: tensors must not contain the same tensor twice")
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    else:
        grad_tensors = _as_list(grad_tensors)
        for i, g in enumerate(grad_tensors):
            if g is not None and not isinstance(g, Tensor):
                raise AssertionError(f"autograd.backward: grad_tensors[{i}] must be a Tensor or None, received "
                                     f"{type(g).__name__}")
        if len(grad_tensors) != len(tensors):
            raise AssertionError(f"autograd.backward: grad_tensors has {len(grad_tensors)} elements but tensors "
                                 f"has {len(tensors)}; they must have the same length")
    if not isinstance(retain_graph, bool):
        raise AssertionError(f"autograd.backward: retain_graph must be a bool, received {type(retain_graph).__name__}")
    return tensors, grad_tensors


def backward(tensors, grad_tensors=None, retain_graph=False, *, dump_backward_graph_path=None):
    """Accumulate d(sum of tensors * grad_tensors)/d(leaf) into every leaf's `.grad`.
    Tensors that do not require a gradient are skipped; with none left this does nothing, as in Paddle."""
    tensors, grad_tensors = _check_backward_args(tensors, grad_tensors, retain_graph)
    roots, seeds = [], []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if not t.stop_gradient:
            roots.append(t)
            seeds.append(_seed(t, g, "autograd.backward", i, AssertionError))
    if not roots:
        return
    if dump_backward_graph_path is not None:
        from .dump import dump_graphs
        dump_graphs(roots, dump_backward_graph_path)
    run_backward(roots, seeds, retain_graph, create_graph=False)


def _check_grad_args(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs, no_grad_vars):
    """Paddle's checks of grad()'s arguments (messages are formatted only on failure)."""
    for name, value in (("outputs", outputs), ("inputs", inputs)):
        if value is None:
            raise AssertionError(f"grad: {name} should not be None")
        seq = _as_list(value)
        if not seq:
            raise AssertionError(f"grad: {name} cannot be empty")
        for i, t in enumerate(seq):
            if not isinstance(t, Tensor):
                raise AssertionError(f"grad: {name}[{i}] must be a Tensor (outputs and inputs must be Tensor or "
                                     f"list of Tensor), received {type(t).__name__}")
        if len({id(t) for t in seq}) != len(seq):  # RuntimeError as Paddle
            raise RuntimeError(f"grad: {name} contain the same tensor twice, please check {name} carefully")
    if grad_outputs is not None:
        for i, g in enumerate(_as_list(grad_outputs)):
            if g is not None and not isinstance(g, Tensor):
                raise AssertionError(f"grad: grad_outputs[{i}] must be None or a Tensor, received {type(g).__name__}")
        if len(_as_list(grad_outputs)) != len(_as_list(outputs)):
            raise AssertionError(f"grad: the length of grad_outputs ({len(_as_list(grad_outputs))}) must be equal "
                                 f"to outputs ({len(_as_list(outputs))})")
    if retain_graph is not None and not isinstance(retain_graph, bool):
        raise AssertionError(f"grad: retain_graph must be None, True or False, received {type(retain_graph).__name__}")
    if not isinstance(create_graph, bool):
        raise AssertionError(f"grad: create_graph must be True or False, received {type(create_graph).__name__}")
    if only_inputs is not True:
        raise AssertionError("grad: only_inputs=False is not supported yet")
    if no_grad_vars is not None:
        items = list(no_grad_vars) if isinstance(no_grad_vars, (list, tuple, set)) else [no_grad_vars]
        for v in items:
            if not isinstance(v, Tensor):
                raise AssertionError(f"grad: no_grad_vars must be None, a Tensor or a list/tuple/set of Tensors, "
                                     f"received {type(v).__name__}")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None):
    """Gradients of `outputs` with respect to `inputs`, returned (leaves' `.grad` untouched)."""
    _check_grad_args(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs, no_grad_vars)
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    grad_outputs = [None] * len(outputs) if grad_outputs is None else _as_list(grad_outputs)
    # Paddle's grad() keeps the graph whatever retain_graph says (a later backward()/grad() still works)
    retain_graph = True
    roots, seeds = [], []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if t.stop_gradient:
            if not allow_unused:
                raise ValueError(f"grad: outputs[{i}] has stop_gradient=True; it does not depend on any tensor "
                                 "that requires a gradient, so there is no graph to differentiate")
            continue
        roots.append(t)
        seeds.append(_seed(t, g, "grad", i, ValueError))
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
        cut = {_key(t) for t in (no_grad_vars if isinstance(no_grad_vars, (list, tuple, set)) else [no_grad_vars])}
    got = run_backward(roots, seeds, retain_graph, create_graph, capture=capture, cut=cut,
                       accumulate=False) if roots else {}
    result = []
    for i in range(len(inputs)):
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
