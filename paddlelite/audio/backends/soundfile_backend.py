"""The 'soundfile' audio backend: every format libsndfile reads (WAV, FLAC, OGG, ...) through the soundfile package
(pip install paddlelite[audio]), with the semantics of paddleaudio's soundfile backend."""
import numpy as np

from ... import tensor as T
from .backend import AudioInfo

_SUBTYPE_ENCODING = {"PCM_S8": ("PCM_S", 8), "PCM_16": ("PCM_S", 16), "PCM_24": ("PCM_S", 24),
                     "PCM_32": ("PCM_S", 32), "PCM_U8": ("PCM_U", 8), "FLOAT": ("PCM_F", 32),
                     "DOUBLE": ("PCM_F", 64), "ULAW": ("ULAW", 8), "ALAW": ("ALAW", 8)}
_NATIVE = {"PCM_S8": "int16", "PCM_U8": "int16", "PCM_16": "int16", "PCM_24": "int32", "PCM_32": "int32",
           "FLOAT": "float32", "DOUBLE": "float64"}


def _soundfile():
    import soundfile
    return soundfile


def info(filepath):
    meta = _soundfile().info(filepath)
    encoding, bits = _SUBTYPE_ENCODING.get(meta.subtype, (meta.subtype, 0))
    return AudioInfo(meta.samplerate, meta.frames, meta.channels, bits, encoding)


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    sf = _soundfile()
    subtype = sf.info(filepath).subtype
    dtype = "float32" if normalize else _NATIVE.get(subtype, "float32")
    waveform, sample_rate = sf.read(filepath, frames=num_frames, start=frame_offset, dtype=dtype, always_2d=True)
    waveform = T.to_tensor(np.ascontiguousarray(waveform))
    return (T.transpose(waveform, perm=[1, 0]) if channels_first else waveform), sample_rate


def _subtype(dtype, encoding, bits_per_sample):
    """libsndfile's subtype for an encoding ('PCM_S', 'PCM_U', 'PCM_F', 'ULAW', 'ALAW') and a sample width; by
    default the tensor's own (float32 -> FLOAT, int16 -> PCM_16, ...)."""
    if encoding is None and bits_per_sample is None:
        return {"float32": "FLOAT", "float64": "DOUBLE", "int32": "PCM_32", "int16": "PCM_16",
                "uint8": "PCM_U8"}.get(str(dtype), "PCM_16")
    bits = bits_per_sample or {"PCM_F": 32, "ULAW": 8, "ALAW": 8, "PCM_U": 8}.get(encoding, 16)
    encoding = encoding or ("PCM_F" if str(dtype).startswith("float") and bits in (32, 64) else "PCM_S")
    for subtype, known in _SUBTYPE_ENCODING.items():
        if known == (encoding, bits):
            return subtype
    raise ValueError(f"paddle.audio.save: encoding {encoding!r} with {bits} bits per sample is not supported; "
                     f"supported: {sorted(set(_SUBTYPE_ENCODING.values()))}")


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    assert src.ndim == 2, "Expected 2D tensor"
    audio = src.numpy()
    if channels_first:
        audio = audio.T
    _soundfile().write(filepath, audio, sample_rate, subtype=_subtype(audio.dtype, encoding, bits_per_sample))
