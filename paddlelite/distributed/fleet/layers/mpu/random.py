"""The model-parallel random states (Paddle's fleet.layers.mpu.random): named generator states that a block of code
draws from (`with get_rng_state_tracker().rng_state(name):`), kept apart from the default generator's, so that
ranks of a model-parallel group draw the same or different numbers on purpose. paddlelite has no model-parallel
topology, so the model-parallel rank is 0 of 1 and the pipeline stage 0 of 1 (model_parallel_random_seed)."""
import contextlib

import numpy as np

from .....framework.random import seed as _seed
from .....nn import functional as F
from .....tensor.sampling import get_rng_state, set_rng_state

__all__ = []

MODEL_PARALLEL_RNG = "model_parallel_rng"


class RNGStatesTracker:
    """Named states of the current device kind's generators (paddle.get_rng_state's lists)."""

    def __init__(self):
        self.states_ = {}
        self.seeds_ = set()

    def reset(self):
        self.states_ = {}
        self.seeds_ = set()

    def add(self, name, seed):
        """A new state `name`: the generators as paddle.seed(seed) leaves them; the current state is kept."""
        if seed in self.seeds_:
            raise ValueError(f"seed {seed} already exists")
        self.seeds_.add(seed)
        if name in self.states_:
            raise ValueError(f"state {name} already exists")
        original = get_rng_state()
        _seed(seed)
        self.states_[name] = get_rng_state()
        set_rng_state(original)

    def get_states_tracker(self):
        return dict(self.states_)

    def set_states_tracker(self, states):
        for name in states:
            if name not in self.states_:
                raise ValueError(f"state {name} does not exists")
            self.states_[name] = states[name]

    @contextlib.contextmanager
    def rng_state(self, name=MODEL_PARALLEL_RNG):
        """Draw from state `name` inside the block (which then advances it); the default state is restored after."""
        if name not in self.states_:
            raise ValueError(f"state {name} does not exist")
        original = get_rng_state()
        set_rng_state(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = get_rng_state()
            set_rng_state(original)


RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker():
    return RNG_STATE_TRACKER


def model_parallel_random_seed(seed=None):
    """Seed the default generators with `seed` (a random one when None or 0) and the tracker's model-parallel
    state with seed + 1 (Paddle adds the model-parallel rank and pipeline stage, both 0 here)."""
    global_seed = seed if seed else np.random.randint(0, 10000)
    RNG_STATE_TRACKER.reset()
    RNG_STATE_TRACKER.add(MODEL_PARALLEL_RNG, global_seed + 1)
    _seed(global_seed)


def dropout(x, p=0.5, axis=None, rng_name=None, training=True, mode="upscale_in_train", name=None):
    """F.dropout; with `rng_name`, Paddle checks its arguments first (and, as Paddle's, draws from the current
    generator: the name selects nothing)."""
    if rng_name is None:
        return F.dropout(x, p, axis, training, mode=mode, name=name)
    if isinstance(p, bool) or not isinstance(p, (float, int)) and not hasattr(p, "shape"):
        raise TypeError("p argument should be a number(int|float) or Variable")
    if isinstance(p, (int, float)) and p == 0:
        return x
    if isinstance(p, (int, float)) and not 0 <= p <= 1:
        raise ValueError("p argument should between 0 and 1")
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    if axis is not None:
        raise TypeError("unsupported axis when using random seed generator")
    return F.dropout(x, p, None, training, mode=mode, name=name)
