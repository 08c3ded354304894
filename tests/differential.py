"""Differential tests against real Paddle: one test body, run under paddlelite and under Paddle 3.3.1.

In the spirit of CuPy's `numpy_cupy_allclose`: the body takes the library as its argument and returns
what it wants compared (a tree of Tensors, arrays, scalars, strings, dtypes, None, lists, tuples and
dicts). The harness runs it under paddlelite and checks the result against the recorded expectation
(when one is given), then -- when real Paddle is importable -- runs it under Paddle (legacy IR,
`FLAGS_enable_pir_api=0`, as the seeds describe) and checks that both results agree: values, dtypes
and shapes. A body that raises is compared by exception class::

    from tests.differential import differential, raises

    @differential(expected={"grad": [2.0, 4.0]})
    def test_square_grad(paddle):
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).sum().backward()
        return {"grad": x.grad}

    @differential(expected=raises(ValueError))
    def test_bad_axis(paddle):
        paddle.unsqueeze(paddle.ones([2, 3]), 9)

Without Paddle installed only the paddlelite run and its expectation are checked, so a behaviour
fix should always record `expected`. `run_both(body)` and `assert_same(a, b)` are the pieces, for
tests that compare in their own way.
"""
import math
import os

import numpy as np
import pytest

_MISSING = object()
_reference = _MISSING


def reference_paddle():
    """Real Paddle 3.3.1 on its legacy IR, or None when it is not installed."""
    global _reference
    if _reference is _MISSING:
        os.environ.setdefault("FLAGS_enable_pir_api", "0")
        try:
            import paddle
        except ImportError:
            paddle = None
        _reference = paddle
    return _reference


def paddlelite_module():
    import paddlelite
    return paddlelite


class Raised:
    """The outcome of a body that raised (or the expectation that it raises `cls`)."""

    def __init__(self, cls, message=""):
        self.cls, self.message = cls, message

    def __repr__(self):
        return f"raises({self.cls.__name__}{': ' + self.message[:200] if self.message else ''})"


def raises(cls):
    """Expectation: the body raises `cls` (or a subclass)."""
    return Raised(cls)


class _ArraySnap:
    def __init__(self, array, dtype, kind):
        self.array, self.dtype, self.kind = array, dtype, kind

    @property
    def shape(self):
        return list(self.array.shape)

    def __repr__(self):
        return f"{self.kind}(shape={self.shape}, dtype={self.dtype}, {self.array.tolist()!r})"


def _dtype_name(dtype):
    name = str(dtype)
    return name[len("paddle."):] if name.startswith("paddle.") else name


def _is_tensor(value):
    return type(value).__name__ in ("Tensor", "Parameter", "EagerParamBase") and hasattr(value, "numpy")


def snapshot(value):
    """A library-independent, comparable copy of a body's result."""
    if isinstance(value, (Raised, _ArraySnap)) or value is None or isinstance(value, (str, bool)):
        return value
    if _is_tensor(value):
        return _ArraySnap(np.asarray(value.numpy()), _dtype_name(value.dtype), "Tensor")
    if isinstance(value, np.ndarray):
        return _ArraySnap(value.copy(), str(value.dtype), "ndarray")
    if isinstance(value, np.generic):
        return _ArraySnap(np.asarray(value), str(value.dtype), "scalar")
    if isinstance(value, (int, float, complex)):
        return value
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):  # paddle.Size is a list; a static Variable.shape a tuple
        return type(value)(snapshot(v) for v in value) if type(value) in (list, tuple) else \
            [snapshot(v) for v in value]
    if type(value).__name__ == "dtype" or str(value).startswith("paddle."):
        return _dtype_name(value)
    raise TypeError(f"differential: cannot compare a result of type {type(value).__name__}: {value!r}")


def error_class(call, catching=None):
    """The name of the class of the exception `call()` raises, None when it returns: a body compares the classes of
    several calls at once. With `catching` (classes, in order), the name of the first that catches it -- the class a
    caller of Paddle catches, where paddlelite's is a subclass of more than one."""
    try:
        call()
    except Exception as error:  # the class is the result compared
        cls = type(error) if catching is None else next(c for c in catching if isinstance(error, c))
        return cls.__name__
    return None


def _builtin_base(cls):
    """The nearest built-in exception class of `cls` (Paddle raises some of its own subclasses)."""
    for base in cls.__mro__:
        if base.__module__ == "builtins":
            return base
    return Exception


def _run(body, lib):
    try:
        with lib.utils.unique_name.guard():
            return snapshot(body(lib))
    except Exception as error:  # the body's outcome is an exception: compared by class
        return Raised(type(error), str(error))
    finally:
        if lib.in_dynamic_mode() is False:
            lib.disable_static()


def _close(a, b, rtol, atol):
    if a.array.dtype.kind in "fc" or b.array.dtype.kind in "fc":
        return np.allclose(a.array.astype(np.complex128), b.array.astype(np.complex128), rtol=rtol, atol=atol,
                           equal_nan=True)
    return np.array_equal(a.array, b.array)


def assert_same(ours, theirs, rtol=1e-6, atol=1e-6, path="result", check_dtype=True):
    """Fail with the path of the first difference between two snapshots (`theirs` may be an expectation:
    plain lists/numbers stand for tensors' values, `raises(cls)` for an exception)."""
    if isinstance(theirs, Raised):
        if not isinstance(ours, Raised):
            pytest.fail(f"{path}: expected {theirs!r}, got {ours!r}")
        want = _builtin_base(theirs.cls) if theirs.cls.__module__ != "builtins" else theirs.cls
        if not issubclass(ours.cls, want):
            pytest.fail(f"{path}: expected {want.__name__} (reference: {theirs!r}), got {ours!r}")
        return
    if isinstance(ours, Raised):
        pytest.fail(f"{path}: raised {ours!r}, expected {theirs!r}")
    if isinstance(theirs, _ArraySnap):
        if not isinstance(ours, _ArraySnap):
            pytest.fail(f"{path}: expected {theirs!r}, got {ours!r}")
        if ours.shape != theirs.shape:
            pytest.fail(f"{path}: shape {ours.shape} != expected {theirs.shape}")
        if check_dtype and ours.dtype != theirs.dtype:
            pytest.fail(f"{path}: dtype {ours.dtype} != expected {theirs.dtype}")
        if not _close(ours, theirs, rtol, atol):
            pytest.fail(f"{path}: values differ:\n ours  {ours.array.tolist()!r}\n theirs {theirs.array.tolist()!r}")
        return
    if isinstance(ours, _ArraySnap):  # a recorded expectation written as plain values
        expected = np.asarray(theirs)
        if expected.dtype == object or list(expected.shape) != ours.shape:
            pytest.fail(f"{path}: got {ours!r}, expected {theirs!r}")
        if not _close(ours, _ArraySnap(expected, str(expected.dtype), "expected"), rtol, atol):
            pytest.fail(f"{path}: values differ:\n ours     {ours.array.tolist()!r}\n expected {theirs!r}")
        return
    if isinstance(theirs, dict):
        if not isinstance(ours, dict) or set(ours) != set(theirs):
            pytest.fail(f"{path}: got {ours!r}, expected {theirs!r}")
        for key in theirs:
            assert_same(ours[key], theirs[key], rtol, atol, f"{path}[{key!r}]", check_dtype)
        return
    if isinstance(theirs, (list, tuple)):
        if not isinstance(ours, (list, tuple)) or len(ours) != len(theirs):
            pytest.fail(f"{path}: got {ours!r}, expected {theirs!r}")
        for k, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, rtol, atol, f"{path}[{k}]", check_dtype)
        return
    if isinstance(theirs, float) and isinstance(ours, (int, float)) and not isinstance(ours, bool):
        if not (math.isclose(ours, theirs, rel_tol=rtol, abs_tol=atol) or (math.isnan(ours) and math.isnan(theirs))):
            pytest.fail(f"{path}: {ours!r} != expected {theirs!r}")
        return
    if isinstance(ours, str) and isinstance(theirs, str):
        ours = _as_printed_on_the_cpu(ours)
    if type(ours) is not type(theirs) or ours != theirs:
        pytest.fail(f"{path}: {ours!r} ({type(ours).__name__}) != expected {theirs!r} ({type(theirs).__name__})")


def _as_printed_on_the_cpu(text):
    """Expectations are recorded on the CPU (and the reference Paddle is a CPU build); a suite run with a GPU as the
    default device prints `Place(gpu:0)` where they say `Place(cpu)` -- Paddle's GPU build prints it so too."""
    place = paddlelite_module().get_device()
    return text.replace(f"Place({place})", "Place(cpu)") if place.startswith("gpu") else text


def run_static(paddle, build, feed):
    """Static mode under fresh Programs: `build()` adds the ops and returns the fetch list; the startup
    and main programs then run once on the CPU. Returns the fetched arrays (the harness leaves static mode)."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetch_list = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return [np.asarray(r) for r in exe.run(main, feed=feed, fetch_list=fetch_list)]


def run_both(body):
    """(paddlelite's snapshot, real Paddle's snapshot or None when Paddle is not installed)."""
    ours = _run(body, paddlelite_module())
    ref = reference_paddle()
    return ours, (None if ref is None else _run(body, ref))


def differential(expected=_MISSING, *, rtol=1e-6, atol=1e-6, check_dtype=True):
    """Decorator for a test body `body(paddle)`; see the module docstring."""

    def decorate(body):
        def test():
            ours, theirs = run_both(body)
            if expected is not _MISSING:
                assert_same(ours, snapshot(expected) if not isinstance(expected, Raised) else expected,
                             rtol, atol, "paddlelite vs expected", check_dtype)
            if theirs is not None:
                assert_same(ours, theirs, rtol, atol, "paddlelite vs Paddle", check_dtype)
            elif expected is _MISSING:
                pytest.skip("real Paddle is not installed and no expectation is recorded")

        # not functools.wraps: its __wrapped__ would make pytest read the body's `paddle` parameter as a fixture
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(test, attr, getattr(body, attr))
        return test

    return decorate


__all__ = ["assert_same", "differential", "error_class", "raises", "reference_paddle", "run_both", "run_static", "snapshot"]
