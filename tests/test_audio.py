"""paddle.audio (issue 26 item 7): windows, the mel scale, filter banks, decibels, the DCT, the spectrogram layers,
audio files (wave backend; soundfile when installed) and the datasets, against real Paddle 3.3.1."""
import os
import wave

import numpy as np
import pytest

from tests.differential import differential, raises

WINDOWS = ["hamming", "hann", "bartlett", "nuttall", "triang", "bohman", "blackman", "cosine", "tukey", "taylor",
           ("kaiser", 8.0), ("gaussian", 1.5), ("exponential", None, 2.0), ("tukey", 0.3), ("tukey", 1.0),
           ("general_gaussian", 1.5, 2.0)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window(window, fftbins):
    if fftbins is False and isinstance(window, tuple) and window[0] == "exponential":
        pytest.skip("a symmetric exponential window takes no center (ValueError, tested below)")

    @differential(rtol=1e-6, atol=1e-7)  # float64 agrees to the last bits, float32 to its last
    def body(paddle):
        get = paddle.audio.functional.get_window
        return [get(window, n, fftbins=fftbins) for n in (1, 7, 16)] + [get(window, 9, fftbins, dtype="float32")]
    body()


@pytest.mark.parametrize("window, error", [("kaiser", ValueError), ("nope", ValueError), (3, ValueError),
                                           (("exponential", 1.0), ValueError)])
def test_get_window_errors(window, error):
    @differential(expected=raises(error))
    def body(paddle):
        paddle.audio.functional.get_window(window, 8, fftbins=False)
    body()


@differential(rtol=1e-6)
def test_top_level_windows(paddle):
    return [paddle.hann_window(8), paddle.hamming_window(7, periodic=False, alpha=0.5, beta=0.4),
            paddle.kaiser_window(6, beta=5.0), paddle.blackman_window(5, dtype="float64"), paddle.bartlett_window(6)]


@differential(rtol=1e-6)
def test_mel_scale(paddle):
    f = paddle.audio.functional
    hz = paddle.to_tensor([0.0, 440.0, 1000.0, 4000.0, 8000.0])
    mel = paddle.to_tensor([0.0, 10.0, 15.0, 30.0, 40.0], dtype="float64")
    return [f.hz_to_mel(440.0), f.hz_to_mel(3000.0), f.hz_to_mel(440.0, htk=True), f.hz_to_mel(hz),
            f.hz_to_mel(hz, htk=True), f.mel_to_hz(20.0), f.mel_to_hz(5.0), f.mel_to_hz(12.0, htk=True),
            f.mel_to_hz(mel), f.mel_to_hz(mel, htk=True), f.mel_frequencies(10, 20.0, 8000.0),
            f.mel_frequencies(6, htk=True, dtype="float64"), f.fft_frequencies(16000, 16)]


@pytest.mark.parametrize("kwargs", [{}, {"htk": True}, {"norm": 1.0}, {"norm": 2, "f_min": 100.0, "f_max": 4000.0},
                                    {"norm": None, "dtype": "float64"}], ids=str)
def test_compute_fbank_matrix(kwargs):
    @differential(rtol=1e-5, atol=1e-7)
    def body(paddle):
        return paddle.audio.functional.compute_fbank_matrix(sr=16000, n_fft=64, n_mels=12, **kwargs)
    body()


@differential(rtol=1e-5, atol=1e-5)
def test_power_to_db_and_dct(paddle):
    f = paddle.audio.functional
    spect = paddle.to_tensor(np.linspace(0.0, 3.0, 12, dtype="float32").reshape(3, 4) ** 4)
    return [f.power_to_db(spect), f.power_to_db(spect, ref_value=2.0, amin=1e-3, top_db=10.0),
            f.power_to_db(spect, top_db=None), f.create_dct(5, 8), f.create_dct(4, 6, norm=None, dtype="float64")]


@pytest.mark.parametrize("kwargs", [{"amin": 0.0}, {"ref_value": -1.0}, {"top_db": -1.0}], ids=str)
def test_power_to_db_errors(kwargs):
    @differential(expected=raises(Exception))
    def body(paddle):
        paddle.audio.functional.power_to_db(paddle.ones([2, 2]), **kwargs)
    body()


def _waveform(n=2, samples=3000):
    """Tones in noise (no bin of their spectra near zero, where decibels would amplify rounding)."""
    t = np.arange(samples) / 8000.0
    noise = np.random.default_rng(n).uniform(-0.1, 0.1, (n, samples))
    return (np.stack([np.sin(2 * np.pi * (220 + 100 * k) * t) * 0.5 for k in range(n)]) + noise).astype("float32")


@pytest.mark.parametrize("layer, kwargs", [
    ("Spectrogram", {"n_fft": 128, "hop_length": 64}), ("Spectrogram", {"n_fft": 64, "window": "hamming",
                                                                        "power": 2.0, "center": False}),
    ("MelSpectrogram", {"sr": 8000, "n_fft": 256, "hop_length": 128, "n_mels": 20}),
    ("LogMelSpectrogram", {"sr": 8000, "n_fft": 128, "n_mels": 16, "top_db": 60.0}),
    ("MFCC", {"sr": 8000, "n_mfcc": 10, "n_fft": 128, "n_mels": 16})], ids=lambda v: v if isinstance(v, str) else "")
def test_feature_layers(layer, kwargs):
    x = _waveform()

    @differential(rtol=2e-4, atol=2e-3)
    def body(paddle):
        module = getattr(paddle.audio.features, layer)(**kwargs)
        return {"out": module(paddle.to_tensor(x)), "buffers": sorted(module.state_dict())}
    body()


def test_features_are_differentiable():
    import paddlelite as paddle
    x = paddle.to_tensor(_waveform(1, 512), stop_gradient=False)
    paddle.audio.features.MFCC(sr=8000, n_mfcc=4, n_fft=64, n_mels=8)(x).sum().backward()
    assert x.grad is not None and list(x.grad.shape) == [1, 512] and np.isfinite(x.grad.numpy()).all()


def test_wave_backend_round_trip(tmp_path):
    path = str(tmp_path / "two.wav")
    data = _waveform(2, 100)

    @differential()
    def body(paddle):
        paddle.audio.save(path, paddle.to_tensor(data), 8000)
        meta = paddle.audio.info(path)
        full, rate = paddle.audio.load(path)
        part, _ = paddle.audio.load(path, frame_offset=10, num_frames=5, channels_first=False)
        raw, _ = paddle.audio.load(path, normalize=False)
        with open(path, "rb") as f:
            from_file, _ = paddle.audio.load(f)
        return {"info": [meta.sample_rate, meta.num_samples, meta.num_channels, meta.bits_per_sample, meta.encoding],
                "full": full, "rate": rate, "part": part, "raw": raw, "file": from_file,
                "backends": [paddle.audio.backends.get_current_backend(),
                             "wave_backend" in paddle.audio.backends.list_available_backends()]}
    body()


@differential(expected=raises(NotImplementedError))
def test_wave_backend_refuses_other_files(paddle):
    paddle.audio.info(os.path.abspath(__file__))


def test_wave_backend_truncated_and_8_bit_files(tmp_path):
    import paddlelite as paddle
    path = str(tmp_path / "short.wav")
    with wave.open(path, "w") as f:
        f.setnchannels(2), f.setsampwidth(2), f.setframerate(8000)
        f.writeframes(np.arange(8, dtype="<i2").tobytes())
    blob = open(path, "rb").read()
    open(path, "wb").write(blob[:-3])  # one frame and a half lost
    waveform, _ = paddle.audio.load(path, normalize=False)
    assert waveform.numpy().tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
    with wave.open(path, "w") as f:
        f.setnchannels(1), f.setsampwidth(1), f.setframerate(8000)
        f.writeframes(bytes(range(8)))
    with pytest.raises(NotImplementedError, match="16-bit"):
        paddle.audio.load(path)


def test_soundfile_backend(tmp_path):
    pytest.importorskip("soundfile")
    import paddlelite as paddle
    data = _waveform(2, 64)
    paddle.audio.backends.set_backend("soundfile")
    try:
        assert paddle.audio.backends.get_current_backend() == "soundfile"
        for name, kwargs, tolerance in (("a.wav", {}, 1 / 2 ** 15), ("b.flac", {"bits_per_sample": 24}, 1 / 2 ** 23),
                                        ("c.wav", {"encoding": "PCM_F", "bits_per_sample": 32}, 0.0)):
            path = str(tmp_path / name)
            paddle.audio.save(path, paddle.to_tensor(data), 8000, **kwargs)
            back, rate = paddle.audio.load(path)
            assert rate == 8000 and back.shape == [2, 64]
            np.testing.assert_allclose(back.numpy(), data, atol=tolerance)
        meta = paddle.audio.info(str(tmp_path / "b.flac"))
        assert (meta.num_samples, meta.num_channels, meta.bits_per_sample, meta.encoding) == (64, 2, 24, "PCM_S")
        part, _ = paddle.audio.load(str(tmp_path / "a.wav"), frame_offset=4, num_frames=8, channels_first=False)
        assert part.shape == [8, 2]
        raw, _ = paddle.audio.load(str(tmp_path / "a.wav"), normalize=False)
        assert raw.dtype == paddle.int16
    finally:
        paddle.audio.backends.set_backend("wave_backend")
    with pytest.raises(NotImplementedError):
        paddle.audio.backends.set_backend("sox")


def _write_wav(path, samples, rate=8000):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(path, "w") as f:
        f.setnchannels(1), f.setsampwidth(2), f.setframerate(rate)
        f.writeframes((samples * 2 ** 15).astype("<h").tobytes())


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """An unpacked ESC-50 and TESS under a fresh ~/.cache/paddle/dataset (Paddle read its DATA_HOME at import)."""
    home = tmp_path / ".cache" / "paddle" / "dataset"
    monkeypatch.setenv("HOME", str(tmp_path))
    rows = ["filename,fold,target,category,esc10,src_file,take"]
    for k in range(6):
        name = f"{k}-100-A-{k}.wav"
        _write_wav(str(home / "ESC-50-master" / "audio" / name), _waveform(1, 400 + 40 * k)[0])
        rows.append(f"{name},{1 + k % 3},{k},cat{k},False,100,A")
    (home / "ESC-50-master" / "meta").mkdir(parents=True)
    (home / "ESC-50-master" / "meta" / "esc50.csv").write_text("\n".join(rows) + "\n")
    for k, emotion in enumerate(["angry", "ps", "sad", "fear", "happy"]):
        _write_wav(str(home / "TESS_Toronto_emotional_speech_set" / f"OAF_{emotion}" / f"OAF_word{k}_{emotion}.wav"),
                   _waveform(1, 300)[0])
    return str(home)


def _patch_paddle_home(paddle, home):
    import paddle as real
    if paddle is real:
        import paddle.audio.datasets.esc50 as esc50
        import paddle.audio.datasets.tess as tess
        esc50.DATA_HOME = tess.DATA_HOME = home


def test_esc50(data_home):
    @differential(rtol=1e-4, atol=1e-4)
    def body(paddle):
        _patch_paddle_home(paddle, data_home)
        out = []
        for mode, split in (("train", 1), ("dev", 2)):
            data = paddle.audio.datasets.ESC50(mode, split)
            out.append([[data[i][0], data[i][1]] for i in range(len(data))])
        mfcc = paddle.audio.datasets.ESC50("dev", 3, feat_type="mfcc", n_mfcc=8, n_fft=128, n_mels=16)
        out.append([mfcc[0][0], mfcc[0][1], len(mfcc)])
        return out
    body()


def test_tess(data_home):
    @differential(rtol=1e-4, atol=1e-4)
    def body(paddle):
        _patch_paddle_home(paddle, data_home)
        train = paddle.audio.datasets.TESS("train", n_folds=2, split=1)
        dev = paddle.audio.datasets.TESS("dev", n_folds=2, split=1, feat_type="spectrogram", n_fft=64)
        return [sorted(int(train[i][1]) for i in range(len(train))), sorted(int(dev[i][1]) for i in range(len(dev))),
                dev[0][0].shape]
    body()


def test_datasets_never_download(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    import paddlelite as paddle
    for cls in (paddle.audio.datasets.ESC50, paddle.audio.datasets.TESS):
        with pytest.raises(ValueError, match="does not download"):
            cls()
