"""paddle.signal (frame, overlap_add, stft, istft) and Tensor.stft/istft against real Paddle 3.3.1
(tests/differential.py): values, dtypes, gradients, batches, windows, centring, errors."""
import numpy as np
import pytest

from tests.differential import differential, raises

RNG = np.random.default_rng(11)
SIGNAL = np.sin(np.arange(32) / 3) + 0.1 * RNG.standard_normal(32)
HANN = np.hanning(8)


@differential(rtol=1e-5, atol=1e-5)
def test_frame_and_overlap_add(paddle):
    x = paddle.to_tensor(SIGNAL.reshape(2, 16), stop_gradient=False)
    f = paddle.signal.frame(x, 4, 3)
    g = paddle.signal.frame(paddle.to_tensor(SIGNAL.reshape(16, 2)), 5, 2, axis=0)
    o = paddle.signal.overlap_add(f, 3)
    o0 = paddle.signal.overlap_add(g, 2, axis=0)
    (o * o).sum().backward()
    return {"frame": [f, g], "overlap_add": [o, o0], "grad": x.grad}


@pytest.mark.parametrize("case", ["default", "hop_win", "hann_constant_normalized", "batch_twosided", "complex",
                                  "float32", "int"])
def test_stft(case):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor(SIGNAL, stop_gradient=False)
        window = paddle.to_tensor(HANN)
        out = {"default": lambda: paddle.signal.stft(x, 8),
               "hop_win": lambda: paddle.signal.stft(x, 8, 2, 6, center=False),
               "hann_constant_normalized": lambda: x.stft(8, window=window, pad_mode="constant", normalized=True),
               "batch_twosided": lambda: paddle.signal.stft(paddle.stack([x, x * 2]), 8, onesided=False),
               "complex": lambda: paddle.signal.stft(x.astype("complex128"), 8),
               "float32": lambda: paddle.signal.stft(x.astype("float32"), 8, 4),
               "int": lambda: paddle.signal.stft(paddle.to_tensor([1, 2, 3, 4, 5, 6, 7, 8]), 4)}[case]()
        if case == "int":
            return out
        paddle.abs(out).sum().backward()
        return {"out": out, "grad": x.grad}
    body()


@pytest.mark.parametrize("case", ["hann", "length", "complex", "ones", "no_center", "batch"])
def test_istft_inverts_stft(case):
    @differential(rtol=1e-5, atol=1e-5)
    def body(paddle):
        x = paddle.to_tensor(SIGNAL)
        window = paddle.to_tensor(HANN)
        if case == "hann":
            return paddle.signal.istft(paddle.signal.stft(x, 8, window=window), 8, window=window)
        if case == "length":
            return paddle.signal.stft(x, 8, window=window).istft(8, window=window, length=30)
        if case == "complex":
            return paddle.signal.istft(paddle.signal.stft(x, 8, onesided=False), 8, onesided=False,
                                       return_complex=True)
        if case == "no_center":
            return paddle.signal.istft(paddle.signal.stft(x, 8, 2, center=False), 8, 2, center=False)
        if case == "batch":
            return paddle.signal.istft(paddle.signal.stft(paddle.stack([x, -x]), 8), 8)
        spec = paddle.signal.stft(x, 8)
        spec.stop_gradient = False
        out = paddle.signal.istft(spec, 8)
        (out * out).sum().backward()
        return {"out": out, "grad": spec.grad}
    body()


@pytest.mark.parametrize("kind", ["rank", "n_fft", "hop", "win", "onesided_complex"])
def test_stft_errors(kind):
    @differential(expected=raises(AssertionError))
    def body(paddle):
        x = paddle.to_tensor(SIGNAL)
        {"rank": lambda: paddle.signal.stft(paddle.ones([2, 2, 8]), 4),
         "n_fft": lambda: paddle.signal.stft(paddle.ones([4]), 8, center=False),
         "hop": lambda: paddle.signal.stft(x, 8, 0), "win": lambda: paddle.signal.stft(x, 8, win_length=9),
         "onesided_complex": lambda: paddle.signal.stft(x.astype("complex128"), 8, onesided=True)}[kind]()
    body()


@differential(expected=raises(ValueError))
def test_istft_nola(paddle):
    x = paddle.to_tensor(SIGNAL)
    paddle.signal.istft(paddle.signal.stft(x, 8, window=paddle.zeros([8], "float64")), 8,
                        window=paddle.zeros([8], "float64"))
