"""Global random state, counter-based so that a seed defines the draws on every device.

Each device (the CPU, each GPU) has a stream: a seed and an offset, the number of random op calls it
served. A call takes the next offset and draws from the key hashed from (seed, offset): SplitMix64 of
key + counter, computed with the array module's own uint64 arithmetic, so NumPy and CuPy produce the same
bits and the uniform, normal, integer and permutation draws built on them agree across devices (as JAX's,
unlike Paddle's, which promises nothing there). A stream's state is two ints: get/set_rng_state round-trip
and pickle. paddle.seed sets every stream to (seed, 0); an op with its own seed draws from that seed's key
alone, the same on each call.

Inside a CUDA-graph capture (device/graph_capture.py) a draw from a device's stream takes its key on the device:
the capture's `random_words` hold the stream's key word and first offset, written by the host before each launch,
and the i-th draw of the graph hashes offset first + i -- so each replay draws what running its ops would, and the
stream advances past the graph's draws at each launch."""
import math
import threading

import numpy as np

from ..device import cuda
from ..device.graph_capture import CaptureRefused, recording, refuse_during_capture
from ..device.place import current_place, device_to_place

_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment: 2**64 / golden ratio
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_STREAM_DOMAIN, _OP_DOMAIN = 1, 2  # a stream's keys and an op seed's key never coincide


def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def _splitmix(xp, key, start, n):
    """Words start .. start+n-1 of the SplitMix64 sequence of `key` (uint64 array of array module xp); the key is an
    int, or a one-element uint64 array of xp (a captured draw's, computed on the device)."""
    return _mix(xp.arange(start, start + n, dtype=np.uint64) * _GAMMA + (np.uint64(key) if isinstance(key, int) else key))


def captured_key(words, index):
    """The key of a captured graph's `index`-th draw, on the device: _word(words[0], words[1] + index) with words
    [stream key word, first offset] (Capture.random_words)."""
    return _mix((words[1:2] + np.uint64(index)) * _GAMMA + words[0:1])


def _word(key, counter):
    """One word of `key`'s sequence, as a Python int (keys are derived on the host, without a device sync)."""
    return int(_splitmix(np, key % 2 ** 64, counter % 2 ** 64, 1)[0])


def _fresh_seed():
    return int(np.random.SeedSequence().entropy % 2 ** 63)


def _check_seed(seed, api):
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"{api}: expected an int, received {type(seed).__name__}")
    return int(seed)


def _working_dtype(dtype):
    """The float type to draw a `dtype` sample in: float32 for 4-byte and narrower types, else float64."""
    return np.dtype(np.float32 if np.dtype(dtype).itemsize <= 4 else np.float64)


def _shape(size):
    return (size,) if isinstance(size, (int, np.integer)) else tuple(size)


class Draws:
    """The random numbers of one op call: consecutive words of one key's sequence, shaped into the
    distributions ops need (NumPy Generator's method names)."""

    def __init__(self, xp, key):
        self.xp, self.key, self.used = xp, key, 0

    def bits(self, n):
        """The next n uniform 64-bit words."""
        out = _splitmix(self.xp, self.key, self.used, n)
        self.used += n
        return out

    def take_words(self, n):
        """(key, first counter) of the next n words, consumed without computing them: for a kernel that computes
        word i as SplitMix64's mix(counter_i * GAMMA + key) itself (kernels/common.cuh splitmix_word); the key is
        an int, or a one-element uint64 device array (a captured draw's)."""
        first = self.used
        self.used += n
        return self.key, first

    def random(self, size=(), dtype=np.float64):
        """Uniform in [0, 1): the top 53 bits of each word as a float64, or the top 24 as a float32."""
        shape, dtype = _shape(size), np.dtype(dtype)
        bits = np.finfo(dtype).nmant + 1
        words = self.bits(math.prod(shape)) >> np.uint64(64 - bits)
        # through int64 (the words fit in 53 bits): NumPy converts uint64 to float32 several times slower
        return (words.view(np.int64).astype(dtype) * dtype.type(2.0 ** -bits)).reshape(shape)

    def uniform(self, low=0.0, high=1.0, size=(), dtype=np.float64):
        """Uniform in [low, high), computed in float32 for float32 (and narrower) results: a float64 draw
        below 1 could round up to `high` in the cast."""
        u = self.random(size, _working_dtype(dtype))
        return (low + (high - low) * u).astype(dtype, copy=False)

    def normal(self, loc=0.0, scale=1.0, size=(), dtype=np.float64):
        """Box-Muller: each pair of uniforms gives two normals, a radius times the cosine and sine of an angle.
        Computed in float32 for float32 (and narrower) results -- tails cut at 5.8 std -- else in float64."""
        xp, shape = self.xp, _shape(size)
        n = math.prod(shape)
        pairs = (n + 1) // 2
        u = self.random(2 * pairs, _working_dtype(dtype))
        radius = xp.sqrt(-2 * xp.log1p(-u[:pairs]))  # log(1 - u): u < 1, so finite
        angle = (2 * math.pi) * u[pairs:]
        z = xp.concatenate([radius * xp.cos(angle), radius * xp.sin(angle)])[:n]
        return (loc + scale * z.reshape(shape)).astype(dtype, copy=False)

    def integers(self, low, high, size=(), dtype=np.int64):
        """Integers uniform in [low, high) (the modulo bias is below span / 2**64)."""
        if not high > low:
            raise ValueError(f"integers: low ({low}) must be less than high ({high})")
        shape = _shape(size)
        offsets = self.bits(math.prod(shape)) % np.uint64(high - low)
        return (offsets.astype(np.int64) + low).reshape(shape).astype(dtype)

    def permutation(self, n):
        """A random ordering of range(n): the sort order of n random words."""
        return self.xp.argsort(self.bits(n)).astype(np.int64)

    # distributions sampled by rejection come from the array module's own generator, seeded by this key:
    # defined by the seed on each device, but NumPy's and CuPy's samplers differ
    def _native(self):
        if not isinstance(self.key, int):
            raise CaptureRefused("a CUDA graph cannot replay a step that draws from a sampler seeded on the host "
                                 "(poisson, binomial, gamma)")
        seed = _word(self.key, self.used) >> 1
        self.used += 1
        return self.xp.random.default_rng(seed)

    def poisson(self, lam, size=None):
        return self._native().poisson(lam, size)

    def binomial(self, n, p, size=None):
        return self._native().binomial(n, p, size)

    def standard_gamma(self, shape, size=None):
        return self._native().standard_gamma(shape, size)


class _Stream:
    """A seed and the number of draws taken from it. Threads drawing at once each reserve an offset of their own
    (as Paddle's generator increments its offset under a mutex)."""

    __slots__ = ("seed", "offset", "_lock")

    def __init__(self, seed, offset=0):
        self.seed, self.offset = seed, offset
        self._lock = threading.Lock()

    def draws(self, xp):
        return Draws(xp, stream_key(*self.take()))

    def take(self):
        """This stream's state for one op's draws, and the stream past them."""
        with self._lock:
            state = self.seed, self.offset
            self.offset = state[1] + 1
        return state

    @property
    def state(self):
        with self._lock:
            return self.seed, self.offset

    @state.setter
    def state(self, state):
        with self._lock:
            self.seed, self.offset = state


_state = {"seed": _fresh_seed(), "streams": {}}  # streams: "cpu" / ("gpu", index) -> _Stream


def stream_key(seed, offset):
    """The key of the draws a stream in state (seed, offset) gives: a kernel that draws on the device derives it
    from the same two numbers (kernels/attention.cu)."""
    return _word(_word(seed, _STREAM_DOMAIN), offset)


def _stream(device):
    stream = _state["streams"].get(device)
    if stream is None:  # setdefault: threads drawing first at once share the one stream
        stream = _state["streams"].setdefault(device, _Stream(_state["seed"]))
    return stream


def _device_of(place):
    return "cpu" if place.kind == "cpu" else ("gpu", place.index)


def seed(value):
    """Seed every generator (Paddle's paddle.seed)."""
    _state["seed"] = _check_seed(value, "seed")
    _state["streams"].clear()  # each restarts at (seed, 0) when next used
    return _state["seed"]


def get_rng(xp):
    """The next draws of the global stream of the device array module `xp` computes on."""
    if xp is np:
        return _stream("cpu").draws(np)
    device = ("gpu", xp.cuda.Device().id)
    capture = recording()
    if capture is not None:  # the key is read on the device at each launch
        return Draws(xp, captured_key(capture.random_words, capture.random_draw(_take_offsets, device)))
    refuse_during_capture(xp, "draws from the global random stream outside paddlelite's captures")
    return _stream(device).draws(xp)


def next_seed_offset(xp):
    """The state (seed, offset) of the global stream of `xp`'s device for its next draws, taken as get_rng takes
    them, for an op that draws in its own kernel: `Draws(xp, stream_key(seed, offset))` are the numbers get_rng
    would give. The state is read on the host, so a CUDA-graph capture refuses it."""
    refuse_during_capture(xp, "takes the random stream's state on the host for a kernel that draws itself")
    return _stream("cpu" if xp is np else ("gpu", xp.cuda.Device().id)).take()


def _take_offsets(device, n):
    """For a launch of a captured graph making n draws from `device`'s stream: the stream's key word and the offset
    of the first draw; the stream then stands past them, as running the graph's ops would leave it."""
    stream = _stream(device)
    first, stream.offset = stream.offset, stream.offset + n
    return _word(stream.seed, _STREAM_DOMAIN), first


def rng_for(xp, op_seed):
    """An op's draws: from its own seed when it fixes one (the same on every call), else the global stream's."""
    if op_seed:
        return Draws(xp, _word(int(op_seed), _OP_DOMAIN))
    return get_rng(xp)


class GeneratorState:
    """A snapshot of one generator's state (Paddle's GeneratorState), restored by `set_state`."""

    def __init__(self, device, state):
        self.device, self.state = device, state

    def __repr__(self):
        return f"GeneratorState(device={self.device!r})"


def get_state(kind="cpu"):
    """Snapshots of the generators of one kind of device: 'cpu', or 'gpu' (one per visible GPU)."""
    devices = ["cpu"] if kind == "cpu" else [("gpu", i) for i in range(cuda.device_count())]
    return [GeneratorState(d, _stream(d).state) for d in devices]


def _check_state(state, api):
    if not isinstance(state, GeneratorState):
        raise TypeError(f"{api}: expected a GeneratorState from get_rng_state, received {type(state).__name__}")
    return state


def set_state(states):
    """Restore generators from `get_state`'s snapshots (each names its device)."""
    for s in states:
        state = _check_state(s, "set_rng_state").state
        _stream(s.device).state = state


# ---- paddle.device's generator functions: one device's generator (the top-level package files them
# under paddle.device, which sits below framework) ----
def device_get_rng_state(device=None):
    """The state of the generator of `device` (default: the current device) as one GeneratorState."""
    d = _device_of(device_to_place(device, "paddle.device.get_rng_state"))
    return GeneratorState(d, _stream(d).state)


def device_set_rng_state(new_state, device=None):
    """Restore a generator from device_get_rng_state's GeneratorState (it names its device)."""
    device_to_place(device, "paddle.device.set_rng_state")
    set_state([new_state])


def device_manual_seed(seed):
    """Seed the generator of the current device only (paddle.seed seeds them all)."""
    _state["streams"][_device_of(current_place())] = _Stream(_check_seed(seed, "paddle.device.manual_seed"))


class Generator:
    """A random generator of its own (Paddle's paddle.Generator): seeded, stepped and snapshotted
    independently of the global generators paddle.seed drives."""

    def __init__(self, device=None):
        self.device = device
        self._stream = _Stream(_fresh_seed())

    def manual_seed(self, seed):
        """Restart the stream from `seed`; returns the generator."""
        self._stream = _Stream(_check_seed(seed, "Generator.manual_seed"))
        return self

    def seed(self):
        """Reseed from fresh entropy; returns the new seed."""
        self.manual_seed(_fresh_seed())
        return self._stream.seed

    def initial_seed(self):
        return self._stream.seed

    def random(self):
        """The next raw 64-bit random number."""
        return int(self._stream.draws(np).bits(1)[0])

    def get_state(self):
        return GeneratorState(self.device or "cpu", self._stream.state)

    def set_state(self, state):
        self._stream = _Stream(*_check_state(state, "Generator.set_state").state)
        return self


class _DeviceGenerator(Generator):
    """The global generator of one device (Paddle's core.default_cpu_generator(), which paddle.seed returns): a view
    of the device's stream that paddle.seed and the ops' draws use."""

    def __init__(self, device):
        self.device = device

    @property
    def _stream(self):
        return _stream(self.device)  # the module's function: the device's current stream

    @_stream.setter
    def _stream(self, stream):
        _state["streams"][self.device] = stream


_CPU_GENERATOR = _DeviceGenerator("cpu")


def default_cpu_generator():
    """The CPU's global generator."""
    return _CPU_GENERATOR


def device_manual_seed_all(seed):
    """Seed every device's generator (paddle.seed, returning nothing)."""
    _seed_every_generator(seed)


_seed_every_generator = seed  # device_manual_seed_all's parameter has Paddle's name, `seed`
