// Rotary position embedding over x [B, S, H, D] (time_major: [S, B, H, D]) with sin / cos tables [Bs, S, D]
// (Bs = 1: shared by the batch; Bs = B: one per sequence, as position_ids pick them):
//
//   out_j = x_j cos_j + sgn_j x_p(j) sin_j
//
// p(j) the rotation partner of column j and sgn_j = -1 for the first of the pair, +1 for the second: the two halves
// of D (use_neox_rotary_style: p(j) = j +- D/2) or adjacent pairs (p(j) = j ^ 1). The rotation R is
// antisymmetric, so the gradient is dx = dout cos - R(dout sin):
//
//   dx_j = d_j cos_j - sgn_j d_p(j) sin_p(j)
//
// rope_k computes either (grad selects), one element per thread of a grid-stride loop over the rows of D.
#include "common.cuh"

template <class T>
__device__ __forceinline__ void rope_k(const T* __restrict__ x, const T* __restrict__ sin_t, const T* __restrict__ cos_t,
                                       T* __restrict__ out, i64 B, i64 S, i64 H, i64 D, i64 Bs, int neox,
                                       int time_major, int grad) {
  const i64 half = D >> 1;
  rows_cols_loop(B * S * H, D, [&](i64 i, i64 row, i64 j) {
    const i64 bs = row / H;
    const i64 b = time_major ? bs % B : bs / S, s = time_major ? bs / B : bs % S;
    const i64 t = ((Bs > 1 ? b : 0) * S + s) * D;
    const i64 p = neox ? (j < half ? j + half : j - half) : (j ^ 1);
    const float sgn = (neox ? j < half : (j & 1) == 0) ? -1.f : 1.f;
    const float xj = ld(x, i), xp = ld(x, i - j + p);
    const float v = grad ? xj * ld(cos_t, t + j) - sgn * xp * ld(sin_t, t + p)
                         : xj * ld(cos_t, t + j) + sgn * xp * ld(sin_t, t + j);
    st(out, i, v);
  });
}

#define ROPE_KERNELS(NAME, T)                                                                                 \
  extern "C" __global__ void rope_##NAME(const T* x, const T* sin_t, const T* cos_t, T* out, i64 B, i64 S,    \
                                         i64 H, i64 D, i64 Bs, int neox, int time_major, int grad) {          \
    rope_k<T>(x, sin_t, cos_t, out, B, S, H, D, Bs, neox, time_major, grad);                                  \
  }

INSTANTIATE_FLOAT_TYPES(ROPE_KERNELS)
