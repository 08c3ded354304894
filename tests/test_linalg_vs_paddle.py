"""paddle.linalg against real Paddle 3.3.1: values, dtypes, shapes, gradients and errors (tests/differential.py)."""
import numpy as np
import pytest

from tests.differential import assert_same, differential, raises, run_both


def _rand(*shape, seed=0, dtype="float64"):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)


def _square(*shape, seed=0, dtype="float64"):
    return (_rand(*shape, seed=seed) + 3 * np.eye(shape[-1])).astype(dtype)


def _spd(*shape, seed=0, dtype="float64"):
    a = _rand(*shape, seed=seed)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _grad_of(paddle, fn, *arrays, weights_seed=9):
    """fn(*tensors) and the gradients of sum(w * fn) (a fixed random w per output) w.r.t. each input."""
    xs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    outs = fn(*xs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    loss = None
    for k, o in enumerate(outs):
        w = paddle.to_tensor(_rand(*o.shape, seed=weights_seed + k, dtype=o.numpy().dtype))
        term = (o * w).sum()
        loss = term if loss is None else loss + term
    loss.backward()
    return {"out": outs, "grads": [x.grad for x in xs]}


def _sign_free(paddle, v):
    """Eigen/singular vectors are defined up to sign: compare v * sign(first nonzero row entry)."""
    return v * paddle.sign(v[..., :1, :])


CASES = {
    # values and gradients, float64, batched
    "inv": lambda p: _grad_of(p, p.linalg.inv, _square(2, 3, 3)),
    "inv-float32": lambda p: {"out": p.linalg.inv(p.to_tensor(_square(3, 3, dtype="float32")))},
    "det": lambda p: _grad_of(p, p.linalg.det, _square(2, 3, 3)),
    "det-float32": lambda p: {"out": p.linalg.det(p.to_tensor(_square(4, 4, dtype="float32")))},
    "slogdet": lambda p: _grad_of(p, p.linalg.slogdet, _square(2, 3, 3) * np.array([1, -1, 1])),
    "solve": lambda p: _grad_of(p, p.linalg.solve, _square(2, 3, 3), _rand(2, 3, 2, seed=1)),
    "solve-vector": lambda p: _grad_of(p, p.linalg.solve, _square(3, 3), _rand(3, seed=1)),
    "solve-batched-vector": lambda p: _grad_of(p, p.linalg.solve, _square(2, 3, 3), _rand(2, 3, seed=1)),
    "solve-broadcast": lambda p: _grad_of(p, p.linalg.solve, _square(2, 3, 3), _rand(1, 3, 2, seed=1)),
    "solve-right": lambda p: _grad_of(p, lambda a, b: p.linalg.solve(a, b, left=False), _square(3, 3),
                                      _rand(2, 3, seed=1)),
    "triangular_solve": lambda p: _grad_of(p, p.linalg.triangular_solve, _square(2, 3, 3), _rand(2, 3, 2, seed=1)),
    "triangular_solve-lower-transpose": lambda p: _grad_of(
        p, lambda a, b: p.linalg.triangular_solve(a, b, upper=False, transpose=True), _square(3, 3), _rand(3, 4, seed=1)),
    "triangular_solve-upper-unit": lambda p: _grad_of(
        p, lambda a, b: p.linalg.triangular_solve(a, b, transpose=True, unitriangular=True), _square(3, 3),
        _rand(3, 4, seed=1)),
    # (Paddle 3.3.1's gradient for lower unitriangular systems leaks onto the diagonal and upper triangle,
    # which the output does not depend on: values only; op_cases check the gradient numerically)
    "triangular_solve-lower-unit": lambda p: p.linalg.triangular_solve(
        p.to_tensor(_square(3, 3)), p.to_tensor(_rand(3, 4, seed=1)), upper=False, unitriangular=True),
    "cholesky": lambda p: _grad_of(p, p.linalg.cholesky, _spd(2, 3, 3)),
    "cholesky-upper": lambda p: _grad_of(p, lambda a: p.linalg.cholesky(a, upper=True), _spd(3, 3)),
    "cholesky_solve": lambda p: _grad_of(p, p.linalg.cholesky_solve, _rand(3, 2, seed=1),
                                         np.linalg.cholesky(_spd(3, 3))),
    "cholesky_solve-upper": lambda p: _grad_of(p, lambda b, u: p.linalg.cholesky_solve(b, u, upper=True),
                                               _rand(2, 3, 2, seed=1), np.linalg.cholesky(_spd(2, 3, 3)).swapaxes(-1, -2)),
    "cholesky_inverse": lambda p: _grad_of(p, p.linalg.cholesky_inverse, np.linalg.cholesky(_spd(3, 3))),
    "qr": lambda p: _grad_of(p, p.linalg.qr, _rand(2, 4, 3)),
    "qr-wide": lambda p: _grad_of(p, p.linalg.qr, _rand(2, 4) + np.eye(2, 4)),
    "qr-complete": lambda p: {"out": p.linalg.qr(p.to_tensor(_rand(4, 3)), mode="complete")},
    "qr-r": lambda p: p.linalg.qr(p.to_tensor(_rand(4, 3)), mode="r"),
    "qr-r-no-gradient": lambda p: _grad_of(p, lambda a: p.linalg.qr(a, mode="r"), _rand(4, 3)),
    "svd-values": lambda p: _grad_of(p, lambda a: p.linalg.svd(a)[1], _rand(2, 4, 3)),
    "svd-vectors": lambda p: _grad_of(p, lambda a: [_sign_free(p, u) for u in p.linalg.svd(a)[::2]], _rand(4, 3)),
    "svd-full": lambda p: {"shapes": [list(t.shape) for t in p.linalg.svd(p.to_tensor(_rand(4, 3)), True)]},
    "svdvals": lambda p: _grad_of(p, p.linalg.svdvals, _rand(3, 2, 5)),
    # (Paddle 3.3.1's batched eigh gradient is wrong past the first matrix: batches compare values only;
    # tests/op_cases/linalg.py checks batched gradients against finite differences)
    "eigh": lambda p: _grad_of(p, lambda a: [p.linalg.eigh(a)[0], _sign_free(p, p.linalg.eigh(a)[1])], _spd(3, 3)),
    "eigh-batched": lambda p: [p.linalg.eigh(p.to_tensor(_spd(2, 3, 3)))[0],
                               _sign_free(p, p.linalg.eigh(p.to_tensor(_spd(2, 3, 3)))[1])],
    "eigvalsh-upper": lambda p: _grad_of(p, lambda a: p.linalg.eigvalsh(a, UPLO="U"), _spd(3, 3)),
    "matrix_power": lambda p: _grad_of(p, lambda a: p.linalg.matrix_power(a, 5), _rand(2, 3, 3)),
    "matrix_power-negative": lambda p: _grad_of(p, lambda a: p.linalg.matrix_power(a, -2), _square(3, 3)),
    "matrix_power-zero": lambda p: {"out": p.linalg.matrix_power(p.to_tensor(_rand(2, 3, 3)), 0)},
    "pinv": lambda p: _grad_of(p, p.linalg.pinv, _rand(2, 4, 3)),
    "pinv-hermitian": lambda p: {"out": p.linalg.pinv(p.to_tensor(_spd(3, 3)), hermitian=True)},
    "multi_dot": lambda p: _grad_of(p, lambda a, b, c: p.linalg.multi_dot([a, b, c]), _rand(3), _rand(3, 4, seed=1),
                                    _rand(4, 2, seed=2)),
    "matrix_transpose": lambda p: {"out": p.linalg.matrix_transpose(p.to_tensor(_rand(2, 3, 4)))},
    "cross": lambda p: _grad_of(p, p.linalg.cross, _rand(2, 3), _rand(2, 3, seed=1)),
    "cross-axis": lambda p: _grad_of(p, lambda a, b: p.cross(a, b, axis=-2), _rand(4, 3, 3), _rand(4, 3, 3, seed=1)),
    "vecdot": lambda p: {"out": p.linalg.vecdot(p.to_tensor(_rand(2, 3)), p.to_tensor(_rand(3, seed=1)), axis=-1)},
    "dist": lambda p: [p.dist(p.to_tensor(_rand(2, 3)), p.to_tensor(_rand(3, seed=1)), q) for q in (2, 1, 0, np.inf)],
    "norm-default": lambda p: _grad_of(p, p.linalg.norm, _rand(2, 3, 4)),
    "norm-vector": lambda p: [p.linalg.norm(p.to_tensor(_rand(2, 3, 4)), q, axis=-1, keepdim=k)
                              for q in (1, 2, 3.5, np.inf, -np.inf) for k in (False, True)],
    "norm-matrix": lambda p: [p.linalg.norm(p.to_tensor(_rand(2, 3, 4)), q, axis=[1, 2])
                              for q in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)],
    "norm-matrix-keepdim": lambda p: [p.linalg.norm(p.to_tensor(_rand(2, 3, 4)), q, axis=[0, -1], keepdim=True)
                                      for q in ("fro", "nuc", 1)],
    "matrix_norm": lambda p: _grad_of(p, lambda a: p.linalg.matrix_norm(a, "nuc"), _rand(2, 3, 4)),
    "vector_norm": lambda p: [p.linalg.vector_norm(p.to_tensor(_rand(2, 3, 4)), q, axis=a)
                              for q in (2, 1, 0, np.inf) for a in (None, 1, [0, 2])],
    "cond": lambda p: [p.linalg.cond(p.to_tensor(_square(2, 3, 3)), q)
                       for q in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)],
    "matrix_rank": lambda p: [p.linalg.matrix_rank(p.to_tensor(np.array([[1.0, 2, 3], [2, 4, 6], [0, 1, 1]]))),
                              p.linalg.matrix_rank(p.to_tensor(_rand(2, 3, 4)), tol=0.5),
                              p.linalg.matrix_rank(p.to_tensor(_spd(3, 3)), hermitian=True)],
    "cov": lambda p: _grad_of(p, p.linalg.cov, _rand(3, 5)),
    "cov-weights": lambda p: {"out": p.linalg.cov(p.to_tensor(_rand(5, 3)), rowvar=False, ddof=False,
                                                  fweights=p.to_tensor(np.array([1, 2, 1, 3, 1])),
                                                  aweights=p.to_tensor(_rand(5, seed=3) + 1.5))},
    "corrcoef": lambda p: _grad_of(p, p.linalg.corrcoef, _rand(3, 5)),
    "tensor-methods": lambda p: [p.to_tensor(_square(3, 3)).inverse(), p.to_tensor(_spd(3, 3)).cholesky(),
                                 p.to_tensor(_rand(2, 4, 3)).norm()],
    "diagonal": lambda p: _grad_of(p, lambda a: p.diagonal(a, offset=1, axis1=-1, axis2=0), _rand(3, 2, 4)),
    "diagonal-method": lambda p: p.to_tensor(_rand(3, 4)).diagonal(-1),
    "lu": lambda p: _grad_of(p, lambda a: p.linalg.lu(a)[0], _square(2, 3, 3)),
    "lu-tall-infos": lambda p: p.linalg.lu(p.to_tensor(_rand(2, 4, 3)), get_infos=True),
    "lu_unpack": lambda p: p.linalg.lu_unpack(*p.linalg.lu(p.to_tensor(_rand(2, 4, 3)))),
    "lu_unpack-wide": lambda p: p.linalg.lu_unpack(*p.linalg.lu(p.to_tensor(_rand(3, 5)))),
    "lu_unpack-parts": lambda p: [[list(t.shape) for t in p.linalg.lu_unpack(*p.linalg.lu(p.to_tensor(_rand(3, 3))),
                                                                              unpack_ludata=u, unpack_pivots=v)]
                                  for u, v in ((False, True), (True, False))],
    "lu_solve": lambda p: _grad_of(p, lambda b, a: p.linalg.lu_solve(b, *p.linalg.lu(a)), _rand(2, 3, 2, seed=1),
                                   _square(2, 3, 3)),
    "lu_solve-trans": lambda p: p.linalg.lu_solve(p.to_tensor(_rand(3, 2, seed=1)),
                                                  *p.linalg.lu(p.to_tensor(_square(3, 3))), trans="T"),
    "matrix_exp": lambda p: _grad_of(p, p.linalg.matrix_exp, _rand(2, 3, 3) * 2),
    "matrix_exp-float32": lambda p: p.linalg.matrix_exp(p.to_tensor(_rand(4, 4, dtype="float32"))),
    # (Paddle 3.3.1's householder_product gradient fails on an in-place version check: values only)
    "householder_product": lambda p: p.linalg.householder_product(p.to_tensor(_rand(2, 4, 3)),
                                                                   p.to_tensor(_rand(2, 2, seed=1))),
    "ormqr": lambda p: [p.linalg.ormqr(p.to_tensor(_rand(4, 3)), p.to_tensor(_rand(3, seed=1)),
                                       p.to_tensor(_rand(4 if tr else 3, 2, seed=2)), True, tr) for tr in (False, True)],
    "lstsq": lambda p: [p.linalg.lstsq(p.to_tensor(_rand(2, 4, 3)), p.to_tensor(_rand(2, 4, 2, seed=1)), driver=d)
                        for d in ("gels", "gelsy", "gelsd", "gelss")],
    "lstsq-wide": lambda p: p.linalg.lstsq(p.to_tensor(_rand(3, 5)), p.to_tensor(_rand(3, 2, seed=1)), driver="gelsd"),
    "eigvals": lambda p: np.sort_complex(p.linalg.eigvals(p.to_tensor(np.diag([3.0, -1.0, 2.0]) + np.triu(_rand(3, 3), 1))).numpy()),
    "eig": lambda p: [t.dtype for t in p.linalg.eig(p.to_tensor(_rand(3, 3, dtype="float32")))],
    "svd_lowrank": lambda p: p.linalg.svd_lowrank(p.to_tensor(_rand(6, 2) @ _rand(2, 5, seed=1)), q=3)[1][:2],
    "pca_lowrank": lambda p: p.linalg.pca_lowrank(p.to_tensor(_rand(6, 2) @ _rand(2, 5, seed=1)), q=4)[1][:2],
    # errors
    "inv-not-square": lambda p: p.linalg.inv(p.ones([2, 3])),
    "inv-1d": lambda p: p.linalg.inv(p.ones([3])),
    "norm-3-axes": lambda p: [p.linalg.norm(p.to_tensor(_rand(2, 3, 4)), axis=[0, 1, 2]),
                              p.linalg.norm(p.to_tensor(_rand(2, 3, 4)), 3, axis=[0, 2])],
    "norm-nuc-3d": lambda p: p.linalg.norm(p.ones([2, 3, 4]), "nuc"),
    "cross-no-size-3": lambda p: p.cross(p.ones([2, 2]), p.ones([2, 2])),
    "qr-bad-mode": lambda p: p.linalg.qr(p.ones([3, 3]), mode="full"),
    "diagonal-same-axes": lambda p: p.diagonal(p.ones([3, 3]), axis1=1, axis2=-1),
    "lstsq-bad-driver": lambda p: p.linalg.lstsq(p.ones([3, 3]), p.ones([3, 1]), driver="gesv"),
}
ERRORS = {"inv-not-square": ValueError, "inv-1d": ValueError, "norm-nuc-3d": ValueError, "qr-r-no-gradient": ValueError,
          "cross-no-size-3": ValueError, "diagonal-same-axes": ValueError, "lstsq-bad-driver": ValueError, "qr-bad-mode": ValueError}


@pytest.mark.parametrize("name", sorted(CASES))
def test_linalg_matches_paddle(name):
    ours, theirs = run_both(CASES[name])
    if name in ERRORS:
        assert_same(ours, raises(ERRORS[name]))
    if theirs is None:
        pytest.skip("real Paddle is not installed")
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def _static_program(paddle):
    """A static Program through the decompositions and their gradients."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3, 3], "float64")
        x.stop_gradient = False
        # (in Paddle 3.3.1's legacy static mode matmul, svdvals, solve and Tensor.sum fail: not used here)
        a = (x + paddle.transpose(x, [0, 2, 1])) * 0.1 + paddle.eye(3, dtype="float64") * 3
        terms = [paddle.linalg.det(a), paddle.linalg.inv(a), paddle.linalg.slogdet(a), paddle.linalg.cholesky(a),
                 paddle.linalg.norm(x, "nuc", axis=[1, 2]), paddle.linalg.triangular_solve(a, x),
                 paddle.linalg.matrix_power(x, 3), paddle.linalg.qr(x)[1], paddle.linalg.eigh(a)[0],
                 paddle.linalg.pinv(x), paddle.linalg.cross(x, a, axis=1)]
        loss = paddle.mean(terms[0])
        for t in terms[1:]:
            loss = loss + paddle.mean(t)
        (dx,) = paddle.static.gradients([loss], [x])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return exe.run(main, feed={"x": _rand(2, 3, 3)}, fetch_list=[loss, dx])


def test_static_program_matches_paddle():
    ours, theirs = run_both(_static_program)
    if theirs is None:
        pytest.skip("real Paddle is not installed")
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


def test_fp8_gemm_is_a_gpu_runtime_only_name():
    import paddlelite as paddle
    with pytest.raises(NotImplementedError, match="FP8"):
        paddle.linalg.fp8_fp8_half_gemm_fused(paddle.ones([2, 2]), paddle.ones([2, 2]))


@differential(rtol=1e-6, atol=1e-8)
def test_eig_gradient(paddle):
    """eig's gradient (V^-H (diag(gW) + (V^H gV - V^H V diag(Re diag V^H gV)) / conj(E)) V^H) for real and complex
    input, through a loss that does not depend on the eigenvectors' phases."""
    out = {}
    for name, a in (("real", _rand(4, 4, seed=3)),
                    ("complex", _rand(3, 3, seed=4) + 1j * _rand(3, 3, seed=5))):
        x = paddle.to_tensor(a, stop_gradient=False)
        w, v = paddle.linalg.eig(x)
        loss = (paddle.real(w) ** 2).sum() + (paddle.imag(w) * 0.3).sum() + paddle.abs(v).sum()
        loss.backward()
        out[name] = x.grad
    return out


def test_eig_gradient_is_the_numeric_one():
    """Without Paddle too: central differences of the same phase-free loss (float64)."""
    import paddlelite as paddle
    a = _rand(4, 4, seed=6)

    def loss(m, grad=False):
        x = paddle.to_tensor(m, stop_gradient=not grad)
        w, v = paddle.linalg.eig(x)
        out = (paddle.real(w) ** 2).sum() + (paddle.imag(w) * 0.3).sum() + paddle.abs(v).sum()
        if grad:
            out.backward()
            return x.grad.numpy()
        return out.item()

    eps, numeric = 1e-6, np.zeros_like(a)
    for idx in np.ndindex(*a.shape):
        up, down = a.copy(), a.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric[idx] = (loss(up) - loss(down)) / (2 * eps)
    np.testing.assert_allclose(loss(a, grad=True), numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype,shape,error", [("complex64", [2], TypeError), ("float32", [], ValueError)])
def test_static_corrcoef_checks_dtype_and_rank(dtype, shape, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.enable_static()
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            paddle.linalg.corrcoef(paddle.static.data("x", shape, dtype))

    body()


@differential(expected=["ValueError", "ValueError"])
def test_lstsq_rows_must_match(paddle):
    """lstsq of X and Y with different row counts is a ValueError, eagerly and when the static program is built."""
    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    eager = outcome(lambda: paddle.linalg.lstsq(paddle.ones([5, 10]), paddle.ones([4, 15])))
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            static = outcome(lambda: paddle.linalg.lstsq(paddle.static.data("x", [5, 10], "float32"),
                                                         paddle.static.data("y", [4, 15], "float32")))
    finally:
        paddle.disable_static()
    return [eager, static]
