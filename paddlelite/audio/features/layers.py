"""Spectrogram, MelSpectrogram, LogMelSpectrogram and MFCC layers (paddle.audio.features) over signal.stft."""
from ... import nn
from ... import tensor as T
from ...signal import stft
from ..functional import compute_fbank_matrix, create_dct, power_to_db
from ..functional.window import get_window


class Spectrogram(nn.Layer):
    """|stft(x)| ** power of waveforms x [batch, samples] (or [samples]): [batch, 1 + n_fft // 2, frames]."""

    def __init__(self, n_fft=512, hop_length=512, win_length=None, window="hann", power=1.0, center=True,
                 pad_mode="reflect", dtype="float32"):
        super().__init__()
        assert power > 0, "Power of spectrogram must be > 0."
        self.power = power
        win_length = n_fft if win_length is None else win_length
        self._stft_args = {"n_fft": n_fft, "hop_length": hop_length, "win_length": win_length, "center": center,
                           "pad_mode": pad_mode}
        self.register_buffer("fft_window", get_window(window, win_length, fftbins=True, dtype=dtype))

    def forward(self, x):
        return T.pow(T.abs(stft(x, window=self.fft_window, **self._stft_args)), self.power)


class MelSpectrogram(nn.Layer):
    """A Spectrogram through the mel filter bank: [batch, n_mels, frames]."""

    def __init__(self, sr=22050, n_fft=2048, hop_length=512, win_length=None, window="hann", power=2.0, center=True,
                 pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney", dtype="float32"):
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
                                        power=power, center=center, pad_mode=pad_mode, dtype=dtype)
        self.n_mels, self.f_min, self.f_max, self.htk, self.norm = n_mels, f_min, f_max, htk, norm
        self.register_buffer("fbank_matrix", compute_fbank_matrix(
            sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min, f_max=sr // 2 if f_max is None else f_max, htk=htk,
            norm=norm, dtype=dtype))

    def forward(self, x):
        return T.matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(nn.Layer):
    """A MelSpectrogram in decibels (power_to_db)."""

    def __init__(self, sr=22050, n_fft=512, hop_length=None, win_length=None, window="hann", power=2.0, center=True,
                 pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney", ref_value=1.0,
                 amin=1e-10, top_db=None, dtype="float32"):
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                                              window=window, power=power, center=center, pad_mode=pad_mode,
                                              n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm, dtype=dtype)
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x):
        return power_to_db(self._melspectrogram(x), ref_value=self.ref_value, amin=self.amin, top_db=self.top_db)


class MFCC(nn.Layer):
    """The first n_mfcc DCT coefficients of a LogMelSpectrogram: [batch, n_mfcc, frames]."""

    def __init__(self, sr=22050, n_mfcc=40, n_fft=512, hop_length=None, win_length=None, window="hann", power=2.0,
                 center=True, pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney",
                 ref_value=1.0, amin=1e-10, top_db=None, dtype="float32"):
        super().__init__()
        assert n_mfcc <= n_mels, f"n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}"
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window, power=power,
            center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
            ref_value=ref_value, amin=amin, top_db=top_db, dtype=dtype)
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x):
        log_mel = self._log_melspectrogram(x)
        return T.matmul(log_mel.transpose((0, 2, 1)), self.dct_matrix).transpose((0, 2, 1))
