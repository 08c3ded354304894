"""The language grad makers are written in: symbolic references with Python's operators and math functions.

A grad maker receives `g`, a `Formulas` view of the mode's GradBuilder (eager binds references to Tensors,
static to Variables). `g.input(slot)`, `g.output(slot)` and `g.output_grad(slot)` return `Sym`s; Python's
operators on them (`dout / y`, `-dx * out / y`, `x ** 2`, `a @ b`, `x > 0`) and the functions below
(`exp(x)`, `where(mask, dout, 0)`, `reduce_sum(x, axis=1)`) each record one registered op through the
builder, so eager mode runs it (checking the versions of saved tensors), static mode appends it to the grad
group, and it has a grad maker of its own (higher orders). Python scalars become `scale` attrs, not
constant tensors. `g.op(type, ...)` applies any other registered op (a dedicated grad op, say).
"""


class Sym:
    """A symbolic reference: a Tensor (eager) or a Variable (static) inside a grad maker."""

    __slots__ = ("builder", "ref")

    def __init__(self, builder, ref):
        self.builder = builder
        self.ref = ref

    @property
    def shape(self):
        return self.builder.shape(self)

    @property
    def ndim(self):
        return len(self.builder.shape(self))

    @property
    def dtype(self):
        return self.ref.dtype

    def scale(self, scale=1.0, bias=0.0):
        """scale * self + bias, one `scale` op."""
        return self.builder.op("scale", self, scale=float(scale), bias=float(bias))

    def __add__(self, other):
        return self.builder.op("add", self, other) if isinstance(other, Sym) else self.scale(1.0, other)

    __radd__ = __add__

    def __sub__(self, other):
        return self.builder.op("subtract", self, other) if isinstance(other, Sym) else self.scale(1.0, -other)

    def __rsub__(self, other):
        return self.scale(-1.0, other)

    def __mul__(self, other):
        return self.builder.op("multiply", self, other) if isinstance(other, Sym) else self.scale(other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self.builder.op("divide", self, other) if isinstance(other, Sym) else self.scale(1.0 / other)

    def __rtruediv__(self, other):
        return self.builder.op("reciprocal", self).scale(other)

    def __neg__(self):
        return self.scale(-1.0)

    def __pow__(self, other):
        if isinstance(other, Sym):
            return self.builder.op("elementwise_pow", self, other)
        return self.builder.op("square", self) if other == 2 else self.builder.op("pow", self, factor=float(other))

    def __matmul__(self, other):
        return self.builder.op("matmul", self, other)

    def _compare(self, type, other):
        return self.builder.op(type, self, other if isinstance(other, Sym) else full_like(self, other))

    def __gt__(self, other):
        return self._compare("greater_than", other)

    def __ge__(self, other):
        return self._compare("greater_equal", other)

    def __lt__(self, other):
        return self._compare("less_than", other)

    def __le__(self, other):
        return self._compare("less_equal", other)

    def __and__(self, other):
        return self.builder.op("logical_and", self, other)

    def __or__(self, other):
        return self.builder.op("logical_or", self, other)

    def __bool__(self):
        raise TypeError("a grad maker cannot branch on values: its references are symbolic "
                        "(use where(cond, a, b))")

    def __repr__(self):
        return f"Sym({self.ref!r})"


_GROUPS = (list, tuple)


def _wrap(g, value):
    """A builder's result as Syms: None stays None, a list/tuple (variadic slot, several outputs) is wrapped
    element by element."""
    if value is None or value.__class__ is Sym:
        return value
    if value.__class__ in _GROUPS:
        return type(value)(_wrap(g, v) for v in value)
    return Sym(g, value)


def _unwrap(value):
    if value.__class__ is Sym:
        return value.ref
    if value.__class__ in _GROUPS:
        return [_unwrap(v) for v in value]
    return value


class Formulas:
    """What a grad maker sees as `g`: the mode's GradBuilder, speaking in `Sym`s."""

    __slots__ = ("b", "attrs", "needs", "needs_at")

    def __init__(self, builder):
        self.b = builder
        self.attrs = builder.attrs  # the forward op's attrs
        self.needs = builder.needs  # whether an input slot wants a gradient (bound: no extra call per use)
        self.needs_at = builder.needs_at  # whether element j of a variadic input slot wants one

    # (the hot methods wrap a single reference inline: grad makers run once per node in eager backward)
    def input(self, slot):
        v = self.b.input(slot)
        return _wrap(self, v) if v is None or v.__class__ in _GROUPS else Sym(self, v)

    def output(self, slot):
        return _wrap(self, self.b.output(slot))

    def output_grad(self, slot):
        """The gradient arriving at an output (None where none arrived)."""
        v = self.b.output_grad(slot)
        return _wrap(self, v) if v is None or v.__class__ in _GROUPS else Sym(self, v)

    def output_grad_or_zeros(self, slot):
        return _wrap(self, self.b.output_grad_or_zeros(slot))

    def needs_any(self, *slots):
        return any(self.b.needs(s) for s in slots)

    def set_input_grad(self, slot, value):
        self.b.set_input_grad(slot, value.ref if value.__class__ is Sym else _unwrap(value))

    def set_input_grads(self, slots, grads):
        """Set the gradient of each slot that needs one, from `grads` (one per slot: the outputs of one
        dedicated grad op that computes them together)."""
        for slot, grad in zip(slots, grads):
            if self.b.needs(slot):
                self.b.set_input_grad(slot, _unwrap(grad))

    def op(self, type, *inputs, **attrs):
        """Apply registered op `type` to `inputs` (Syms, lists of Syms, None)."""
        refs = []
        for v in inputs:
            refs.append(v.ref if v.__class__ is Sym else _unwrap(v))
        out = self.b.op(type, *refs, **attrs)
        return _wrap(self, out) if out.__class__ in _GROUPS else Sym(self, out)

    def shape(self, ref):
        return self.b.shape(_unwrap(ref))

    def zeros_like(self, ref):
        return full_like(ref, 0.0)

    def reduce_as(self, value, like):
        """Sum `value` over the dims it was broadcast along, to `like`'s shape (the one unbroadcast)."""
        vs, ls = self.b.shape(value.ref), self.b.shape(like.ref)
        if vs == ls and -1 not in vs:
            return value
        return self.op("reduce_as", value, like)


def _builder_of(args):
    for a in args:
        if a.__class__ is Sym:
            return a.builder
        if isinstance(a, (list, tuple)):
            for e in a:
                if e.__class__ is Sym:
                    return e.builder
    raise TypeError("a formula function needs at least one symbolic reference (Sym) among its inputs")


def _op_function(type):
    def apply(*inputs, **attrs):
        return _builder_of(inputs).op(type, *inputs, **attrs)
    apply.__name__ = apply.__qualname__ = type
    apply.__doc__ = f"Record registered op '{type}' on symbolic references."
    return apply


def full_like(x, value):
    """A tensor shaped and typed like `x`, every element `value`."""
    return x.builder.op("fill_any_like", x, value=float(value))


def zeros_like(x):
    return full_like(x, 0.0)


def where(cond, a, b):
    """Elementwise `a if cond else b`; a Python scalar branch is filled in like the other one."""
    if a.__class__ is not Sym:
        a = full_like(b, a)
    elif b.__class__ is not Sym:
        b = full_like(a, b)
    return cond.builder.op("where", cond, a, b)


# The registered ops that grad makers use as math functions (names are op types).
exp, log, sqrt, rsqrt, reciprocal, square = map(_op_function, ("exp", "log", "sqrt", "rsqrt", "reciprocal", "square"))
sign, sin, cos, sinh, cosh, tanh, sigmoid, softplus = map(
    _op_function, ("sign", "sin", "cos", "sinh", "cosh", "tanh", "sigmoid", "softplus"))
hardsigmoid, equal, maximum, minimum = map(_op_function, ("hardsigmoid", "equal", "maximum", "minimum"))
assign, cast, reshape, reshape_as, unsqueeze, expand_as, transpose = map(
    _op_function, ("assign", "cast", "reshape", "reshape_as", "unsqueeze", "expand_as", "transpose"))
reduce_sum, mean, cumsum, matmul = map(_op_function, ("reduce_sum", "mean", "cumsum", "matmul"))
concat, stack, unstack, flip, roll, tile, gather = map(
    _op_function, ("concat", "stack", "unstack", "flip", "roll", "tile", "gather"))
