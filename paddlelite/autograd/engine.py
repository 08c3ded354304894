"""The backward engine, shared by backward() and grad(). One pass has four phases:

1. seed     each root's starting gradient goes to its node's buffer (or, for a leaf root, to the leaf);
2. count    for every node reachable from the roots, how many edges lead to it;
3. run      a node runs once all its consumers are done (later-created first among the ready ones):
            its output hooks fire, its grad maker computes its inputs' gradients, which go on to the
            next nodes' buffers or to leaves;
4. deliver  once its last edge has run, each leaf's total gradient passes the leaf's hooks, then is
            captured (grad()) or accumulated into `.grad` (atomically per leaf: threads may share leaves).
"""
import heapq
import itertools
import threading

from ..framework.mode import is_grad_enabled, set_grad_enabled
from ..framework.tensor import Tensor, wrap_array
from ..ops import autocast, dispatch
from ..ops.registry import get_op
from .hooks import run_backward_final_hooks

_ADD = None
_NO_GRADS = itertools.repeat(None)  # the gradients of a node that did not run: zip() stops at its edges
_FILL = None


def _add(a, b):
    global _ADD
    if _ADD is None:
        _ADD = get_op("add")
    return dispatch.apply(_ADD, a, b)


def _fill_like(t, value):
    global _FILL
    if _FILL is None:
        _FILL = get_op("fill_any_like")
    return dispatch.apply(_FILL, t, value=value)  # fill_any_like has no grad op: never recorded, in any grad mode


def _ones_like(t):
    return _fill_like(t, 1.0)


class _Pass:
    """The state of one backward pass."""

    __slots__ = ("retain_graph", "create_graph", "accumulate", "capture", "captured", "cut", "needed", "buffers",
                 "leaves", "deps", "ready", "hook_mode")

    def __init__(self, retain_graph, create_graph, accumulate, capture, cut):
        self.retain_graph = retain_graph
        self.create_graph = create_graph
        self.accumulate = accumulate
        self.hook_mode = is_grad_enabled()  # hooks run in the caller's grad mode, as in Paddle
        self.capture = capture    # grad(): {edge key: result slot}
        self.captured = {}
        self.cut = cut            # grad(): edge keys whose gradient is dropped (no_grad_vars)
        self.needed = None        # grad(): the nodes leading to a captured edge; no others run
        self.buffers = {}         # node -> [gradient per output]
        self.leaves = {}          # leaf -> [leaf, gradient, whether it is the user's tensor as returned]
        # node -> consumers not yet done; leaf -> edges into it not yet run (at 0 its gradient is final and
        # delivered). Tensors hash by identity, so leaves key these dicts themselves.
        self.deps = {}
        self.ready = []           # heap of (-seq, node)

    def to_node(self, node, i, g):
        buf = self.buffers.get(node)
        if buf is None:
            buf = self.buffers[node] = [None] * node.n_outputs
        buf[i] = g if buf[i] is None else _add(buf[i], g)

    def to_leaf(self, leaf, g, from_user):
        entry = self.leaves.get(leaf)
        if entry is None:
            self.leaves[leaf] = [leaf, g, from_user]
        else:
            entry[1] = _add(entry[1], g)
            entry[2] = False

    def capture_at(self, key, g):
        slot = self.capture.get(key)
        if slot is not None:
            self.captured[slot] = g


def run_backward(roots, seeds, retain_graph, create_graph, capture=None, cut=None, accumulate=True):
    """Propagate `seeds` (Tensors) from `roots` (Tensors) through the graph.

    capture: {edge_key: slot} for grad(): the gradients arriving at these edges are returned.
    cut:     edge keys whose gradient is dropped (no_grad_vars).
    accumulate: whether leaves' `.grad` receive their gradients (backward) or not (grad).
    Returns {slot: Tensor} for the captured keys that a gradient reached.
    """
    p = _Pass(retain_graph, create_graph, accumulate, capture, cut)
    starts = _seed(p, roots, seeds)
    reachable = _count_dependencies(p, starts)
    if capture is not None:
        p.needed = _nodes_leading_to(reachable, capture)
    with set_grad_enabled(create_graph), autocast.suspended():  # grad ops run in the dtypes they are given
        _run_nodes(p, starts)
    for entry in list(p.leaves.values()):  # leaves seeded directly, or behind skipped nodes
        _deliver(p, entry)
    run_backward_final_hooks()
    return p.captured


# ---- 1. seed ---------------------------------------------------------------------------------------
def _seed(p, roots, seeds):
    """Put each root's seed where it starts; returns the nodes the pass starts from."""
    starts = []
    for t, g in zip(roots, seeds):
        node = t._node
        if node is None:
            p.to_leaf(t, g, False)
        else:
            if node not in p.buffers:
                starts.append(node)
            p.to_node(node, t._out_index, g)
    return starts


# ---- 2. count dependencies -------------------------------------------------------------------------
def _successors(node):
    """The nodes this node's gradients flow to, once per edge (an edge counts as one dependency)."""
    nxt = [e[0] for e in node.edges if e is not None and e.__class__ is tuple]
    if node.zero_edges:
        nxt.extend(e[0] for e, _ in node.zero_edges if e.__class__ is tuple)
    return nxt


def _count_dependencies(p, starts):
    """Count, for each node reachable from `starts`, the edges leading to it; returns the reachable set."""
    deps = p.deps
    seen = set(starts)
    stack = list(starts)
    while stack:
        node = stack.pop()
        if node.released:
            raise RuntimeError(
                f"backward through '{node.name}' a second time: its saved tensors were freed by the "
                "previous backward. Pass retain_graph=True to the first backward()/grad() call if you "
                "need to backward through the graph again")
        edges = node.edges if not node.zero_edges else node.edges + [e for e, _ in node.zero_edges]
        for e in edges:  # _successors(node), inlined: this loop is the hot path
            if e is None:
                continue
            if e.__class__ is tuple:
                e = e[0]
                if e not in seen:
                    seen.add(e)
                    stack.append(e)
            deps[e] = deps.get(e, 0) + 1  # a node, or a leaf
    return seen


def _nodes_leading_to(nodes, capture):
    """The nodes from which a captured edge can be reached; grad() runs no others."""
    consumers = {}
    frontier = []
    for n in nodes:
        for nxt in _successors(n):
            consumers.setdefault(nxt, []).append(n)
        targets = list(n.edges) + [e for e, _ in n.zero_edges or ()]
        if any(e is not None and _edge_key(e) in capture for e in targets):
            frontier.append(n)
    needed = set()
    while frontier:
        n = frontier.pop()
        if n not in needed:
            needed.add(n)
            frontier.extend(consumers.get(n, ()))
    return needed


# ---- 3. run ----------------------------------------------------------------------------------------
def _run_nodes(p, starts):
    """Run every node whose consumers are done; among the ready ones, the most recently created first:
    its output hooks fire, its grad maker runs, and _send passes the gradients on."""
    ready, buffers, capture, needed = p.ready, p.buffers, p.capture, p.needed
    create_graph, retain_graph = p.create_graph, p.retain_graph
    ready.extend((-n.seq, n) for n in starts if n not in p.deps)
    heapq.heapify(ready)
    while ready:
        node = heapq.heappop(ready)[1]
        grads = buffers.pop(node)
        if node.hooks:
            _output_hooks(p, node, grads)
        if capture is not None:
            for i, g in enumerate(grads):
                if g is not None:
                    p.capture_at((node, i), g)
        in_grads = None
        if (needed is None or node in needed) and (grads[0] is not None or _any_grad(grads)):
            try:
                in_grads = node.apply(grads, create_graph)
            except Exception as e:
                raise _backward_error(node, e) from e
        if not retain_graph:
            node.release()
        _send(p, node, in_grads)


def _send(p, node, in_grads):
    """Pass a node's input gradients (None: it did not run) along its edges."""
    cut = p.cut
    buffers, deps, leaves = p.buffers, p.deps, p.leaves
    for e, g in zip(node.edges, _NO_GRADS if in_grads is None else in_grads):
        if e is None:
            continue
        if g is not None and cut is not None and _edge_key(e) in cut:
            g = None
        if e.__class__ is tuple:
            nxt, i = e
            if g is not None:  # p.to_node(nxt, i, g), inlined: this loop is the hot path
                buf = buffers.get(nxt)
                if buf is None:
                    buf = buffers[nxt] = [None] * nxt.n_outputs
                old = buf[i]
                buf[i] = g if old is None else _add(old, g)
            left = deps[nxt] - 1  # _consumer_done(p, nxt), inlined
            deps[nxt] = left
            if not left:
                if nxt in buffers:
                    heapq.heappush(p.ready, (-nxt.seq, nxt))
                else:
                    _skip(p, nxt)
        else:  # a leaf: after its last edge its gradient is final and is delivered
            left = deps[e] - 1  # _leaf_edge_done(p, e), inlined
            deps[e] = left
            if g is not None:
                if not left and e not in leaves:  # its only gradient (the usual case): no buffering
                    _deliver(p, [e, g, node.grads_from_user])
                    continue
                p.to_leaf(e, g, node.grads_from_user)
            if not left and e in leaves:
                _deliver(p, leaves.pop(e))
    if node.zero_edges:
        for e, like in node.zero_edges:
            zero = None if in_grads is None else _fill_like(like, 0.0)
            if e.__class__ is tuple:
                if zero is not None:
                    p.to_node(e[0], e[1], zero)
                _consumer_done(p, e[0])
            else:
                if zero is not None:
                    p.to_leaf(e, zero, False)
                _leaf_edge_done(p, e)


def _consumer_done(p, node):
    """One consumer of `node` is done: once all are, it runs, or -- no gradient reached it -- is skipped."""
    left = p.deps[node] - 1
    p.deps[node] = left
    if left:
        return
    if node in p.buffers:
        heapq.heappush(p.ready, (-node.seq, node))
    else:
        _skip(p, node)


def _skip(p, node):
    """A node no gradient reached: its consumers are done, so its own inputs' counts drop."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not p.retain_graph:
            n.release()
        for nxt in _successors(n):
            left = p.deps[nxt] - 1
            p.deps[nxt] = left
            if left == 0:
                if nxt in p.buffers:
                    heapq.heappush(p.ready, (-nxt.seq, nxt))
                else:
                    stack.append(nxt)
        for e in _leaf_targets(n):
            _leaf_edge_done(p, e)


def _any_grad(grads):
    for g in grads:  # `is`, not ==: Tensor equality is elementwise
        if g is not None:
            return True
    return False


def _output_hooks(p, node, grads):
    """Hooks (and retain_grads) of a node's outputs, in registration order. An output with hooks that
    no gradient reached gets zeros, as in Paddle (an unused output of a multi-output op)."""
    for i, table in node.hooks.items():
        if table:
            g = grads[i]
            if g is None:  # Paddle's zeros for it keep stop_gradient=True
                grads[i] = _run_hooks(p, table, node.zeros_for_output(i), f"an output of '{node.name}'", False)
            else:
                grads[i] = _run_hooks(p, table, g, f"an output of '{node.name}'")


# ---- 4. deliver to leaves --------------------------------------------------------------------------
def _leaf_targets(node):
    leaves = [e for e in node.edges if e is not None and e.__class__ is not tuple]
    if node.zero_edges:
        leaves.extend(e for e, _ in node.zero_edges if e.__class__ is not tuple)
    return leaves


def _leaf_edge_done(p, leaf):
    """One edge into `leaf` has run: after its last one the leaf's gradient is final and is delivered now,
    so its post-accumulation hooks (DataParallel's gradient buckets) run while backward goes on."""
    left = p.deps[leaf] - 1
    p.deps[leaf] = left
    if not left and leaf in p.leaves:
        _deliver(p, p.leaves.pop(leaf))


# Accumulation into `.grad` is a read-add-write: one lock per leaf (striped by id, so no global lock and
# no per-tensor state) keeps concurrent backward() calls into a shared leaf from losing updates.
_LEAF_LOCKS = tuple(threading.Lock() for _ in range(64))  # indexed by id(leaf) >> 4 & 63 (ids are 16-aligned)


def _deliver(p, entry):
    """A leaf's total gradient of this pass: its hooks, then capture, or accumulation into `.grad` (without touching
    arrays other code may hold), then the hooks that run after accumulation (Tensor._register_backward_hook)."""
    leaf, g, from_user = entry
    if p.capture is not None:  # grad() returns the gradient before the leaf's hooks, as Paddle does
        p.capture_at(id(leaf), g)
    if not p.accumulate:
        return
    if leaf._hooks:
        g = _run_hooks(p, leaf._hooks, g, "a leaf tensor")
        from_user = True  # an op's gradient reads stop_gradient=False, as in Paddle; a user's keeps its own
    create_graph = p.create_graph
    if not create_graph:  # `.grad` is a tensor of its own
        g = wrap_array(g._data, g._place, g.stop_gradient if from_user else False)
    with _LEAF_LOCKS[id(leaf) >> 4 & 63]:
        old = leaf._grad
        if old is None or leaf._grad_is_zeros:
            if g._data.dtype != leaf._data.dtype:
                g = wrap_array(g._data.astype(leaf._data.dtype), g._place, g.stop_gradient)
            leaf._grad = g
            leaf._grad_is_zeros = False
        else:
            if g._data.dtype != old._data.dtype:  # a float32 master gradient (amp master_grad) keeps its dtype
                g = wrap_array(g._data.astype(old._data.dtype), g._place, g.stop_gradient)
            if not create_graph and old._node is None:
                # Paddle adds into the existing gradient tensor, so a reference to `.grad` sees the sum; the tensor
                # takes a new array rather than writing into its own, which other leaves' gradients may share
                old._data = old._data + g._data
                old._bump_version()
            else:
                with set_grad_enabled(create_graph):
                    new = _add(old, g)
                if not create_graph:
                    new.stop_gradient = old.stop_gradient
                leaf._grad = new
    if leaf._post_accumulate_hooks:
        for fn in list(leaf._post_accumulate_hooks.values()):
            fn()


def _as_engine_grad(g):
    """The gradient as Paddle hands it out: a tensor of its own with stop_gradient=False."""
    return wrap_array(g._data, g._place, False)


def _run_hooks(p, hooks, grad, what, as_engine_grad=True):
    """Call each hook on the gradient; a returned Tensor replaces it. Hooks run in the grad mode backward
    was called in and see a gradient with stop_gradient=False, as in Paddle."""
    if as_engine_grad and grad._node is None:
        grad = _as_engine_grad(grad)
    with set_grad_enabled(p.hook_mode):
        for fn in list(hooks.values()):
            out = fn(grad)
            if out is not None:
                if not isinstance(out, Tensor):
                    raise TypeError(f"gradient hook on {what} must return a Tensor or None, "
                                    f"received {type(out).__name__}")
                if out.shape != grad.shape:
                    raise ValueError(f"gradient hook on {what} returned shape {out.shape}, expected {grad.shape}")
                if out.dtype != grad.dtype:  # never cast silently (Paddle raises too)
                    raise RuntimeError(f"gradient hook on {what} returned dtype {out.dtype.name}, expected "
                                       f"{grad.dtype.name} (the gradient's dtype); cast it back inside the hook")
                grad = out
    return grad


def _edge_key(e):
    return e if e.__class__ is tuple else id(e)


def _backward_error(node, e):
    msg = f"backward of op '{node.forward_name}' failed{node.location()}: {type(e).__name__}: {e}"
    if isinstance(e, KeyError):  # KeyError would print the message as a quoted repr
        return RuntimeError(msg)
    try:
        return type(e)(msg)
    except Exception:
        return RuntimeError(msg)
