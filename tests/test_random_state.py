"""The global generators (framework/random.py): counter-based streams whose state is a seed and an offset --
picklable, round-tripping through get/set_rng_state -- and whose draws a seed defines on every device: the
uniform, normal, integer and permutation draws are the same on the CPU and a GPU."""
import pickle

import numpy as np
import pytest

import paddlelite as paddle
import paddlelite.nn.functional as F
from paddlelite.ops import apply, get_op

N = 200_000


def test_state_pickles_and_replays():
    paddle.seed(11)
    paddle.rand([3])
    state = pickle.loads(pickle.dumps(paddle.get_rng_state()))
    drawn = [paddle.randn([6]).numpy(), paddle.randperm(7).numpy()]
    paddle.set_rng_state(state)
    for a, b in zip(drawn, [paddle.randn([6]).numpy(), paddle.randperm(7).numpy()]):
        np.testing.assert_array_equal(a, b)


def test_each_call_draws_afresh_and_seeds_differ():
    paddle.seed(1)
    a, b = paddle.rand([8]).numpy(), paddle.rand([8]).numpy()
    paddle.seed(2)
    assert not np.array_equal(a, b) and not np.array_equal(a, paddle.rand([8]).numpy())


def test_an_op_seed_fixes_its_draws_whatever_the_global_state():
    x = paddle.ones([64])
    paddle.seed(5)
    mask = apply(get_op("dropout"), x, dropout_prob=0.5, seed=9)[1].numpy()
    paddle.seed(6)
    paddle.rand([3])
    again = apply(get_op("dropout"), x, dropout_prob=0.5, seed=9)[1].numpy()
    np.testing.assert_array_equal(mask, again)
    assert 0 < mask.sum() < 64


def test_draws_have_their_distributions():
    paddle.seed(3)
    u = paddle.rand([N], "float64").numpy()
    assert 0.0 <= u.min() and u.max() < 1.0
    np.testing.assert_allclose([u.mean(), u.var()], [0.5, 1 / 12], atol=3e-3)
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01  # consecutive words are uncorrelated
    z = paddle.normal(1.0, 2.0, [N]).numpy()
    np.testing.assert_allclose([z.mean(), z.std()], [1.0, 2.0], atol=0.02)
    # the normal's quantiles, not only its moments: P(z < mean + k std) for k = -1, 0, 1, 2
    np.testing.assert_allclose([(z < 1.0 + 2.0 * k).mean() for k in (-1, 0, 1, 2)],
                               [0.158655, 0.5, 0.841345, 0.977250], atol=4e-3)
    k = paddle.randint(-3, 4, [N]).numpy()
    np.testing.assert_allclose(np.bincount(k + 3, minlength=7) / N, np.full(7, 1 / 7), atol=4e-3)
    np.testing.assert_array_equal(np.sort(paddle.randperm(1000).numpy()), np.arange(1000))


def test_a_foreign_state_is_refused():
    with pytest.raises(TypeError, match="GeneratorState"):
        paddle.set_rng_state([(1, 2)])


def _seeded_draws(device):
    paddle.set_device(device)
    paddle.seed(21)
    weight = paddle.empty([4, 4])
    paddle.nn.initializer.TruncatedNormal()(weight)  # in place, by truncated_gaussian_random
    return [paddle.rand([5, 3]).numpy(), paddle.randn([7], "float64").numpy(), paddle.randint(0, 9, [6]).numpy(),
            paddle.randperm(10).numpy(), F.dropout(paddle.ones([16]), 0.5).numpy(), weight.numpy()]


def test_an_initializer_fills_a_tensor_from_the_stream():
    first, again = _seeded_draws("cpu"), _seeded_draws("cpu")
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert np.abs(first[-1]).max() <= 2.0 and np.unique(first[-1]).size == 16


@pytest.mark.gpu
def test_gpu_draws_equal_cpu_draws():
    cpu, gpu = _seeded_draws("cpu"), _seeded_draws("gpu")
    for c, g in zip(cpu, gpu):
        np.testing.assert_allclose(g, c, rtol=1e-6, atol=1e-7)  # the same bits; log/cos may differ in an ulp


@pytest.mark.gpu
def test_cuda_rng_state_round_trips_and_seeds_the_samplers():
    paddle.set_device("gpu")
    state = pickle.loads(pickle.dumps(paddle.get_cuda_rng_state()))
    assert len(state) == paddle.device.cuda.device_count()

    def draw():
        return [paddle.randn([5]).numpy(), paddle.poisson(paddle.full([5], 3.0)).numpy(),
                paddle.binomial(paddle.full([5], 9, "int64"), paddle.full([5], 0.4)).numpy(),
                paddle.standard_gamma(paddle.full([5], 2.0)).numpy()]
    first = draw()
    paddle.set_cuda_rng_state(state)
    for a, b in zip(first, draw()):
        np.testing.assert_array_equal(a, b)
