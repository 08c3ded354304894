"""Elementwise kernels generated from the registry ops' own CUDA expressions (`register_op(..., elementwise=)`).

A `Chain` is a straight-line program of elementwise registry ops over some input arrays: each step is an op, its
filled attrs and its arguments (a chain input, or an earlier step's value), and some steps' values are the
chain's outputs. One generated kernel computes a whole chain: each thread loads its element of every input (a
broadcast or strided input through its strides), computes the steps in order in float32 registers -- each op's
expression, as its module declares it -- and stores the outputs. So a chain costs one launch and one pass over
memory where its ops one by one cost a launch, an allocation and a pass each. static/fusion.py builds chains
from a plan's elementwise ops; an elementwise op without a kernel of its own runs on a GPU as a chain of one
(registry.register_op binds `single_op`).

A source is generated per chain, storage type (float32, float16, bfloat16: the arithmetic is float32's) and
layout (the loop's dims after collapsing, and which inputs are read at the output's own index), and compiled
once by the active kernel backend (device/kernels.py: CuPy's NVRTC, its binaries cached on disk, with
--fmad=false so that each step rounds as its op alone does; the CPU emulator in tests). `launch` returns None for
what it does not cover (another dtype, mixed dtypes, an output shaped unlike the loop, more than MAX_DIMS
dims after collapsing): the caller then runs the ops themselves.
"""
import hashlib

import numpy as np

from ...device.kernels import active_kernels, generated_source
from .common import THREADS, blocks, i64, suffix

MAX_DIMS = 4
_CTYPE = {"f32": "float", "f16": "f16", "bf16": "bf16"}


class Chain:
    """steps: [(op, attrs, args)], args one per input slot of the op: ("in", k), ("step", j) or None (an optional
    input not given); outputs: the steps whose values the kernel writes, in order; n_in: the chain's inputs.
    `code` is the chain's body (one line per step), or None when an op's expression does not cover its attrs."""

    def __init__(self, steps, n_in, outputs):
        self.steps, self.n_in, self.outputs = steps, n_in, tuple(outputs)
        lines = []
        for j, (op, attrs, args) in enumerate(steps):
            expr = op.elementwise(*[None if a is None else _value(a) for a in args], **attrs)
            if expr is None:
                lines = None
                break
            lines.append(f"    const float t{j} = {expr};")
        self.code = None if lines is None else "\n".join(lines)
        self._sources = {}
        self.plans = {}  # (kernel backend, each input's dtype, shape, strides) -> what `launch` needs, or False

    @property
    def label(self):
        """What the chain computes, for launch counts and errors: its op types joined by '+'."""
        return "+".join(op.type for op, _, _ in self.steps)

    def source(self, sfx, ndim, flat, index64=False):
        """(kernel name, full source) for storage type `sfx`, `ndim` loop dims, `flat`[k]: input k read at the
        output's index (else through its strides); `index64`: the loop has 2^31 elements or more."""
        key = (sfx, ndim, flat, index64)
        got = self._sources.get(key)
        if got is None:
            got = self._sources[key] = _source(self, sfx, ndim, flat, index64)
        return got

    def shapes_ok(self, shapes, loop):
        """Whether every output of the chain has the loop's shape, given the inputs' shapes."""
        step_shapes = []
        for _, _, args in self.steps:
            arg_shapes = [shapes[a[1]] if a[0] == "in" else step_shapes[a[1]] for a in args if a is not None]
            step_shapes.append(arg_shapes[0] if all(s == arg_shapes[0] for s in arg_shapes)
                               else np.broadcast_shapes(*arg_shapes))
        return all(step_shapes[j] == loop for j in self.outputs)


def _value(arg):
    return f"v{arg[1]}" if arg[0] == "in" else f"t{arg[1]}"


def _source(chain, sfx, ndim, flat, index64):
    """The kernel: a grid-stride loop taking UNROLL elements per thread at a time, all their loads issued before
    any arithmetic (one element's loads per thread left too few bytes in flight to cover memory latency). An
    input read through strides finds its coordinates by division: in 32 bits when the loop has fewer than 2^31
    elements (64-bit division is a ~70-instruction subroutine per dim and element)."""
    t = _CTYPE[sfx]
    params = [f"const {t}* __restrict__ in{k}" for k in range(chain.n_in)]
    params += [f"{t}* __restrict__ out{m}" for m in range(len(chain.outputs))]
    params += ["i64 n"] + [f"i64 d{j}" for j in range(ndim)]
    params += [f"i64 s{k}_{j}" for k in range(chain.n_in) if not flat[k] for j in range(ndim)]
    loads = []
    if not all(flat):
        ix = "i64" if index64 else "unsigned"
        loads.append(f"        {ix} r = ({ix})i;")
        for j in range(ndim - 1, 0, -1):
            loads.append(f"        const {ix} c{j} = r % ({ix})d{j}; r /= ({ix})d{j};")
        loads.append(f"        const {ix} c0 = r;")
    for k in range(chain.n_in):
        index = "i" if flat[k] else " + ".join(f"c{j} * s{k}_{j}" for j in range(ndim))
        loads.append(f"        a{k}[u] = ld(in{k}, {index});")
    values = [f"        const float v{k} = a{k}[u];" for k in range(chain.n_in)]
    stores = [f"        st(out{m}, i, t{j});" for m, j in enumerate(chain.outputs)]
    each = f"    #pragma unroll\n    for (int u = 0; u < {UNROLL}; ++u) {{\n      const i64 i = b + u * GRID_STRIDE;\n"
    body = "      if (i < n) {\n"
    text = (f"(\n    {', '.join(params)}) {{\n  for (i64 b = GRID_TID; b < n; b += {UNROLL} * GRID_STRIDE) {{\n"
            + "".join(f"    float a{k}[{UNROLL}];\n" for k in range(chain.n_in))
            + each + body + "\n".join(loads) + "\n      }\n    }\n"
            + each + body + "\n".join(values) + "\n" + "\n".join("    " + line for line in chain.code.split("\n"))
            + "\n" + "\n".join(stores) + "\n      }\n    }\n  }\n}\n")
    name = "ew_" + hashlib.sha1(f"{chain.label}|{text}".encode()).hexdigest()[:16]
    comment = f"// generated by paddlelite.ops.launch.generated: {chain.label}\n"
    return name, generated_source(f'{comment}extern "C" __global__ void __launch_bounds__({THREADS}) {name}{text}')


UNROLL = 4  # elements per thread in flight: 1024 resident threads x 4 x (8-12 B) = 32-48 KB per SM, past latency


def _layout(arrays, loop):
    """(dims, flat, strides) of a loop over shape `loop` reading `arrays` (broadcast to it): dims collapsed where
    every input steps through two neighbouring dims as through one; flat[k] when input k is read at the output's
    own index; strides (elements) of the others, per dim. None past MAX_DIMS dims."""
    nd = len(loop)
    per_input = []
    for a in arrays:
        st, off = [0] * nd, nd - a.ndim
        for j, (d, s) in enumerate(zip(a.shape, a.strides)):
            st[off + j] = 0 if d == 1 else s // a.itemsize
        per_input.append(st)
    dims, strides = [], [[] for _ in arrays]
    for j in range(nd):
        if loop[j] == 1:
            continue
        if dims and all(st[-1] == s[j] * loop[j] for st, s in zip(strides, per_input)):
            dims[-1] *= loop[j]
            for st, s in zip(strides, per_input):
                st[-1] = s[j]
            continue
        dims.append(loop[j])
        for st, s in zip(strides, per_input):
            st.append(s[j])
    dims = dims or [1]
    strides = [st or [1] for st in strides]
    if len(dims) > MAX_DIMS:
        return None
    contiguous, step = [0] * len(dims), 1
    for j in range(len(dims) - 1, -1, -1):
        contiguous[j], step = step, step * dims[j]
    flat = tuple(st == contiguous for st in strides)
    return dims, flat, strides


def launch(xp, chain, arrays):
    """The chain's outputs (new arrays shaped as the loop), computed by one generated kernel; None where not
    covered. What a launch needs beyond the arrays' addresses -- the kernel, its grid, the loop's dims and the
    inputs' strides -- is worked out once per backend and layout of the inputs (Chain.plans)."""
    backend = active_kernels()
    key = (backend, *[(a.dtype, a.shape, a.strides) for a in arrays])
    plan = chain.plans.get(key)
    if plan is None:
        if len(chain.plans) >= _PLANS_KEPT:
            chain.plans.clear()
        plan = chain.plans[key] = _plan(backend, chain, arrays)
    if plan is False:
        return None
    loop, dtype, fn, grid, tail = plan
    outs = [xp.empty(loop, dtype) for _ in chain.outputs]
    if fn is not None:
        fn(grid, _BLOCK, (*arrays, *outs, *tail))
    return outs


_PLANS_KEPT = 64  # layouts a chain keeps plans for (a new batch shape is a new layout)
_BLOCK = (THREADS,)


def _plan(backend, chain, arrays):
    """(loop shape, dtype, kernel or None for an empty loop, grid, arguments after the arrays) of a launch of
    `chain` on arrays like these; False where the kernels do not cover them."""
    if chain.code is None:
        return False
    dtype = arrays[0].dtype
    sfx = suffix(dtype)
    if sfx is None or any(a.dtype != dtype for a in arrays):
        return False
    shapes = [a.shape for a in arrays]
    try:
        loop = np.broadcast_shapes(*shapes)
    except ValueError:  # inputs of a chain the plan's shapes did not settle, which this call's do not fit
        return False
    if not chain.shapes_ok(shapes, loop):
        return False
    n = int(np.prod(loop, dtype=np.int64))
    if not n:
        return loop, dtype, None, None, ()
    layout = _layout(arrays, loop)
    if layout is None:
        return False
    dims, flat, strides = layout
    name, source = chain.source(sfx, len(dims), flat, n >= 2 ** 31)
    tail = (i64(n), *map(i64, dims), *[i64(v) for k, st in enumerate(strides) if not flat[k] for v in st])
    return loop, dtype, backend.get_generated(source, name), (blocks(n, THREADS),), tail


def f32(v):
    """A Python number as an exact float32 CUDA literal (NumPy computes a float32 array's op with a Python scalar
    in float32); None when it is not finite."""
    v = float(np.float32(v))
    return f"{v.hex()}f" if np.isfinite(v) else None


def with_axis(expr):
    """`expr(x, y)` as a binary op's elementwise expression: covered for axis -1 (NumPy's broadcasting) only."""
    return lambda x, y, axis: expr(x, y) if axis == -1 else None


def single_op(op):
    """The GPU binding of elementwise op `op`: one generated kernel; None (the op's forward runs) where its
    expression or the kernels do not cover the call. Its chain is made once per attrs and inputs given."""
    chains = {}

    def run(xp, *arrays, **attrs):
        try:
            key = (*[a is None for a in arrays], *attrs.values())
            chain = chains.get(key)
        except TypeError:  # an unhashable attr: made for this call
            key, chain = None, None
        if chain is None:
            chain = _single_chain(op, arrays, attrs)
            if key is not None:
                chains[key] = chain
        if chain is False:
            return None
        outs = launch(xp, chain, arrays if chain.n_in == len(arrays) else [a for a in arrays if a is not None])
        return None if outs is None else outs[0]
    run.__name__ = f"{op.type}_generated"
    return run


def _single_chain(op, arrays, attrs):
    args, k = [], 0
    for a in arrays:
        args.append(None if a is None else ("in", k))
        k += a is not None
    chain = Chain([(op, attrs, args)], k, [0])
    return chain if chain.code is not None else False
