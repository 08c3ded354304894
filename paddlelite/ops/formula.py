"""The language grad makers are written in: symbolic references with Python's operators and math functions.

A grad maker receives `g`, the mode's GradBuilder (eager binds references to Tensors, static to
Variables). `g.input(slot)`, `g.output(slot)` and `g.output_grad(slot)` return `Sym`s; Python's
operators on them (`dx = dout / y`, `dy = -dx * out`, `x ** 2`, `a @ b`, `x > 0`) and the functions below
(`exp(x)`, `where(mask, dout, 0)`, `reduce_sum(x, axis=1)`) each record one registered op through the
builder, so eager mode runs it (checking the versions of saved tensors), static mode appends it to the grad
group, and it has a grad maker of its own (higher orders). Python scalars become `scale` attrs, not
constant tensors. `g.op(type, ...)` applies any other registered op (a dedicated grad op, say).
"""


_NO_ATTRS = {}  # shared: never written (the dispatcher copies attrs)


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

    @property
    def is_complex(self):
        return self.builder.is_complex(self)

    # Each operator records one op through the builder (`record(type, inputs, attrs)`: the builders'
    # no-repacking entry, as these run for every formula term in every backward).
    def scale(self, scale=1.0, bias=0.0):
        """scale * self + bias, one `scale` op."""
        return self.builder.record("scale", (self,), {"scale": float(scale), "bias": float(bias)})

    def __add__(self, other):
        if other.__class__ is Sym:
            return self.builder.record("add", (self, other), _NO_ATTRS)
        return self.scale(1.0, other)

    __radd__ = __add__

    def __sub__(self, other):
        if other.__class__ is Sym:
            return self.builder.record("subtract", (self, other), _NO_ATTRS)
        return self.scale(1.0, -other)

    def __rsub__(self, other):
        return self.scale(-1.0, other)

    def __mul__(self, other):
        if other.__class__ is Sym:
            return self.builder.record("multiply", (self, other), _NO_ATTRS)
        return self.scale(other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if other.__class__ is Sym:
            return self.builder.record("divide", (self, other), _NO_ATTRS)
        return self.scale(1.0 / other)

    def __rtruediv__(self, other):
        return self.builder.record("reciprocal", (self,), _NO_ATTRS).scale(other)

    def __neg__(self):
        return self.scale(-1.0)

    def __pow__(self, other):
        if other.__class__ is Sym:
            return self.builder.record("elementwise_pow", (self, other), _NO_ATTRS)
        if other == 2:
            return self.builder.record("square", (self,), _NO_ATTRS)
        return self.builder.record("pow", (self,), {"factor": float(other)})

    def __matmul__(self, other):
        return self.builder.record("matmul", (self, other), _NO_ATTRS)

    # comparisons: masks for where(); a scalar is filled in like self
    def _compare(self, type, other):
        return self.builder.record(type, (self, other if other.__class__ is Sym else full_like(self, other)),
                                   _NO_ATTRS)

    def __gt__(self, other):
        return self._compare("greater_than", other)

    def __ge__(self, other):
        return self._compare("greater_equal", other)

    def __lt__(self, other):
        return self._compare("less_than", other)

    def __le__(self, other):
        return self._compare("less_equal", other)

    def __and__(self, other):
        return self.builder.record("logical_and", (self, other), _NO_ATTRS)

    def __or__(self, other):
        return self.builder.record("logical_or", (self, other), _NO_ATTRS)

    def __bool__(self):
        raise TypeError("a grad maker cannot branch on values: its references are symbolic "
                        "(use where(cond, a, b))")

    def __repr__(self):
        return f"Sym({self.ref!r})"


_GROUPS = (list, tuple)


def wrap(builder, value):
    """A builder's value as Syms: None stays None, a list/tuple (variadic slot, several outputs) is
    wrapped element by element."""
    if value is None or value.__class__ is Sym:
        return value
    if value.__class__ in _GROUPS:
        return type(value)(wrap(builder, v) for v in value)
    return Sym(builder, value)


def unwrap(value):
    """The Tensor/Variable (or list of them) behind a Sym (or list of Syms)."""
    if value.__class__ is Sym:
        return value.ref
    if value.__class__ in _GROUPS:
        return [unwrap(v) for v in value]
    return value


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
        first = inputs[0]
        builder = first.builder if first.__class__ is Sym else _builder_of(inputs)
        return builder.record(type, inputs, attrs)
    apply.__name__ = apply.__qualname__ = type
    apply.__doc__ = f"Record registered op '{type}' on symbolic references."
    return apply


def full_like(x, value):
    """A tensor shaped and typed like `x`, every element `value`."""
    return x.builder.record("fill_any_like", (x,), {"value": float(value)})


def zeros_like(x):
    return x.builder.record("fill_any_like", (x,), {"value": 0.0})


def where(cond, a, b):
    """Elementwise `a if cond else b`; a Python scalar branch is filled in like the other one."""
    if a.__class__ is not Sym:
        a = full_like(b, a)
    elif b.__class__ is not Sym:
        b = full_like(a, b)
    return cond.builder.record("where", (cond, a, b), _NO_ATTRS)


def conj_if_complex(x):
    """conj(x) for a complex x, else x itself: the grad of a holomorphic op multiplies by the conjugated
    derivative (Paddle's convention: a complex tensor's gradient is dL/d(re) + i dL/d(im))."""
    return x.builder.record("conj", (x,), _NO_ATTRS) if x.builder.is_complex(x) else x


# The registered ops that grad makers use as math functions (names are op types).
exp, log, sqrt, rsqrt, reciprocal, square = map(_op_function, ("exp", "log", "sqrt", "rsqrt", "reciprocal", "square"))
sign, sin, cos, sinh, cosh, tanh, sigmoid, softplus = map(
    _op_function, ("sign", "sin", "cos", "sinh", "cosh", "tanh", "sigmoid", "softplus"))
hardsigmoid, equal, isfinite, isnan, maximum, minimum = map(
    _op_function, ("hardsigmoid", "equal", "isfinite", "isnan", "maximum", "minimum"))
assign, cast, reshape, reshape_as, unsqueeze, expand_as, transpose = map(
    _op_function, ("assign", "cast", "reshape", "reshape_as", "unsqueeze", "expand_as", "transpose"))
reduce_sum, mean, cumsum, matmul = map(_op_function, ("reduce_sum", "mean", "cumsum", "matmul"))
concat, stack, unstack, flip, roll, tile, gather = map(
    _op_function, ("concat", "stack", "unstack", "flip", "roll", "tile", "gather"))
real, imag, conj, as_complex, as_real = map(_op_function, ("real", "imag", "conj", "as_complex", "as_real"))
make_complex = _op_function("complex")  # complex(re, im); the name leaves Python's complex alone
