// Recurrent cell steps (ops/rnn.py): the elementwise part of one LSTM / GRU step, after the gate
// matmuls, forward and backward, one pass each. A thread owns element (b, j) of the [B, H] state and
// reads that element's gates from each of the gate blocks of its row: LSTM [B, 4H] in Paddle's order
// (i, f, g, o), GRU [B, 3H] in (r, z, c). Activations are recomputed from the gates in the backward
// (cheaper than saving them); only C is kept from the LSTM forward.
//
//   lstm:  c = s(f) cp + s(i) tanh(g),  h = s(o) tanh(c)
//          dct = dc + dh s(o) (1 - tanh(c)^2)
//          di = dct tanh(g) s'(i), df = dct cp s'(f), dg = dct s(i) (1 - tanh(g)^2), do = dh tanh(c) s'(o)
//          dcp = dct s(f)
//   gru:   r = s(xr + hr), z = s(xz + hz), c = tanh(xc + r hc), h = (hp - c) z + c
//          dcp = dh (1 - z)(1 - c^2), dr = dcp hc r (1 - r), dz = dh (hp - c) z (1 - z)
//          dx = [dr, dz, dcp], dhg = [dr, dz, dcp r], dhp = dh z
#include "common.cuh"

template <class T>
__device__ __forceinline__ void lstm_fwd_k(const T* __restrict__ gates, const T* __restrict__ cp,
                                           T* __restrict__ h, T* __restrict__ c, i64 B, i64 H) {
  for (i64 e = GRID_TID; e < B * H; e += GRID_STRIDE) {
    const i64 b = e / H, j = e - b * H;
    const T* g = gates + b * 4 * H + j;
    const float si = sigmoidf_(ld(g, 0)), sf = sigmoidf_(ld(g, H)), tg = tanhf(ld(g, 2 * H));
    const float so = sigmoidf_(ld(g, 3 * H));
    const float cv = sf * ld(cp, e) + si * tg;
    st(c, e, cv);
    st(h, e, so * tanhf(cv));
  }
}

template <class T>
__device__ __forceinline__ void lstm_bwd_k(const T* __restrict__ gates, const T* __restrict__ cp,
                                           const T* __restrict__ c, const T* __restrict__ dh,
                                           const T* __restrict__ dc, T* __restrict__ dgates,
                                           T* __restrict__ dcp, i64 B, i64 H) {
  for (i64 e = GRID_TID; e < B * H; e += GRID_STRIDE) {
    const i64 b = e / H, j = e - b * H;
    const T* g = gates + b * 4 * H + j;
    T* dg = dgates + b * 4 * H + j;
    const float si = sigmoidf_(ld(g, 0)), sf = sigmoidf_(ld(g, H)), tg = tanhf(ld(g, 2 * H));
    const float so = sigmoidf_(ld(g, 3 * H));
    const float tc = tanhf(ld(c, e)), dhv = ld(dh, e);
    const float dct = ld(dc, e) + dhv * so * (1.f - tc * tc);
    st(dg, 0, dct * tg * si * (1.f - si));
    st(dg, H, dct * ld(cp, e) * sf * (1.f - sf));
    st(dg, 2 * H, dct * si * (1.f - tg * tg));
    st(dg, 3 * H, dhv * tc * so * (1.f - so));
    st(dcp, e, dct * sf);
  }
}

template <class T>
__device__ __forceinline__ void gru_fwd_k(const T* __restrict__ xg, const T* __restrict__ hg,
                                          const T* __restrict__ hp, T* __restrict__ h, i64 B, i64 H) {
  for (i64 e = GRID_TID; e < B * H; e += GRID_STRIDE) {
    const i64 b = e / H, o = b * 3 * H + (e - b * H);
    const float r = sigmoidf_(ld(xg, o) + ld(hg, o)), z = sigmoidf_(ld(xg, o + H) + ld(hg, o + H));
    const float cv = tanhf(ld(xg, o + 2 * H) + r * ld(hg, o + 2 * H));
    st(h, e, (ld(hp, e) - cv) * z + cv);
  }
}

template <class T>
__device__ __forceinline__ void gru_bwd_k(const T* __restrict__ xg, const T* __restrict__ hg,
                                          const T* __restrict__ hp, const T* __restrict__ dh,
                                          T* __restrict__ dxg, T* __restrict__ dhg, T* __restrict__ dhp,
                                          i64 B, i64 H) {
  for (i64 e = GRID_TID; e < B * H; e += GRID_STRIDE) {
    const i64 b = e / H, o = b * 3 * H + (e - b * H);
    const float r = sigmoidf_(ld(xg, o) + ld(hg, o)), z = sigmoidf_(ld(xg, o + H) + ld(hg, o + H));
    const float hc = ld(hg, o + 2 * H);
    const float cv = tanhf(ld(xg, o + 2 * H) + r * hc);
    const float dhv = ld(dh, e);
    const float dcp = dhv * (1.f - z) * (1.f - cv * cv);
    const float dr = dcp * hc * r * (1.f - r);
    const float dz = dhv * (ld(hp, e) - cv) * z * (1.f - z);
    st(dxg, o, dr); st(dxg, o + H, dz); st(dxg, o + 2 * H, dcp);
    st(dhg, o, dr); st(dhg, o + H, dz); st(dhg, o + 2 * H, dcp * r);
    st(dhp, e, dhv * z);
  }
}

#define RNN_KERNELS(NAME, T)                                                                               \
  extern "C" __global__ void lstm_cell_fwd_##NAME(const T* gates, const T* cp, T* h, T* c, i64 B, i64 H) { \
    lstm_fwd_k<T>(gates, cp, h, c, B, H);                                                                  \
  }                                                                                                        \
  extern "C" __global__ void lstm_cell_bwd_##NAME(const T* gates, const T* cp, const T* c, const T* dh,    \
                                                  const T* dc, T* dgates, T* dcp, i64 B, i64 H) {          \
    lstm_bwd_k<T>(gates, cp, c, dh, dc, dgates, dcp, B, H);                                                \
  }                                                                                                        \
  extern "C" __global__ void gru_cell_fwd_##NAME(const T* xg, const T* hg, const T* hp, T* h, i64 B,       \
                                                 i64 H) {                                                  \
    gru_fwd_k<T>(xg, hg, hp, h, B, H);                                                                     \
  }                                                                                                        \
  extern "C" __global__ void gru_cell_bwd_##NAME(const T* xg, const T* hg, const T* hp, const T* dh,       \
                                                 T* dxg, T* dhg, T* dhp, i64 B, i64 H) {                   \
    gru_bwd_k<T>(xg, hg, hp, dh, dxg, dhg, dhp, B, H);                                                     \
  }

INSTANTIATE_FLOAT_TYPES(RNN_KERNELS)
