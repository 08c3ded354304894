"""Behaviours Paddle's own tests and tutorials rely on (issue 28, "Behaviour" and "What Paddle's broader unit tests
trip on"), run against real Paddle 3.3.1: the argument forms Paddle's APIs take (mean's dtype, the creation APIs'
device / requires_grad / out, new_ones(2, 3), gelu's 'tanh', repeat_interleave's Tensor counts, tensordot's axes,
instance_norm of [N, C], nll_loss of [N, 1] labels, float class ids, matmul of float32 by an int tensor), the
exception class of a kernel's dtype mismatch, append_backward inside a sub-block, and while_loop over nested loop
vars and vars that change shape."""
import numpy as np
import pytest

from tests.differential import differential, raises, run_static


# ---- argument forms --------------------------------------------------------------------------------------------
@differential(expected={"int": 2.0, "f64": 1.5, "axis": [1.0, 1.0]})
def test_mean_dtype(paddle):
    return {"int": paddle.mean(paddle.to_tensor([1, 2, 3]), dtype="float32"),
            "f64": paddle.mean(paddle.to_tensor([1.0, 2.0]), dtype="float64"),
            "axis": paddle.mean(paddle.ones([2, 3]), axis=1, dtype="float64")}


@differential(expected={"linspace": [0.0, 0.5, 1.0], "grad": [False, False, True], "out": [0.0, 0.0],
                        "same": True, "eye": [[1.0, 0.0], [0.0, 1.0]]})
def test_creation_device_requires_grad_out(paddle):
    lin = paddle.linspace(0, 1, 3, device="cpu")
    target = paddle.ones([2])
    zeros = paddle.zeros([2], out=target)
    return {"linspace": lin, "grad": [paddle.zeros([2], requires_grad=True).stop_gradient,
                                      paddle.linspace(0, 1, 3, requires_grad=True).stop_gradient,
                                      paddle.ones([1]).stop_gradient],
            "out": target, "same": zeros is target, "eye": paddle.eye(2, device=paddle.CPUPlace())}


@differential(expected=raises(RuntimeError))
def test_creation_pin_memory_on_the_cpu(paddle):
    paddle.zeros([2], pin_memory=True)


@differential(expected={"pos": [[1.0] * 3] * 2, "list": [2, 3], "empty": [2, 3], "zeros": [[0.0] * 3] * 2,
                        "dtype": "int32"})
def test_new_ones_positional_sizes(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return {"pos": x.new_ones(2, 3), "list": list(x.new_ones([2, 3]).shape), "empty": list(x.new_empty(2, 3).shape),
            "zeros": x.new_zeros(2, 3), "dtype": x.new_ones((2, 3), dtype="int32").dtype}


@differential(expected={"dup": ["0", "1"], "nodup": ["0"], "params": ["0.weight", "0.bias"]})
def test_named_sublayers_remove_duplicate(paddle):
    shared = paddle.nn.Linear(2, 2)
    seq = paddle.nn.Sequential(shared, shared)
    return {"dup": [n for n, _ in seq.named_sublayers(remove_duplicate=False)],
            "nodup": [n for n, _ in seq.named_sublayers()], "params": [n for n, _ in seq.named_parameters()]}


@differential(expected={"tanh": [0.841192, 1.954598], "none": [0.841345, 1.954500], "layer": [0.841192, 1.954598]},
              atol=1e-5)
def test_gelu_approximate_strings(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return {"tanh": paddle.nn.functional.gelu(x, approximate="tanh"),
            "none": paddle.nn.functional.gelu(x, approximate="none"),
            "layer": paddle.nn.GELU(approximate="tanh")(x)}


@differential(expected=raises(ValueError))
def test_gelu_approximate_unknown(paddle):
    paddle.nn.functional.gelu(paddle.to_tensor([1.0]), approximate="x")


@differential(expected={"flat": [1.0, 2.0, 2.0], "axis": [[1.0, 2.0, 2.0], [3.0, 4.0, 4.0]],
                        "grad": [[0.0, 3.0], [3.0, 9.0]], "rows": [3, 2]})
def test_repeat_interleave_tensor_counts(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    out = paddle.repeat_interleave(x, paddle.to_tensor([1, 2]), axis=1)
    (out * paddle.arange(6, dtype="float32").reshape([2, 3])).sum().backward()
    return {"flat": paddle.repeat_interleave(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1, 2])), "axis": out,
            "grad": x.grad, "rows": list(paddle.repeat_interleave(paddle.ones([2, 2]), paddle.to_tensor([2, 1]),
                                                                  axis=0).shape)}


@differential(expected=raises(ValueError))
def test_repeat_interleave_tensor_of_the_wrong_length(paddle):
    paddle.repeat_interleave(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([2]))


def test_repeat_interleave_tensor_counts_static():
    def body(paddle):
        def build():
            x = paddle.static.data("x", [2, 2], "float32")
            x.stop_gradient = False
            counts = paddle.static.data("r", [2], "int64")
            out = paddle.repeat_interleave(x, counts, axis=0)
            return [out, paddle.static.gradients([paddle.sum(out)], [x])[0]]
        return run_static(paddle, build, {"x": np.ones((2, 2), np.float32), "r": np.array([1, 2])})
    import paddlelite
    out, grad = body(paddlelite)
    np.testing.assert_array_equal(out, np.ones((3, 2)))
    np.testing.assert_array_equal(grad, [[1.0, 1.0], [2.0, 2.0]])


@differential(expected={"int": [2, 3, 3, 2], "pair": [2, 3, 3, 2], "pairs": [2, 2], "longer_y": [2, 2],
                        "tensor": [2, 4, 4, 2], "tensor_pair": [2, 3, 3, 2], "zero": [2, 3, 4, 4, 3, 2],
                        "broadcast": [[3.0]]})
def test_tensordot_axes_forms(paddle):
    a, b = paddle.ones([2, 3, 4]), paddle.ones([4, 3, 2])
    shape = lambda axes: list(paddle.tensordot(a, b, axes=axes).shape)  # noqa: E731
    return {"int": shape(1), "pair": shape([[2], [0]]), "pairs": shape([[1, 2], [1, 0]]),
            "longer_y": shape([[2], [0, 1]]), "tensor": shape(paddle.to_tensor([1])),
            "tensor_pair": shape(paddle.to_tensor([[2], [0]])), "zero": shape(0),
            # a contracted dim of size 1 against 3: the other side is summed first
            "broadcast": paddle.tensordot(paddle.ones([1, 1]), paddle.ones([3, 2]), axes=[[1], [0]])[:, :1]}


@differential(rtol=1e-5, atol=1e-6)
def test_matmul_and_kron_promote_a_real_operand_to_complex(paddle):
    z = paddle.to_tensor(np.array([[1 + 2j, 2], [3, 4 - 1j]], "complex64"), stop_gradient=False)
    r = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    out = paddle.matmul(z, r) + paddle.matmul(r, z)
    out.real().sum().backward()
    return {"matmul": out, "kron": paddle.kron(r, z), "dtype": str(paddle.kron(z, r).dtype), "r_grad": r.grad,
            "z_grad": z.grad}


@pytest.mark.parametrize("axes,error", [(-1, AssertionError), (100, IndexError), (0.5, TypeError)])
def test_tensordot_bad_int_axes(axes, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 2]), axes=axes)
    body()


@differential(expected=raises(AssertionError))
def test_tensordot_sizes_that_disagree(paddle):
    paddle.tensordot(paddle.ones([2, 3, 4]), paddle.ones([4, 3, 2]), axes=[[1, 2], [1]])


@differential(expected={"f": [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], "layer": [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]})
def test_instance_norm_of_two_dims(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
    return {"f": paddle.nn.functional.instance_norm(x), "layer": paddle.nn.InstanceNorm1D(3)(x)}


@differential(expected={"n1": 1.979525, "float_ids": 1.979525, "flat_float_ids": 1.979525,
                        "truncated": 1.979525, "none": [[2.407606], [1.551445]]}, atol=1e-5)
def test_loss_label_forms(paddle):
    F = paddle.nn.functional
    logits = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, 0.0, 0.0]])
    logp = paddle.log(F.softmax(logits, -1))
    return {"n1": F.nll_loss(logp, paddle.to_tensor([[0], [2]])),
            "float_ids": F.cross_entropy(logits, paddle.to_tensor([[0.0], [2.0]])),
            "flat_float_ids": F.cross_entropy(logits, paddle.to_tensor([0.0, 2.0])),
            "truncated": F.cross_entropy(logits, paddle.to_tensor([[0.5], [2.0]])),
            "none": F.cross_entropy(logits, paddle.to_tensor([[0.0], [2.0]]), reduction="none")}


@differential(expected=raises(ValueError))
def test_nll_loss_of_one_dim(paddle):
    paddle.nn.functional.nll_loss(paddle.to_tensor([-1.0, -2.0]), paddle.to_tensor(1))


@differential(expected={"matmul": [[7.0, 10.0], [15.0, 22.0]], "int32": [[7.0, 10.0], [15.0, 22.0]],
                        "operator": [[7.0, 10.0], [15.0, 22.0]]})
def test_matmul_of_float32_by_ints(paddle):
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    b = paddle.to_tensor([[1, 2], [3, 4]])
    return {"matmul": paddle.matmul(a, b), "int32": paddle.matmul(a, b.astype("int32")), "operator": a @ b}


@differential(expected=raises(ValueError))
def test_matmul_of_two_float_dtypes(paddle):
    paddle.matmul(paddle.ones([2, 2]), paddle.ones([2, 2], dtype="float64"))


@differential(expected=raises(ValueError))
def test_hstack_of_two_dtypes(paddle):
    paddle.hstack([paddle.ones([2]), paddle.ones([2], dtype="int64")])


@differential(expected=raises(ValueError))
def test_conv_of_two_dtypes(paddle):
    paddle.nn.functional.conv2d(paddle.ones([1, 1, 3, 3]), paddle.ones([1, 1, 2, 2], dtype="float64"))


# ---- static control flow ---------------------------------------------------------------------------------------
def _blocks(paddle, rollback_first):
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        paddle.static.create_parameter([2], "float32", name="w",
                                       default_initializer=paddle.nn.initializer.Constant(2.0))
        main._create_block()
        loss = paddle.mean(x * main.global_block().var("w"))
        if rollback_first:
            main._rollback()
        pairs = paddle.static.append_backward(loss)
        if not rollback_first:
            main._rollback()
    return {"pairs": [[p.name, g.name] for p, g in pairs],
            "blocks": [[b.idx, b.parent_idx, b.forward_block_idx, [op.type for op in b.ops]] for b in main.blocks]}


@differential(expected={"inside": {"pairs": [["w", "w@GRAD"]],
                                   "blocks": [[0, -1, -1, []], [1, 0, -1, ["elementwise_mul", "reduce_mean"]],
                                              [2, 0, 1, ["fill_constant", "reduce_mean_grad",
                                                         "elementwise_mul_grad"]]]},
                        "outside": {"pairs": [],
                                    "blocks": [[0, -1, -1, ["fill_constant"]],
                                               [1, 0, -1, ["elementwise_mul", "reduce_mean"]]]}})
def test_append_backward_of_a_sub_block_loss(paddle):
    return {"inside": _blocks(paddle, False), "outside": _blocks(paddle, True)}


@differential(expected={"values": [[3], [8.0], [5.0]], "grown": [[3], [[1.0, 1.0]] * 8]})
def test_while_loop_nested_and_growing_loop_vars(paddle):
    def nested():
        i = paddle.full([1], 0, "int64")
        d = {"a": paddle.full([1], 1.0, "float32"), "b": paddle.full([1], 2.0, "float32")}
        i2, d2 = paddle.static.nn.while_loop(lambda i, d: i < 3,
                                             lambda i, d: [i + 1, {"a": d["a"] * 2, "b": d["b"] + 1}], [i, d])
        return [i2, d2["a"], d2["b"]]

    def growing():
        i, x = paddle.full([1], 0, "int64"), paddle.ones([1, 2])
        return paddle.static.nn.while_loop(lambda i, x: i < 3, lambda i, x: [i + 1, paddle.concat([x, x], 0)],
                                           [i, x])
    return {"values": run_static(paddle, nested, {}), "grown": run_static(paddle, growing, {})}


# ---- APIs that take lists, NumPy arrays and numbers; exception classes -----------------------------------------
@differential(expected={"list": [1, 2], "number": [3.0], "int": [[3]], "ndarray": [[[1.0], [1.0], [1.0]]] * 2,
                        "several": [[1.0], [2.0, 3.0]]})
def test_atleast_takes_lists_and_numbers(paddle):
    return {"list": paddle.atleast_1d([1, 2]), "number": paddle.atleast_1d(3.0), "int": paddle.atleast_2d(3),
            "ndarray": paddle.atleast_3d(np.ones((2, 3))),
            "several": list(paddle.atleast_1d(paddle.to_tensor(1.0), [2.0, 3.0]))}


@differential(expected={"zero_d": 2.7182817, "list": [[2.7182817, 0.0], [0.0, 2.7182817]],
                        "ndarray": [[2.718281828459045, 0.0], [0.0, 2.718281828459045]]})
def test_matrix_exp_forms(paddle):
    return {"zero_d": paddle.linalg.matrix_exp(paddle.to_tensor(1.0)),
            "list": paddle.linalg.matrix_exp([[1.0, 0.0], [0.0, 1.0]]), "ndarray": paddle.linalg.matrix_exp(np.eye(2))}


@differential(expected=raises(ValueError))
def test_matrix_exp_of_a_vector(paddle):
    paddle.linalg.matrix_exp(paddle.ones([2]))


@differential(expected={"diag": [[1.0, 0.0], [0.0, 2.0]], "grad": [1.0, 4.0],
                        "mixed": [[[1.0, 0.0], [2.0, 0.0]], [[0.0, 3.0], [0.0, 4.0]]]})
def test_einsum_repeated_output_labels(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = paddle.einsum("i->ii", x)
    (out * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    return {"diag": out, "grad": x.grad, "mixed": paddle.einsum("ij->iji", paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))}


@differential(expected={"overwrite": [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]],
                        "add": [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]})
def test_scatter_with_a_zero_d_index(paddle):
    x, index = paddle.ones([3, 2]), paddle.to_tensor(1)
    return {"overwrite": paddle.scatter(x, index, paddle.zeros([2])),
            "add": paddle.scatter(x, index, paddle.zeros([2]), overwrite=False)}


@differential(expected={"false": [1.0, 2.0], "true": [1.0, 2.0], "keyword": [1.0, 2.0]})
def test_tensor_numpy_force(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    return {"false": x.numpy(False), "true": x.numpy(True), "keyword": x.numpy(force=True)}


@differential(expected={"value": 5, "pair": [[1, 5, 9], [1, 1, 1]]})
def test_median_min_of_all_elements_is_the_value_alone(paddle):
    x = paddle.arange(12).reshape([3, 4])
    value, index = paddle.median(x, axis=1, mode="min")
    return {"value": paddle.median(x, mode="min"), "pair": [value, index]}


@differential(expected={"x": [[10.0, 0.3], [0.1, 0.2]]})
def test_from_dlpack_capsule_shares_memory(paddle):
    x = paddle.to_tensor([[0.2, 0.3], [0.1, 0.2]])
    y = paddle.from_dlpack(paddle.to_dlpack(x))
    y[0, 0] = 10.0
    return {"x": x}


@differential(expected=raises(ValueError))
def test_index_fill_index_of_floats(paddle):
    paddle.index_fill(paddle.ones([3]), paddle.to_tensor([0.5]), 0, 2.0)


@differential(expected=raises(ValueError))
def test_index_fill_index_as_a_list(paddle):
    paddle.index_fill(paddle.ones([3, 2]), [0, 2], 0, 5.0)


@differential(expected=raises(AssertionError))
def test_householder_product_of_a_vector(paddle):
    paddle.linalg.householder_product(paddle.ones([3]), paddle.ones([3]))


@differential(expected=raises(AssertionError))
def test_householder_product_of_too_many_reflectors(paddle):
    paddle.linalg.householder_product(paddle.ones([3, 2]), paddle.ones([3]))


@differential(expected={"stop_gradient": [False, False]})
def test_saved_tensors_pack_hook_sees_the_saved_tensor(paddle):
    seen = []
    a, b = paddle.ones([2]), paddle.ones([2]) * 2
    a.stop_gradient = b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(lambda t: seen.append(t.stop_gradient) or t.numpy(),
                                             lambda v: paddle.to_tensor(v)):
        y = paddle.multiply(a, b)
    y.sum().backward()
    return {"stop_gradient": seen[:2]}


# ---- static tensor arrays ----------------------------------------------------------------------------------------
def _array_program(paddle):
    arr = paddle.tensor.create_array("float32")
    i = paddle.zeros([1], "int64")
    x = paddle.full([2], 3.0)
    arr = paddle.tensor.array_write(x, i, array=arr)
    arr = paddle.tensor.array_write(x * 2, i + 1, array=arr)
    return [paddle.tensor.array_length(arr), paddle.tensor.array_read(arr, i + 1)]


def _array_in_while(paddle):
    i, n = paddle.zeros([1], "int64"), paddle.full([1], 3, "int64")
    arr = paddle.tensor.create_array("float32")

    def body(i, x, arr):
        arr = paddle.tensor.array_write(x, i, array=arr)
        return [i + 1, x * 2, arr]
    _, _, arr = paddle.static.nn.while_loop(lambda i, x, arr: i < n, body, [i, paddle.full([2], 1.0), arr])
    return [paddle.tensor.array_length(arr), paddle.tensor.array_read(arr, paddle.full([1], 2, "int64")), arr]


@differential(expected={"array": [[2], [6.0, 6.0]], "while": [[3], [4.0, 4.0], [[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]]],
                        "kind": "VarType.DENSE_TENSOR_ARRAY", "names": ["array_0.out", "array_write_0.out"]})
def test_static_tensor_arrays(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        arr = paddle.tensor.create_array("float32")
        fresh = paddle.tensor.array_write(paddle.full([1], 1.0), paddle.zeros([1], "int64"))
        meta = {"kind": str(arr.type), "names": [arr.name, fresh.name]}
    return {"array": run_static(paddle, lambda: _array_program(paddle), {}),
            "while": run_static(paddle, lambda: _array_in_while(paddle), {}), **meta}


@differential(expected={"scalar": [[-1.0, -2.0, -3.0], [-1.0, 1.0, -1.0]], "inplace": [1.0, 2.0], "int": [1, 2]})
def test_copysign_takes_a_python_number(paddle):
    """copysign's y may be a number (a 0-D Tensor of x's dtype); copysign_ too."""
    x = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=False)
    out = paddle.copysign(x, -1.0)
    out.sum().backward()
    y = paddle.to_tensor([-1.0, 2.0], "float64")
    y.copysign_(3)
    return {"scalar": [out, x.grad], "inplace": y, "int": paddle.copysign(paddle.to_tensor([1, -2]), 3)}


@differential(expected={"refused": ["ValueError", "ValueError", "ValueError"], "same_shape": [True, [2, 3]]})
def test_inplace_comparison_refuses_to_broadcast_x(paddle):
    """equal_ / less_than_ / logical_and_ make x their bool result, but never of a broadcast shape (ValueError)."""
    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    y = paddle.ones([2, 3, 1])
    refused = [outcome(lambda: getattr(paddle, name)(paddle.ones([2, 1, 3]), y))
               for name in ("equal_", "less_than_", "logical_and_")]
    x = paddle.ones([2, 3])
    x.greater_equal_(paddle.zeros([3]))
    return {"refused": refused, "same_shape": [x.dtype == paddle.bool, list(x.shape)]}


@differential(expected={"dygraph_int": 1.5, "static_int": "TypeError", "label_int16": "ValueError"})
def test_nanmean_int_and_cosine_embedding_label_dtype(paddle):
    """nanmean takes integers eagerly (float32 result) but refuses them in static mode (TypeError); a
    cosine_embedding_loss label of int16 is a ValueError."""
    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    dygraph_int = paddle.nanmean(paddle.to_tensor([1, 2], "int32")).item()
    x = paddle.ones([4, 3])
    label_int16 = outcome(lambda: paddle.nn.functional.cosine_embedding_loss(
        x, x, paddle.to_tensor(np.ones(4, "int16")), margin=0.5))
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            static_int = outcome(lambda: paddle.nanmean(paddle.static.data("x", [10, 12], "int32")))
    finally:
        paddle.disable_static()
    return {"dygraph_int": dygraph_int, "static_int": static_int, "label_int16": label_int16}


@differential(expected={"weighted": [[1.5833333333333333, -1.5833333333333333], [-1.5833333333333333, 1.5833333333333333]],
                        "errors": ["ValueError"] * 3})
def test_cov_weight_values_checked(paddle):
    """cov refuses negative fweights or aweights and weights that sum to zero (ValueError, eager, as Paddle)."""
    x = paddle.to_tensor([[1.0, 2.0, 4.0], [4.0, 3.0, 1.0]], "float64")

    def outcome(**weights):
        try:
            paddle.linalg.cov(x, fweights=weights.get("f"), aweights=weights.get("a"))
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    errors = [outcome(f=paddle.to_tensor([1, -1, 1])), outcome(a=paddle.to_tensor([1.0, -1.0, 1.0], "float64")),
              outcome(f=paddle.to_tensor([0, 0, 0]))]
    weighted = paddle.linalg.cov(x, fweights=paddle.to_tensor([1, 2, 1]))
    return {"weighted": weighted, "errors": errors}


@differential(expected={"true_attr": [[2, 3], [3]], "errors": ["TypeError", "TypeError"]})
def test_param_attr_true_and_bad_initializers(paddle):
    """An attr of True is the default ParamAttr; an ndarray as attr or default_initializer is a TypeError."""
    layer = paddle.nn.Linear(2, 3, weight_attr=True, bias_attr=True)

    def outcome(**kwargs):
        try:
            paddle.create_parameter([1, 2, 3], "float32", **kwargs)
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    return {"true_attr": [list(layer.weight.shape), list(layer.bias.shape)],
            "errors": [outcome(attr=np.arange(6)), outcome(default_initializer=np.arange(6))]}


@differential(expected={"int32": [0, 0], "refused": ["TypeError", "TypeError"]})
def test_frac_dtypes(paddle):
    """frac takes int32/int64/float16/float32/float64 (an integer's fraction is 0); int16 and bfloat16 are refused."""
    def outcome(dtype):
        try:
            paddle.frac(paddle.to_tensor([1, 2], dtype=dtype))
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    return {"int32": paddle.frac(paddle.to_tensor([3, -2], "int32")), "refused": [outcome("int16"), outcome("bfloat16")]}


@differential(expected=["TypeError", "TypeError"])
def test_static_data_and_input_spec_shape_must_be_a_list(paddle):
    """paddle.static.data and InputSpec take a list or tuple shape; an int is a TypeError."""
    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            data = outcome(lambda: paddle.static.data(name="d", shape=2, dtype="bool"))
    finally:
        paddle.disable_static()
    return [data, outcome(lambda: paddle.static.InputSpec(3))]


@differential(expected=raises(ValueError))
def test_a_second_eager_parameter_of_one_name_is_an_error(paddle):
    with paddle.utils.unique_name.guard():
        paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="twice_w"))
        paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="twice_w"))


@differential(expected={"names": ["guarded_w", "guarded_w"], "switched": 2})
def test_unique_name_guard_and_switch_start_fresh_parameter_names(paddle):
    names = []
    for _ in range(2):
        with paddle.utils.unique_name.guard():
            names.append(paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="guarded_w")).weight.name)
    previous = paddle.utils.unique_name.switch()  # (generator, parameter-name checker)
    assert paddle.base.unique_name.dygraph_parameter_name_checker is not previous[1]  # a fresh one
    paddle.utils.unique_name.switch(*previous)
    assert paddle.base.unique_name.dygraph_parameter_name_checker is previous[1]
    return {"names": names, "switched": len(previous)}


@differential(expected={"dtype": "float64", "static": "float32", "names": ["velocity", "moment1", "moment2",
                                                                          "beta1_pow_acc", "beta2_pow_acc"]})
def test_optimizer_dtype_and_accumulator_names(paddle):
    layer = paddle.nn.Linear(2, 2)
    layer.to(dtype="float64")
    adam = paddle.optimizer.Adam(parameters=layer.parameters())
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            loss = paddle.mean(paddle.static.nn.fc(paddle.static.data("x", [None, 2]), 1))
            sgd = paddle.optimizer.SGD(0.1)
            sgd.minimize(loss)
    finally:
        paddle.disable_static()
    momentum, adam_cls = paddle.optimizer.Momentum, paddle.optimizer.Adam
    return {"dtype": str(adam._dtype).replace("paddle.", ""), "static": str(sgd._dtype).replace("paddle.", ""),
            "names": [momentum._velocity_acc_str, adam_cls._moment1_acc_str, adam_cls._moment2_acc_str,
                      adam_cls._beta1_pow_acc_str, adam_cls._beta2_pow_acc_str]}


@differential(expected=raises(TypeError))
def test_hypot_of_a_number_is_a_type_error(paddle):
    paddle.hypot(paddle.to_tensor([1.0]), 3.0)
@differential(expected={"after": "again_w", "guard": ["again_w", "linear_1.b_0"], "seen": True})
def test_disable_static_and_dygraph_guard_start_fresh_names(paddle):
    # Paddle's enable_dygraph (disable_static) and base.dygraph.guard enter a unique_name guard: a parameter name
    # may be used again after them, and layer names count from 0
    def make():
        return paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="again_w"))
    make()
    paddle.enable_static()
    paddle.disable_static()
    after = make().weight.name
    with paddle.base.dygraph.guard():
        in_guard = [make().weight.name, paddle.nn.Linear(2, 2).bias.name]
    return {"after": after, "guard": in_guard,
            "seen": "again_w" in paddle.base.unique_name.dygraph_parameter_name_checker._name_set}
