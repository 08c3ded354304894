// fused_rope: Paddle's fused_rotary_position_embedding over q, k and v, each [B, S, H_t, D] ([S, B, H_t, D] when
// time_major), in one launch (blockIdx.y picks the tensor; each has its own head count H_t).
//
//   out_d = x_d cos_d + sign_d x_partner sin_d
//
// The partner of d is d + D/2 / d - D/2 (use_neox_rotary_style: halves), else d + 1 / d - 1 (adjacent pairs); sign_d
// is -1 on a pair's first element. The angle row is p = position_ids[b, s] (or s): given tables sin/cos [P, D] are
// read at row p (a row outside the P given makes the output NaN, never a read out of bounds), else the angle is
// p * base^(-2i / D) with i = d % (D/2) (neox) or d / 2 (pairs), in float32.
// `inverse` negates sin: the transposed rotation, which is the gradient (the rotation is orthogonal).
#include "common.cuh"

template <class T>
__device__ __forceinline__ void rope_k(const T* __restrict__ x, T* __restrict__ o, i64 H, const T* __restrict__ sin,
                                       const T* __restrict__ cos, i64 P, const i64* __restrict__ pos, i64 B,
                                       i64 S, i64 D, float base, int neox, int time_major, int has_table, int has_pos,
                                       int inverse) {
  const i64 n = B * S * H * D, half = D / 2;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const i64 d = i % D, bs = i / D / H;
    const i64 b = time_major ? bs % B : bs / S, s = time_major ? bs / B : bs % S;
    const i64 p = has_pos ? pos[b * S + s] : s;
    float sn, cs;
    if (has_table) {
      const bool inside = p >= 0 && p < P;
      sn = inside ? ld(sin, p * D + d) : __int_as_float(0x7fc00000);
      cs = inside ? ld(cos, p * D + d) : sn;
    } else {
      const i64 fi = neox ? d % half : d / 2;
      const float angle = (float)p * (1.f / powf(base, (float)(2 * fi) / (float)D));
      sn = sinf(angle);
      cs = cosf(angle);
    }
    const bool first = neox ? d < half : (d & 1) == 0;
    const float partner = ld(x, neox ? (first ? i + half : i - half) : (first ? i + 1 : i - 1));
    st(o, i, ld(x, i) * cs + (first != (bool)inverse ? -partner : partner) * sn);
  }
}

#define ROPE_KERNELS(NAME, T)                                                                                \
  extern "C" __global__ void rope_##NAME(const T* q, const T* k, const T* v, T* oq, T* ok, T* ov, i64 hq,   \
                                         i64 hk, i64 hv, const T* sin, const T* cos, i64 P, const i64* pos,  \
                                         i64 B, i64 S, i64 D, float base, int neox, int time_major,         \
                                         int has_table, int has_pos, int inverse) {                          \
    const int t = blockIdx.y;                                                                                \
    rope_k<T>(t == 0 ? q : t == 1 ? k : v, t == 0 ? oq : t == 1 ? ok : ov, t == 0 ? hq : t == 1 ? hk : hv,   \
              sin, cos, P, pos, B, S, D, base, neox, time_major, has_table, has_pos, inverse);                  \
  }

INSTANTIATE_FLOAT_TYPES(ROPE_KERNELS)
