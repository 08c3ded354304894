"""Storage and views: which ops alias their input (checked against real Paddle 3.3.1 side by side), in-place
writes seen through every alias, the one version counter, and autograd through views and in-place ops."""
import numpy as np
import pytest

import paddlelite
from paddlelite.framework.sparse import is_sparse
from paddlelite.ops import apply, get_op
from tests.differential import differential, raises
from tests.op_cases import load_cases

# name -> (the op applied to x = arange(24).reshape([2, 3, 4]), whether Paddle 3.3.1 returns a view)
VIEW_OPS = {
    "detach": (lambda p, x: x.detach(), True),
    "reshape": (lambda p, x: p.reshape(x, [6, 4]), True),
    "Tensor.reshape": (lambda p, x: x.reshape([6, 4]), True),
    "view": (lambda p, x: x.view([6, 4]), True),
    "view_as": (lambda p, x: x.view_as(p.zeros([6, 4])), True),
    "squeeze": (lambda p, x: p.squeeze(x.reshape([1, 2, 3, 4]), 0), True),
    "unsqueeze": (lambda p, x: x.unsqueeze(0), True),
    "flatten": (lambda p, x: x.flatten(), True),
    "flatten-middle": (lambda p, x: x.flatten(1, 2), True),
    "getitem-slices": (lambda p, x: x[1:, ::2], True),
    "getitem-int": (lambda p, x: x[1], True),
    "getitem-ints-0d": (lambda p, x: x[1, 2, 3], True),
    "getitem-ellipsis": (lambda p, x: x[..., 1], True),
    "getitem-none": (lambda p, x: x[None], True),
    "slice": (lambda p, x: p.slice(x, [0], [1], [2]), True),
    "strided_slice": (lambda p, x: p.strided_slice(x, [2], [0], [4], [2]), True),
    "transpose": (lambda p, x: x.transpose([2, 0, 1]), True),
    "T": (lambda p, x: x.T, True),
    "mT": (lambda p, x: x.mT, True),
    "unbind": (lambda p, x: p.unbind(x, 0)[0], True),
    "as_strided": (lambda p, x: p.as_strided(x, [3, 4], [4, 1], 0), True),
    "diagonal": (lambda p, x: p.diagonal(x, 1, 1, 2), True),
    "diagonal-negative-axes": (lambda p, x: x.diagonal(-1, -1, 0), True),
    "contiguous": (lambda p, x: x.contiguous(), True),
    "astype-same-dtype": (lambda p, x: x.astype("float32"), True),
    # copies in Paddle 3.3.1 (CPU), although some read like views
    "split": (lambda p, x: p.split(x, 2, axis=2)[0], False),
    "chunk": (lambda p, x: p.chunk(x, 2, axis=0)[0], False),
    "unstack": (lambda p, x: p.unstack(x, 0)[0], False),
    "expand": (lambda p, x: x[:, :1].expand([2, 3, 4]), False),
    "broadcast_to": (lambda p, x: p.broadcast_to(x[:1], [2, 3, 4]), False),
    "flip": (lambda p, x: p.flip(x, [0]), False),
    "index_select": (lambda p, x: p.index_select(x, p.to_tensor([0]), 0), False),
    "getitem-list": (lambda p, x: x[[0, 1]], False),
    "clone": (lambda p, x: x.clone(), False),
    "diag": (lambda p, x: p.diag(x[0]), False),
    "assign": (lambda p, x: p.assign(x), False),
    "reshape-of-transposed": (lambda p, x: x.transpose([1, 0, 2]).reshape([6, 4]), False),
}


def _aliasing(make):
    def body(paddle):
        x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
        y = make(paddle, x)
        y[(0,) * y.ndim] = 1000.0           # a write through y ...
        seen_in_x = float(x.max()) == 1000.0
        x.zero_()                           # ... and one through x
        seen_in_y = float(y.abs().max()) == 0.0
        return {"y_writes_reach_x": seen_in_x, "x_writes_reach_y": seen_in_y, "shape": y.shape,
                "versions_shared": x.inplace_version == y.inplace_version == 2}
    return body


@pytest.mark.parametrize("name", sorted(VIEW_OPS))
def test_view_ops_alias_their_input_as_in_paddle(name):
    make, is_view = VIEW_OPS[name]
    # reshape of a non-contiguous tensor copies, yet Paddle shares the version counter (reshape is a view op)
    shared = is_view or name == "reshape-of-transposed"
    expected = {"y_writes_reach_x": is_view, "x_writes_reach_y": is_view, "versions_shared": shared}
    body = _aliasing(make)

    @differential()
    def compare(paddle):
        return body(paddle)

    compare()
    ours = body(paddlelite)
    del ours["shape"]
    assert ours == expected


# ---- every registered op: outputs alias an input exactly when the op is declared a view --------------
CASES = [c for cs in load_cases().values() for c in cs]


def _input(v):
    """A case's input as a Tensor: an array's copy, or a tensor holding a sparse container's copy."""
    if is_sparse(v):
        t = paddlelite.to_tensor(np.zeros(0))
        t._data = v.map_arrays(np.array)
        return t
    return paddlelite.to_tensor(np.asarray(v))


def _memory(t):
    """The memory a tensor's in-place changes write: a sparse tensor's values (patterns are shared freely: nothing
    writes into them)."""
    return t._data.values if is_sparse(t._data) else t._data


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_only_view_ops_return_memory_of_their_inputs(case):
    op = get_op(case.op)
    tensors = {s: (None if v is None else [_input(e) for e in v] if isinstance(v, list) else _input(v))
               for s, v in case.inputs.items()}
    args = [tensors.get(s) for s in op.inputs]
    outs = apply(op, *args, **case.attrs)
    flat_outs = [o for out in (outs if isinstance(outs, tuple) else (outs,))
                 for o in (out if isinstance(out, list) else [out])]
    flat_ins = [t for a in args if a is not None for t in (a if isinstance(a, list) else [a])]
    attrs = op.fill_attrs(case.attrs)
    is_view = bool(op.view) and (op.view is True or op.view(**attrs))
    for o in flat_outs:
        for k, t in enumerate(flat_ins):
            aliases = np.shares_memory(_memory(o), _memory(t))
            if is_view and k == 0:
                assert aliases or o.size == 0, f"{case.id}: a view op's output does not view its input"
                assert o._vbox is t._vbox, f"{case.id}: a view does not share its input's version counter"
            else:
                assert not aliases, f"{case.id}: output aliases input {k} but the op is not a view op"


# ---- autograd through views and in-place ops (expectations recorded from Paddle 3.3.1) ---------------
def _leaf(paddle):
    return paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)


@differential(expected={"x": [[2.0, 3.0], [3.0, 4.0]]})
def test_inplace_on_a_view_of_a_leaf_writes_the_leaf(paddle):
    x = _leaf(paddle)
    x[0].add_(paddle.ones([2]))  # the view is not a leaf: Paddle allows it and the leaf's values change
    return {"x": x}


@differential(expected={"x": [[2.0, 3.0], [4.0, 5.0]], "version": 1})
def test_inplace_on_a_detached_leaf_writes_the_leaf(paddle):
    x = _leaf(paddle)
    x.detach().add_(paddle.ones([2, 2]))
    return {"x": x, "version": x.inplace_version}


@differential(expected=raises(ValueError))
def test_inplace_on_a_leaf_that_needs_grad_raises(paddle):
    x = _leaf(paddle)
    x.add_(paddle.ones([2, 2]))


@differential(expected=raises(ValueError))
def test_setitem_on_a_leaf_that_needs_grad_raises(paddle):
    x = _leaf(paddle)
    x[0, 0] = 5.0


@differential(expected={"grad": [[1.0, 1.0], [1.0, 1.0]]})
def test_gradient_of_a_view_flows_to_its_base(paddle):
    x = _leaf(paddle)
    x.reshape([4]).sum().backward()
    return {"grad": x.grad}


@differential(expected={"grad": [[3.0, 3.0], [1.0, 1.0]], "b": [[3.0, 6.0], [3.0, 4.0]]})
def test_setitem_on_a_non_leaf_is_differentiated(paddle):
    x = _leaf(paddle)
    b = x * 1.0
    b[0] = b[0] * 3
    b.sum().backward()
    return {"grad": x.grad, "b": b}


@differential(expected={"grad": [[3.0, 3.0], [3.0, 3.0]], "b": [[3.0, 6.0], [9.0, 12.0]]})
def test_inplace_on_a_view_then_backward_through_the_view(paddle):
    x = _leaf(paddle)
    b = x * 1.0
    v = b.reshape([4])
    v.scale_(3.0)
    v.sum().backward()
    return {"grad": x.grad, "b": b}


@differential(expected={"x_grad": [[2.0, 2.0], [2.0, 2.0]], "y_grad": [[1.0, 2.0], [3.0, 4.0]]})
def test_multiply_inplace_keeps_the_old_values_for_its_gradient(paddle):
    x = _leaf(paddle)
    y = paddle.to_tensor([[2.0, 2.0], [2.0, 2.0]], stop_gradient=False)
    a = x * 1.0
    a.multiply_(y)
    a.sum().backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


@differential(expected={"grad": np.exp([[1.0, 2.0], [3.0, 4.0]]).tolist()}, rtol=1e-5)
def test_exp_inplace_gradient(paddle):
    x = _leaf(paddle)
    a = x * 1.0
    a.exp_()
    a.sum().backward()
    return {"grad": x.grad}


@pytest.mark.parametrize("modify", ["reshape-view", "detach", "detach-setitem", "base-of-saved-view"])
def test_stale_saved_tensor_is_detected_through_any_alias(modify):
    @differential(expected=raises(RuntimeError))
    def body(paddle):
        x = _leaf(paddle)
        a = x * 1.0
        if modify == "base-of-saved-view":
            row = a[0]
            out = row * row          # saves the view a[0]
            a.add_(paddle.ones([2, 2]))
        else:
            out = a * a              # saves a
            if modify == "reshape-view":
                a.reshape([4]).add_(paddle.ones([4]))
            elif modify == "detach":
                a.detach().add_(paddle.ones([2, 2]))
            else:
                a.detach()[0, 0] = 3.0
        out.sum().backward()
    body()


def test_version_error_names_the_op():
    x = paddlelite.to_tensor([1.0, 2.0], stop_gradient=False)
    a = x * 1.0
    out = a * a
    a.detach().zero_()
    with pytest.raises(RuntimeError, match="multiply"):
        out.sum().backward()


# ---- inplace=True arguments and the F.*_ in-place activations ------------------------------------
@differential(expected={"values": [-0.26894143, 1.761594], "same": True, "version": 1}, rtol=1e-5)
def test_silu_inplace_writes_x(paddle):
    x = paddle.to_tensor([-1.0, 2.0])
    y = paddle.nn.functional.silu(x, inplace=True)
    return {"values": x, "same": y is x, "version": x.inplace_version}


@differential(expected={"grad": [0.07232948, 1.0907842], "same": True}, rtol=1e-5)
def test_silu_inplace_gradient(paddle):
    x = paddle.to_tensor([-1.0, 2.0], stop_gradient=False)
    m = x * 1.0
    y = paddle.nn.functional.silu(m, inplace=True)
    y.sum().backward()
    return {"grad": x.grad, "same": y is m}


@differential(expected=raises(ValueError))
def test_silu_inplace_on_a_leaf_that_needs_grad_raises(paddle):
    paddle.nn.functional.silu(paddle.to_tensor([-1.0, 2.0], stop_gradient=False), inplace=True)


@differential(expected={"same": True, "version": 1, "layer_same": True, "eval_same": True})
def test_dropout_and_silu_layers_inplace(paddle):
    x = paddle.ones([100])
    y = paddle.nn.functional.dropout(x, 0.5, inplace=True)
    z = paddle.ones([4])
    w = paddle.ones([4])
    return {"same": y is x, "version": x.inplace_version, "layer_same": paddle.nn.SiLU(inplace=True)(z) is z,
            "eval_same": paddle.nn.functional.dropout(w, 0.5, training=False, inplace=True) is w}


@differential(expected={"x": [0.0, 2.0], "same": True, "version": 1})
def test_functional_relu_inplace(paddle):
    x = paddle.to_tensor([-1.0, 2.0])
    y = paddle.nn.functional.relu_(x)
    return {"x": x, "same": y is x, "version": x.inplace_version}


# ---- layout metadata and explicit views ----------------------------------------------------------
@differential(expected={"strides": [4, 1], "t_strides": [1, 4], "t_contiguous": False, "offset": 20,
                        "slice_strides": [4, 1], "c_strides": [3, 1]})
def test_strides_offset_contiguity(paddle):
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    t = x.T
    s = x[1:, 1:]
    return {"strides": x.strides, "t_strides": t.strides, "t_contiguous": t.is_contiguous(), "offset": s.offset,
            "slice_strides": s.strides, "c_strides": t.contiguous().strides}


@differential(expected=raises(ValueError))
def test_view_of_a_non_contiguous_tensor_raises(paddle):
    paddle.arange(12, dtype="float32").reshape([3, 4]).T.view([12])


@differential(expected={"y": [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], "of_slice": [[4.0, 5.0], [5.0, 6.0]]})
def test_as_strided_views_the_storage_from_a_byte_offset(paddle):
    x = paddle.arange(6, dtype="float32")
    s = paddle.arange(12, dtype="float32").reshape([3, 4])[1:]
    return {"y": paddle.as_strided(x, [2, 3], [2, 1], 4), "of_slice": paddle.as_strided(s, [2, 2], [1, 1], 16)}


def test_as_strided_gradient_sums_over_overlaps_as_pytorch():
    # Paddle 3.3.1 gives [0, 1, 1, 1, 1, 1] here (one of the overlapping gradients is lost); PyTorch sums
    torch = pytest.importorskip("torch")
    x = paddlelite.arange(6, dtype="float64")
    x.stop_gradient = False
    paddlelite.as_strided(x, [2, 3], [2, 1], 8).sum().backward()
    tx = torch.arange(6, dtype=torch.float64, requires_grad=True)
    torch.as_strided(tx, (2, 3), (2, 1), 1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(x.grad.numpy(), [0, 1, 1, 2, 1, 1])


def test_as_strided_of_a_view_gets_gradient_for_its_own_elements_only():
    base = paddlelite.arange(12, dtype="float64").reshape([3, 4])
    base.stop_gradient = False
    rows = base[1:]                      # storage offset 32 bytes
    y = paddlelite.as_strided(rows, [2, 2], [1, 1], 16)   # storage elements 2..4: 2, 3 lie before rows
    np.testing.assert_array_equal(y.numpy(), [[2, 3], [3, 4]])
    y.sum().backward()
    np.testing.assert_array_equal(base.grad.numpy(), [[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])


@differential(expected={"dtype": "int32", "shape": [3, 4], "bits": 1065353216})
def test_view_as_another_dtype(paddle):
    x = paddle.ones([3, 4])
    y = x.view("int32")
    return {"dtype": y.dtype, "shape": y.shape, "bits": int(y[0, 0])}


@differential(expected={"alias": [0.5, 0.5, 0.5], "version_shared": True})
def test_optimizer_update_writes_into_the_parameter_storage(paddle):
    w = paddle.create_parameter([3], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    alias = w.detach()
    w.grad = paddle.ones([3])
    paddle.optimizer.SGD(0.5, parameters=[w]).step()
    return {"alias": alias, "version_shared": alias.inplace_version == w.inplace_version}


@differential(expected={"view": [0.5, 0.5], "param": [0.5, 0.5, 0.5], "second": [0.0, 0.0, 0.0]})
def test_optimizer_update_reaches_a_view_and_a_parameter_nothing_else_sees(paddle):
    # with a view of it, the update is written into the parameter's storage; with none, the parameter may take
    # the update's array instead (no copy): either way the values are the update's
    w = paddle.create_parameter([3], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    view = w[0:2]
    w.grad = paddle.ones([3])
    opt = paddle.optimizer.SGD(0.5, parameters=[w])
    opt.step()
    out = {"view": view.numpy().copy(), "param": w.numpy().copy()}
    del view
    w.grad = paddle.ones([3])
    opt.step()
    out["second"] = w
    return out


# ---- the in-place API family (paddle.<name>_ and Tensor.<name>_) ---------------------------------
@pytest.mark.parametrize("name,args", [("cos_", ()), ("sigmoid_", ()), ("square_", ()), ("round_", ()),
                                       ("cumsum_", (0,)), ("tril_", ()), ("tanh_", ()),
                                       ("scale_", (2.0,)), ("clip_", (0.1, 0.5))])
def test_value_updates_write_through_views(name, args):
    @differential(rtol=1e-6)
    def body(paddle):
        x = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]])
        alias = x.detach()
        out = getattr(x, name)(*args)
        via_namespace = getattr(paddle, name)(paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]]), *args) \
            if hasattr(paddle, name) else None
        return {"x": x, "alias": alias, "same": out is x, "version": alias.inplace_version,
                "namespace": via_namespace}
    body()


@differential(expected={"shape": [2, 3], "same": True, "version": 1, "alias_version": 1, "alias": [[0.0, 5.0]]})
def test_layout_updates_keep_the_storage(paddle):
    x = paddle.zeros([6])
    alias = x.detach()
    out = x.reshape_([2, 3])
    x[0, 1] = 5.0   # written through the reshaped x, seen by the alias of the old shape
    return {"shape": x.shape, "same": out is x, "version": out.inplace_version - 1,
            "alias_version": alias.inplace_version - 1, "alias": alias.flatten()[:2].reshape([1, 2])}


@differential(expected={"dtype": "float64", "version": 1, "grad_shape": [6]})
def test_cast_and_reshape_inplace_are_differentiated(paddle):
    c = paddle.to_tensor([1.0, 2.0])
    c.cast_("float64")
    leaf = paddle.ones([6])
    leaf.stop_gradient = False
    b = (leaf * 1.0).reshape_([3, 2])
    b.sum().backward()
    return {"dtype": c.dtype, "version": c.inplace_version, "grad_shape": leaf.grad.shape}


@differential(expected=raises(ValueError))
def test_layout_update_of_a_leaf_that_needs_grad_raises(paddle):
    x = paddle.ones([6])
    x.stop_gradient = False
    x.squeeze_()


def test_random_fills_write_in_place():
    x = paddlelite.zeros([1000])
    alias = x.detach()
    assert x.uniform_(min=2.0, max=3.0) is x
    assert 2.0 <= float(alias.min()) and float(alias.max()) < 3.0
    x.normal_(mean=5.0, std=0.1)
    assert abs(float(alias.mean()) - 5.0) < 0.05 and x.inplace_version == 2


@differential(expected={"alias": [1.0, 2.0], "version": 1})
def test_assign_into_an_output_writes_its_storage(paddle):
    out = paddle.zeros([2])
    alias = out.detach()
    paddle.assign(paddle.to_tensor([1.0, 2.0]), output=out)
    return {"alias": alias, "version": alias.inplace_version}


@differential(expected={"flat": [6], "flat_same": True, "recast": "paddle.float32"})
def test_running_in_place_ops_flatten_or_recast(paddle):  # cumsum_ with axis=None flattens x, dtype= recasts it
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float64")
    same = x.cumsum_() is x
    paddle.cumsum_(x, 0, dtype="float32")
    return {"flat": list(x.shape), "flat_same": same, "recast": str(x.dtype)}
