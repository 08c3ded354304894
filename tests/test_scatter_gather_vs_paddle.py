"""put_along_axis(_), scatter_reduce, index_put(_), index_sample, multiplex, shard_index and argwhere against
real Paddle 3.3.1 (tests/differential.py): values, dtypes, gradients, broadcasting, negative axes, empty and
int inputs, argument errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 4))
V = RNG.standard_normal((2, 4))
IDX = np.array([[0, 2, 2, 1], [0, 0, 1, 1]])
REDUCES = ["assign", "add", "mul", "multiply", "mean", "amin", "amax"]


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_put_along_axis_reduces_and_gradients(reduce, include_self):
    @differential()
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        v = paddle.to_tensor(V, stop_gradient=False)
        out = paddle.put_along_axis(x, paddle.to_tensor(IDX), v, 0, reduce, include_self=include_self)
        (out * paddle.to_tensor(X)).sum().backward()
        return {"out": out, "dx": x.grad, "dv": v.grad}
    body()


@differential()
def test_put_along_axis_broadcast_negative_axis_scalar(paddle):
    x = paddle.to_tensor(X.astype(np.float32))
    return [paddle.put_along_axis(x, paddle.to_tensor([[1], [3], [-1]]), 9.0, -1),
            paddle.put_along_axis(x, paddle.to_tensor([[0, 2]]), paddle.to_tensor([[1.0, 2.0]]), 1, "add"),
            paddle.put_along_axis(x, paddle.to_tensor([[0]]), paddle.to_tensor([[1.0]]), 0, "add", broadcast=False),
            paddle.put_along_axis(x, paddle.zeros([3, 0], "int64"), 5.0, 1),
            paddle.put_along_axis(paddle.to_tensor([[1, 2, 3]]), paddle.to_tensor([[0, 0]], "int32"),
                                  paddle.to_tensor([[-3, -3]]), 1, "mean"),
            x.put_along_axis(paddle.to_tensor([[1], [2], [0]]), 0.5, 1, "mul")]


@differential()
def test_put_along_axis_inplace(paddle):
    x = paddle.to_tensor(X)
    y = x.put_along_axis_(paddle.to_tensor([[1], [2], [0]]), 7.0, 1)
    x.put_along_axis_(paddle.to_tensor([[0, 0, 0, 0]]), paddle.to_tensor([[1.0, 2, 3, 4]], "float64"), 0, "add")
    return [x, y is x]


@pytest.mark.parametrize("args,error", [
    (("idx1d",), ValueError),        # rank mismatch
    (("float_idx",), TypeError),
    (("bad_reduce",), ValueError),
    (("bad_axis",), AssertionError),
    (("dtype",), ValueError),
])
def test_put_along_axis_errors(args, error):
    @differential(expected=raises(error))
    def body(paddle):
        x = paddle.ones([2, 3])
        i = paddle.to_tensor([[0], [1]])
        kind = args[0]
        if kind == "idx1d":
            paddle.put_along_axis(x, paddle.to_tensor([0]), 1.0, 1)
        elif kind == "float_idx":
            paddle.put_along_axis(x, paddle.to_tensor([[0.0]]), 1.0, 1)
        elif kind == "bad_reduce":
            paddle.put_along_axis(x, i, 1.0, 1, "max")
        elif kind == "bad_axis":
            paddle.put_along_axis(x, i, 1.0, 2)
        else:
            paddle.put_along_axis(x, i, paddle.ones([2, 1], "float64"), 1)
    body()


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amin", "amax"])
def test_scatter_reduce(reduce):
    @differential()
    def body(paddle):
        x = paddle.to_tensor(X, stop_gradient=False)
        src = paddle.to_tensor(RNG_SRC, stop_gradient=False)
        idx = paddle.to_tensor([[1, 1, 0], [2, 2, 2], [0, 1, 0]])
        a = paddle.scatter_reduce(x, 1, idx, src, reduce)
        b = x.scatter_reduce(-1, idx, src, reduce, include_self=False)
        (a.sum() + (b * b).sum()).backward()
        # a src larger than the index: only the index's part is read (Paddle's gradient for it has the
        # index's shape, not src's, so only the values are compared)
        big = paddle.scatter_reduce(x, 1, idx, paddle.to_tensor(RNG_BIG), reduce)
        return {"a": a, "b": b, "big": big, "dx": x.grad, "dsrc": src.grad}
    body()


RNG_SRC = RNG.standard_normal((3, 3))
RNG_BIG = RNG.standard_normal((3, 5))


@differential()
def test_index_put_values_and_gradients(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    v = paddle.to_tensor([5.0, 6.0], "float64", stop_gradient=False)
    rows, cols = paddle.to_tensor([0, 0]), paddle.to_tensor([1, 1])
    acc = paddle.index_put(x, (rows, cols), v, True)
    put = paddle.index_put(x, (paddle.to_tensor([0, 2]), paddle.to_tensor([3, -1])), v)
    row = x.index_put([paddle.to_tensor([2, 0])], paddle.to_tensor([1.0, 2, 3, 4], "float64"))
    mask = paddle.index_put(x, (paddle.to_tensor(X > 0),), paddle.to_tensor(-1.0, "float64"))
    bcast = paddle.index_put(x, (paddle.to_tensor([[0], [2]]), paddle.to_tensor([1, 3])), v[:1], True)
    (acc * acc + put * put + row + mask + bcast).sum().backward()
    return {"outs": [acc, put, row, mask, bcast], "dx": x.grad, "dv": v.grad}


@differential()
def test_index_put_int_and_inplace(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]])
    y = paddle.index_put_(x, (paddle.to_tensor([1]),), paddle.to_tensor([9]))
    z = x.index_put_((paddle.to_tensor([0]), paddle.to_tensor([0])), paddle.to_tensor([5]), accumulate=True)
    return [x, y is x, z is x]


@pytest.mark.parametrize("kind", ["not_list", "dtype", "float_index", "value_shape"])
def test_index_put_errors(kind):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = paddle.ones([3, 4])
        if kind == "not_list":
            paddle.index_put(x, paddle.to_tensor([0]), paddle.to_tensor(1.0))
        elif kind == "dtype":
            paddle.index_put(x, (paddle.to_tensor([0]),), paddle.to_tensor(1.0, "float64"))
        elif kind == "float_index":
            paddle.index_put(x, (paddle.to_tensor([0.0]),), paddle.to_tensor(1.0))
        else:
            paddle.index_put(x, (paddle.to_tensor([0, 2]),), paddle.to_tensor([1.0, 2, 3]))
    body()


@differential()
def test_index_sample(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    idx = paddle.to_tensor([[0, 3, 3], [1, 1, 0], [2, 0, 1]])
    out = paddle.index_sample(x, idx)
    wide = x.index_sample(paddle.to_tensor([[0, 1, 2, 3, 3, 3]] * 3, "int32"))
    (out * out).sum().backward()
    return {"out": out, "wide": wide, "dx": x.grad,
            "int": paddle.index_sample(paddle.to_tensor([[1, 2], [3, 4]], "int32"), paddle.to_tensor([[1], [0]])),
            "empty": paddle.index_sample(x, paddle.zeros([3, 0], "int64"))}


@pytest.mark.parametrize("kind", ["rows", "index_1d", "x_1d", "float_index", "out_of_range", "negative"])
def test_index_sample_errors(kind):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = paddle.ones([3, 4])
        index = {"rows": paddle.to_tensor([[0], [1]]), "index_1d": paddle.to_tensor([0, 1, 2]),
                 "float_index": paddle.to_tensor([[0.0], [1.0], [2.0]]),
                 "out_of_range": paddle.to_tensor([[0], [4], [0]]), "negative": paddle.to_tensor([[0], [-1], [0]])}.get(kind)
        if kind == "x_1d":
            paddle.index_sample(paddle.ones([3]), paddle.to_tensor([0, 1]))
        paddle.index_sample(x, index)
    body()


@differential()
def test_multiplex(paddle):
    a = paddle.to_tensor(X, stop_gradient=False)
    b = paddle.to_tensor(X * 10, stop_gradient=False)
    out = paddle.multiplex([a, b], paddle.to_tensor([[1], [0], [1]], "int32"))
    short = paddle.multiplex([a, b, a], paddle.to_tensor([[2], [1]], "int32"))
    (out * out).sum().backward()
    c = paddle.ones([2, 2, 2])
    return {"out": out, "short": short, "da": a.grad, "db": b.grad,
            "3d": paddle.multiplex([c, paddle.zeros([2, 2, 2])], paddle.to_tensor([[1], [0]], "int32"))}


@pytest.mark.parametrize("kind", ["index_1d", "out_of_range", "shapes"])
def test_multiplex_shape_errors(kind):
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        x = paddle.ones([3, 4])
        if kind == "shapes":
            paddle.multiplex([x, paddle.ones([2, 4])], paddle.to_tensor([[1], [0], [1]], "int32"))
        index = paddle.to_tensor([1, 0, 1] if kind == "index_1d" else [[2], [0], [1]], "int32")
        paddle.multiplex([x, x * 2], index)
    body()


@pytest.mark.parametrize("kind", ["one_input", "not_list"])
def test_multiplex_errors(kind):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = paddle.ones([3, 4])
        paddle.multiplex([x] if kind == "one_input" else x, paddle.to_tensor([[0], [0], [0]], "int32"))
    body()


@differential()
def test_shard_index(paddle):
    label = paddle.to_tensor([[16], [1], [7], [19]])
    return [paddle.shard_index(label, 20, 2, 0), paddle.shard_index(label, 20, 2, 1, -2),
            paddle.shard_index(label, 21, 3, 2), paddle.shard_index(label.astype("int32"), 20, 3, 0),
            paddle.shard_index(paddle.to_tensor([[[16], [1]]]), 20, 2, 0), label.shard_index(20, 4, 3)]


@pytest.mark.parametrize("args", [(10, 2, 1), (20, 2, 2), (20, 2, -1)])
def test_shard_index_errors(args):
    @differential(expected=raises(ValueError))
    def body(paddle):
        paddle.shard_index(paddle.to_tensor([[16], [1]]), *args)
    body()


@differential(expected=raises(ValueError))
def test_shard_index_needs_2d(paddle):
    paddle.shard_index(paddle.to_tensor([16, 1]), 20, 2, 0)


@differential()
def test_argwhere(paddle):
    x = paddle.to_tensor(X)
    return [paddle.argwhere(x > 0), (x > 0).argwhere(), paddle.argwhere(paddle.to_tensor([0, 1, 2])),
            paddle.argwhere(paddle.zeros([0, 3])), paddle.argwhere(paddle.zeros([2, 3]))]


@differential(expected=raises(ValueError))
def test_argwhere_0d(paddle):
    paddle.argwhere(paddle.to_tensor(3.0))
