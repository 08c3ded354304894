"""paddle.fft against real Paddle 3.3.1 (values, dtypes, shapes, errors, gradients) and against numpy.fft."""
import numpy as np
import pytest

from tests.differential import differential, raises

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
TAKES_COMPLEX = {"fft", "ifft", "irfft", "hfft", "fft2", "ifft2", "irfft2", "hfft2", "fftn", "ifftn", "irfftn",
                 "hfftn"}


def _input(paddle, name, shape, dtype, seed=0):
    r = np.random.default_rng(seed)
    x = r.uniform(-1, 1, shape)
    if name in TAKES_COMPLEX and dtype.startswith("complex"):
        x = x + 1j * r.uniform(-1, 1, shape)
    return paddle.to_tensor(x.astype(dtype))


def _dtypes(name):
    return ["float32", "float64", "complex64", "complex128"] if name in TAKES_COMPLEX else ["float32", "float64"]


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("n,axis", [(None, -1), (5, -1), (3, 0), (8, 1)])
def test_one_dim(name, norm, n, axis):
    for dtype in _dtypes(name):
        @differential(rtol=1e-4, atol=1e-5)
        def body(paddle):
            return getattr(paddle.fft, name)(_input(paddle, name, [4, 6], dtype), n=n, axis=axis, norm=norm)
        body()


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("s,axes", [(None, None), ([3, 5], None), (None, [0, 2]), ([4, 3], [2, 0]),
                                    (None, [-1, -2])])
def test_n_dim(name, s, axes):
    for dtype in _dtypes(name):
        @differential(rtol=1e-4, atol=1e-5)
        def body(paddle):
            kwargs = {"s": s} if axes is None else {"s": s, "axes": axes}
            return getattr(paddle.fft, name)(_input(paddle, name, [3, 4, 6], dtype), **kwargs)
        body()


def test_n_dim_over_three_axes():
    for name in ["fftn", "rfftn", "irfftn", "hfftn", "ihfftn", "ifftn"]:
        @differential(rtol=1e-4, atol=1e-5)
        def body(paddle):
            return getattr(paddle.fft, name)(_input(paddle, name, [2, 3, 4], "complex128"
                                                    if name in TAKES_COMPLEX else "float64"), s=[3, 2, 6])
        body()


def test_integer_input_takes_the_default_dtype():
    @differential(expected={"fft": [6.0, -1.5 + 0.8660254j, -1.5 - 0.8660254j], "rfft": [6.0, -1.5 + 0.8660254j]},
                  atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor([1, 2, 3])
        return {"fft": paddle.fft.fft(x), "rfft": paddle.fft.rfft(x)}
    body()


@pytest.mark.parametrize("call", [
    lambda p, x: p.fft.fft(x, norm="none"),
    lambda p, x: p.fft.fft(x, n=0),
    lambda p, x: p.fft.fft(x, n=2.5),
    lambda p, x: p.fft.fft(x, axis=2),
    lambda p, x: p.fft.fftn(x, s=[1, 2, 3]),
    lambda p, x: p.fft.fftn(x, axes=[0, 5]),
    lambda p, x: p.fft.fftn(x, s=[2], axes=[0, 1]),
    lambda p, x: p.fft.fft2(x, axes=[0]),
    lambda p, x: p.fft.fft2(p.ones([3])),
    lambda p, x: p.fft.fftfreq(0),
    lambda p, x: p.fft.rfftfreq(4, 0.0),
])
def test_argument_errors(call):
    @differential(expected=raises(ValueError))
    def body(paddle):
        call(paddle, paddle.ones([2, 3]))
    body()


def test_freq():
    @differential(expected={"fftfreq": [0.0, 0.4, 0.8, -0.8, -0.4], "rfftfreq": [0.0, 0.2, 0.4]})
    def body(paddle):
        return {"fftfreq": paddle.fft.fftfreq(5, 0.5), "rfftfreq": paddle.fft.rfftfreq(5)}
    body()


def test_shift_of_one_axis_matches_numpy():
    # Paddle 3.3.1's legacy IR fails inside roll (SystemError) for a 1-D input or an int `axes`
    import paddlelite
    x = np.arange(24).reshape(2, 3, 4)
    for axes in (None, 1, -1, [2]):
        np.testing.assert_array_equal(paddlelite.fft.fftshift(paddlelite.to_tensor(x), axes).numpy(),
                                      np.fft.fftshift(x, axes))
        np.testing.assert_array_equal(paddlelite.fft.ifftshift(paddlelite.to_tensor(x), axes).numpy(),
                                      np.fft.ifftshift(x, axes))
    np.testing.assert_array_equal(paddlelite.fft.fftshift(paddlelite.arange(5)).numpy(), [3, 4, 0, 1, 2])


def test_paddle_keyword_aliases_and_out():
    @differential()
    def body(paddle):
        x = paddle.to_tensor(np.arange(12.0).reshape([3, 4]))
        out = paddle.zeros([3, 3], "complex128")
        returned = paddle.fft.rfft(input=x, dim=1, n=4, out=out)
        freq = paddle.fft.rfftfreq(4, requires_grad=True)
        return {"fft": paddle.fft.fft(input=x, dim=0), "fft2": paddle.fft.fft2(input=x, dim=[1, 0]),
                "shift": paddle.fft.fftshift(input=x, dim=[0, 1]), "out": out, "same": returned is out,
                "freq": freq, "freq_sg": freq.stop_gradient}
    body()


def test_complex_input_gradients():
    @differential(rtol=1e-6, atol=1e-8)
    def body(paddle):
        r = np.random.default_rng(2)
        x = paddle.to_tensor(r.uniform(-1, 1, [3, 4]) + 1j * r.uniform(-1, 1, [3, 4]), stop_gradient=False)
        y = paddle.fft.ifft2(x, norm="ortho")
        w = paddle.to_tensor(r.uniform(-1, 1, [3, 4]))
        (paddle.real(y) * w + paddle.imag(y)).sum().backward()
        return {"grad": x.grad}
    body()


def test_freq_dtypes_and_shift_axes():
    @differential()
    def body(paddle):
        x = paddle.arange(24).reshape([2, 3, 4])
        return {"f64": paddle.fft.fftfreq(6, 0.1, dtype="float64"), "r": paddle.fft.rfftfreq(6, 2.0),
                "all": paddle.fft.fftshift(x), "some": paddle.fft.fftshift(x, axes=[1, 2]),
                "two": paddle.fft.ifftshift(x, axes=[0, 2])}
    body()


@pytest.mark.parametrize("name,shape,kwargs", [
    ("fft", [3, 5], {"n": 4, "norm": "ortho"}), ("ifft", [3, 5], {"axis": 0}), ("rfft", [3, 6], {}),
    ("rfft", [3, 5], {"n": 7, "norm": "forward"}), ("irfft", [3, 4], {}), ("irfft", [3, 4], {"n": 5}),
    ("hfft", [3, 4], {"norm": "ortho"}), ("ihfft", [3, 5], {}), ("fft2", [3, 4], {}), ("rfftn", [3, 4], {}),
    ("irfft2", [3, 4], {"s": [3, 6]}), ("hfftn", [2, 3], {}), ("ihfft2", [3, 4], {"norm": "forward"}),
])
def test_gradients(name, shape, kwargs):
    @differential(rtol=1e-6, atol=1e-8)
    def body(paddle):
        r = np.random.default_rng(1)
        x = paddle.to_tensor(r.uniform(-1, 1, shape), stop_gradient=False)
        inp = paddle.complex(x, x * 0.5) if name in TAKES_COMPLEX else x
        y = getattr(paddle.fft, name)(inp, **kwargs)
        w = paddle.to_tensor(r.uniform(-1, 1, y.shape))
        loss = ((paddle.real(y) if y.dtype in (paddle.complex64, paddle.complex128) else y) * w).sum()
        if y.dtype in (paddle.complex64, paddle.complex128):
            loss = loss + (paddle.imag(y) * w * w).sum()
        loss.backward()
        return {"y": y, "grad": x.grad}
    body()


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_matches_numpy(name):
    import paddlelite
    x = _input(paddlelite, name, [3, 4, 6], "complex128" if name in TAKES_COMPLEX else "float64")
    ours = getattr(paddlelite.fft, name)(x, norm="ortho").numpy()
    if name in ("hfft2", "hfftn", "ihfft2", "ihfftn"):  # numpy has only the 1-D Hermitian transforms
        axes = (-2, -1) if name.endswith("2") else (0, 1, 2)
        if name.startswith("hfft"):
            ref = np.fft.irfftn(np.conj(x.numpy()), axes=axes, norm="ortho")
        else:
            ref = np.conj(np.fft.rfftn(x.numpy(), axes=axes, norm="ortho"))
    else:
        ref = getattr(np.fft, name)(x.numpy(), norm="ortho")
    np.testing.assert_allclose(ours, ref, rtol=1e-10, atol=1e-12)


def test_static_mode_runs_the_same_ops():
    import paddlelite as paddle
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3, 8], "float64")
            y = paddle.fft.irfft(paddle.fft.rfft(x, norm="ortho"), n=8, norm="ortho")
        data = np.random.default_rng(0).uniform(size=(3, 8))
        out, = paddle.static.Executor().run(main, feed={"x": data}, fetch_list=[y])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, data, atol=1e-12)
