"""Global random state: one NumPy generator for the CPU, one CuPy generator per GPU, all seeded together."""
import copy

import numpy as np

from ..device.place import current_place, device_to_place

_state = {"seed": None, "cpu": np.random.default_rng(), "gpu": {}}


def seed(value):
    """Seed every generator (Paddle's paddle.seed)."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"seed: expected an int, received {type(value).__name__}")
    _state["seed"] = int(value)
    _state["cpu"] = np.random.default_rng(int(value))
    _state["gpu"] = {}
    return _state["seed"]


def get_rng(xp, place=None):
    """The generator for array module `xp` (lazily created and seeded for GPUs)."""
    if xp is np:
        return _state["cpu"]
    idx = 0 if place is None else place.index
    gen = _state["gpu"].get(idx)
    if gen is None:
        s = _state["seed"]
        gen = xp.random.default_rng(s if s is not None else None)
        _state["gpu"][idx] = gen
    return gen


def rng_for(xp, op_seed):
    """An op's generator: its own when the op fixes a seed (reproducible per call), else the global one."""
    if op_seed:
        return xp.random.default_rng(int(op_seed))
    return get_rng(xp)


class GeneratorState:
    """A snapshot of one generator's state (Paddle's GeneratorState), restored by `set_state`."""

    def __init__(self, device, state):
        self.device, self.state = device, state

    def __repr__(self):
        return f"GeneratorState(device={self.device!r})"


def get_state(device="cpu"):
    """Snapshots of the generators of `device`: 'cpu', or 'gpu' (one per GPU used so far)."""
    if device == "cpu":
        return [GeneratorState("cpu", copy.deepcopy(_state["cpu"].bit_generator.state))]
    return [GeneratorState(("gpu", idx), copy.deepcopy(gen)) for idx, gen in sorted(_state["gpu"].items())]


def set_state(states):
    """Restore generators from `get_state`'s snapshots."""
    for s in states:
        if not isinstance(s, GeneratorState):
            raise TypeError(f"set_rng_state: expected the GeneratorStates get_rng_state returned, received "
                            f"{type(s).__name__}")
        if s.device == "cpu":
            _state["cpu"].bit_generator.state = copy.deepcopy(s.state)
        else:
            _state["gpu"][s.device[1]] = copy.deepcopy(s.state)


# ---- paddle.device's generator functions: one device's generator (the top-level package files them
# under paddle.device, which sits below framework) ----
def device_get_rng_state(device=None):
    """The state of the generator of `device` (default: the current device) as one GeneratorState."""
    place = device_to_place(device, "paddle.device.get_rng_state")
    if place.kind == "cpu":
        return get_state("cpu")[0]
    return GeneratorState(("gpu", place.index), copy.deepcopy(get_rng(place.xp, place)))


def device_set_rng_state(new_state, device=None):
    """Restore a generator from device_get_rng_state's GeneratorState (it names its device)."""
    device_to_place(device, "paddle.device.set_rng_state")
    set_state([new_state])


def device_manual_seed(seed):
    """Seed the generator of the current device only (paddle.seed seeds them all)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"paddle.device.manual_seed: expected an int, received {type(seed).__name__}")
    place = current_place()
    if place.kind == "cpu":
        _state["cpu"] = np.random.default_rng(int(seed))
    else:
        _state["gpu"][place.index] = place.xp.random.default_rng(int(seed))


class Generator:
    """A random generator of its own (Paddle's paddle.Generator): seeded, stepped and snapshotted
    independently of the global generators paddle.seed drives."""

    def __init__(self, device=None):
        self.device = device
        self._seed = int(np.random.SeedSequence().entropy % (2 ** 63))
        self._rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed):
        """Restart the stream from `seed`; returns the generator."""
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise TypeError(f"Generator.manual_seed: expected an int, received {type(seed).__name__}")
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def seed(self):
        """Reseed from fresh entropy; returns the new seed."""
        self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))
        return self._seed

    def initial_seed(self):
        return self._seed

    def random(self):
        """The next raw 64-bit random number."""
        return int(self._rng.integers(0, 2 ** 63, dtype=np.int64))

    def get_state(self):
        return GeneratorState(self.device or "cpu", copy.deepcopy(self._rng.bit_generator.state))

    def set_state(self, state):
        if not isinstance(state, GeneratorState):
            raise TypeError(f"Generator.set_state: expected a GeneratorState, received {type(state).__name__}")
        self._rng.bit_generator.state = copy.deepcopy(state.state)
        return self

def device_manual_seed_all(seed):
    """Seed every device's generator (paddle.seed, returning nothing)."""
    _seed_every_generator(seed)


_seed_every_generator = seed  # device_manual_seed_all's parameter has Paddle's name, `seed`
