"""Mel scale and filter banks, decibels, the DCT matrix (paddle.audio.functional): librosa's definitions over the
tensor API, so they run in both modes and on every device."""
import math

from ... import tensor as T
from ...nn import functional as F
from ...tensor.tensor_args import is_tensor_like

_MIN_LOG_HZ = 1000.0  # Slaney's scale: linear below 1 kHz, logarithmic above
_F_SP = 200.0 / 3
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def hz_to_mel(freq, htk=False):
    """Frequencies in Hz (a Tensor or a float) on the mel scale: HTK's formula, or Slaney's (librosa's default)."""
    if htk:
        return 2595.0 * (T.log10(1.0 + freq / 700.0) if is_tensor_like(freq) else math.log10(1.0 + freq / 700.0))
    mels = freq / _F_SP
    if is_tensor_like(freq):
        target = _MIN_LOG_MEL + T.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP  # 1e-10: no log(0)
        mask = (freq > _MIN_LOG_HZ).astype(freq.dtype)
        return target * mask + mels * (1 - mask)
    if freq >= _MIN_LOG_HZ:
        mels = _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return mels


def mel_to_hz(mel, htk=False):
    """Mels (a Tensor or a float) back to Hz: the inverse of hz_to_mel."""
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    freqs = _F_SP * mel
    if is_tensor_like(mel):
        target = _MIN_LOG_HZ * T.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        mask = (mel > _MIN_LOG_MEL).astype(mel.dtype)
        return target * mask + freqs * (1 - mask)
    if mel >= _MIN_LOG_MEL:
        freqs = _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return freqs


def mel_frequencies(n_mels=64, f_min=0.0, f_max=11025.0, htk=False, dtype="float32"):
    """`n_mels` frequencies (Hz) evenly spaced on the mel scale from f_min to f_max."""
    mels = T.linspace(hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk), n_mels, dtype=dtype)
    return mel_to_hz(mels, htk=htk)


def fft_frequencies(sr, n_fft, dtype="float32"):
    """The centre frequencies of the 1 + n_fft // 2 bins of an n_fft-point real FFT at sample rate `sr`."""
    return T.linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dtype)


def compute_fbank_matrix(sr, n_fft, n_mels=64, f_min=0.0, f_max=None, htk=False, norm="slaney", dtype="float32"):
    """The mel filter bank [n_mels, 1 + n_fft // 2]: triangles between consecutive mel frequencies, scaled to equal
    area ('slaney') or normalised by their p-norm (a number)."""
    if f_max is None:
        f_max = float(sr) / 2
    fftfreqs = fft_frequencies(sr=sr, n_fft=n_fft, dtype=dtype)
    mel_f = mel_frequencies(n_mels + 2, f_min=f_min, f_max=f_max, htk=htk, dtype=dtype)
    fdiff = mel_f[1:] - mel_f[:-1]
    ramps = mel_f.unsqueeze(1) - fftfreqs.unsqueeze(0)
    lower = -ramps[:n_mels] / fdiff[:n_mels].unsqueeze(1)  # the rising and falling slopes of every triangle
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1].unsqueeze(1)
    weights = T.maximum(T.zeros_like(lower), T.minimum(lower, upper))
    if norm == "slaney":
        weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels])).unsqueeze(1)
    elif isinstance(norm, (int, float)):
        weights = F.normalize(weights, p=norm, axis=-1)
    return weights


def power_to_db(spect, ref_value=1.0, amin=1e-10, top_db=80.0):
    """10 * log10(spect / ref_value), spect floored at amin, and (with top_db) no value more than top_db below the
    largest."""
    if amin <= 0:
        raise Exception("amin must be strictly positive")
    if ref_value <= 0:
        raise Exception("ref_value must be strictly positive")
    ones = T.ones_like(spect)
    log_spec = 10.0 * T.log10(T.maximum(ones * amin, spect))
    log_spec -= 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise Exception("top_db must be non-negative")
        log_spec = T.maximum(log_spec, ones * (log_spec.max() - top_db))
    return log_spec


def create_dct(n_mfcc, n_mels, norm="ortho", dtype="float32"):
    """The DCT-II matrix [n_mels, n_mfcc] that maps log-mel energies to MFCCs ('ortho': orthonormal; None: scaled
    by 2)."""
    n = T.arange(n_mels, dtype=dtype)
    k = T.arange(n_mfcc, dtype=dtype).unsqueeze(1)
    dct = T.cos(math.pi / float(n_mels) * (n + 0.5) * k)  # [n_mfcc, n_mels]
    if norm is None:
        dct *= 2.0
    else:
        assert norm == "ortho"
        first = T.to_tensor([1.0 / math.sqrt(2.0)] + [1.0] * (n_mfcc - 1), dtype=dtype).unsqueeze(1)
        dct = dct * first * math.sqrt(2.0 / float(n_mels))
    return dct.T
