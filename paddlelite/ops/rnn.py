"""Recurrent cell steps: the elementwise part of one LSTM / GRU step after the gate matmuls; Paddle's fused
multi-layer `rnn` op (with its `rnn_grad`: backpropagation through time) and `coalesce_tensor`, which static
programs' LSTM / GRU / SimpleRNN layers build as Paddle's do; and gather_tree, beam search's backtrace over the
steps of a decoder.

- lstm_cell(Gates, CPrev) -> (H, C): Gates = x W_ih^T + b_ih + h W_hh^T + b_hh, [B, 4H] in Paddle's
  gate order (i, f, g, o); C = sigmoid(f) * CPrev + sigmoid(i) * tanh(g), H = sigmoid(o) * tanh(C).
- gru_cell(XGates, HGates, HPrev) -> H: XGates = x W_ih^T + b_ih, HGates = h W_hh^T + b_hh, [B, 3H] in
  Paddle's order (r, z, c); r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z), c = tanh(x_c + r * h_c),
  H = (HPrev - c) * z + c (the reset gate is applied after the matmul, as Paddle's GRUCell does).

Each forward and each backward is one elementwise pass: the backward is a dedicated grad op
(lstm_cell_grad, gru_cell_grad), and on the GPU fused kernels (kernels/rnn.cu) replace all four. The grad
ops' own gradients (double backward) are formulas of registered ops, so every higher order works too.
"""
import numpy as np

from ..framework.random import rng_for
from .formula import concat, sigmoid, tanh
from .launch import rnn as _launch
from .registry import Meta, register_op
from .shape_rules import check_float


def _sig(xp, a):
    one = a.dtype.type(1)
    return one / (one + xp.exp(-a))


def _check_gates(op, gates, n, slot, prev, prev_slot):
    """`gates` is [B, n*H] with `prev` [B, H] (-1 = unknown); returns H."""
    check_float(op, gates, slot, real=True)
    check_float(op, prev, prev_slot, real=True)
    if gates.dtype != prev.dtype:
        raise TypeError(f"op '{op}': input '{prev_slot}' has dtype {prev.dtype} but '{slot}' has {gates.dtype}")
    if len(gates.shape) != 2 or len(prev.shape) != 2:
        raise ValueError(f"op '{op}': '{slot}' and '{prev_slot}' must be 2-D, received shapes "
                         f"{list(gates.shape)} and {list(prev.shape)}")
    h = prev.shape[1]
    known = -1 not in (gates.shape[1], h)
    if known and gates.shape[1] != n * h or -1 not in (gates.shape[0], prev.shape[0]) \
            and gates.shape[0] != prev.shape[0]:
        raise ValueError(f"op '{op}': '{slot}' must be [batch, {n} * hidden] for '{prev_slot}' "
                         f"[batch, hidden] = {list(prev.shape)}, received {list(gates.shape)}")
    return h


# ---- lstm_cell ------------------------------------------------------------------------------------
def _lstm_parts(xp, gates, c_prev):
    i, f, g, o = xp.split(gates, 4, axis=1)
    si, sf, so, tg = _sig(xp, i), _sig(xp, f), _sig(xp, o), xp.tanh(g)
    return si, sf, so, tg, sf * c_prev + si * tg


def _lstm_cell_forward(xp, gates, c_prev):
    _, _, so, _, c = _lstm_parts(xp, gates, c_prev)
    return so * xp.tanh(c), c


def _lstm_cell_infer(gates, c_prev):
    _check_gates("lstm_cell", gates, 4, "Gates", c_prev, "CPrev")
    meta = Meta(tuple(c_prev.shape), c_prev.dtype)
    return meta, meta


def _lstm_cell_grad(g):
    if g.needs_any("Gates", "CPrev"):
        g.set_input_grads(("Gates", "CPrev"), g.op(
            "lstm_cell_grad", g.input("Gates"), g.input("CPrev"), g.output("C"),
            g.output_grad_or_zeros("H"), g.output_grad_or_zeros("C")))


def _lstm_cell_grad_forward(xp, gates, c_prev, c, dh, dc):
    si, sf, so, tg, _ = _lstm_parts(xp, gates, c_prev)
    one = gates.dtype.type(1)
    tc = xp.tanh(c)
    dct = dc + dh * so * (one - tc * tc)
    dgates = xp.concatenate([dct * tg * si * (one - si), dct * c_prev * sf * (one - sf),
                             dct * si * (one - tg * tg), dh * tc * so * (one - so)], axis=1)
    return dgates, dct * sf


def _lstm_cell_grad_infer(gates, c_prev, c, dh, dc):
    _check_gates("lstm_cell_grad", gates, 4, "Gates", c_prev, "CPrev")
    for slot, t in (("C", c), ("DH", dh), ("DC", dc)):
        if t.dtype != c_prev.dtype or len(t.shape) != 2:
            raise ValueError(f"op 'lstm_cell_grad': '{slot}' must be a 2-D {c_prev.dtype} tensor like CPrev, "
                             f"received {t.dtype} {list(t.shape)}")
    return Meta(tuple(gates.shape), gates.dtype), Meta(tuple(c_prev.shape), c_prev.dtype)


def _split(g, x, n):
    return g.op("split", x, num=n, axis=1)


def _lstm_cell_grad_grad(g):
    # lstm_cell_grad computes, from gates (i, f, g, o), CPrev cp, C c and the grads dh, dc:
    #   dct = dc + dh so tc', DGates = dct [tg si', cp sf', si tg', 0] + [0, 0, 0, dh tc so'], DCPrev = dct sf
    # (s = sigmoid, t = tanh, ' their derivatives: s' = s (1 - s), s'' = s' (1 - 2 s), t' = 1 - t^2,
    # t'' = -2 t t'). With u = the grad of DGates and w that of DCPrev, G = dL/d dct:
    gi, gf, gg, go = _split(g, g.input("Gates"), 4)
    cp, c, dh, dc = g.input("CPrev"), g.input("C"), g.input("DH"), g.input("DC")
    ui, uf, ug, uo = _split(g, g.output_grad_or_zeros("DGates"), 4)
    w = g.output_grad_or_zeros("DCPrev")
    si, sf, so, tg, tc = sigmoid(gi), sigmoid(gf), sigmoid(go), tanh(gg), tanh(c)
    dsi, dsf, dso, dtg, dtc = si * (1 - si), sf * (1 - sf), so * (1 - so), 1 - tg * tg, 1 - tc * tc
    dct = dc + dh * so * dtc
    big_g = ui * tg * dsi + uf * cp * dsf + ug * si * dtg + w * sf
    if g.needs("Gates"):
        g.set_input_grad("Gates", concat([dct * dsi * (ui * tg * (1 - 2 * si) + ug * dtg),
                                          dct * dsf * (uf * cp * (1 - 2 * sf) + w),
                                          dct * dtg * (ui * dsi - 2 * ug * si * tg),
                                          dh * dso * (big_g * dtc + uo * tc * (1 - 2 * so))], axis=1))
    if g.needs("CPrev"):
        g.set_input_grad("CPrev", uf * dct * dsf)
    if g.needs("C"):
        g.set_input_grad("C", dh * dtc * (uo * dso - 2 * big_g * so * tc))
    if g.needs("DH"):
        g.set_input_grad("DH", big_g * so * dtc + uo * tc * dso)
    if g.needs("DC"):
        g.set_input_grad("DC", big_g)


LSTM_CELL = register_op("lstm_cell", inputs=("Gates", "CPrev"), outputs=("H", "C"), forward=_lstm_cell_forward,
                        infer=_lstm_cell_infer, grad=_lstm_cell_grad, same_dtype=("Gates", "CPrev"),
                        gpu=_launch.lstm_cell, double_grad=True)
LSTM_CELL_GRAD = register_op("lstm_cell_grad", inputs=("Gates", "CPrev", "C", "DH", "DC"),
                             outputs=("DGates", "DCPrev"), forward=_lstm_cell_grad_forward,
                             infer=_lstm_cell_grad_infer, grad=_lstm_cell_grad_grad, double_grad=True,
                             same_dtype=("Gates", "CPrev", "C", "DH", "DC"), gpu=_launch.lstm_cell_grad)


# ---- gru_cell -------------------------------------------------------------------------------------
def _gru_parts(xp, x_gates, h_gates):
    xr, xz, xc = xp.split(x_gates, 3, axis=1)
    hr, hz, hc = xp.split(h_gates, 3, axis=1)
    r, z = _sig(xp, xr + hr), _sig(xp, xz + hz)
    return r, z, hc, xp.tanh(xc + r * hc)


def _gru_cell_forward(xp, x_gates, h_gates, h_prev):
    _, z, _, c = _gru_parts(xp, x_gates, h_gates)
    return (h_prev - c) * z + c


def _gru_cell_infer(x_gates, h_gates, h_prev):
    _check_gates("gru_cell", x_gates, 3, "XGates", h_prev, "HPrev")
    _check_gates("gru_cell", h_gates, 3, "HGates", h_prev, "HPrev")
    return Meta(tuple(h_prev.shape), h_prev.dtype)


def _gru_cell_grad(g):
    if g.needs_any("XGates", "HGates", "HPrev"):
        g.set_input_grads(("XGates", "HGates", "HPrev"), g.op(
            "gru_cell_grad", g.input("XGates"), g.input("HGates"), g.input("HPrev"), g.output_grad("H")))


def _gru_cell_grad_forward(xp, x_gates, h_gates, h_prev, dh):
    r, z, hc, c = _gru_parts(xp, x_gates, h_gates)
    one = x_gates.dtype.type(1)
    dcp = dh * (one - z) * (one - c * c)
    drp = dcp * hc * r * (one - r)
    dzp = dh * (h_prev - c) * z * (one - z)
    return (xp.concatenate([drp, dzp, dcp], axis=1), xp.concatenate([drp, dzp, dcp * r], axis=1), dh * z)


def _gru_cell_grad_infer(x_gates, h_gates, h_prev, dh):
    meta = _gru_cell_infer(x_gates, h_gates, h_prev)
    if dh.dtype != h_prev.dtype or len(dh.shape) != 2:
        raise ValueError(f"op 'gru_cell_grad': 'DH' must be a 2-D {h_prev.dtype} tensor like HPrev, received "
                         f"{dh.dtype} {list(dh.shape)}")
    return Meta(tuple(x_gates.shape), x_gates.dtype), Meta(tuple(h_gates.shape), h_gates.dtype), meta


def _gru_cell_grad_grad(g):
    # gru_cell_grad computes, with r, z = sigmoid(xr + hr), sigmoid(xz + hz), c = tanh(xc + r hc):
    #   dcp = dh (1 - z) c', drp = dcp hc r', dzp = dh (hp - c) z',
    #   DXGates = [drp, dzp, dcp], DHGates = [drp, dzp, dcp r], DHPrev = dh z
    # (' as in _lstm_cell_grad_grad). With ux, uh, w the grads of the three, k = dL/d dcp:
    xr, xz, xc = _split(g, g.input("XGates"), 3)
    hr, hz, hc = _split(g, g.input("HGates"), 3)
    hp, dh = g.input("HPrev"), g.input("DH")
    uxr, uxz, uxc = _split(g, g.output_grad_or_zeros("DXGates"), 3)
    uhr, uhz, uhc = _split(g, g.output_grad_or_zeros("DHGates"), 3)
    w = g.output_grad_or_zeros("DHPrev")
    r, z = sigmoid(xr + hr), sigmoid(xz + hz)
    c = tanh(xc + r * hc)
    dr, dz, dc = r * (1 - r), z * (1 - z), 1 - c * c
    ur, uz = uxr + uhr, uxz + uhz
    dcp = dh * (1 - z) * dc
    k = ur * hc * dr + uxc + uhc * r
    d_c_pre = dh * dc * (-2 * k * (1 - z) * c - uz * dz)     # dL/d(xc + r hc)
    d_z_pre = dh * dz * (uz * (hp - c) * (1 - 2 * z) + w - k * dc)
    d_r_pre = dr * (dcp * (ur * hc * (1 - 2 * r) + uhc) + d_c_pre * hc)
    if g.needs("XGates"):
        g.set_input_grad("XGates", concat([d_r_pre, d_z_pre, d_c_pre], axis=1))
    if g.needs("HGates"):
        g.set_input_grad("HGates", concat([d_r_pre, d_z_pre, dcp * ur * dr + d_c_pre * r], axis=1))
    if g.needs("HPrev"):
        g.set_input_grad("HPrev", uz * dh * dz)
    if g.needs("DH"):
        g.set_input_grad("DH", k * (1 - z) * dc + uz * (hp - c) * dz + w * z)


GRU_CELL = register_op("gru_cell", inputs=("XGates", "HGates", "HPrev"), outputs=("H",),
                       forward=_gru_cell_forward, infer=_gru_cell_infer, grad=_gru_cell_grad,
                       same_dtype=("XGates", "HGates", "HPrev"), gpu=_launch.gru_cell, double_grad=True)
GRU_CELL_GRAD = register_op("gru_cell_grad", inputs=("XGates", "HGates", "HPrev", "DH"),
                            outputs=("DXGates", "DHGates", "DHPrev"), forward=_gru_cell_grad_forward,
                            infer=_gru_cell_grad_infer, grad=_gru_cell_grad_grad, double_grad=True,
                            same_dtype=("XGates", "HGates", "HPrev", "DH"), gpu=_launch.gru_cell_grad)


# ---- rnn: Paddle's fused multi-layer RNN op (static programs' LSTM / GRU / SimpleRNN) ----------------
# Input [T, B, I] (time major), PreState [L*D, B, H] (h; and c for LSTM), WeightList in Paddle's cuDNN order
# (every cell's W_ih, W_hh, then every cell's b_ih, b_hh; cell = layer * D + direction), SequenceLength [B]
# (optional: steps past a sequence's length give zeros and leave its state as it is). Out [T, B, D*H], State
# like PreState; Reserve holds the dropout masks between layers, DropoutState is Paddle's cuDNN dropout state.
_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def rnn_cells(weights, num_layers, is_bidirec):
    n = num_layers * (2 if is_bidirec else 1)
    return [(weights[2 * k], weights[2 * k + 1], weights[2 * n + 2 * k], weights[2 * n + 2 * k + 1]) for k in range(n)]


def _valid_steps(xp, T, seq_len):
    """[T, B, 1] mask of the steps within each sequence's length, or None when every step counts."""
    return None if seq_len is None else (xp.arange(T)[:, None] < seq_len[None, :])[..., None]


def _dropped(a, mask, p):
    """`a` through the inter-layer dropout `mask` (upscaled by 1 / (1 - p)): the forward, and its own gradient."""
    return a * mask * a.dtype.type(1 / (1 - p))


def _rnn_step(xp, mode, xg, h, c, w_hh, b_hh):
    """One step of one cell from its input gates xg (x W_ih^T + b_ih): (h, c, what its gradient reads)."""
    hg = h @ w_hh.T + b_hh
    if mode == "LSTM":
        gates = xg + hg
        h_new, c_new = _lstm_cell_forward(xp, gates, c)
        return h_new, c_new, (gates, c, c_new)
    if mode == "GRU":
        return _gru_cell_forward(xp, xg, hg, h), None, (xg, hg, h)
    pre = xg + hg
    h_new = xp.tanh(pre) if mode == "RNN_TANH" else xp.maximum(pre, 0)
    return h_new, None, (h_new,)


def _rnn_step_grad(xp, mode, saved, dh, dc, w_hh):
    """(d xg, d h_prev, d c_prev, d hg) of one step."""
    if mode == "LSTM":
        gates, c_prev, c_new = saved
        dgates, dc_prev = _lstm_cell_grad_forward(xp, gates, c_prev, c_new, dh, dc)
        return dgates, dgates @ w_hh, dc_prev, dgates
    if mode == "GRU":
        xg, hg, h_prev = saved
        dxg, dhg, dh_prev = _gru_cell_grad_forward(xp, xg, hg, h_prev, dh)
        return dxg, dh_prev + dhg @ w_hh, None, dhg
    h_new, = saved
    dpre = dh * (1 - h_new * h_new) if mode == "RNN_TANH" else dh * (h_new > 0)
    return dpre, dpre @ w_hh, None, dpre


def _rnn_run(xp, x, pre_states, weights, seq_len, dropout_prob, is_bidirec, num_layers, mode, seed, is_test,
             masks=None):
    """The forward, keeping what the backward reads: (out, states, masks, tape)."""
    dirs = 2 if is_bidirec else 1
    T = x.shape[0]
    valid = _valid_steps(xp, T, seq_len)
    lstm = mode == "LSTM"
    hs, cs = pre_states[0], pre_states[1] if lstm else None
    h_out, c_out = xp.empty_like(hs), xp.empty_like(cs) if lstm else None
    cells = rnn_cells(weights, num_layers, is_bidirec)
    masks = [] if masks is None else masks
    tape = []
    layer_in = x
    for layer in range(num_layers):
        if layer > 0 and dropout_prob > 0 and not is_test:
            if len(masks) < layer:
                masks.append((rng_for(xp, seed).random(layer_in.shape) >= dropout_prob).astype(np.uint8))
            layer_in = _dropped(layer_in, masks[layer - 1], dropout_prob)
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = cells[k]
            xg = layer_in @ w_ih.T + b_ih
            h, c = hs[k], cs[k] if lstm else None
            out = xp.zeros(layer_in.shape[:2] + (hs.shape[-1],), x.dtype)
            steps = []
            for t in (range(T - 1, -1, -1) if d else range(T)):
                h_new, c_new, saved = _rnn_step(xp, mode, xg[t], h, c, w_hh, b_hh)
                if valid is not None:
                    h_new = xp.where(valid[t], h_new, h)
                    c_new = xp.where(valid[t], c_new, c) if lstm else None
                    out[t] = xp.where(valid[t], h_new, 0)
                else:
                    out[t] = h_new
                steps.append((t, h, saved))
                h, c = h_new, c_new
            h_out[k] = h
            if lstm:
                c_out[k] = c
            outs.append(out)
            tape.append((layer_in, steps))
        layer_in = outs[0] if dirs == 1 else xp.concatenate(outs, axis=-1)
    return layer_in, [h_out, c_out] if lstm else [h_out], masks, tape


def _rnn_forward(xp, x, pre_states, weights, seq_len, dropout_prob, is_bidirec, input_size, hidden_size, num_layers,
                 mode, seed, is_test):
    out, states, masks, _ = _rnn_run(xp, x, pre_states, weights, seq_len, dropout_prob, is_bidirec, num_layers, mode,
                                     seed, is_test)
    reserve = xp.stack(masks) if masks else xp.zeros((0,), np.uint8)
    return out, states, reserve, xp.zeros((0,), np.uint8)


def _rnn_grad_forward(xp, x, pre_states, weights, seq_len, reserve, dout, dstates, dropout_prob, is_bidirec,
                      input_size, hidden_size, num_layers, mode, seed, is_test):
    """Backpropagation through time over the forward recomputed (with the forward's dropout masks)."""
    _, _, _, tape = _rnn_run(xp, x, pre_states, weights, seq_len, dropout_prob, is_bidirec, num_layers, mode, seed,
                             is_test, masks=list(reserve))
    dirs = 2 if is_bidirec else 1
    lstm = mode == "LSTM"
    T = x.shape[0]
    valid = _valid_steps(xp, T, seq_len)
    cells = rnn_cells(weights, num_layers, is_bidirec)
    grads = [xp.zeros_like(w) for w in weights]
    n = len(cells)
    dpre = [xp.zeros_like(s) for s in pre_states]
    d_layer_out = dout
    for layer in range(num_layers - 1, -1, -1):
        d_in = None
        H = dstates[0].shape[-1]
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, _, _ = cells[k]
            layer_in, steps = tape[k]
            dout_k = d_layer_out[..., d * H:(d + 1) * H]
            dh, dc = dstates[0][k], dstates[1][k] if lstm else None
            dxg = xp.zeros(layer_in.shape[:2] + (w_ih.shape[0],), x.dtype)
            dw_hh, db_hh = xp.zeros_like(w_hh), xp.zeros(w_hh.shape[0], x.dtype)
            for t, h_prev, saved in reversed(steps):
                if valid is not None:
                    m = valid[t]
                    dh_new, dc_new = xp.where(m, dh + dout_k[t], 0), xp.where(m, dc, 0) if lstm else None
                    dh_keep, dc_keep = xp.where(m, 0, dh), xp.where(m, 0, dc) if lstm else None
                else:
                    dh_new, dc_new, dh_keep, dc_keep = dh + dout_k[t], dc, 0, 0
                dxg_t, dh_prev, dc_prev, dhg = _rnn_step_grad(xp, mode, saved, dh_new, dc_new, w_hh)
                dxg[t] = dxg_t
                dw_hh += dhg.T @ h_prev
                db_hh += dhg.sum(0)
                dh = dh_prev + dh_keep
                dc = dc_prev + dc_keep if lstm else None
            dpre[0][k] = dh
            if lstm:
                dpre[1][k] = dc
            flat_in = layer_in.reshape(-1, layer_in.shape[-1])
            flat_dxg = dxg.reshape(-1, dxg.shape[-1])
            grads[2 * k] = flat_dxg.T @ flat_in
            grads[2 * k + 1] = dw_hh
            grads[2 * n + 2 * k] = flat_dxg.sum(0)
            grads[2 * n + 2 * k + 1] = db_hh
            dk = dxg @ w_ih
            d_in = dk if d_in is None else d_in + dk
        if layer > 0 and dropout_prob > 0 and not is_test:
            d_in = _dropped(d_in, reserve[layer - 1], dropout_prob)
        d_layer_out = d_in
    return d_layer_out, dpre, grads


def _rnn_infer(x, pre_states, weights, seq_len, dropout_prob, is_bidirec, input_size, hidden_size, num_layers, mode,
               seed, is_test):
    check_float("rnn", x, "Input", real=True)
    if mode not in _GATES:
        raise ValueError(f"op 'rnn': mode must be one of {sorted(_GATES)}, received {mode!r}")
    if len(x.shape) != 3:
        raise ValueError(f"op 'rnn': Input must be 3-D [time, batch, input_size], received shape {list(x.shape)}")
    dirs = 2 if is_bidirec else 1
    if len(pre_states) != (2 if mode == "LSTM" else 1) or len(weights) != 4 * num_layers * dirs:
        raise ValueError(f"op 'rnn': mode {mode} with {num_layers} layer(s) and {dirs} direction(s) takes "
                         f"{2 if mode == 'LSTM' else 1} PreState tensor(s) and {4 * num_layers * dirs} WeightList "
                         f"tensors, received {len(pre_states)} and {len(weights)}")
    states = [Meta(tuple(s.shape), s.dtype) for s in pre_states]
    return (Meta((x.shape[0], x.shape[1], dirs * hidden_size), x.dtype), states, Meta((), np.dtype(np.uint8)),
            Meta((), np.dtype(np.uint8)))


def _rnn_grad(g):
    if g.needs_any("Input", "PreState", "WeightList"):
        g.set_input_grads(("Input", "PreState", "WeightList"), g.op(
            "rnn_grad", g.input("Input"), g.input("PreState"), g.input("WeightList"), g.input("SequenceLength"),
            g.output("Reserve"), g.output_grad_or_zeros("Out"), g.output_grad_or_zeros("State"), **g.attrs))


def _rnn_grad_infer(x, pre_states, weights, seq_len, reserve, dout, dstates, **attrs):
    return (Meta(tuple(x.shape), x.dtype), [Meta(tuple(s.shape), s.dtype) for s in pre_states],
            [Meta(tuple(w.shape), w.dtype) for w in weights])


_RNN_ATTRS = {"dropout_prob": 0.0, "is_bidirec": False, "input_size": 10, "hidden_size": 100, "num_layers": 1,
              "mode": "RNN_TANH", "seed": 0, "is_test": False}
RNN = register_op("rnn", inputs=("Input", "PreState", "WeightList", "SequenceLength"),
                  outputs=("Out", "State", "Reserve", "DropoutState"), forward=_rnn_forward, infer=_rnn_infer,
                  grad=_rnn_grad, variadic_inputs=("PreState", "WeightList"), variadic_outputs=("State",),
                  optional_inputs=("SequenceLength",), nondiff_inputs=("SequenceLength",), attrs=_RNN_ATTRS, draws=True)
RNN_GRAD = register_op("rnn_grad", inputs=("Input", "PreState", "WeightList", "SequenceLength", "Reserve", "DOut",
                                           "DState"),
                       outputs=("DInput", "DPreState", "DWeightList"), forward=_rnn_grad_forward,
                       infer=_rnn_grad_infer, variadic_inputs=("PreState", "WeightList", "DState"),
                       variadic_outputs=("DPreState", "DWeightList"), optional_inputs=("SequenceLength",),
                       nondiff_inputs=("SequenceLength", "Reserve"), attrs=_RNN_ATTRS)


# ---- coalesce_tensor: Paddle's copy of several tensors into one flat buffer (the startup op of an RNN's
# cuDNN weights); Output are the inputs (their values), FusedOutput the buffer
def _coalesce_forward(xp, inputs, **attrs):
    return [xp.array(a, copy=True) for a in inputs], xp.concatenate([a.reshape(-1) for a in inputs])


def _coalesce_infer(inputs, **attrs):
    n = sum(int(np.prod(m.shape)) for m in inputs)
    return [Meta(tuple(m.shape), m.dtype) for m in inputs], Meta((n,), inputs[0].dtype)


COALESCE_TENSOR = register_op(
    "coalesce_tensor", inputs=("Input",), outputs=("Output", "FusedOutput"), forward=_coalesce_forward,
    infer=_coalesce_infer, variadic_inputs=("Input",), variadic_outputs=("Output",),
    attrs={"copy_data": False, "set_constant": False, "persist_output": False, "constant": 0.0,
           "use_align": True, "align_size": -1, "user_defined_size_of_dtype": -1, "concated_shapes": [],
           "concated_ranks": [], "dtype": "float32"})


# ---- gather_tree: beam search's backtrace (integer ids, no gradient) ------------------------------
def _gather_tree_forward(xp, ids, parents):
    # out[T-1] = ids[T-1]; going back, each step's token is that of the parent the later step points at
    out = xp.empty_like(ids)
    if ids.shape[0] == 0:
        return out
    parent = parents[-1]
    out[-1] = ids[-1]
    for t in range(ids.shape[0] - 2, -1, -1):
        out[t] = xp.take_along_axis(ids[t], parent, axis=1)
        parent = xp.take_along_axis(parents[t], parent, axis=1)
    return out


def _gather_tree_infer(ids, parents):
    return Meta(tuple(ids.shape), ids.dtype)


GATHER_TREE = register_op("gather_tree", inputs=("Ids", "Parents"), outputs=("Out",), forward=_gather_tree_forward,
                          infer=_gather_tree_infer)
