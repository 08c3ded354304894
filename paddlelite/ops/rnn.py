"""Recurrent cell steps: the elementwise part of one LSTM / GRU step after the gate matmuls; and gather_tree,
beam search's backtrace over the steps of a decoder.

- lstm_cell(Gates, CPrev) -> (H, C): Gates = x W_ih^T + b_ih + h W_hh^T + b_hh, [B, 4H] in Paddle's
  gate order (i, f, g, o); C = sigmoid(f) * CPrev + sigmoid(i) * tanh(g), H = sigmoid(o) * tanh(C).
- gru_cell(XGates, HGates, HPrev) -> H: XGates = x W_ih^T + b_ih, HGates = h W_hh^T + b_hh, [B, 3H] in
  Paddle's order (r, z, c); r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z), c = tanh(x_c + r * h_c),
  H = (HPrev - c) * z + c (the reset gate is applied after the matmul, as Paddle's GRUCell does).

Each forward and each backward is one elementwise pass: the backward is a dedicated grad op
(lstm_cell_grad, gru_cell_grad), and on the GPU fused kernels (kernels/rnn.cu) replace all four. The grad
ops' own gradients (double backward) are formulas of registered ops, so every higher order works too.
"""
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
