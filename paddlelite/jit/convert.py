"""Python control flow on tensor values, converted by AST transformation (Paddle's dy2static, narrowed).

`if test:` and `while test:` statements whose bodies hold no return/break/continue/yield become calls
to `convert_ifelse` / `convert_while` with the branch and loop bodies as nested functions over the
names they assign; so do `for name in range(...)` loops, as a `while` over the position in the range. At
trace time a Variable condition builds `static.nn.cond` / `while_loop`; a Python value runs the plain
statement's semantics. A statement left unconverted that meets a Variable
condition fails with a TypeError naming the file and line (see `explain_untraceable`).

As in Paddle, conversion follows calls: every call `f(...)` in converted code becomes
`convert_call(f)(...)`, which converts the user's own functions and the `forward` of the user's Layers
(never paddlelite's, the standard library's or installed packages', nor `not_to_static` ones).
"""
import ast
import functools
import inspect
import linecache
import logging
import os
import sys
import sysconfig
import textwrap
import traceback

from ..static.framework import Variable

code_level = [0]
code_to_stdout = [False]
ignored_modules = []
_NOT_TO_STATIC = "_paddlelite_not_to_static"
_converted = {}
_log = logging.getLogger("paddlelite.jit")


class _Undefined:
    """A name a branch or loop assigns that had no value before it."""

    def __repr__(self):
        return "<undefined>"


UNDEFINED = _Undefined()


def mark_not_to_static(func):
    try:
        setattr(func, _NOT_TO_STATIC, True)
    except AttributeError:  # a builtin: it is never converted anyway
        pass
    return func


# ---- runtime helpers the converted code calls ---------------------------------------------------
def convert_ifelse(pred, true_fn, false_fn, names, values, where):
    if isinstance(pred, Variable):
        from ..static.nn import cond
        outs = cond(pred, lambda: _as_vars(true_fn(*values), names, where), lambda: _as_vars(false_fn(*values),
                                                                                         names, where))
        return tuple(outs) if isinstance(outs, (list, tuple)) else (outs,) if names else ()
    return true_fn(*values) if pred else false_fn(*values)


def convert_call(fn):
    """`fn` converted when it is the user's code: a plain function or method is converted like the decorated
    one; a Layer (anything with a `forward` method, called through __call__) runs its converted forward,
    with its hooks as usual. Anything else is returned as is."""
    if inspect.isclass(fn):
        return fn
    target = fn if inspect.isroutine(fn) else getattr(fn, "forward", None)
    if target is None or not _users_code(target):
        return fn
    if target is fn:
        return convert_function(fn)
    return functools.partial(_call_converted_forward, fn)


def _call_converted_forward(layer, *args, **kwargs):
    """layer(*args, **kwargs) with its forward converted (an instance attribute shadows the class's for the
    call; Layer.__call__ looks `forward` up on the instance)."""
    had = "forward" in vars(layer)
    saved = vars(layer).get("forward")
    layer.forward = convert_function(type(layer).forward).__get__(layer) if not had else convert_function(saved)
    try:
        return layer(*args, **kwargs)
    finally:
        if had:
            layer.forward = saved
        else:
            del layer.forward


_LIBRARY_DIRS = tuple({os.path.realpath(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib",
                                                                                     "purelib", "platlib")})
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep


@functools.lru_cache(maxsize=4096)
def _users_file(filename):
    path = os.path.realpath(filename)
    return not (path.startswith(_PACKAGE_DIR) or path.startswith(_LIBRARY_DIRS))


def _users_code(fn):
    func = getattr(fn, "__func__", fn)
    code = getattr(func, "__code__", None)
    return (code is not None and inspect.isfunction(func) and not getattr(func, _NOT_TO_STATIC, False)
            and _users_file(code.co_filename))


def convert_while(cond_fn, body_fn, names, values, where):
    pred = cond_fn(*values)
    if isinstance(pred, Variable):
        from ..static.nn import while_loop
        from ..tensor import assign
        _check_defined(names, values, where, "while")
        # while_loop writes its loop vars in place (as Paddle's): it works on copies, so that gradients of the ops
        # before the loop read the values they saw
        return tuple(while_loop(cond_fn, lambda *v: _as_vars(body_fn(*v), names, where), [assign(v) for v in values]))
    while pred:
        values = body_fn(*values)
        pred = cond_fn(*values)
    return values


def convert_range(*args):
    """What a converted `for ... in range(*args)` walks: the range, or -- a bound being a tensor -- Paddle's arange
    of the same bounds, which the loop indexes one item at a time."""
    if any(isinstance(a, Variable) for a in args):
        from ..tensor import arange
        return arange(*((0, args[0]) if len(args) == 1 else args))
    return range(*args)


def convert_range_index(seq):
    """The position a converted `for` loop starts at: 0, a tensor for a tensor sequence (a loop variable)."""
    if isinstance(seq, Variable):
        from ..tensor import full
        return full([1], 0, "int64")
    return 0


def convert_len(seq):
    if isinstance(seq, Variable):
        from ..tensor import numel
        return numel(seq)
    return len(seq)


def convert_item(seq, index):
    """seq[index]: for a tensor sequence its item as a 0-D tensor, as Paddle's loop variable."""
    if isinstance(seq, Variable):
        from ..tensor import slice, squeeze
        return squeeze(slice(seq, [0], [index], [index + 1]), [0])
    return seq[index]


def convert_loop_target(value, seq):
    """The `for` variable's value before the loop: over a tensor sequence a loop variable needs one of its items'
    type (a 0-D zero where it had no tensor value, as Paddle's placeholder); over a range it keeps its own."""
    if isinstance(seq, Variable) and not isinstance(value, Variable):
        from ..tensor import zeros
        return zeros([], seq.dtype)
    return value


def _check_defined(names, values, where, kind):
    for n, v in zip(names, values):
        if v is UNDEFINED:
            raise ValueError(f"to_static: {where}: '{n}' is assigned in the `{kind}` on a tensor condition but has "
                             "no value before it; a loop variable needs one before the loop")


def _as_vars(values, names, where):
    for n, v in zip(names, values):
        if v is UNDEFINED:
            raise ValueError(f"to_static: {where}: '{n}' is assigned in one branch of an `if` on a tensor condition "
                             "only and has no value before it; give it one before the statement")
        if not isinstance(v, Variable):
            raise TypeError(f"to_static: {where}: '{n}' must be a Tensor in every branch of a tensor-dependent "
                            f"`if`/`while` (it becomes a program variable), received {type(v).__name__}")
    return list(values)


# ---- the transformation -------------------------------------------------------------------------
class _Assigned(ast.NodeVisitor):
    """Names a statement list binds (not inside nested functions/classes), in order."""

    def __init__(self):
        self.names = []

    def _add(self, name):
        if name not in self.names:
            self.names.append(name)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self._add(node.id)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self._add(node.target.id)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self._add(node.name)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        pass


def _assigned(stmts):
    v = _Assigned()
    for s in stmts:
        v.visit(s)
    return [n for n in v.names if not n.startswith("__jst")]


def _escapes(stmts):
    """Whether control leaves the statements other than by falling through (return/break/continue/yield)."""
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Global,
                                 ast.Nonlocal)):
                return True
    return False


class _Transformer(ast.NodeTransformer):
    def __init__(self, filename):
        self.filename = filename
        self.count = 0

    def _fresh(self, kind):
        self.count += 1
        return f"__jst_{kind}_{self.count}"

    def _nested_def(self, name, names, body, ref):
        ret = ast.Return(ast.Tuple([ast.Name(n, ast.Load()) for n in names], ast.Load()))
        args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[], kw_defaults=[],
                             defaults=[])
        fn = ast.FunctionDef(name=name, args=args, body=list(body) + [ret], decorator_list=[], returns=None,
                             type_params=[])
        return ast.copy_location(fn, ref)

    def _defaults(self, names, ref):
        """`try: n` / `except NameError: n = UNDEFINED` for each name: names not yet bound become UNDEFINED."""
        out = []
        for n in names:
            out.append(ast.Try(body=[ast.Expr(ast.Name(n, ast.Load()))],
                               handlers=[ast.ExceptHandler(type=ast.Name("NameError", ast.Load()), name=None,
                                                           body=[ast.Assign([ast.Name(n, ast.Store())],
                                                                            _helper("UNDEFINED"))])],
                               orelse=[], finalbody=[]))
        return [ast.fix_missing_locations(ast.copy_location(s, ref)) for s in out]

    def _call(self, helper, args, names, ref):
        where = ast.Constant(f'File "{self.filename}", line {ref.lineno}')
        call = ast.Call(_helper(helper), [*args, ast.Constant(tuple(names)),
                                          ast.Tuple([ast.Name(n, ast.Load()) for n in names], ast.Load()), where], [])
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
        return ast.copy_location(ast.Assign([target], call), ref)

    def visit_If(self, node):
        self.generic_visit(node)
        if _escapes(node.body) or _escapes(node.orelse):
            return node
        names = _assigned(node.body + node.orelse)
        t, f = self._fresh("true_fn"), self._fresh("false_fn")
        out = self._defaults(names, node)
        out.append(self._nested_def(t, names, node.body, node))
        out.append(self._nested_def(f, names, node.orelse or [ast.Pass()], node))
        out.append(self._call("convert_ifelse", [node.test, ast.Name(t, ast.Load()), ast.Name(f, ast.Load())],
                              names, node))
        return [ast.fix_missing_locations(s) for s in out]

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse or _escapes(node.body):
            return node
        names = _assigned(node.body)
        c, b = self._fresh("cond"), self._fresh("body")
        out = self._defaults(names, node)
        cond = self._nested_def(c, names, [], node)
        cond.body = [ast.copy_location(ast.Return(node.test), node)]
        out.append(cond)
        out.append(self._nested_def(b, names, node.body, node))
        out.append(self._call("convert_while", [ast.Name(c, ast.Load()), ast.Name(b, ast.Load())], names, node))
        return [ast.fix_missing_locations(s) for s in out]

    def visit_For(self, node):
        """`for name in range(...)` becomes a converted `while` over the position in the range (a tensor bound:
        Paddle's arange of the bounds, so the loop is a while_loop of the program)."""
        it = node.iter
        over_range = (isinstance(node.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                      and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3)
        self.generic_visit(node)
        if not over_range or node.orelse or _escapes(node.body):
            return node
        target = node.target.id
        seq, index = self._fresh("seq"), self._fresh("index")
        names = _assigned(node.body)
        names = names if target in names else [target, *names]
        loop_names = [*names, index]

        def assign(name, value):
            return ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), node)

        def call(helper, *args):
            return ast.Call(_helper(helper), list(args), [])

        load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
        out = [assign(seq, call("convert_range", *node.iter.args)), assign(index, call("convert_range_index", load(seq)))]
        out += self._defaults(names, node)
        out.append(assign(target, call("convert_loop_target", load(target), load(seq))))
        c, b = self._fresh("cond"), self._fresh("body")
        cond = self._nested_def(c, loop_names, [], node)
        cond.body = [ast.copy_location(ast.Return(ast.Compare(load(index), [ast.Lt()], [call("convert_len", load(seq))])),
                                       node)]
        out.append(cond)
        body = [assign(target, call("convert_item", load(seq), load(index))), *node.body,
                assign(index, ast.BinOp(load(index), ast.Add(), ast.Constant(1)))]
        out.append(self._nested_def(b, loop_names, body, node))
        out.append(self._call("convert_while", [load(c), load(b)], loop_names, node))
        return [ast.fix_missing_locations(s) for s in out]

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "__jst":  # a helper call this transformer made
            return node
        converted = ast.Call(_helper("convert_call"), [node.func], [])
        return ast.copy_location(ast.Call(ast.copy_location(converted, node), node.args, node.keywords), node)

    def visit_FunctionDef(self, node):  # nested functions keep their own control flow
        if getattr(self, "_top", None) is None:
            self._top = node
            self.generic_visit(node)
        return node


def _helper(name):
    return ast.Attribute(ast.Name("__jst", ast.Load()), name, ast.Load())


def convert_function(fn):
    """`fn` with its tensor-dependent `if`/`while` converted; `fn` itself where it cannot be (no source, a
    lambda, not_to_static, an ignored module)."""
    func = getattr(fn, "__func__", fn)
    if getattr(func, _NOT_TO_STATIC, False) or not inspect.isfunction(func) or func.__name__ == "<lambda>":
        return fn
    module = sys.modules.get(func.__module__)
    if module is not None and module in ignored_modules:
        return fn
    cached = _converted.get(func.__code__)
    if cached is None:
        cached = _converted[func.__code__] = _transform(func)
    new = cached(func)
    return new.__get__(fn.__self__) if hasattr(fn, "__self__") else new


def _transform(func):
    """A factory: given the original function, returns its converted copy (same globals and closure)."""
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return lambda f: f
    filename = inspect.getsourcefile(func) or "<unknown>"
    tree = ast.parse(textwrap.dedent("".join(lines)))
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        return lambda f: f
    fdef.decorator_list = []
    ast.increment_lineno(tree, first - 1)
    _Transformer(filename).visit(fdef)
    freevars = func.__code__.co_freevars
    factory_args = ast.arguments(posonlyargs=[], args=[ast.arg("__jst"), *[ast.arg(n) for n in freevars]],
                                 kwonlyargs=[], kw_defaults=[], defaults=[])
    factory = ast.FunctionDef(name="__jst_factory", args=factory_args,
                              body=[fdef, ast.Return(ast.Name(fdef.name, ast.Load()))], decorator_list=[],
                              returns=None, type_params=[])
    module = ast.fix_missing_locations(ast.Module([ast.copy_location(factory, fdef)], type_ignores=[]))
    if code_level[0] > 0:
        text = ast.unparse(fdef)
        _log.warning("to_static converted %s:\n%s", func.__qualname__, text)
        if code_to_stdout[0]:
            print(text)
    code = compile(module, filename, "exec")
    helpers = sys.modules[__name__]

    def make(f):
        namespace = {}
        exec(code, f.__globals__, namespace)
        cells = [c.cell_contents for c in (f.__closure__ or ())]
        new = namespace["__jst_factory"](helpers, *cells)
        new.__defaults__, new.__kwdefaults__ = f.__defaults__, f.__kwdefaults__
        new.__wrapped__ = f
        return new
    return make


def explain_untraceable(error, tb):
    """A TypeError from a Variable's truth value, re-raised naming the user's line that asked for it."""
    frames = [f for f in traceback.extract_tb(tb) if "paddlelite" not in f.filename.replace("\\", "/").split("/")]
    if not frames:
        return error
    f = frames[-1]
    line = f.line or linecache.getline(f.filename, f.lineno).strip()
    return TypeError(f'to_static could not convert File "{f.filename}", line {f.lineno}: `{line}`: {error} '
                     "(only `if`/`while` statements without return/break/continue in their bodies are converted)")
