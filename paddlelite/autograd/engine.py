"""The backward engine: dependency counting over grad nodes, shared by backward() and grad()."""
import heapq

from ..framework.mode import grad_state
from ..framework.tensor import Tensor, wrap_array
from ..ops import dispatch
from ..ops.registry import get_op

_ADD = None
_FILL = None


def _add(a, b):
    global _ADD
    if _ADD is None:
        _ADD = get_op("add")
    return dispatch.apply(_ADD, a, b)


def _ones_like(t):
    global _FILL
    if _FILL is None:
        _FILL = get_op("fill_any_like")
    with _grad_mode(False):
        return dispatch.apply(_FILL, t, value=1.0)


class _grad_mode:
    __slots__ = ("mode", "prev")

    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        self.prev = grad_state.enabled
        grad_state.enabled = self.mode

    def __exit__(self, *exc):
        grad_state.enabled = self.prev


def _run_hooks(hooks, grad, what):
    for fn in list(hooks.values()):
        out = fn(grad)
        if out is not None:
            if not isinstance(out, Tensor):
                raise TypeError(f"gradient hook on {what} must return a Tensor or None, "
                                f"received {type(out).__name__}")
            if out.shape != grad.shape:
                raise ValueError(f"gradient hook on {what} returned shape {out.shape}, expected {grad.shape}")
            grad = out
    return grad


def run_backward(roots, seeds, retain_graph, create_graph, capture=None, cut=None, accumulate=True):
    """Propagate `seeds` (Tensors) from `roots` (Tensors) through the graph.

    capture: {edge_key: slot} for grad(): the gradients arriving at these edges are returned
             instead of (or for leaves, as well as not) being accumulated.
    cut:     edge keys whose gradient is dropped (no_grad_vars).
    Returns {slot: Tensor or None} for the captured keys.
    """
    captured = {}
    # 1. Where each root's seed goes.
    ready_buffers = {}  # node -> list of grads per output
    leaf_grads = {}     # id(leaf) -> [leaf, grad]
    node_roots = []
    for t, g in zip(roots, seeds):
        key = _key_of(t)
        if capture is not None and key in capture:
            captured[capture[key]] = g if capture[key] not in captured else _add(captured[capture[key]], g)
        if t._node is None:
            _acc_leaf(leaf_grads, t, g)
        else:
            buf = ready_buffers.get(t._node)
            if buf is None:
                buf = ready_buffers[t._node] = [None] * t._node.n_outputs
                node_roots.append(t._node)
            i = t._out_index
            buf[i] = g if buf[i] is None else _add(buf[i], g)

    # 2. Count, for each reachable node and leaf, how many edges lead to it.
    deps = {}
    leaf_edges = {}  # id(leaf) -> edges not yet run; at 0 the leaf's gradient is final and is delivered
    stack = list(node_roots)
    seen = set(node_roots)
    while stack:
        node = stack.pop()
        if node.released:
            raise RuntimeError(
                f"backward through '{node.name}' a second time: its saved tensors were freed by the "
                "previous backward. Pass retain_graph=True to the first backward()/grad() call if you "
                "need to backward through the graph again")
        for e in node.edges:
            if e is not None and e.__class__ is tuple:
                nxt = e[0]
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
            elif e is not None:
                leaf_edges[id(e)] = leaf_edges.get(id(e), 0) + 1
    if capture is not None:
        needed = _nodes_leading_to(seen, capture)
    else:
        needed = None

    # 3. Run nodes whose consumers are all done, later-created first among the ready ones.
    # A heap keyed on -seq: among the ready nodes, the most recently created runs first.
    ready = [(-n.seq, n) for n in node_roots if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    with _grad_mode(create_graph):
        while ready:
            node = heapq.heappop(ready)[1]
            grads = ready_buffers.pop(node)
            if node.hooks or node.retained:
                _output_hooks(node, grads)
            if capture is not None:
                for i, g in enumerate(grads):
                    slot = capture.get((node, i))
                    if slot is not None:
                        captured[slot] = g
            if (needed is None or node in needed) and _any_grad(grads):
                try:
                    in_grads = node.apply(grads, create_graph)
                except Exception as e:
                    raise _backward_error(node, e) from e
            else:
                in_grads = [None] * len(node.edges)
            if not retain_graph:
                node.release()
            for e, g in zip(node.edges, in_grads):
                if e is None:
                    continue
                if e.__class__ is tuple:
                    nxt, i = e
                    if g is not None and (cut is None or e not in cut):
                        buf = ready_buffers.get(nxt)
                        if buf is None:
                            buf = ready_buffers[nxt] = [None] * nxt.n_outputs
                        buf[i] = g if buf[i] is None else _add(buf[i], g)
                    left = deps[nxt] - 1
                    deps[nxt] = left
                    if left == 0:
                        if nxt in ready_buffers:
                            heapq.heappush(ready, (-nxt.seq, nxt))
                        else:  # no gradient reached it: release and propagate nothing
                            _skip(nxt, deps, ready_buffers, ready, retain_graph, leaf_edges)
                else:
                    if g is not None and (cut is None or id(e) not in cut):
                        _acc_leaf(leaf_grads, e, g)
                    # the leaf's last edge: deliver now, so its post-accumulation hooks (DataParallel's
                    # gradient buckets) run while backward goes on
                    leaf_edges[id(e)] -= 1
                    if leaf_edges[id(e)] == 0 and id(e) in leaf_grads:
                        _deliver(leaf_grads.pop(id(e)), capture, captured, accumulate, create_graph)

    # 4. The other leaves (seeded directly, or behind skipped nodes).
    for entry in leaf_grads.values():
        _deliver(entry, capture, captured, accumulate, create_graph)
    return captured


def _deliver(entry, capture, captured, accumulate, create_graph):
    """A leaf's total gradient of this pass: its hooks, then capture or accumulate, then the hooks that
    run after accumulation (Tensor._register_backward_hook)."""
    leaf, g = entry
    if leaf._hooks:
        g = _run_hooks(leaf._hooks, g, "a leaf tensor")
    if capture is not None:
        slot = capture.get(id(leaf))
        if slot is not None:
            captured[slot] = g
    if accumulate:
        _accumulate_into_leaf(leaf, g, create_graph)
        if leaf._post_accumulate_hooks:
            for fn in list(leaf._post_accumulate_hooks.values()):
                fn()


def _skip(node, deps, buffers, ready, retain_graph, leaf_edges):
    """A node no gradient reached: its consumers are done, so its own inputs' counts drop."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not retain_graph:
            n.release()
        for e in n.edges:
            if e is not None and e.__class__ is tuple:
                nxt = e[0]
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    if nxt in buffers:
                        heapq.heappush(ready, (-nxt.seq, nxt))
                    else:
                        stack.append(nxt)
            elif e is not None:
                leaf_edges[id(e)] -= 1


def _any_grad(grads):
    for g in grads:  # `is`, not ==: Tensor equality is elementwise
        if g is not None:
            return True
    return False


def _key_of(t):
    return id(t) if t._node is None else (t._node, t._out_index)


def _nodes_leading_to(nodes, capture):
    """The nodes from which a captured edge can be reached; grad() runs no others."""
    consumers = {}
    frontier = []
    for n in nodes:
        for e in n.edges:
            if e is None:
                continue
            if e.__class__ is tuple:
                consumers.setdefault(e[0], []).append(n)
                if e in capture:
                    frontier.append(n)
            elif id(e) in capture:
                frontier.append(n)
    needed = set()
    while frontier:
        n = frontier.pop()
        if n not in needed:
            needed.add(n)
            frontier.extend(consumers.get(n, ()))
    return needed


def _output_hooks(node, grads):
    for i, g in enumerate(grads):
        if g is None:
            continue
        if node.hooks and i in node.hooks:
            grads[i] = g = _run_hooks(node.hooks[i], g, f"an output of '{node.name}'")
        if node.retained and i in node.retained:
            t = node.retained[i]()
            if t is not None:
                _accumulate_into_leaf(t, g, False)


def _acc_leaf(leaf_grads, leaf, g):
    entry = leaf_grads.get(id(leaf))
    if entry is None:
        leaf_grads[id(leaf)] = [leaf, g]
    else:
        entry[1] = _add(entry[1], g)


def _accumulate_into_leaf(t, g, create_graph):
    """`.grad += g` without touching arrays other code may hold."""
    if not create_graph:
        g = wrap_array(g._data, g._place, False)
    if t._grad is None or t._grad_is_zeros:
        if g._data.dtype != t._data.dtype:
            g = wrap_array(g._data.astype(t._data.dtype), g._place, False)
        t._grad = g
        t._grad_is_zeros = False
    else:
        with _grad_mode(create_graph):
            t._grad = _add(t._grad, g)
        t._grad.stop_gradient = False


def _backward_error(node, e):
    msg = f"backward of op '{node.forward_name}' failed{node.location()}: {type(e).__name__}: {e}"
    if isinstance(e, KeyError):  # KeyError would print the message as a quoted repr
        return RuntimeError(msg)
    try:
        return type(e)(msg)
    except Exception:
        return RuntimeError(msg)
