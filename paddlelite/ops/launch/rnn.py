"""kernels/rnn.cu: the LSTM / GRU cell steps, forward and backward (rows on the grid's y axis, 4 adjacent
state elements per thread where aligned)."""
from ...device.kernels import kernel
from .common import THREADS, aligned, i32, i64, suffix


def _prepare(xp, first, *rest):
    """(dtype suffix, contiguous arrays) when every array is a 2-D float32/16 array of first's dtype."""
    sfx = suffix(first.dtype)
    arrays = (first, *rest)
    if sfx is None or any(a.dtype != first.dtype or a.ndim != 2 for a in arrays):
        return None, None
    return sfx, [xp.ascontiguousarray(a) for a in arrays]


def _launch(name, sfx, B, H, args):
    if B * H:
        vec = H % 4 == 0 and aligned(4, *args)
        per_row = -(-H // (4 if vec else 1))
        threads = min(THREADS, -(-per_row // 32) * 32)
        kernel("rnn", f"{name}_{sfx}")((-(-per_row // threads), min(B, 65535)), (threads,),
                                       (*args, i64(B), i64(H), i32(vec)))


def lstm_cell(xp, gates, c_prev):
    sfx, arrays = _prepare(xp, gates, c_prev)
    if sfx is None:
        return None
    B, H = c_prev.shape
    h, c = xp.empty((B, H), gates.dtype), xp.empty((B, H), gates.dtype)
    _launch("lstm_cell_fwd", sfx, B, H, (*arrays, h, c))
    return h, c


def lstm_cell_grad(xp, gates, c_prev, c, dh, dc):
    sfx, arrays = _prepare(xp, gates, c_prev, c, dh, dc)
    if sfx is None:
        return None
    B, H = c_prev.shape
    dgates, dcp = xp.empty((B, 4 * H), gates.dtype), xp.empty((B, H), gates.dtype)
    _launch("lstm_cell_bwd", sfx, B, H, (*arrays, dgates, dcp))
    return dgates, dcp


def gru_cell(xp, x_gates, h_gates, h_prev):
    sfx, arrays = _prepare(xp, x_gates, h_gates, h_prev)
    if sfx is None:
        return None
    B, H = h_prev.shape
    h = xp.empty((B, H), h_prev.dtype)
    _launch("gru_cell_fwd", sfx, B, H, (*arrays, h))
    return h


def gru_cell_grad(xp, x_gates, h_gates, h_prev, dh):
    sfx, arrays = _prepare(xp, x_gates, h_gates, h_prev, dh)
    if sfx is None:
        return None
    B, H = h_prev.shape
    dxg, dhg, dhp = (xp.empty((B, 3 * H), h_prev.dtype), xp.empty((B, 3 * H), h_prev.dtype),
                     xp.empty((B, H), h_prev.dtype))
    _launch("gru_cell_bwd", sfx, B, H, (*arrays, dxg, dhg, dhp))
    return dxg, dhg, dhp
