"""Paddle 3.3.1's creation / dtype names (as_tensor, asarray, from_numpy, the typed tensor factories, dtype
aliases), crop, unfold, increment, paddle.softmax, batch, Generator and the Tensor methods about the tensor
itself (requires_grad, stride, fill_diagonal_, set_, resize_, ...) against real Paddle (tests/differential.py)."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 4))


@differential()
def test_constructors(paddle):
    a = paddle.as_tensor([1, 2], dtype="float32", requires_grad=True)
    return [a, a.stop_gradient, paddle.as_tensor(X), paddle.asarray([1, 2]), paddle.asarray(paddle.to_tensor([1.0]),
            dtype="float64"), paddle.from_numpy(np.array([1, 2], "int32")),
            paddle.FloatTensor([1, 2]), paddle.FloatTensor(2, 3).shape, paddle.FloatTensor().shape,
            paddle.LongTensor([1.5, 2]), paddle.BoolTensor([1, 0]), paddle.ByteTensor([1, 0]), paddle.CharTensor([1]),
            paddle.ShortTensor([1]), paddle.HalfTensor([1, 0]), paddle.IntTensor([3]), paddle.DoubleTensor([1]),
            paddle.DoubleTensor(np.array([1, 2])), isinstance(paddle.to_tensor([1.0]), paddle.FloatTensor),
            isinstance(paddle.FloatTensor([1.0]), paddle.Tensor)]


@differential(expected=raises(TypeError))
def test_from_numpy_needs_an_array(paddle):
    paddle.from_numpy([1, 2])


def test_from_numpy_shares_memory():  # Paddle's documented contract
    import paddlelite as paddle
    a = np.array([1.0, 2.0])
    t = paddle.from_numpy(a)
    a[0] = 9.0
    assert t.numpy().tolist() == [9.0, 2.0]


@differential()
def test_dtype_names(paddle):
    return [paddle.cfloat == paddle.complex64, paddle.cdouble == paddle.complex128, paddle.double == paddle.float64,
            paddle.half == paddle.float16, paddle.float == paddle.float32, isinstance(paddle.float32, paddle.dtype),
            paddle.uint16 == paddle.bfloat16, paddle.uint16 == paddle.uint32, paddle.to_tensor([1.0], paddle.double)]


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64", "pstring"])
def test_unsupported_dtypes_reject_tensors(name):
    @differential(expected=raises(TypeError))
    def body(paddle):
        paddle.to_tensor([1, 2], dtype=getattr(paddle, name))
    body()


@differential()
def test_crop_unfold_increment(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    c = paddle.crop(x, [2, 2], [1, 1])
    (c * c).sum().backward()
    counter = paddle.to_tensor([1.0])
    same = paddle.increment(counter, 2.5) is counter
    return {"crop": [c, paddle.crop(x, [-1, 2], [1, 1]), paddle.crop(x), paddle.crop(x, paddle.to_tensor([2, 2]))],
            "grad": x.grad, "unfold": [paddle.unfold(paddle.arange(8.0), 0, 3, 2), x.unfold(-1, 2, 1),
                                       paddle.unfold(paddle.ones([2, 3]), 1, 3, 1)],
            "increment": [counter, same, paddle.increment(paddle.to_tensor([1]), 2.5),
                          paddle.to_tensor(1.0).increment()]}


def test_unfold_gradient():  # Paddle 3.3.1's unfold backward is wrong (it is a strided view there): vs NumPy
    import paddlelite as paddle
    x = paddle.arange(8.0)
    x.stop_gradient = False
    y = x.unfold(0, 3, 2)
    (y * y).sum().backward()
    counts = np.bincount((np.arange(3)[:, None] * 2 + np.arange(3)).ravel(), minlength=8)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.arange(8.0) * counts)


@pytest.mark.parametrize("kind", ["increment_two", "crop_out", "crop_rank", "unfold_size", "unfold_step"])
def test_window_errors(kind):
    @differential(expected=raises(ValueError))
    def body(paddle):
        x = paddle.ones([3, 4])
        {"increment_two": lambda: paddle.increment(paddle.ones([2])),
         "crop_out": lambda: paddle.crop(x, [3, 3], [1, 1]), "crop_rank": lambda: paddle.crop(x, [2], [0, 1]),
         "unfold_size": lambda: paddle.unfold(paddle.ones([8]), 0, 9, 2),
         "unfold_step": lambda: paddle.unfold(paddle.ones([5]), 0, 2, 0)}[kind]()
    body()


@differential()
def test_softmax_torch_spelling(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    a = paddle.softmax(x)
    b = paddle.softmax(x, 0, "float64")
    c = paddle.softmax(paddle.to_tensor(X.reshape(3, 2, 2)))
    (a * a).sum().backward()
    return [a, b, c, x.grad, paddle.softmax(paddle.to_tensor([1.0, 2.0]))]


@differential()
def test_batch_reader(paddle):
    reader = lambda: iter(range(5))  # noqa: E731
    return [list(paddle.batch(reader, 2)()), list(paddle.batch(reader, 2, True)())]


@differential(expected=raises(ValueError))
def test_batch_size_must_be_positive(paddle):
    paddle.batch(lambda: iter(range(5)), 0)


@differential()
def test_generator(paddle):
    g = paddle.Generator()
    g.manual_seed(3)
    state = g.get_state()
    first = [g.random() for _ in range(3)]
    g.set_state(state)
    again = [g.random() for _ in range(3)]
    return [g.initial_seed(), first == again, isinstance(g.seed(), int)]


@differential()
def test_lazy_guard_builds_layers(paddle):
    with paddle.LazyGuard():
        layer = paddle.nn.Linear(3, 2)
    return [layer.weight.shape, layer.bias.shape]


@differential()
def test_namespace_aliases(paddle):
    x = paddle.to_tensor(X.reshape(1, 3, 4).astype(np.float32))
    w = paddle.to_tensor(np.ones((2, 3, 2), np.float32))
    return [paddle.conv1d(x, w).shape, paddle.adaptive_avg_pool1d(x, 2), paddle.layer_norm(x, 4).shape,
            paddle.group_norm(x, 3).shape]


@differential()
def test_tensor_self_description(paddle):
    x = paddle.to_tensor(X.astype(np.float32))
    y = paddle.to_tensor([1.0], stop_gradient=False)
    z = x.clone()
    z.requires_grad = True
    w = x.clone().requires_grad_()
    return [x.requires_grad, y.requires_grad, z.stop_gradient, w.stop_gradient, w.requires_grad_(False).stop_gradient,
            x.stride(), x.stride(1), x.T.stride(), str(x.device), x.get_device(), x.is_cuda, x.is_dense(), x.is_dist(),
            x.is_sparse(), x.is_sparse_coo(), x.is_sparse_csr(), x.is_selected_rows(), x.is_tensor(),
            paddle.Tensor.is_tensor(3), x.layout, x.data, x.value(), x.grad_, x.num_shard, x.placements,
            x.process_mesh, (y * 2).grad_fn is not None]


@differential()
def test_apply(paddle):
    x = paddle.to_tensor(X)
    y = x.clone()
    same = y.apply_(lambda a: a + 1) is y
    return [x.apply(lambda a: a * 2), y, same]


@differential(expected=raises(RuntimeError))
def test_apply_needs_stop_gradient(paddle):
    paddle.to_tensor([1.0], stop_gradient=False).apply(lambda a: a * 2)


@differential()
def test_fill_diagonal(paddle):
    outs = []
    for shape, args in (([3, 4], (9.0,)), ([3, 4], (9.0, 1)), ([7, 3], (9.0, 0, True)), ([2, 2, 2], (9.0,)),
                        ([2, 3, 2], (9.0,)), ([4, 3], (5.0, -1)), ([3, 5], (2.0, 2)), ([5, 2], (1.0, 1, True))):
        w = paddle.zeros(shape)
        outs.append([w.fill_diagonal_(*args) is w, w])
    x = paddle.to_tensor(X, stop_gradient=False)
    t = x.fill_diagonal_tensor(paddle.to_tensor([1.0, 2, 3], "float64"), 1)
    (t * t).sum().backward()  # (Paddle gives y no gradient; paddlelite does)
    z = paddle.zeros([3, 3])
    return {"fill": outs, "tensor": [t, x.grad, paddle.zeros([2, 3, 4]).fill_diagonal_tensor(paddle.ones([4, 2]))],
            "inplace": [z.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2, 3])) is z, z]}


@differential(expected=raises(AssertionError))
def test_fill_diagonal_tensor_shape(paddle):
    paddle.zeros([3, 4]).fill_diagonal_tensor(paddle.to_tensor([1.0, 2]))


@differential()
def test_set_and_resize(paddle):
    a = paddle.to_tensor([1.0, 2, 3])
    b = paddle.to_tensor([[5.0, 6]])
    same = a.set_(b) is a
    c = paddle.to_tensor([1.0, 2, 3]).set_()
    d = paddle.to_tensor([1.0, 2, 3]).resize_([2])
    e = paddle.to_tensor([1.0, 2, 3]).resize_([2, 2], fill_zero=True)
    return [a, same, c, d, e]


def test_set_shares_storage_and_resize_keeps_leading_values():
    import paddlelite as paddle
    a, b = paddle.to_tensor([1.0, 2, 3]), paddle.to_tensor([5.0, 6])
    a.set_(b)
    b[0] = 7.0
    assert a.numpy().tolist() == [7.0, 6.0]
    view = paddle.to_tensor([1.0, 2, 3, 4]).set_(paddle.to_tensor([5.0, 6, 7, 8]), [2], [2], 4)  # offset in bytes
    assert view.numpy().tolist() == [6.0, 8.0]
    assert paddle.to_tensor([1.0, 2, 3]).resize_([2, 2]).numpy().reshape(-1)[:3].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="set_"):
        paddle.to_tensor([1.0]).set_(paddle.to_tensor([1]))


@pytest.mark.parametrize("name", ["rows", "get_selected_rows", "get_map_tensor", "set_vocab",
                                  "set_string_list"])
def test_unsupported_names_say_why(name):
    import paddlelite as paddle
    with pytest.raises(NotImplementedError, match=name):
        getattr(paddle.ones([2]), name)()


@differential()
def test_create_tensor_and_class_attributes(paddle):
    t = paddle.Tensor.create_tensor("float32", persistable=True)
    paddle.assign(paddle.to_tensor([1.0, 2.0]), output=t)
    return [t, t.persistable, paddle.tensor.create_tensor("int64").dtype, hasattr(paddle.Tensor, "stop_gradient"),
            paddle.Tensor.create_parameter is paddle.create_parameter]


def test_top_p_sampling_draws_from_the_nucleus():  # Paddle 3.3.1 has only a GPU kernel for it
    import paddlelite as paddle
    probs = np.array([[0.1, 0.5, 0.3, 0.1], [0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]], np.float32)
    x, ps = paddle.to_tensor(probs), paddle.to_tensor([[0.6], [0.0], [0.6]], "float32")
    seen = set()
    for seed in range(1, 40):
        value, ids = paddle.tensor.top_p_sampling(x, ps, seed=seed)
        assert ids.dtype == paddle.int64 and list(ids.shape) == [3, 1]
        row0, row1, row2 = ids.numpy()[:, 0]
        assert row0 in (1, 2) and row1 == 0 and row2 in (0, 1, 2)  # mass before each kept token < p
        np.testing.assert_allclose(value.numpy()[:, 0], probs[np.arange(3), ids.numpy()[:, 0]])
        seen.add(int(row0))
    assert seen == {1, 2}
    again = [x.top_p_sampling(ps, seed=7)[1].numpy().tolist() for _ in range(2)]
    assert again[0] == again[1]
    _, _, scores, top = x.top_p_sampling(ps, k=2, return_top=True, threshold=paddle.to_tensor([0.2, 0.2, 0.2]))
    assert top.numpy().tolist()[:2] == [[1, 2], [0, 1]] and list(scores.shape) == [3, 2]
    _, ids = x.top_p_sampling(paddle.to_tensor([[0.0], [0.0], [0.0]]), threshold=paddle.to_tensor([0.6, 0.6, 0.6]))
    assert ids.numpy()[:2, 0].tolist() == [1, 0]


@pytest.mark.parametrize("case", ["ints", "text", "floats", "int_variable", "float_variable", "dynamic"])
def test_check_shape(case):
    expected = raises(TypeError) if case in ("text", "floats", "float_variable") else None

    @differential(**({} if expected is None else {"expected": expected}))
    def body(paddle):
        if case == "dynamic":  # dynamic mode checks nothing, as in Paddle
            return [paddle.check_shape("anything", "op")]  # (a list: a bare None reads as "no result")
        paddle.enable_static()
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            shape = {"ints": [2, 3], "text": "a", "floats": [2.0, 3],
                     "int_variable": lambda: (2, paddle.static.data("n", [1], "int64")),
                     "float_variable": lambda: paddle.static.data("f", [2], "float32")}[case]
            return [paddle.check_shape(shape() if callable(shape) else shape, "op")]
    body()


@differential(expected=raises(RuntimeError))
def test_pinned_place_needs_cuda(paddle):
    paddle.CUDAPinnedPlace()


@pytest.mark.usefixtures("cpu_device")
@differential(expected=raises(RuntimeError))
def test_pin_memory_needs_cuda(paddle):
    paddle.ones([2]).pin_memory()


@differential()
def test_conv3d_alias(paddle):
    x = paddle.to_tensor(np.arange(2 * 27, dtype=np.float32).reshape(1, 2, 3, 3, 3))
    return paddle.conv3d(x, paddle.ones([1, 2, 2, 2, 2]), stride=1)


@pytest.mark.parametrize("api", ["add", "subtract", "multiply", "divide", "maximum", "minimum"])
def test_functional_binary_apis_take_tensors_only(api):
    """paddle.add(x, 2) raises ValueError in Paddle (x + 2 is the operator's job, and works)."""
    @differential(expected=raises(ValueError))
    def body(paddle):
        getattr(paddle, api)(paddle.to_tensor([1.0, 2.0]), 2)
    body()


@differential(expected={"dtype": "paddle.bfloat16", "positional": "paddle.int32", "other": "paddle.float16",
                        "keyword_other": "paddle.float16", "keywords": "paddle.int8"})
def test_tensor_to_takes_paddles_three_forms(paddle):  # to(dtype, blocking), to(device, dtype, blocking), to(other)
    x = paddle.to_tensor([1, 2, 3])
    other = paddle.to_tensor([1.0], dtype="float16")
    return {"dtype": str(x.to("bfloat16").dtype), "positional": str(x.to("cpu", "int32", False).dtype),
            "other": str(x.to(other, False).dtype), "keyword_other": str(x.to(other=other).dtype),
            "keywords": str(x.to(device="cpu", dtype="int8", blocking=True).dtype)}


@pytest.mark.parametrize("call", [lambda x: x.to("cpu", "int32", False, "extra"), lambda x: x.to("cpu", test_key=1)])
def test_tensor_to_rejects_extra_arguments(call):
    @differential(expected=raises(TypeError))
    def body(paddle):
        call(paddle.to_tensor([1, 2, 3]))

    body()


@differential(expected=[True, False])
def test_is_tensor_of_a_static_variable(paddle):
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        return [paddle.is_tensor(paddle.static.data("x", [2], "float32")), paddle.is_tensor([1.0])]


@differential(rtol=1e-6)
def test_inplace_functions_in_paddles_namespace(paddle):  # paddle.atanh_ & co. (Paddle has them outside its __all__)
    x = paddle.to_tensor([0.5, 0.25])
    paddle.atanh_(x)
    names = ["acosh_", "asinh_", "atanh_", "logical_xor_", "not_equal_"]
    return {"x": x, "present": [hasattr(paddle, n) for n in names]}


@differential()
def test_inplace_addmm_with_keyword_operands(paddle):  # addmm_(input, x=..., y=...): input is the one written
    inp = paddle.ones([2, 2])
    paddle.addmm_(inp, x=paddle.ones([2, 3]), y=paddle.ones([3, 2]), beta=0.5, alpha=2.0)
    return inp
