// Recurrent cell steps (ops/rnn.py): the elementwise part of one LSTM / GRU step, after the gate
// matmuls, forward and backward, one pass each. A thread owns V adjacent elements (b, j..j+V-1) of the
// [B, H] state and reads their gates from each of the gate blocks of its row: LSTM [B, 4H] in Paddle's
// order (i, f, g, o), GRU [B, 3H] in (r, z, c). Rows run along the grid's y axis and columns along x, so
// no index is divided; V = 4 (16-byte accesses) when H % 4 == 0 and every array is 4-element aligned. Activations are recomputed from the gates in the backward
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

// The rows b and first columns j of this thread's V-element groups.
#define RNN_LOOP(V)                                                                       \
  for (i64 b = blockIdx.y; b < B; b += gridDim.y)                                         \
    for (i64 j = ((i64)blockIdx.x * blockDim.x + threadIdx.x) * V; j < H;                 \
         j += (i64)gridDim.x * blockDim.x * V)

template <int V, class T>
__device__ __forceinline__ void lstm_fwd_k(const T* __restrict__ gates, const T* __restrict__ cp,
                                           T* __restrict__ h, T* __restrict__ c, i64 B, i64 H) {
  RNN_LOOP(V) {
    const i64 e = b * H + j;
    const T* g = gates + b * 4 * H + j;
    float gi[V], gf[V], gg[V], go[V], cpv[V], hv[V], cv[V];
    loadv<V>(g, 0, gi); loadv<V>(g, H, gf); loadv<V>(g, 2 * H, gg); loadv<V>(g, 3 * H, go);
    loadv<V>(cp, e, cpv);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      cv[k] = sigmoidf_(gf[k]) * cpv[k] + sigmoidf_(gi[k]) * tanhf(gg[k]);
      hv[k] = sigmoidf_(go[k]) * tanhf(cv[k]);
    }
    storev<V>(c, e, cv);
    storev<V>(h, e, hv);
  }
}

template <int V, class T>
__device__ __forceinline__ void lstm_bwd_k(const T* __restrict__ gates, const T* __restrict__ cp,
                                           const T* __restrict__ c, const T* __restrict__ dh,
                                           const T* __restrict__ dc, T* __restrict__ dgates,
                                           T* __restrict__ dcp, i64 B, i64 H) {
  RNN_LOOP(V) {
    const i64 e = b * H + j;
    const T* g = gates + b * 4 * H + j;
    T* dg = dgates + b * 4 * H + j;
    float gi[V], gf[V], gg[V], go[V], cpv[V], cv[V], dhv[V], dcv[V];
    loadv<V>(g, 0, gi); loadv<V>(g, H, gf); loadv<V>(g, 2 * H, gg); loadv<V>(g, 3 * H, go);
    loadv<V>(cp, e, cpv); loadv<V>(c, e, cv); loadv<V>(dh, e, dhv); loadv<V>(dc, e, dcv);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const float si = sigmoidf_(gi[k]), sf = sigmoidf_(gf[k]), tg = tanhf(gg[k]), so = sigmoidf_(go[k]);
      const float tc = tanhf(cv[k]);
      const float dct = dcv[k] + dhv[k] * so * (1.f - tc * tc);
      gi[k] = dct * tg * si * (1.f - si);
      gf[k] = dct * cpv[k] * sf * (1.f - sf);
      gg[k] = dct * si * (1.f - tg * tg);
      go[k] = dhv[k] * tc * so * (1.f - so);
      cpv[k] = dct * sf;
    }
    storev<V>(dg, 0, gi); storev<V>(dg, H, gf); storev<V>(dg, 2 * H, gg); storev<V>(dg, 3 * H, go);
    storev<V>(dcp, e, cpv);
  }
}

template <int V, class T>
__device__ __forceinline__ void gru_fwd_k(const T* __restrict__ xg, const T* __restrict__ hg,
                                          const T* __restrict__ hp, T* __restrict__ h, i64 B, i64 H) {
  RNN_LOOP(V) {
    const i64 e = b * H + j, o = b * 3 * H + j;
    float xr[V], xz[V], xc[V], hr[V], hz[V], hc[V], hpv[V];
    loadv<V>(xg, o, xr); loadv<V>(xg, o + H, xz); loadv<V>(xg, o + 2 * H, xc);
    loadv<V>(hg, o, hr); loadv<V>(hg, o + H, hz); loadv<V>(hg, o + 2 * H, hc);
    loadv<V>(hp, e, hpv);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const float r = sigmoidf_(xr[k] + hr[k]), z = sigmoidf_(xz[k] + hz[k]);
      const float cv = tanhf(xc[k] + r * hc[k]);
      hpv[k] = (hpv[k] - cv) * z + cv;
    }
    storev<V>(h, e, hpv);
  }
}

template <int V, class T>
__device__ __forceinline__ void gru_bwd_k(const T* __restrict__ xg, const T* __restrict__ hg,
                                          const T* __restrict__ hp, const T* __restrict__ dh,
                                          T* __restrict__ dxg, T* __restrict__ dhg, T* __restrict__ dhp,
                                          i64 B, i64 H) {
  RNN_LOOP(V) {
    const i64 e = b * H + j, o = b * 3 * H + j;
    float xr[V], xz[V], xc[V], hr[V], hz[V], hc[V], hpv[V], dhv[V];
    loadv<V>(xg, o, xr); loadv<V>(xg, o + H, xz); loadv<V>(xg, o + 2 * H, xc);
    loadv<V>(hg, o, hr); loadv<V>(hg, o + H, hz); loadv<V>(hg, o + 2 * H, hc);
    loadv<V>(hp, e, hpv); loadv<V>(dh, e, dhv);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const float r = sigmoidf_(xr[k] + hr[k]), z = sigmoidf_(xz[k] + hz[k]);
      const float cv = tanhf(xc[k] + r * hc[k]);
      const float dcp = dhv[k] * (1.f - z) * (1.f - cv * cv);
      xr[k] = dcp * hc[k] * r * (1.f - r);          // dr
      xz[k] = dhv[k] * (hpv[k] - cv) * z * (1.f - z);  // dz
      xc[k] = dcp;
      hc[k] = dcp * r;
      hpv[k] = dhv[k] * z;
    }
    storev<V>(dxg, o, xr); storev<V>(dxg, o + H, xz); storev<V>(dxg, o + 2 * H, xc);
    storev<V>(dhg, o, xr); storev<V>(dhg, o + H, xz); storev<V>(dhg, o + 2 * H, hc);
    storev<V>(dhp, e, hpv);
  }
}

#define RNN_VEC(FN, T, ...) \
  if (vec) FN<4, T>(__VA_ARGS__); else FN<1, T>(__VA_ARGS__);

#define RNN_KERNELS(NAME, T)                                                                               \
  extern "C" __global__ void lstm_cell_fwd_##NAME(const T* gates, const T* cp, T* h, T* c, i64 B, i64 H,   \
                                                  int vec) {                                               \
    RNN_VEC(lstm_fwd_k, T, gates, cp, h, c, B, H)                                                             \
  }                                                                                                        \
  extern "C" __global__ void lstm_cell_bwd_##NAME(const T* gates, const T* cp, const T* c, const T* dh,    \
                                                  const T* dc, T* dgates, T* dcp, i64 B, i64 H, int vec) { \
    RNN_VEC(lstm_bwd_k, T, gates, cp, c, dh, dc, dgates, dcp, B, H)                                           \
  }                                                                                                        \
  extern "C" __global__ void gru_cell_fwd_##NAME(const T* xg, const T* hg, const T* hp, T* h, i64 B,       \
                                                 i64 H, int vec) {                                         \
    RNN_VEC(gru_fwd_k, T, xg, hg, hp, h, B, H)                                                                \
  }                                                                                                        \
  extern "C" __global__ void gru_cell_bwd_##NAME(const T* xg, const T* hg, const T* hp, const T* dh,       \
                                                 T* dxg, T* dhg, T* dhp, i64 B, i64 H, int vec) {          \
    RNN_VEC(gru_bwd_k, T, xg, hg, hp, dh, dxg, dhg, dhp, B, H)                                                \
  }

INSTANTIATE_FLOAT_TYPES(RNN_KERNELS)
