"""paddle.compat (Paddle 3.3's torch-spelled APIs: namedtuple results, torch's argument names and split sizes,
compat.nn and compat.nn.functional) and the torch proxy's overrides by them, against Paddle 3.3.1."""
import numpy as np
import pytest

from tests.differential import differential, error_class

X = [[3.0, 1.0, 2.0], [0.5, 4.0, 4.0]]


@differential(expected={"max_dim": ([3.0, 4.0], [0, 1]), "names": ("values", "indices"), "min_all": 0.5,
                        "keep": [[1], [0]], "elementwise": [[3.0, 1.0, 2.0], [1.0, 4.0, 4.0]],
                        "kw": ([1.0, 0.5], [1, 0])})
def test_max_min_take_torchs_three_forms(paddle):
    x = paddle.to_tensor(X)
    values, indices = paddle.compat.max(x, 1)
    return {"max_dim": (values, indices), "names": paddle.compat.max(x, dim=1)._fields,
            "min_all": paddle.compat.min(x), "keep": paddle.compat.min(x, 1, True).indices,
            "elementwise": paddle.compat.max(x, paddle.ones_like(x)),
            "kw": tuple(paddle.compat.min(x, dim=1, keepdim=False))}


@differential(expected={"float_dim": "TypeError", "axis": "TypeError", "three": "TypeError", "int_grad": "TypeError",
                        "not_tensor": "TypeError"})
def test_max_min_reject_what_torch_and_paddle_reject(paddle):
    x = paddle.to_tensor(X)
    return {"float_dim": error_class(lambda: paddle.compat.max(x, 1.0)),
            "axis": error_class(lambda: paddle.compat.min(x, axis=1)),
            "three": error_class(lambda: paddle.compat.max(x, 1, True, 2)),
            "int_grad": error_class(lambda: paddle.compat.max(paddle.to_tensor([1, 2], stop_gradient=False), 0)),
            "not_tensor": error_class(lambda: paddle.compat.min([1.0, 2.0]))}


def test_forbidden_keyword_names_the_paddle_api():
    import paddlelite
    with pytest.raises(TypeError, match=r"(?s)paddle\.compat\.sort\(\) received unexpected keyword argument 'axis'.*"
                                        r"paddle\.sort\(\)"):
        paddlelite.compat.sort(paddlelite.ones([2]), axis=0)


@differential(expected={"sort": ([[1.0, 2.0, 3.0], [0.5, 4.0, 4.0]], [[1, 2, 0], [0, 1, 2]]),
                        "desc": [[0, 2, 1], [1, 2, 0]],
                        "median": ([2.0, 4.0], [2, 1]), "median_all": 2.0, "nanmedian": ([1.0, float("nan")], [1, 0]),
                        "slogdet": ([1.0, -1.0], [0.0, float(np.log(2.0))]), "unique": ([1, 2, 3], [2, 0, 2, 1], [1, 1, 2]),
                        "equal": (True, False, True)})
def test_sort_median_slogdet_unique_equal(paddle):
    x = paddle.to_tensor(X)
    s = paddle.compat.sort(x, dim=1)
    d = paddle.compat.sort(x, 1, descending=True, stable=True)
    nan = paddle.to_tensor([[float("nan"), 1.0], [float("nan"), float("nan")]])
    logdet = paddle.compat.slogdet(paddle.to_tensor([[[1.0, 0.0], [0.0, 1.0]], [[0.0, 2.0], [1.0, 0.0]]]))
    ints = paddle.to_tensor([3, 1, 3, 2])
    return {"sort": (s.values, s.indices), "desc": d.indices,
            "median": tuple(paddle.compat.median(x, dim=1)), "median_all": paddle.compat.median(x),
            "nanmedian": tuple(paddle.compat.nanmedian(nan, 1)), "slogdet": (logdet.sign, logdet.logabsdet),
            "unique": paddle.compat.unique(ints, return_inverse=True, return_counts=True),
            "equal": (paddle.compat.equal(x, x.clone()), paddle.compat.equal(x, x + 1),
                      paddle.compat.equal(paddle.to_tensor([1.5, 2.0]), paddle.to_tensor([1, 2])))}


@differential(expected={"out": ([3.0, 4.0], [0, 1]), "sorted": [1.0, 2.0, 3.0], "bad_out": "TypeError"})
def test_out_arguments_are_written(paddle):
    x = paddle.to_tensor(X)
    values, indices = paddle.zeros([2]), paddle.zeros([2], dtype="int64")
    paddle.compat.max(x, 1, out=(values, indices))
    target = paddle.zeros([3])
    paddle.compat.median(x[0], out=target)
    sorted_values = paddle.zeros([3])
    paddle.compat.sort(x[0], out=(sorted_values, paddle.zeros([3], dtype="int64")))
    return {"out": (values, indices), "sorted": sorted_values,
            "bad_out": error_class(lambda: paddle.compat.max(x, 1, out=values))}


@differential(expected={"size": [[2], [2], [1]], "sections": [[1], [4]], "dim": [[2, 1], [2, 1], [2, 1]],
                        "negative": "ValueError", "bad_dim": "ValueError"})
def test_split_takes_torchs_sizes(paddle):
    x = paddle.arange(5)
    m = paddle.ones([2, 3])
    return {"size": [list(p.shape) for p in paddle.compat.split(x, 2)],
            "sections": [list(p.shape) for p in paddle.compat.split(x, [1, 4])],
            "dim": [list(p.shape) for p in paddle.compat.split(m, 1, dim=1)],
            "negative": error_class(lambda: paddle.compat.split(x, [-1, 6])),
            "bad_dim": error_class(lambda: paddle.compat.split(x, 2, dim=3))}


@differential(expected={"pad_last": [2, 5], "pad_both": [4, 5], "reflect": [[[2.0, 1.0, 2.0, 3.0, 2.0]]],
                        "linear": [[6.0, 15.0]], "softmax": [0.5, 0.5], "unfold": [1, 4, 4]})
def test_functional_takes_torchs_layouts(paddle):
    F = paddle.compat.nn.functional
    x = paddle.ones([2, 3])
    w = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {"pad_last": list(F.pad(x, [1, 1]).shape), "pad_both": list(F.pad(x, [1, 1, 1, 1]).shape),
            "reflect": F.pad(paddle.to_tensor([[[1.0, 2.0, 3.0]]]), [1, 1], mode="reflect"),
            "linear": F.linear(paddle.to_tensor([[1.0, 1.0, 1.0]]), w.T.T),
            "softmax": F.softmax(paddle.zeros([2]), dim=0),
            "unfold": list(F.unfold(paddle.ones([1, 1, 3, 3]), 2).shape)}


def test_sdpa_takes_heads_before_sequence():
    paddle = pytest.importorskip("paddle")
    import paddlelite
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 3, 4, 8)).astype("float32") for _ in range(3))
    mask = rng.standard_normal((2, 3, 4, 4)).astype("float32")
    ours = paddlelite.compat.nn.functional.scaled_dot_product_attention(
        *(paddlelite.to_tensor(a) for a in (q, k, v)), attn_mask=paddlelite.to_tensor(mask)).numpy()
    theirs = paddle.compat.nn.functional.scaled_dot_product_attention(
        *(paddle.to_tensor(a) for a in (q, k, v)), attn_mask=paddle.to_tensor(mask)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def _copy_weights(source, target):
    for (name, p), (_, q) in zip(source.named_parameters(), target.named_parameters()):
        assert list(p.shape) == list(q.shape), name
        q.set_value(p.numpy())


@pytest.mark.parametrize("options", [{}, {"batch_first": True, "add_bias_kv": True, "add_zero_attn": True},
                                     {"kdim": 6, "vdim": 5}])
def test_multihead_attention_matches_paddle(options):
    paddle = pytest.importorskip("paddle")
    import paddlelite
    rng = np.random.default_rng(1)
    ours, theirs = (m.compat.nn.MultiheadAttention(8, 2, **options) for m in (paddlelite, paddle))
    _copy_weights(theirs, ours)
    kdim, vdim = options.get("kdim", 8), options.get("vdim", 8)
    q = rng.standard_normal((3, 4, 8)).astype("float32")
    k = rng.standard_normal((3, 4, kdim)).astype("float32")
    v = rng.standard_normal((3, 4, vdim)).astype("float32")
    batch, seq = (3, 4) if options.get("batch_first") else (4, 3)
    padding = np.zeros((batch, seq), bool)
    padding[:, 1] = True
    causal = np.triu(np.ones((seq, seq), bool), 1)
    for kwargs in ({}, {"need_weights": False}, {"key_padding_mask": padding}, {"is_causal": True, "attn_mask": causal},
                   {"attn_mask": causal.astype("float32"), "average_attn_weights": False}):
        def run(m, layer):
            args = {key: m.to_tensor(val) if isinstance(val, np.ndarray) else val for key, val in kwargs.items()}
            out, weights = layer(m.to_tensor(q), m.to_tensor(k), m.to_tensor(v), **args)
            return out.numpy(), None if weights is None else weights.numpy()
        (o1, w1), (o2, w2) = run(paddlelite, ours), run(paddle, theirs)
        np.testing.assert_allclose(o1, o2, rtol=1e-5, atol=1e-5)
        assert (w1 is None) == (w2 is None)
        if w1 is not None:
            np.testing.assert_allclose(w1, w2, rtol=1e-5, atol=1e-5)


@differential(expected={"pool1": [[[2.0]]], "pool2": [[[[1.0]]]], "unfold": [1, 4, 4], "softmax": [0.5, 0.5],
                        "linear": ([4, 3], [4]), "bad": "TypeError"})
def test_layers_take_torchs_arguments(paddle):
    nn = paddle.compat.nn
    x2 = paddle.ones([1, 1, 2, 2])
    bad = error_class(lambda: nn.Linear(3, 4, bias_attr=False))
    layer = nn.Linear(3, 4)
    return {"pool1": nn.AvgPool1d(2)(paddle.to_tensor([[[1.0, 3.0]]])),
            "pool2": nn.AvgPool2d(2, padding=1, count_include_pad=True)(x2)[:, :, :1, :1] * 4,
            "unfold": list(nn.Unfold(2)(paddle.ones([1, 1, 3, 3])).shape),
            "softmax": nn.Softmax(dim=0)(paddle.zeros([2])),
            "linear": (list(layer.weight.shape), list(layer.bias.shape)), "bad": bad}
