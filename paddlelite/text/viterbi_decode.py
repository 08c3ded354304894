"""viterbi_decode / ViterbiDecoder: the highest scoring tag sequence of a linear-chain CRF (op viterbi_decode)."""
from __future__ import annotations

from ..framework.mode import in_static_mode
from ..nn.layer.layers import Layer
from ..ops import search as _search
from ..ops.dispatch import apply
from ..tensor.math import _check_tensor

_FLOATS = ("float32", "float64")


def _static_dtype(x, arg, allowed):
    """Paddle's static API checks an argument's dtype before building the op (TypeError)."""
    if x.dtype.name not in allowed:
        raise TypeError(f"The data type of '{arg}' in viterbi_decode must be {list(allowed)}, but received "
                        f"{x.dtype.name}")


def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True, name=None):
    """(scores [batch], paths [batch, max(lengths)] int64): the best path through the emissions `potentials`
    [batch, seq_len, num_tags] under the transition scores `transition_params` [num_tags, num_tags], each sequence
    `lengths[b]` long. With include_bos_eos_tag the last row of the transitions scores the start tag and the second
    to last the stop tag."""
    for x, arg in ((potentials, "potentials"), (transition_params, "transition_params"), (lengths, "lengths")):
        _check_tensor(x, "viterbi_decode", arg)
    if in_static_mode():
        _static_dtype(potentials, "input", _FLOATS)
        _static_dtype(transition_params, "transitions", _FLOATS)
        _static_dtype(lengths, "length", ("int64",))
        if not isinstance(include_bos_eos_tag, bool):
            raise TypeError(f"The type of 'include_tag' in viterbi_decode must be bool, but received "
                            f"{type(include_bos_eos_tag).__name__}")
    return apply(_search.VITERBI_DECODE, potentials, transition_params, lengths,
                 include_bos_eos_tag=bool(include_bos_eos_tag))


class ViterbiDecoder(Layer):
    """viterbi_decode with the transition matrix held by the layer: forward(potentials, lengths)."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
