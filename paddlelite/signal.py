"""paddle.signal: framing, overlap-add and the short-time Fourier transform (stft, istft), composed of gathers,
index_add and paddle.fft's transforms so both modes run them and gradients flow."""
import numpy as np

from . import fft as _fft
from .tensor import creation as _creation
from .tensor import manipulation as _manip
from .tensor import math as _math
from .tensor import reduce as _reduce
from .tensor.manipulation import _int
from .tensor.math import _check_tensor
from .tensor.scattering import index_add


def _frame_index(frame_length, count, hop_length, frames_first):
    """The positions each frame reads: [frame_length, count] (or [count, frame_length] when frames_first)."""
    index = np.arange(frame_length)[:, None] + np.arange(count)[None, :] * hop_length
    return _creation.assign((index.T if frames_first else index).reshape(-1))


def _axis_end(x, axis, api):
    if axis not in (0, -1):
        raise ValueError(f"{api}: axis must be 0 or -1, received {axis}")
    if len(x.shape) == 0:
        raise ValueError(f"{api}: x must have at least 1 dimension")
    return axis == 0


def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Slices of frame_length samples every hop_length along axis: [..., frame_length, num_frames] for axis -1,
    [num_frames, frame_length, ...] for axis 0."""
    _check_tensor(x, "frame")
    first = _axis_end(x, axis, "frame")
    frame_length, hop_length = _int(frame_length, "frame", "frame_length"), _int(hop_length, "frame", "hop_length")
    n = x.shape[0 if first else -1]
    if hop_length <= 0:
        raise ValueError(f"frame: hop_length must be > 0, received {hop_length}")
    if not 0 < frame_length <= n:
        raise ValueError(f"frame: frame_length must be in (0, {n}] (the length along axis), received {frame_length}")
    count = 1 + (n - frame_length) // hop_length
    picked = _manip.gather(x, _frame_index(frame_length, count, hop_length, first), 0 if first else len(x.shape) - 1)
    rest = list(x.shape[1:] if first else x.shape[:-1])
    return _manip.reshape(picked, [count, frame_length] + rest if first else rest + [frame_length, count])


def overlap_add(x, hop_length, axis=-1, name=None):
    """The frames of x ([..., frame_length, num_frames] for axis -1, [num_frames, frame_length, ...] for axis 0)
    added back together hop_length apart."""
    _check_tensor(x, "overlap_add")
    first = _axis_end(x, axis, "overlap_add")
    hop_length = _int(hop_length, "overlap_add", "hop_length")
    if hop_length <= 0:
        raise ValueError(f"overlap_add: hop_length must be > 0, received {hop_length}")
    if len(x.shape) < 2:
        raise ValueError(f"overlap_add: x must have at least 2 dimensions, received shape {list(x.shape)}")
    if first:
        count, frame_length, rest = x.shape[0], x.shape[1], list(x.shape[2:])
    else:
        frame_length, count, rest = x.shape[-2], x.shape[-1], list(x.shape[:-2])
    length = (count - 1) * hop_length + frame_length
    flat = _manip.reshape(x, [count * frame_length] + rest if first else rest + [count * frame_length])
    target = _creation.zeros([length] + rest if first else rest + [length], x.dtype)
    return index_add(target, _frame_index(frame_length, count, hop_length, first), 0 if first else len(rest), flat)


def _window(window, win_length, n_fft, dtype, api):
    if window is None:
        window = _creation.ones([win_length], dtype)
    elif len(window.shape) != 1 or window.shape[0] != win_length:
        raise AssertionError(f"{api}: window must be 1-D of win_length {win_length}, received shape "
                             f"{list(window.shape)}")
    left = (n_fft - win_length) // 2
    if left or n_fft - win_length - left:
        zeros = lambda k: _creation.zeros([k], window.dtype)  # noqa: E731
        window = _manip.concat([zeros(left), window, zeros(n_fft - win_length - left)])
    return window


def _reflect(x, pad):
    """x [B, T] padded by `pad` samples mirrored at both ends (the edge samples not repeated)."""
    n = x.shape[-1]
    index = np.concatenate([np.arange(pad, 0, -1), np.arange(n), np.arange(n - 2, n - 2 - pad, -1)])
    return _manip.gather(x, _creation.assign(index), 1)


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, name=None):
    """The short-time Fourier transform of x [T] or [B, T]: [(B,) n_fft // 2 + 1 (or n_fft), num_frames]."""
    _check_tensor(x, "stft")
    rank = len(x.shape)
    if rank not in (1, 2):
        raise AssertionError(f"stft: x must be 1-D or 2-D, received rank {rank}")
    if x.dtype.np.kind in "iub":
        x = x.astype(_creation._float_dtype(None))
    x = _manip.unsqueeze(x, [0]) if rank == 1 else x
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if hop_length <= 0:
        raise AssertionError(f"stft: hop_length must be > 0, received {hop_length}")
    if not 0 < n_fft <= x.shape[-1]:
        raise AssertionError(f"stft: n_fft must be in (0, {x.shape[-1]}] (the signal length), received {n_fft}")
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"stft: win_length must be in (0, n_fft={n_fft}], received {win_length}")
    window = _window(window, win_length, n_fft, x.dtype, "stft")
    if center:
        if pad_mode not in ("constant", "reflect"):
            raise AssertionError(f"stft: pad_mode must be 'reflect' or 'constant', received {pad_mode!r}")
        pad = n_fft // 2
        if pad_mode == "reflect":
            x = _reflect(x, pad)
        else:
            zeros = _creation.zeros([x.shape[0], pad], x.dtype)
            x = _manip.concat([zeros, x, zeros], 1)
    frames = _math.multiply(_manip.transpose(frame(x, n_fft, hop_length), [0, 2, 1]), window)
    complex_input = frames.dtype.is_complex
    onesided = not complex_input if onesided is None else onesided
    if complex_input and onesided:
        raise AssertionError("stft: onesided must be False for a complex input or window")
    norm = "ortho" if normalized else "backward"
    spectrum = _fft.rfft(frames, norm=norm) if onesided else _fft.fft(frames, norm=norm)
    out = _manip.transpose(spectrum, [0, 2, 1])
    return _manip.squeeze(out, [0]) if rank == 1 else out


def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=True,
          length=None, return_complex=False, name=None):
    """The inverse of stft: frames back from the spectrum x [(B,) freq, num_frames], windowed, overlap-added and
    divided by the summed squared window."""
    _check_tensor(x, "istft")
    rank = len(x.shape)
    if rank not in (2, 3):
        raise AssertionError(f"istft: x must be 2-D or 3-D, received rank {rank}")
    if not x.dtype.is_complex:
        x = x.astype("complex128" if x.dtype.name == "float64" else "complex64")
    x = _manip.unsqueeze(x, [0]) if rank == 2 else x
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < hop_length <= win_length:
        raise AssertionError(f"istft: hop_length must be in (0, win_length={win_length}], received {hop_length}")
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"istft: win_length must be in (0, n_fft={n_fft}], received {win_length}")
    if x.size == 0:
        raise AssertionError("istft: x must not be empty")
    count, bins = x.shape[-1], x.shape[-2]
    want = n_fft // 2 + 1 if onesided else n_fft
    if bins != want:
        raise AssertionError(f"istft: x must have {want} frequency bins (n_fft={n_fft}, onesided={onesided}), "
                             f"received {bins}")
    real = "float64" if x.dtype.name == "complex128" else "float32"
    window = _window(window, win_length, n_fft, real, "istft")
    frames = _manip.transpose(x, [0, 2, 1])
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if onesided:
            raise AssertionError("istft: onesided must be False when return_complex is True")
        frames = _fft.ifft(frames, norm=norm)
    else:
        if window.dtype.is_complex:
            raise AssertionError("istft: window must be real when return_complex is False")
        if not onesided:
            frames = _manip.slice(frames, [2], [0], [n_fft // 2 + 1])
        frames = _fft.irfft(frames, n=n_fft, norm=norm)
    frames = _manip.transpose(_math.multiply(frames, window.astype(frames.dtype)), [0, 2, 1])
    out = overlap_add(frames, hop_length)
    squared = _math.multiply(window, window)
    envelope = overlap_add(_manip.tile(_manip.unsqueeze(squared, [1]), [1, count]), hop_length)
    start = n_fft // 2 if center else 0
    stop = out.shape[-1] - n_fft // 2 if (center and length is None) else \
        (out.shape[-1] if length is None else start + length)
    out = _manip.slice(out, [1], [start], [stop])
    envelope = _manip.slice(envelope, [0], [start], [stop])
    if hasattr(envelope, "numpy") and envelope.size and float(_reduce.min(_math.abs(envelope)).item()) < 1e-11:
        raise ValueError("istft: the window fails the nonzero overlap-add (NOLA) condition: its squares, "
                         "overlap-added, vanish somewhere (see scipy.signal.check_NOLA)")
    out = _math.divide(out, envelope.astype(out.dtype) if out.dtype.is_complex else envelope)
    return _manip.squeeze(out, [0]) if rank == 2 else out


__all__ = ["frame", "istft", "overlap_add", "stft"]
