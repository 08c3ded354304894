"""In-place methods: writes into the storage, versions, the leaf rule, the saved-tensor check."""
import numpy as np
import pytest

import paddlelite as paddle


def T(a, sg=True):
    return paddle.to_tensor(np.asarray(a, dtype=np.float64), stop_gradient=sg)


def test_inplace_methods_values_versions_and_identity():
    x = T([1.0, 2.0, 3.0])
    old = x._data
    assert x.add_(T([1.0, 1.0, 1.0])) is x
    assert x.inplace_version == 1
    assert x._data is old  # written into the storage, not rebound
    np.testing.assert_array_equal(paddle.to_tensor(old).numpy(), [2, 3, 4])
    x.subtract_(T([0.5, 0.5, 0.5])).multiply_(T([2.0, 2.0, 2.0])).scale_(0.5, 1.0)
    np.testing.assert_allclose(x.numpy(), [2.5, 3.5, 4.5])
    assert x.inplace_version == 4
    x.exp_()
    np.testing.assert_allclose(x.numpy(), np.exp([2.5, 3.5, 4.5]))
    x.fill_(7)
    np.testing.assert_array_equal(x.numpy(), [7, 7, 7])
    x.zero_()
    np.testing.assert_array_equal(x.numpy(), [0, 0, 0])
    x.copy_(T([4.0, 5.0, 6.0]))
    np.testing.assert_array_equal(x.numpy(), [4, 5, 6])
    assert x.inplace_version == 8


def test_inplace_cannot_change_shape_or_dtype():
    x = T([1.0, 2.0])
    with pytest.raises(ValueError, match="broadcast output \\[2, 2\\] is different from that of inplace tensor"):
        x.add_(T([[1.0, 1.0], [1.0, 1.0]]))
    assert x.inplace_version == 0


def test_inplace_on_leaf_that_needs_grad_raises():
    w = T([1.0, 2.0], sg=False)
    with pytest.raises(ValueError, match="Leaf Tensor .* can't use inplace"):
        w.add_(T([1.0, 1.0]))
    with paddle.no_grad():
        w.scale_(2.0)
    np.testing.assert_array_equal(w.numpy(), [2, 4])
    assert w.is_leaf and not w.stop_gradient


def test_set_value_replaces_parameter_values():
    w = T([1.0, 2.0], sg=False)
    w.set_value(np.array([3.0, 4.0]))
    np.testing.assert_array_equal(w.numpy(), [3, 4])
    assert w.inplace_version == 1 and w.is_leaf
    with pytest.raises(AssertionError, match="shape"):
        w.set_value(np.zeros(3))
    with pytest.raises(AssertionError, match="dtype"):
        w.set_value(np.zeros(2, dtype=np.float32))


def test_gradient_flows_through_inplace_on_non_leaf():
    x = T([1.0, 2.0, 3.0], sg=False)
    h = x * 2.0
    h.multiply_(T([1.0, 10.0, 100.0]))
    h.add_(T([5.0, 5.0, 5.0]))
    assert not h.is_leaf and h.inplace_version == 2
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 20.0, 200.0])


def test_modified_saved_tensor_raises_at_backward():
    x = T([1.0, 2.0], sg=False)
    a = T([3.0, 4.0], sg=False)
    w = a * 1.0  # a non-leaf, so in-place is allowed
    y = x * w  # multiply saves w for dx
    w.add_(T([1.0, 1.0]))
    with pytest.raises(RuntimeError, match=r"modified by an in-place operation \(version 0 when saved, 1 now\)"):
        y.sum().backward()


def test_unrelated_inplace_is_fine():
    x = T([1.0, 2.0], sg=False)
    w = T([3.0, 4.0])
    y = x * w
    other = x * 1.0
    other.add_(T([1.0, 1.0]))  # modifies a tensor y's graph never saved
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 4.0])


def test_inplace_op_reading_itself_is_detected_like_torch():
    x = T([1.0, 2.0], sg=False)
    h = x * 1.0
    h.multiply_(h)  # multiply saved h itself as its second operand, then h changed: as torch, an error
    np.testing.assert_array_equal(h.numpy(), [1.0, 4.0])
    with pytest.raises(RuntimeError, match="in-place"):
        h.sum().backward()


def test_inplace_own_node_uses_the_snapshot():
    x = T([1.0, 2.0], sg=False)
    h = x * 3.0
    h.multiply_(x)  # the snapshot of h (old values, version 0) is what multiply saved as X
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_detached_alias_shares_version():
    x = T([1.0, 2.0], sg=False)
    h = x * 1.0
    d = h.detach()
    y = x * d  # saves the alias d
    h.add_(T([1.0, 1.0]))
    assert d.inplace_version == 1 and h.inplace_version == 1  # one version counter for the alias group
    with pytest.raises(RuntimeError, match="version 0 when saved, 1 now"):
        y.sum().backward()


def test_inplace_on_input_used_only_for_its_shape_keeps_backward_valid():
    """add's gradient reads X only for its shape (reduce_as), so modifying X afterwards is fine."""
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x = w * 1.0            # a non-leaf, so in-place is allowed
    y = (x + paddle.to_tensor([3.0, 4.0])).sum()
    x.add_(paddle.to_tensor([10.0, 10.0]))
    y.backward()
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 1.0])


def test_inplace_on_input_whose_values_the_gradient_needs_still_raises():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x = w * 1.0
    y = (x * x).sum()      # multiply's gradient reads x's values
    x.add_(paddle.to_tensor([10.0, 10.0]))
    with pytest.raises(RuntimeError, match="in-place"):
        y.backward()


@pytest.mark.parametrize("case", ["constant", "tracked", "no_grad"])
def test_assign_into_parameter_keeps_it_trainable(case):
    """assign(x, output=param): an untracked source (a constant, or any x under no_grad) leaves the
    parameter a trainable leaf, as Paddle does; a tracked source makes it a non-leaf that x's graph reaches."""
    from tests.differential import differential

    @differential()
    def body(paddle):
        w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
        x = paddle.to_tensor([3.0, 3.0], stop_gradient=case == "constant")
        if case == "no_grad":
            with paddle.no_grad():
                paddle.assign(x * 2, w)
        else:
            paddle.assign(x * 2, w)
        (w * w).sum().backward()
        return {"stop_gradient": w.stop_gradient, "leaf": w.is_leaf, "w_grad": w.grad,
                "x_grad": x.grad if case == "tracked" else None}
    body()
