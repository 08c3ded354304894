"""paddle.einsum against real Paddle 3.3.1 (tests/differential.py): values, dtypes and gradients over
matmul-like, batched, broadcast, diagonal, implicit-output and many-operand equations; equation errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(0)

CASES = [  # (equation, operand shapes)
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("i,i->", [(4,), (4,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("...ij,...jk->...ik", [(5, 1, 2, 3), (4, 3, 6)]),
    ("...ij->...ji", [(2, 3, 4)]),
    ("i...->...", [(3, 2, 2)]),
    ("ij,jk->ik", [(2, 1), (3, 4)]),  # j broadcast from 1 (Paddle's backward fails here: values only)
    ("ij,ij->ij", [(2, 1), (2, 4)]),
    ("ijk,ikl,lm->jm", [(2, 3, 4), (2, 4, 5), (5, 3)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("IJ,jK->ik", [(2, 3), (3, 4)]),
    ("ab c, cd -> bd", [(2, 3, 4), (4, 5)]),
    ("ij,jk->ik", [(0, 3), (3, 4)]),
    ("ij,jk->ik", [(2, 0), (0, 4)]),
    ("->", [()]),
    ("i,->i", [(3,), ()]),
]


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_values_and_gradients(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]

    @differential(rtol=1e-5, atol=1e-6)
    def body(paddle):
        xs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
        out = paddle.einsum(equation, *xs)
        if shapes == [(2, 1), (3, 4)]:
            return out
        (out * out).sum().backward()
        return {"out": out, "grads": [x.grad for x in xs]}
    body()


A32 = RNG.standard_normal((2, 3)).astype(np.float32)
C64 = (RNG.standard_normal((3, 2)) + 1j * RNG.standard_normal((3, 2))).astype(np.complex64)


@differential(rtol=1e-5, atol=1e-5)
def test_einsum_float32_and_complex(paddle):
    a, c = A32, C64
    return [paddle.einsum("ij,jk->ik", paddle.to_tensor(a), paddle.to_tensor(a.T)),
            paddle.einsum("ij,jk", paddle.to_tensor(c), paddle.to_tensor(c.T))]


def test_einsum_repeated_label_gradient():  # Paddle 3.3.1 fails on 'iij->j'; checked against NumPy
    import paddlelite as paddle
    a = RNG.standard_normal((3, 3, 2))
    x = paddle.to_tensor(a, stop_gradient=False)
    out = paddle.einsum("iij->j", x)
    out.sum().backward()
    np.testing.assert_allclose(out.numpy(), np.einsum("iij->j", a))
    np.testing.assert_allclose(x.grad.numpy(), np.eye(3)[:, :, None] * np.ones(2))
    np.testing.assert_allclose(paddle.einsum("ijij->ij", paddle.to_tensor(RNG.standard_normal((2, 3, 2, 3)))).shape,
                               [2, 3])


def test_einsum_static_mode():
    import paddlelite as paddle
    from tests.differential import run_static
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((4, 3))

    def build():
        x = paddle.static.data("x", [2, 3], "float64")
        y = paddle.static.data("y", [4, 3], "float64")
        return [paddle.einsum("ij,kj->ik", x, y)]
    try:
        (out,) = run_static(paddle, build, {"x": a, "y": b})
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, a @ b.T)


def test_einsum_rejects_integer_operands():
    import paddlelite as paddle
    with pytest.raises(TypeError, match="einsum"):
        paddle.einsum("ij->ji", paddle.to_tensor([[1, 2]]))


@pytest.mark.parametrize("equation,shapes,error", [
    ("ij,jk->ik->", [(2, 3), (3, 4)], AssertionError),
    ("ijk", [(2, 3)], AssertionError),
    ("i,j->k", [(2, 3)], AssertionError),
    ("i1->i", [(2, 3)], AssertionError),
    ("i.j->i", [(2, 3)], AssertionError),
    ("...ij->ij", [(4, 2, 3)], AssertionError),
    ("ij->k", [(2, 3)], ValueError),
    ("ij,jk->ik", [(2, 3), (4, 5)], ValueError),
    ("ij,ij->", [(2, 3), (3, 1)], ValueError),
])
def test_einsum_errors(equation, shapes, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.einsum(equation, *[paddle.ones(s) for s in shapes])
    body()


@differential(expected=raises(AssertionError))
def test_einsum_needs_an_operand(paddle):
    paddle.einsum("ij")


@differential(expected=raises(ValueError))
def test_einsum_mixed_dtypes(paddle):
    paddle.einsum("ij,jk->ik", paddle.ones([2, 3]), paddle.ones([3, 5], "float64"))
