"""paddle.geometric against real Paddle 3.3.1: message passing and segment pooling (values, dtypes, gradients,
errors, static programs), neighbour sampling (what a random draw must satisfy; Paddle's exact result where nothing
is drawn) and reindexing."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static

X = [[0.0, 2.0, 3.0], [1.0, 4.0, 5.0], [2.0, 6.0, 7.0]]
SRC, DST = [0, 1, 2, 0, 2], [1, 2, 1, 0, 1]
# a CSC graph of 10 nodes: node v's neighbours are ROW[COLPTR[v]:COLPTR[v + 1]]
ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]


def _graph(paddle, dtype="float32", index="int32"):
    x = paddle.to_tensor(X, dtype=dtype, stop_gradient=dtype not in ("float32", "float64"))
    return x, paddle.to_tensor(SRC, dtype=index), paddle.to_tensor(DST, dtype=index)


@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
def test_send_u_recv_values_and_grads(reduce_op):
    @differential()
    def body(paddle):
        x, src, dst = _graph(paddle)
        out = paddle.geometric.send_u_recv(x * x, src, dst, reduce_op, out_size=4)
        (out * paddle.arange(12, dtype="float32").reshape([4, 3])).sum().backward()
        return {"out": out, "dx": x.grad}
    body()


@differential(expected={"out": [[0.0, 2.0, 3.0], [1.0, 4.0, 5.0], [1.0, 4.0, 5.0]],
                        "int": [[0, 2, 3], [1, 4, 5], [1, 4, 5]]})
def test_send_u_recv_mean_of_floats_and_ints(paddle):
    x, src, dst = _graph(paddle)
    xi = paddle.to_tensor(X, dtype="int64")
    return {"out": paddle.geometric.send_u_recv(x, src[:4], dst[:4], "mean"),
            "int": paddle.geometric.send_u_recv(xi, src, dst, "mean", out_size=3)}


@differential()
def test_max_gradient_goes_to_every_tie(paddle):
    x = paddle.to_tensor([[1.0, 5.0], [1.0, 2.0], [0.0, 5.0]], stop_gradient=False)
    src, dst = paddle.to_tensor([0, 1, 2]), paddle.to_tensor([0, 0, 0])
    out = paddle.geometric.send_u_recv(x, src, dst, "max", out_size=1)
    out.sum().backward()
    seg = paddle.to_tensor([[1.0, 5.0], [1.0, 2.0], [0.0, 5.0]], stop_gradient=False)
    paddle.geometric.segment_min(seg, paddle.to_tensor([0, 0, 0])).sum().backward()
    return {"send": x.grad, "segment": seg.grad}


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max"])
def test_send_ue_recv(message_op, reduce_op):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x, src, dst = _graph(paddle)
        y = paddle.to_tensor([1.0, 2.0, 0.5, -1.0, 3.0], stop_gradient=False)  # one value per edge, broadcast
        out = paddle.geometric.send_ue_recv(x, y, src, dst, message_op, reduce_op)
        (out * out).sum().backward()
        return {"out": out, "dx": x.grad, "dy": y.grad}
    body()


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
def test_send_uv(message_op):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x, src, dst = _graph(paddle)
        y = paddle.to_tensor([[1.0], [2.0], [4.0]], stop_gradient=False)
        out = paddle.geometric.send_uv(x, y, src, dst, message_op)
        (out * out).sum().backward()
        return {"out": out, "dx": x.grad, "dy": y.grad,
                "1d": paddle.geometric.send_uv(x[:, 0], x[:, 1], src, dst, message_op)}
    body()


@pytest.mark.parametrize("pool", ["sum", "mean", "max", "min"])
def test_segment_pools(pool):
    @differential()
    def body(paddle):
        data = paddle.to_tensor(np.arange(24, dtype="float32").reshape(6, 2, 2) % 7, stop_gradient=False)
        ids = paddle.to_tensor([0, 0, 1, 3, 3, 3], dtype="int64")
        out = getattr(paddle.geometric, "segment_" + pool)(data, ids)
        (out * paddle.arange(16, dtype="float32").reshape([4, 2, 2])).sum().backward()
        ints = getattr(paddle.geometric, "segment_" + pool)(paddle.to_tensor([[1, 2], [4, 4], [5, 6]]),
                                                            paddle.to_tensor([0, 0, 2], dtype="int32"))
        return {"out": out, "grad": data.grad, "int": ints}
    body()


@pytest.mark.parametrize("call, error", [
    (lambda p: p.geometric.segment_sum(p.ones([3, 2]), p.to_tensor([1, 0, 2])), ValueError),  # unsorted
    (lambda p: p.geometric.segment_sum(p.ones([3, 2]), p.to_tensor([0, 0])), ValueError),  # one id per row
    (lambda p: p.geometric.send_u_recv(p.ones([3, 2]), p.to_tensor([0]), p.to_tensor([0]), "prod"), ValueError),
    (lambda p: p.geometric.send_ue_recv(p.ones([3, 2]), p.ones([1]), p.to_tensor([0]), p.to_tensor([0]), "pow"),
     ValueError),
    (lambda p: p.geometric.send_u_recv(p.ones([3, 2]), p.to_tensor([0, 5]), p.to_tensor([0, 1])), IndexError),
    (lambda p: p.geometric.sample_neighbors(p.to_tensor([0]), p.to_tensor([0, 1]), p.to_tensor([0]),
                                            return_eids=True), ValueError),
])
def test_bad_arguments(call, error):
    differential(expected=raises(error))(lambda paddle: call(paddle))()


@differential()
def test_static_program_with_gradients(paddle):
    def build():
        x = paddle.static.data("x", [3, 3], "float32")
        x.stop_gradient = False
        src, dst = paddle.static.data("src", [5], "int64"), paddle.static.data("dst", [5], "int64")
        ids = paddle.static.data("ids", [3], "int32")
        size = paddle.static.data("size", [1], "int64")  # Paddle's eager send_u_recv fails on a Tensor out_size
        out = paddle.geometric.send_u_recv(x, src, dst, "mean") + paddle.geometric.segment_max(x, ids)
        loss = paddle.mean(out * out)
        wide = paddle.geometric.send_u_recv(x, src, dst, "sum", out_size=size)
        return [out, paddle.static.gradients([loss], [x])[0], wide]
    return run_static(paddle, build, {"x": np.array(X, "float32"), "src": np.array(SRC), "dst": np.array(DST),
                                      "ids": np.array([0, 1, 2], "int32"), "size": np.array([4])})


@pytest.mark.parametrize("static", [False, True], ids=["eager", "static"])
def test_bad_dtypes_are_type_errors(static):
    def body(paddle):
        if static:
            paddle.enable_static()
        try:
            x = paddle.static.data("x", [3, 2], "float32") if static else paddle.ones([3, 2])
            idx = paddle.static.data("i", [2], "float32") if static else paddle.ones([2])
            paddle.geometric.send_u_recv(x, idx, idx)
        finally:
            paddle.disable_static()
    if static:
        differential(expected=raises(TypeError))(body)()
    else:  # Paddle's eager kernel fails oddly here (ValueError: negative dimensions); ours names the argument
        with pytest.raises(TypeError, match="send_u_recv: src_index"):
            body(__import__("paddlelite"))


def _sampling_graph(paddle):
    return (paddle.to_tensor(ROW, dtype="int64"), paddle.to_tensor(COLPTR, dtype="int64"),
            paddle.to_tensor([0, 8, 1, 2, 7], dtype="int64"), paddle.arange(100, 113, dtype="int64"))


@differential(expected={"all": ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1, 0]),
                        "eids": [100, 101, 111, 112, 102, 103, 104],
                        "weighted": ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1, 0])})
def test_sampling_takes_every_neighbour_when_there_are_few(paddle):
    row, colptr, nodes, eids = _sampling_graph(paddle)
    weight = paddle.linspace(0.1, 1.0, 13)
    neighbors, count, out_eids = paddle.geometric.sample_neighbors(row, colptr, nodes, 2, eids, True)
    return {"all": paddle.geometric.sample_neighbors(row, colptr, nodes, sample_size=2), "eids": out_eids,
            "weighted": paddle.geometric.weighted_sample_neighbors(row, colptr, weight, nodes, 3)}


@pytest.mark.parametrize("weighted", [False, True], ids=["uniform", "weighted"])
def test_sampled_neighbours_are_distinct_edges_of_each_node(weighted):
    import paddlelite as paddle
    rng = np.random.default_rng(0)
    degree = rng.integers(0, 9, size=20)
    colptr = np.concatenate([[0], np.cumsum(degree)])
    row = rng.integers(0, 20, size=colptr[-1])
    nodes = np.array([3, 0, 7, 19, 7])
    args = (paddle.to_tensor(row), paddle.to_tensor(colptr))
    if weighted:
        args += (paddle.to_tensor(rng.uniform(0.1, 1, colptr[-1]).astype("float32")),)
    sample = paddle.geometric.weighted_sample_neighbors if weighted else paddle.geometric.sample_neighbors
    out, count, eids = sample(*args, paddle.to_tensor(nodes), sample_size=4,
                              eids=paddle.arange(colptr[-1]), return_eids=True)
    assert count.dtype == paddle.int32 and out.dtype == paddle.int64
    assert count.numpy().tolist() == np.minimum(degree[nodes], 4).tolist()
    at = 0
    for node, k in zip(nodes, count.numpy()):
        chosen = eids.numpy()[at:at + k]
        assert len(set(chosen)) == k and all(colptr[node] <= e < colptr[node + 1] for e in chosen)
        assert (np.diff(chosen) > 0).all()  # kept in the graph's order
        assert out.numpy()[at:at + k].tolist() == row[chosen].tolist()
        at += k


def test_weighted_sampling_follows_the_weights():
    import paddlelite as paddle
    paddle.seed(5)
    row, colptr = paddle.to_tensor([0, 1, 2, 3]), paddle.to_tensor([0, 4])
    weight = paddle.to_tensor([8.0, 1.0, 1.0, 0.0])
    picks = np.array([paddle.geometric.weighted_sample_neighbors(row, colptr, weight, paddle.to_tensor([0]), 1)[0]
                      .item() for _ in range(400)])
    assert (picks != 3).all()  # a zero weight is never drawn
    assert 0.72 < (picks == 0).mean() < 0.88  # 8 / 10, binomial sd 0.02
    two = paddle.geometric.weighted_sample_neighbors(row, colptr, weight, paddle.to_tensor([0]), 3)[0]
    assert sorted(two.numpy().tolist()) == [0, 1, 2]


@differential()
def test_reindex_graph_and_heter_graph(paddle):
    x = paddle.to_tensor([0, 1, 2], dtype="int64")
    neighbors = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype="int64")
    count = paddle.to_tensor([2, 3, 2], dtype="int32")
    other = paddle.to_tensor([0, 2, 3, 5, 1], dtype="int64")
    return {"one": paddle.geometric.reindex_graph(x, neighbors, count),
            "heter": paddle.geometric.reindex_heter_graph(x, [neighbors, other],
                                                          [count, paddle.to_tensor([1, 3, 1], dtype="int32")]),
            "int32": paddle.geometric.reindex_graph(x.astype("int32"), neighbors.astype("int32"), count)}
