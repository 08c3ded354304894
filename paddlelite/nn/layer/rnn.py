"""Recurrent layers: the cells (SimpleRNNCell, LSTMCell, GRUCell), RNN / BiRNN over a cell, and the
multi-layer SimpleRNN / LSTM / GRU, with Paddle's parameters, initialisation, gate order and printing.

A cell step is the gate matmuls plus one registered op for the elementwise rest (ops/rnn.py:
lstm_cell, gru_cell; fused kernels on the GPU). The time loop is unrolled in Python, in both modes (a
static program gets one copy of the step per time step, so the time dimension must be known).

Padding (`sequence_length`): a state stops changing after a sequence's last valid step. Two output
conventions, as Paddle has them: `RNN`/`BiRNN` (Paddle's cell loop) compute outputs at padded steps
too; SimpleRNN/LSTM/GRU (Paddle's fused `rnn` op) return zeros there. Either way the reverse direction
starts at each sequence's own last valid step: iterating from the end with the state held while
t >= length is exactly a per-sequence reversal.
"""
import math

import numpy as np

from ... import tensor as _t
from ...framework import dtype as _dtype
from ...framework.mode import in_static_mode
from ...ops import rnn as _rnn_ops
from ...ops.dispatch import apply
from ...static.appender import as_variable
from ...static.framework import default_main_program, default_startup_program
from .. import functional as F
from .. import initializer as I
from .container import LayerList
from .layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN", "LSTM", "GRU"]

_BIDIRECTIONAL = ("bidirectional", "bidirect")


def _is_leaf(x):
    return not isinstance(x, (list, tuple))


def _map(fn, *trees):
    """fn over the leaves of equally nested lists/tuples (a state may be a Tensor or a tuple of them)."""
    if _is_leaf(trees[0]):
        return fn(*trees)
    return type(trees[0])(_map(fn, *sub) for sub in zip(*trees))


def _flatten(tree):
    return [tree] if _is_leaf(tree) else [x for sub in tree for x in _flatten(sub)]


def _time_steps(inputs, time_major, api):
    steps = inputs.shape[0 if time_major else 1]
    if steps < 0:
        raise ValueError(f"{api}: the number of time steps must be known (the time dimension of inputs is "
                         f"{list(inputs.shape)}); the loop is unrolled")
    return steps


def _unroll(cell, inputs, states, sequence_length, time_major, is_reverse, zero_padded, **kwargs):
    """Run `cell` over the time steps of `inputs`; returns (outputs stacked along time, final states)."""
    axis = 0 if time_major else 1
    steps = _time_steps(inputs, time_major, type(cell).__name__)
    mask = None
    if sequence_length is not None:
        mask = F.sequence_mask(sequence_length, maxlen=steps, dtype=inputs.dtype)  # [B, T]
    # the built-in cells' input projection is one matmul over every step (cuBLAS-sized), not one per step
    own_step = not kwargs and type(cell).forward is RNNCellBase.forward and not cell._forward_pre_hooks \
        and not cell._forward_post_hooks
    if own_step:
        inputs = cell._input_gates(inputs)
    step_inputs = _t.unstack(inputs, axis=0 if time_major else 1)  # one op (its gradient one stack)
    outputs = [None] * steps
    for t in (reversed(range(steps)) if is_reverse else range(steps)):
        step_in = step_inputs[t]
        out, new_states = cell._step(step_in, states) if own_step else cell(step_in, states, **kwargs)
        if mask is not None:
            keep = _t.unsqueeze(mask[:, t], 1)
            new_states = _map(lambda new, old: new * keep + old * (1.0 - keep), new_states, states)
            if zero_padded:
                out = out * keep
        states = new_states
        outputs[t] = out
    return _t.stack(outputs, axis=axis), states


# ---- cells ----------------------------------------------------------------------------------------
def _batch_filled(batch_ref, batch_dim_idx, dims, batch_axis, value, dtype):
    """A tensor of `value` shaped `dims` with batch_ref's batch size inserted at batch_axis. A static batch_ref
    may leave that size open (-1): the tensor is then built from batch_ref itself, sized when the program runs."""
    batch = batch_ref.shape[batch_dim_idx]
    dims = list(dims)
    if batch >= 0:
        return _t.full(dims[:batch_axis] + [batch] + dims[batch_axis:], value, dtype=dtype)
    column = _t.moveaxis(batch_ref, batch_dim_idx, 0)
    column = _t.reshape(column, [-1, math.prod(column.shape[1:])])[:, :1]  # [batch, 1]
    filled = _t.reshape(_t.full_like(_t.cast(column, dtype), value), [-1] + [1] * len(dims)) + \
        _t.zeros(dims, dtype=dtype)
    return _t.moveaxis(filled, 0, batch_axis)


class RNNCellBase(Layer):
    """Base class of the cells: a cell maps (inputs, states) to (outputs, new states)."""

    def __init__(self, name_scope=None, dtype=None):
        # as in Paddle, a cell's parameters take the default dtype current at construction
        super().__init__(name_scope, dtype)

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0, batch_dim_idx=0):
        """States filled with `init_value`, shaped [batch, *shape] (the batch size read from `batch_ref`)
        for each shape of `shape` (default: the cell's state_shape); dtype: the cell's state_dtype, else
        the default dtype."""
        batch_ref = _flatten(batch_ref)[0]
        shapes = self.state_shape if shape is None else shape
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = _dtype.get_default_dtype()

        def build(shp, dt):
            if isinstance(shp, (list, tuple)) and all(isinstance(d, int) for d in shp):
                shp = list(shp)
                return _batch_filled(batch_ref, batch_dim_idx, shp[1:] if shp and shp[0] == -1 else shp, 0,
                                     init_value, dt)
            if isinstance(dt, (list, tuple)):
                return type(shp)(build(s, d) for s, d in zip(shp, dt))
            return type(shp)(build(s, dt) for s in shp)
        return build(shapes, dtypes)

    @property
    def state_shape(self):
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self):
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")

    def _init_params(self, input_size, hidden_size, gates, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                     bias_hh_attr, hh_cols=None):
        """Paddle's cell parameters, uniform(-1/sqrt(hidden), 1/sqrt(hidden)); an attr of False gives a
        frozen constant (weights 1, biases 0) instead."""
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of {type(self).__name__} must be greater than 0, but now equals to "
                             f"{hidden_size}")
        std = 1.0 / math.sqrt(hidden_size)

        def param(shape, attr, is_bias):
            if attr is not False:
                return self.create_parameter(shape, attr, is_bias=is_bias, default_initializer=I.Uniform(-std, std))
            p = self.create_parameter(shape, None, is_bias=is_bias, default_initializer=I.Constant(0.0 if is_bias
                                                                                                  else 1.0))
            p.stop_gradient = True
            return p

        rows = gates * hidden_size
        self.weight_ih = param((rows, input_size), weight_ih_attr, False)
        self.weight_hh = param((rows, hh_cols or hidden_size), weight_hh_attr, False)
        self.bias_ih = param((rows,), bias_ih_attr, True)
        self.bias_hh = param((rows,), bias_hh_attr, True)
        self.input_size = input_size
        self.hidden_size = hidden_size
        return std

    def _input_gates(self, inputs):
        """x W_ih^T + b_ih: for one step, or for every step at once (one 2-D matmul over all rows of [..., input])."""
        lead = list(inputs.shape[:-1])
        x_gates = _t.matmul(_t.reshape(inputs, [-1, inputs.shape[-1]]) if len(lead) > 1 else inputs, self.weight_ih,
                            transpose_y=True)
        if self.bias_ih is not None:
            x_gates = x_gates + self.bias_ih
        return _t.reshape(x_gates, [*lead, x_gates.shape[-1]]) if len(lead) > 1 else x_gates

    def _hidden_gates(self, pre_hidden):
        h_gates = _t.matmul(pre_hidden, self.weight_hh, transpose_y=True)
        return h_gates + self.bias_hh if self.bias_hh is not None else h_gates

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self._step(self._input_gates(inputs), states)


class SimpleRNNCell(RNNCellBase):
    """h = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act 'tanh' or 'relu'."""

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        self._init_params(input_size, hidden_size, 1, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get {activation}")
        self.activation = activation
        self._activation_fn = _t.tanh if activation == "tanh" else F.relu

    def _step(self, x_gates, states):
        h = self._activation_fn(x_gates + self._hidden_gates(states))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", activation={self.activation}" if self.activation != "tanh" else "")


class LSTMCell(RNNCellBase):
    """Paddle's LSTM step, gates (i, f, g, o): c = s(f) c' + s(i) tanh(g), h = s(o) tanh(c); with
    proj_size > 0, h is projected by weight_ho [hidden, proj]."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of LSTMCell must be greater than 0, but now equals to {hidden_size}")
        if proj_size < 0:
            raise ValueError(f"proj_size of LSTMCell must be greater than 0, but now equals to {hidden_size}")
        if proj_size >= hidden_size:
            raise ValueError("proj_size must be smaller than hidden_size")
        std = self._init_params(input_size, hidden_size, 4, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                                bias_hh_attr, hh_cols=proj_size)
        self.proj_size = proj_size
        if proj_size > 0:
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   default_initializer=I.Uniform(-std, std))

    def _step(self, x_gates, states):
        pre_hidden, pre_cell = states
        h, c = apply(_rnn_ops.LSTM_CELL, x_gates + self._hidden_gates(pre_hidden), pre_cell)
        if self.proj_size > 0:
            h = _t.matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self):
        return ((self.hidden_size,), (self.proj_size or self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    """Paddle's GRU step, gates (r, z, c): r, z = s(x_r + h_r), s(x_z + h_z), c = tanh(x_c + r h_c),
    h = (h' - c) z + c."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None):
        super().__init__()
        self._init_params(input_size, hidden_size, 3, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    def _step(self, x_gates, states):
        h = apply(_rnn_ops.GRU_CELL, x_gates, self._hidden_gates(states), states)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


# ---- a cell over time -----------------------------------------------------------------------------
class RNN(Layer):
    """Runs `cell` over the time steps of its input: forward(inputs, initial_states=None,
    sequence_length=None, **kwargs) -> (outputs, final_states)."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return self._run(inputs, initial_states, sequence_length, False, **kwargs)

    def _run(self, inputs, initial_states, sequence_length, zero_padded, **kwargs):
        if initial_states is None:
            initial_states = self.cell.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if self.time_major else 0)
        return _unroll(self.cell, inputs, initial_states, sequence_length, self.time_major, self.is_reverse,
                       zero_padded, **kwargs)


class BiRNN(Layer):
    """A forward and a backward cell over the same input; outputs concatenated along the last axis,
    final states (forward's, backward's)."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f"that of backward cell({cell_bw.input_size})")
        for cell in (self.cell_fw, self.cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return self._run(inputs, initial_states, sequence_length, False, **kwargs)

    def _run(self, inputs, initial_states, sequence_length, zero_padded, **kwargs):
        if isinstance(initial_states, (list, tuple)) and len(initial_states) != 2:
            raise ValueError(f"BiRNN: initial_states must hold 2 entries (forward, backward) when it is a "
                             f"list/tuple, received {len(initial_states)}")
        if initial_states is None:
            # as Paddle does: both directions' zeros come from the forward cell
            states_fw = self.cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if self.time_major else 0)
            states_bw = self.cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if self.time_major else 0)
        else:
            states_fw, states_bw = initial_states
        out_fw, states_fw = _unroll(self.cell_fw, inputs, states_fw, sequence_length, self.time_major, False,
                                    zero_padded, **kwargs)
        out_bw, states_bw = _unroll(self.cell_bw, inputs, states_bw, sequence_length, self.time_major, True,
                                    zero_padded, **kwargs)
        return _t.concat([out_fw, out_bw], -1), (states_fw, states_bw)


# ---- stacked recurrent networks -------------------------------------------------------------------
def _split_states(states, bidirectional, components):
    """[L*D, B, H] state tensors -> per layer (per direction) cell states."""
    if components == 1:
        per = _t.unstack(states)
        return per if not bidirectional else list(zip(per[::2], per[1::2]))
    per = list(zip(*[_t.unstack(s) for s in states]))
    return per if not bidirectional else list(zip(per[::2], per[1::2]))


def _concat_states(states, components):
    flat = _flatten(states)
    if components == 1:
        return _t.stack(flat)
    return tuple(_t.stack(flat[i::components]) for i in range(components))


class _RNNBase(LayerList):
    """Paddle's RNNBase: num_layers of RNN (or BiRNN) layers over one cell type, dropout between layers;
    states are [num_layers * num_directions, batch, hidden] tensors (a pair (h, c) for LSTM)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward", time_major=False,
                 dropout=0.0, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 proj_size=0):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr, "bias_ih_attr": bias_ih_attr,
                  "bias_hh_attr": bias_hh_attr}
        self.proj_size = proj_size
        if proj_size > 0 and mode != "LSTM":
            raise ValueError(f"{type(self).__name__}: proj_size is for LSTM only, received {proj_size}")
        if mode == "LSTM":
            cell_cls = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cell_cls = GRUCell
        else:
            cell_cls = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        in_size = proj_size or hidden_size
        if direction == "forward":
            self.append(RNN(cell_cls(input_size, hidden_size, **kwargs), False, time_major))
            for _ in range(1, num_layers):
                self.append(RNN(cell_cls(in_size, hidden_size, **kwargs), False, time_major))
        elif direction in _BIDIRECTIONAL:
            self.append(BiRNN(cell_cls(input_size, hidden_size, **kwargs), cell_cls(input_size, hidden_size, **kwargs),
                              time_major))
            for _ in range(1, num_layers):
                self.append(BiRNN(cell_cls(2 * in_size, hidden_size, **kwargs),
                                  cell_cls(2 * in_size, hidden_size, **kwargs), time_major))
        else:
            raise ValueError(f"direction should be forward or bidirect (or bidirectional), received direction = "
                             f"{direction}")
        # Paddle runs its fused `rnn` op (zeros at padded steps) when every cell has exactly its 4
        # parameters, the cell loop otherwise (LSTM with proj_size).
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        # Paddle's flat names (weight_ih_l0, ..._reverse) for the first parameters, paired the way
        # Paddle pairs them (a bias attr of False drops its name but not its frozen parameter).
        names = []
        for layer in range(num_layers):
            for num in range(self.num_directions):
                sfx = "_reverse" if num == 1 else ""
                names += [f"weight_ih_l{layer}{sfx}", f"weight_hh_l{layer}{sfx}"]
                if bias_ih_attr is not False:
                    names.append(f"bias_ih_l{layer}{sfx}")
                if bias_hh_attr is not False:
                    names.append(f"bias_hh_l{layer}{sfx}")
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)
        self.flatten_parameters()

    def flatten_parameters(self):
        """Paddle coalesces the weights into one buffer for cuDNN. A static program shows that as Paddle's does
        (the flat parameter, a coalesce_tensor op in the startup program, the dropout state variable), for the
        `rnn` op its forward appends; the weights themselves are used as they are."""
        if not (in_static_mode() and self.could_use_cudnn):
            return
        params = self.parameters(include_sublayers=False)
        flat = self.create_parameter([sum(int(np.prod(p.shape)) for p in params)], dtype=params[0].dtype,
                                     default_initializer=I.Constant(0.0))
        self._dropout_state_var()
        default_startup_program().global_block().append_op(
            "coalesce_tensor", inputs={"Input": self._all_weights()},
            outputs={"Output": self._all_weights(), "FusedOutput": [flat]},
            attrs=_rnn_ops.COALESCE_TENSOR.fill_attrs({"copy_data": True, "use_align": False,
                                                       "dtype": params[0].dtype.name}))

    def _all_weights(self):
        """The weights in Paddle's cuDNN order: every cell's W_ih, W_hh, then every cell's b_ih, b_hh."""
        params = self.parameters(include_sublayers=False)
        cells = len(params) // 4
        return [w for k in range(cells) for w in params[4 * k:4 * k + 2]] + \
            [b for k in range(cells) for b in params[4 * k + 2:4 * k + 4]]

    def _dropout_state_var(self):
        """The `rnn` op's dropout state variable in the program being built (a layer made in eager mode and traced by
        to_static gets it in the traced program)."""
        main = default_main_program().global_block()
        name = f"{self._full_name}.dropout_state__non_persistable"
        var = main._lookup(name)
        return main.create_var(name, (), "uint8") if var is None else var

    def _rnn_op(self, inputs, initial_states, sequence_length):
        """Paddle's static forward: one `rnn` op over the time-major input (its outputs named by this layer)."""
        if not self.time_major:
            inputs = _t.transpose(inputs, [1, 0, 2])
        program = default_main_program()
        block = program.current_block()

        def new_var(shape, dtype, stop_gradient=False):
            return block.create_var(program._name_generator(self._full_name + ".tmp"), shape, dtype,
                                    stop_gradient=stop_gradient)
        dtype = inputs.dtype.name
        out = new_var((inputs.shape[0], inputs.shape[1], self.num_directions * self.hidden_size), dtype)
        states = [new_var(s.shape, dtype) for s in initial_states]
        reserve = new_var((), "uint8", stop_gradient=True)
        block.append_op(
            "rnn", inputs={"Input": [inputs], "WeightList": [as_variable(w) for w in self._all_weights()],
                           "PreState": list(initial_states),
                           "SequenceLength": [] if sequence_length is None else [sequence_length]},
            outputs={"Out": [out], "State": states, "Reserve": [reserve], "DropoutState": [self._dropout_state_var()]},
            attrs={"dropout_prob": float(self.dropout), "is_bidirec": self.num_directions == 2,
                   "input_size": self.input_size, "hidden_size": self.hidden_size, "num_layers": self.num_layers,
                   "mode": self.mode, "seed": 0, "is_test": not self.training})
        out = out if self.time_major else _t.transpose(out, [1, 0, 2])
        return out, tuple(states) if len(states) > 1 else states[0]

    def forward(self, inputs, initial_states=None, sequence_length=None):
        if in_static_mode() and self.could_use_cudnn:
            if initial_states is None:  # Paddle's zeros [L * D, batch, H], the batch read off the input at run time
                batch = inputs.shape[1 if self.time_major else 0]
                if batch < 0:
                    batch = _t.shape(inputs)[1 if self.time_major else 0]
                initial_states = [_t.full([self.num_layers * self.num_directions, batch, self.hidden_size], 0,
                                          dtype=inputs.dtype) for _ in range(self.state_components)]
            elif not isinstance(initial_states, (list, tuple)):
                initial_states = [initial_states]
            return self._rnn_op(inputs, initial_states, sequence_length)
        if initial_states is None:
            dims = ([self.proj_size or self.hidden_size], [self.hidden_size])
            initial_states = tuple(
                _batch_filled(inputs, 1 if self.time_major else 0, [self.num_layers * self.num_directions, *dims[i]],
                              1, 0.0, inputs.dtype)
                for i in range(self.state_components))
        elif self.state_components == 1 and not isinstance(initial_states, (list, tuple)):
            initial_states = [initial_states]
        if self.state_components == 1:
            initial_states = initial_states[0]
        states = _split_states(initial_states, self.num_directions == 2, self.state_components)
        final_states = []
        for i, rnn_layer in enumerate(self):
            if i > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training, mode="upscale_in_train")
            inputs, final = rnn_layer._run(inputs, states[i], sequence_length, self.could_use_cudnn)
            final_states.append(final)
        return inputs, _concat_states(final_states, self.state_components)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(_RNNBase):
    """Multi-layer Elman RNN (activation 'tanh' or 'relu')."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 activation="tanh", weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 name=None):
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation '{activation}'")
        self.activation = activation
        super().__init__("RNN_TANH" if activation == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         direction, time_major, dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)


class LSTM(_RNNBase):
    """Multi-layer LSTM; final states (h, c), each [num_layers * num_directions, batch, hidden]."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, proj_size=0,
                 name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size)


class GRU(_RNNBase):
    """Multi-layer GRU."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
