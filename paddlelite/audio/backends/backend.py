"""paddle.audio's info/load/save, which run the current backend's (init_backend.set_backend), and AudioInfo."""


class AudioInfo:
    """What info() tells of an audio file."""

    def __init__(self, sample_rate, num_samples, num_channels, bits_per_sample, encoding):
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding


_current = []  # [the backend module info/load/save run]


def info(filepath):
    """AudioInfo of the file at `filepath` (a path or a binary file object)."""
    return _current[0].info(filepath)


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    """(waveform Tensor [channels, frames] (or [frames, channels]), sample rate) of an audio file; normalize gives
    float32 in [-1, 1), else the integer sample values (as float32 for the wave backend)."""
    return _current[0].load(filepath, frame_offset, num_frames, normalize, channels_first)


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    """Write the waveform `src` [channels, frames] (or [frames, channels]) to `filepath`."""
    return _current[0].save(filepath, src, sample_rate, channels_first, encoding, bits_per_sample)
