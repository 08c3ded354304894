"""Global random state: one NumPy generator for the CPU, one CuPy generator per GPU, all seeded together."""
import numpy as np

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
