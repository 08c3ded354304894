"""Decoding with a recurrent cell: Decoder (the interface), BeamSearchDecoder and dynamic_decode, as Paddle's
paddle.nn.decode. Dynamic mode runs a Python loop that stops when every sequence has finished; static mode
builds one static.nn.while_loop whose loop vars carry the step counter, inputs, states, finished flags,
lengths and the outputs so far (each grown by one step per iteration), as Paddle's While block with tensor
arrays does."""
from typing import NamedTuple

import numpy as np

from ..framework import user_warnings as _user_warnings
from .. import tensor as _t
from ..framework import dtype as _dtype
from ..framework.mode import in_static_mode
from ..static.control_flow import while_loop
from ..static.framework import Variable
from . import functional as F
from .layer.rnn import _flatten, _is_leaf, _map

__all__ = []


class Decoder:
    """The interface dynamic_decode drives: initialize(inits) -> (inputs, states, finished); step(time,
    inputs, states, **kwargs) -> (outputs, next_states, next_inputs, finished); finalize(outputs,
    final_states, sequence_lengths) -> (outputs, states) (optional)."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """Whether the decoder keeps finished sequences finished itself (dynamic_decode does it otherwise)."""
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over `cell`: each step scores every (beam, token) by the beam's log-probability plus the
    token's, keeps the best beam_size per batch entry, and finished beams only extend with end_token at no
    cost. Tensors are [batch, beam, ...]; the cell sees [batch * beam, ...]."""

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None, output_fn=None):
        self.cell = cell
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn
        self.start_token = start_token
        self.end_token = end_token
        self.beam_size = beam_size

    class OutputWrapper(NamedTuple):
        scores: object
        predicted_ids: object
        parent_ids: object

    class StateWrapper(NamedTuple):
        cell_states: object
        log_probs: object
        finished: object
        lengths: object

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """[batch, ...] -> [batch * beam_size, ...], each entry repeated beam_size times in a row."""
        x = _t.unsqueeze(x, [1])
        times = [1] * len(x.shape)
        times[1] = beam_size
        return _t.reshape(_t.tile(x, times), [-1, *x.shape[2:]])

    def _split_batch_beams(self, x):
        return _t.reshape(x, [-1, self.beam_size, *x.shape[1:]])

    def _merge_batch_beams(self, x):
        return _t.reshape(x, [-1, *x.shape[2:]])

    def _expand_to_beam_size(self, x):
        x = _t.unsqueeze(x, [1])
        times = [1] * len(x.shape)
        times[1] = self.beam_size
        return _t.tile(x, times)

    def _mask_probs(self, probs, finished):
        """Finished beams: log-prob 0 for end_token, -inf (-1e9) for the rest; others unchanged."""
        finished = _t.cast(finished, probs.dtype)
        return _t.multiply(_t.tile(_t.unsqueeze(finished, [2]), [1, 1, self.vocab_size]), self.noend_mask_tensor) \
            - _t.multiply(probs, _t.unsqueeze(finished - 1, [2]))

    def _gather(self, x, indices):
        """x[b, indices[b, k]] for every batch entry b."""
        # the row numbers b from the indices themselves: a static program may not know the batch size
        batch_pos = _t.cumsum(_t.ones_like(indices), axis=0) - 1
        coordinates = _t.stack([batch_pos, indices], axis=2)
        coordinates.stop_gradient = True
        return _t.gather_nd(x, coordinates)

    def initialize(self, initial_cell_states):
        self.kinf = 1e9
        init_cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        # [batch, beam] zeros shaped by a tiled state, so the batch size need not be known when building
        state = _flatten(init_cell_states)[0]
        zeros = _t.zeros_like(_t.cast(_t.sum(state, axis=list(range(2, len(state.shape)))), "int64"))
        init_inputs = _t.full_like(zeros, self.start_token)
        log_probs = _t.cast(zeros, "float32") + _t.assign(
            np.array([[0.0] + [-self.kinf] * (self.beam_size - 1)], "float32"))
        if _dtype.get_default_dtype() == "float64":
            log_probs = _t.cast(log_probs, "float64")
        init_finished = _t.cast(zeros, "bool")
        init_lengths = _t.zeros_like(init_inputs)
        init_inputs = self.embedding_fn(init_inputs) if self.embedding_fn else init_inputs
        return init_inputs, self.StateWrapper(init_cell_states, log_probs, init_finished, init_lengths), init_finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        self.vocab_size = logits.shape[-1]
        noend = [-self.kinf] * self.vocab_size
        noend[self.end_token] = 0
        self.noend_mask_tensor = _t.assign(np.array(noend, "float32"))
        if _dtype.get_default_dtype() == "float64":
            self.noend_mask_tensor = _t.cast(self.noend_mask_tensor, "float64")
        step_log_probs = self._mask_probs(_t.log(F.softmax(logits)), beam_state.finished)
        log_probs = _t.add(step_log_probs, _t.unsqueeze(beam_state.log_probs, [2]))
        scores = _t.reshape(log_probs, [-1, self.beam_size * self.vocab_size])
        topk_scores, topk_indices = _t.topk(scores, k=self.beam_size)
        vocab = _t.full([1], self.vocab_size, dtype="int64")
        beam_indices = _t.floor_divide(topk_indices, vocab)
        token_indices = _t.remainder(topk_indices, vocab)
        next_log_probs = self._gather(scores, topk_indices)
        next_cell_states = _map(lambda x: self._gather(x, beam_indices), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices)
        next_lengths = self._gather(beam_state.lengths, beam_indices)
        next_lengths = next_lengths + _t.cast(_t.logical_not(next_finished), beam_state.lengths.dtype)
        next_finished = _t.logical_or(next_finished, _t.equal(token_indices, _t.full([1], self.end_token, "int64")))
        return (self.OutputWrapper(topk_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths))

    def step(self, time, inputs, states, **kwargs):
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        sample_ids = output.predicted_ids
        sample_ids.stop_gradient = True
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The predicted ids traced back through the parent beams (gather_tree)."""
        predicted_ids = F.gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return _t.cast(predicted_ids, outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self):
        return True


def _map_outputs(fn, tree):
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return type(tree)(*(_map_outputs(fn, x) for x in tree))
    if not _is_leaf(tree):
        return type(tree)(_map_outputs(fn, x) for x in tree)
    return fn(tree)


def _map_leaves(fn, *trees):
    """fn over the matching leaves of equally nested structures (named tuples included)."""
    columns = iter(zip(*map(_flatten, trees)))
    return _map_outputs(lambda _: fn(*next(columns)), trees[0])


def _keep_finished(state, new_state, finished):
    """new_state where the sequence is still running, the old state where it had finished."""
    dtype = state.dtype
    is_bool = dtype.name == "bool"
    old, new = (_t.cast(state, "float32"), _t.cast(new_state, "float32")) if is_bool else (state, new_state)
    mask = _t.unsqueeze(_t.cast(finished, old.dtype), [1])
    mask.stop_gradient = True
    out = _t.multiply(old, mask) - _t.multiply(new, mask - 1)
    return _t.cast(out, dtype) if is_bool else out


def _decode_step(decoder, time, inputs, states, finished, lengths, impute_finished, counted_after_step, kwargs):
    """One decoder step with dynamic_decode's bookkeeping; returns (outputs, inputs, states, finished, lengths).
    Where dynamic_decode tracks the finished flags, Paddle counts a step into the lengths and imputes the
    states by the flags after the step in dynamic mode but by those before it in static mode (its While
    block updates the flags after both): `counted_after_step` picks."""
    outputs, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
    if decoder.tracks_own_finished:
        if not hasattr(next_states, "lengths"):
            _user_warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` would be "
                                "all zeros.")
        return outputs, next_inputs, next_states, next_finished, getattr(next_states, "lengths", lengths)
    next_finished = _t.logical_or(next_finished, finished)
    seen = next_finished if counted_after_step else finished
    next_lengths = lengths + _t.cast(_t.logical_not(seen), lengths.dtype)
    if impute_finished:
        next_states = _map_leaves(lambda a, b: _keep_finished(a, b, seen), states, next_states)
    return outputs, next_inputs, next_states, next_finished, next_lengths


def _decode_eager(decoder, inputs, states, finished, max_step_num, impute_finished, kwargs):
    sequence_lengths = _t.cast(_t.zeros_like(finished), "int64")
    steps = []
    step = 0
    while not bool(_t.all(finished)):
        time = _t.full([1], step, dtype="int64")
        outputs, inputs, states, finished, sequence_lengths = _decode_step(
            decoder, time, inputs, states, finished, sequence_lengths, impute_finished, True, kwargs)
        steps.append(outputs)
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    if not steps:  # Paddle fails here too (AttributeError eagerly, ValueError in its static loop)
        raise ValueError("dynamic_decode: decoder.initialize returned every sequence finished, so no step ran "
                         "and there are no outputs")
    return _map_leaves(lambda *xs: _t.stack(list(xs), axis=0), *steps), states, sequence_lengths


def _decode_static(decoder, inputs, states, finished, max_step_num, impute_finished, is_test, kwargs):
    """One while_loop. Its first step is built before the loop: that gives the structure, dtypes and shapes
    of the outputs the loop then extends by one step per iteration (Paddle learns them inside its While
    block and creates the tensor arrays outside it afterwards)."""
    finished.stop_gradient = True
    lengths = _t.cast(_t.zeros_like(finished), "int64")
    lengths.stop_gradient = True
    limit = None if max_step_num is None else _t.full([1], max_step_num, dtype="int64")

    def step(time, inputs, states, finished, lengths):
        # the step reads the time before the increment (static increment writes the counter in place)
        stepped = _decode_step(decoder, time, inputs, states, finished, lengths, impute_finished, False, kwargs)
        return (_t.increment(time, 1.0),) + stepped

    time, outputs, inputs, states, finished, lengths = step(_t.full([1], 0, dtype="int64"), inputs, states,
                                                           finished, lengths)
    carried = (time, inputs, states, finished, lengths, _map_outputs(lambda x: _t.unsqueeze(x, [0]), outputs))
    # the Variables are the loop vars; anything else (a Python value in a decoder's structure) stays as is
    flat = _flatten(carried)
    at = [k for k, v in enumerate(flat) if isinstance(v, Variable)]

    def unpack(loop_vars):
        now = list(flat)
        for k, v in zip(at, loop_vars):
            now[k] = v
        leaves = iter(now)
        return _map_outputs(lambda _: next(leaves), carried)

    def cond(*loop_vars):
        time, _, _, finished, _, _ = unpack(loop_vars)
        running = _t.logical_not(_t.all(finished))
        return running if limit is None else _t.logical_and(running, _t.less_equal(time, limit))

    def body(*loop_vars):
        time, inputs, states, finished, lengths, so_far = unpack(loop_vars)
        time, outputs, inputs, states, finished, lengths = step(time, inputs, states, finished, lengths)
        so_far = _map_leaves(lambda acc, x: _t.concat([acc, _t.unsqueeze(x, [0])], axis=0), so_far, outputs)
        now = _flatten((time, inputs, states, finished, lengths, so_far))
        return [now[k] for k in at]

    # the loop writes its loop vars in place (as Paddle's): it works on copies, so the first step's gradients read
    # that step's values
    loop_vars = [_t.assign(flat[k]) for k in at]
    _, _, states, _, lengths, outputs = unpack(while_loop(cond, body, loop_vars, is_test=is_test))
    return outputs, states, lengths


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False, impute_finished=False,
                   is_test=False, return_length=False, **kwargs):
    """Run decoder.step until every sequence has finished (or past max_step_num steps); returns (outputs,
    final_states) -- plus sequence_lengths with return_length -- outputs stacked along time (batch first
    unless output_time_major)."""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"dynamic_decode: decoder must be a Decoder, received {type(decoder).__name__}")
    inputs, states, finished = decoder.initialize(inits)
    if in_static_mode():
        final_outputs, final_states, sequence_lengths = _decode_static(
            decoder, inputs, states, finished, max_step_num, impute_finished, is_test, kwargs)
    else:
        final_outputs, final_states, sequence_lengths = _decode_eager(
            decoder, inputs, states, finished, max_step_num, impute_finished, kwargs)
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, final_states, sequence_lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = _map_outputs(lambda x: _t.transpose(x, [1, 0, *range(2, len(x.shape))]), final_outputs)
    return (final_outputs, final_states, sequence_lengths) if return_length else (final_outputs, final_states)
