"""The default audio backend, as Paddle's: 16-bit PCM WAV files through Python's wave module."""
import wave

import numpy as np

from ... import tensor as T
from .backend import AudioInfo

_ONLY_PCM16 = ("the wave backend reads and writes 16-bit PCM WAV only; for other files install soundfile "
               "(pip install paddlelite[audio]) and call paddle.audio.backends.set_backend('soundfile')")


def _open(filepath):
    """(wave reader, the file object to close) of a path or a binary file object."""
    file_obj = filepath if hasattr(filepath, "read") else open(filepath, "rb")
    try:
        return wave.open(file_obj), file_obj
    except (wave.Error, EOFError) as error:
        file_obj.close()
        raise NotImplementedError(f"paddle.audio: {error}; {_ONLY_PCM16}") from error


def info(filepath):
    reader, file_obj = _open(filepath)
    with file_obj:
        return AudioInfo(reader.getframerate(), reader.getnframes(), reader.getnchannels(),
                         reader.getsampwidth() * 8, "PCM_S")


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    reader, file_obj = _open(filepath)
    with file_obj:
        channels, sample_rate, frames = reader.getnchannels(), reader.getframerate(), reader.getnframes()
        if reader.getsampwidth() != 2:
            raise NotImplementedError(f"paddle.audio.load: {reader.getsampwidth() * 8}-bit samples; {_ONLY_PCM16}")
        content = reader.readframes(frames)
    frames = len(content) // (2 * channels)  # a truncated file holds fewer frames than its header says
    waveform = np.frombuffer(content, dtype="<i2", count=frames * channels).astype(np.float32).reshape(frames, channels)
    if normalize:
        waveform = waveform / (2 ** 15)
    if num_frames != -1:  # as Paddle's: frame_offset applies only with num_frames
        waveform = waveform[frame_offset:frame_offset + num_frames, :]
    waveform = T.to_tensor(waveform)
    return (T.transpose(waveform, perm=[1, 0]) if channels_first else waveform), sample_rate


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    assert src.ndim == 2, "Expected 2D tensor"
    if bits_per_sample not in (None, 16):
        raise ValueError("Invalid bits_per_sample, only support 16 bit")
    audio = src.numpy()
    if channels_first:
        audio = audio.T
    if audio.dtype == np.float32:
        audio = (audio * (2 ** 15)).astype("<h")
    elif audio.dtype != np.int16:
        raise TypeError(f"paddle.audio.save: src must be float32 (in [-1, 1)) or int16, received {audio.dtype}")
    with wave.open(filepath, "w") as f:
        f.setnchannels(audio.shape[1])
        f.setsampwidth(2)
        f.setframerate(sample_rate)
        f.writeframes(np.ascontiguousarray(audio, dtype="<h").tobytes())
