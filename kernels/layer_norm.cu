// layer_norm forward over a [M, N] view (N = the normalised size): ln_fwd, one warp per row (grid-stride over
// rows), Paddle's order in float32: mean = sum(x) / N, var = sum((x - mean)^2) / N (two passes: no cancellation),
// y = (x - mean) / sqrt(var + eps) * scale + bias; Mean and Variance written per row. A lane visits columns
// lane, lane + 32, ..., so a row's loads coalesce; the row is read three times (from L1/L2 after the first).
// Fused with the pre-norm sum of Paddle's fused_bias_residual_layernorm: the normalised row is
// h = x + pre[j] + alpha * res (each optional), rebuilt in float32 on every read and written once as hout; inv, when
// asked for, gets 1 / sqrt(var + eps) per row.
//
// layer_norm backward over a [M, N] view (N = the normalised size), one pass over X and dY.
//
//   xhat = (x - mean) * rstd,  rstd = 1 / sqrt(var + eps),  g = dy * scale
//   dx   = rstd * (g - mean_j(g) - xhat * mean_j(g * xhat))
//   dscale_j = sum_rows dy * xhat,  dbias_j = sum_rows dy
//
// Rows of N <= LN_WARP_MAX: ln_bwd_warp, one warp per row (grid-stride over rows, no block barrier per
// row). Lane l owns the same 4*KV columns in every row -- (k*32 + l)*4 + e with 16-byte accesses when
// N % 4 == 0 and the arrays are aligned, else k*128 + e*32 + l -- so the row's x and dy stay in
// registers between the two warp-shuffle sums and the dx write (each byte read once), and so do the
// lane's dscale/dbias column partials across rows. At the end the block's warps add their partials in a
// fixed order in shared memory and the block writes one float32 row [G, 2N] (dscale then dbias), which
// reduce_mid (reduce.cu) sums over the G blocks: deterministic, no atomics.
//
// Longer rows: ln_bwd, block-per-row (grid-stride over rows). Each thread owns the same columns j = tid + k*blockDim in
// every row it visits, so its dscale/dbias column partials stay in registers across rows; at the
// end the block writes one float32 partial row [G, N], which reduce_mid (reduce.cu) sums over the
// G blocks -- deterministic, no atomics. With N <= blockDim * LN_MAXK the row's x and dy are also
// kept in registers between the row reduction and the dx write (each byte read once); larger rows
// re-read them (from L1/L2) and keep the column partials in the block's own partial row.
#include "common.cuh"

#define LN_MAXK 8
#define LN_WARP_MAX 1024  // columns one warp keeps in registers (KV = 8)

// The fused pre-norm sum, or x itself.
struct LnPre {
  const void* pre;  // [N]
  const void* res;  // [M, N]
  void* hout;       // [M, N], written when pre or res is given
  float* inv;       // [M], written when has_inv
  float alpha;
  int has_pre, has_res, has_inv;
};

template <class T>
__device__ __forceinline__ float ln_h(const T* __restrict__ xr, const LnPre& p, i64 r, i64 N, i64 j) {
  float h = ld(xr, j);
  if (p.has_pre) h += ld((const T*)p.pre, j);
  if (p.has_res) h += p.alpha * ld((const T*)p.res + r * N, j);
  return h;
}

template <class T, class S>
__device__ __forceinline__ void ln_fwd(const T* __restrict__ x, const S* __restrict__ scale, const S* __restrict__ bias,
                                       T* __restrict__ y, float* __restrict__ mean, float* __restrict__ var, i64 M,
                                       i64 N, float eps, int has_scale, int has_bias, const LnPre& p) {
  const int lane = threadIdx.x & 31;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 r = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); r < M; r += warps) {
    const T* xr = x + r * N;
    T* yr = y + r * N;
    float s = 0.f;
    for (i64 j = lane; j < N; j += 32) {
      const float h = ln_h(xr, p, r, N, j);
      s += h;
      if (p.has_pre || p.has_res) st((T*)p.hout + r * N, j, h);
    }
    const float mu = warp_sum(s) / (float)N;
    float q = 0.f;
    for (i64 j = lane; j < N; j += 32) {
      const float d = ln_h(xr, p, r, N, j) - mu;
      q += d * d;
    }
    const float v = warp_sum(q) / (float)N;
    const float sd = sqrtf(v + eps);
    for (i64 j = lane; j < N; j += 32) {
      float o = (ln_h(xr, p, r, N, j) - mu) / sd;
      if (has_scale) o = o * ld(scale, j);
      if (has_bias) o = o + ld(bias, j);
      st(yr, j, o);
    }
    if (lane == 0) {
      mean[r] = mu;
      var[r] = v;
      if (p.has_inv) p.inv[r] = 1.f / sd;
    }
  }
}

// Column of element e of group k held by lane `lane` of slot `slot` of a G-warp row group: the G warps act
// as one warp of 32*G lanes (see above).
template <int G, bool VEC>
__device__ __forceinline__ i64 ln_col(int k, int e, int slot, int lane) {
  const int l = slot * 32 + lane;
  return VEC ? (i64)((k * 32 * G + l) * 4 + e) : (i64)(k * 128 * G + e * 32 * G + l);
}

// G warps per row (G > 1 only with VEC): a block of nw warps takes nw / G rows at a time; the G warps of a
// row add their shuffle sums through shared memory (double-buffered by step, so one barrier per step),
// in slot order. The loop runs the same steps in every warp of the block, so the barrier is reached by all.
template <int KV, int G, bool VEC, class T, class S>
__device__ __forceinline__ void ln_bwd_warp(const T* __restrict__ x, const S* __restrict__ scale,
                                            const float* __restrict__ mean, const float* __restrict__ var,
                                            const T* __restrict__ dy, T* __restrict__ dx,
                                            float* __restrict__ part, float (*red)[LN_WARP_MAX],
                                            float (*xch)[32][2], i64 M, i64 N, float eps, int has_scale) {
  constexpr int E = KV * 4;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  const int slot = warp % G, grp = warp / G, ngrp = nw / G;
  const float inv_n = 1.f / (float)N;
  float dg[E], db[E];
#pragma unroll
  for (int i = 0; i < E; ++i) { dg[i] = 0.f; db[i] = 0.f; }
  int step = 0;
  for (i64 base = (i64)blockIdx.x * ngrp; base < M; base += (i64)gridDim.x * ngrp, ++step) {
    const i64 row = base + grp;
    const bool active = row < M;
    const T* xr = x + row * N;
    const T* dyr = dy + row * N;
    float xv[E], dv[E], sc[E];
#pragma unroll
    for (int i = 0; i < E; ++i) { xv[i] = 0.f; dv[i] = 0.f; sc[i] = 1.f; }
#pragma unroll
    for (int k = 0; k < KV; ++k) {
      if (VEC) {
        const i64 j = ln_col<G, VEC>(k, 0, slot, lane);
        if (active && j < N) {
          load4(xr, j, xv + 4 * k);
          load4(dyr, j, dv + 4 * k);
          if (has_scale) load4(scale, j, sc + 4 * k);
        }
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const i64 j = ln_col<G, VEC>(k, e, slot, lane);
          if (active && j < N) {
            xv[4 * k + e] = ld(xr, j);
            dv[4 * k + e] = ld(dyr, j);
            if (has_scale) sc[4 * k + e] = ld(scale, j);
          }
        }
      }
    }
    const float mu = active ? mean[row] : 0.f, rs = active ? rsqrtf(var[row] + eps) : 0.f;
    float s1 = 0.f, s2 = 0.f;
#pragma unroll
    for (int i = 0; i < E; ++i) {
      if (active && ln_col<G, VEC>(i / 4, i % 4, slot, lane) < N) {
        const float xh = (xv[i] - mu) * rs, d = dv[i];
        const float g = d * sc[i];
        s1 += g;
        s2 += g * xh;
        dg[i] += d * xh;
        db[i] += d;
        xv[i] = xh;
        dv[i] = g;
      }
    }
    s1 = warp_sum(s1);
    s2 = warp_sum(s2);
    if constexpr (G > 1) {
      float(*ex)[2] = xch[step & 1];
      if (lane == 0) { ex[warp][0] = s1; ex[warp][1] = s2; }
      __syncthreads();
      s1 = 0.f;
      s2 = 0.f;
#pragma unroll
      for (int q = 0; q < G; ++q) { s1 += ex[grp * G + q][0]; s2 += ex[grp * G + q][1]; }
    }
    s1 *= inv_n;
    s2 *= inv_n;
    T* dxr = dx + row * N;
#pragma unroll
    for (int i = 0; i < E; ++i) dv[i] = rs * (dv[i] - s1 - xv[i] * s2);
#pragma unroll
    for (int k = 0; k < KV; ++k) {
      if (VEC) {
        const i64 j = ln_col<G, VEC>(k, 0, slot, lane);
        if (active && j < N) store4(dxr, j, dv + 4 * k);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const i64 j = ln_col<G, VEC>(k, e, slot, lane);
          if (active && j < N) st(dxr, j, dv[4 * k + e]);
        }
      }
    }
  }
  // The block's column partials, slot by slot: the slot's warp of group 0 writes its E values per lane at
  // local index i * 32 + lane, then the same slot's warps of the further groups add, in order.
  float* pr = part + (i64)blockIdx.x * 2 * N;
  for (int s = 0; s < G; ++s) {
    for (int q = 0; q < ngrp; ++q) {
      if (slot == s && grp == q) {
#pragma unroll
        for (int i = 0; i < E; ++i) {
          const int li = i * 32 + lane;
          red[0][li] = q ? red[0][li] + dg[i] : dg[i];
          red[1][li] = q ? red[1][li] + db[i] : db[i];
        }
      }
      __syncthreads();
    }
    for (int li = threadIdx.x; li < E * 32; li += blockDim.x) {
      const i64 j = ln_col<G, VEC>(li / 128, (li / 32) % 4, s, li % 32);
      if (j < N) {
        pr[j] = red[0][li];
        pr[N + j] = red[1][li];
      }
    }
    __syncthreads();
  }
}

template <class T, class S>
__device__ __forceinline__ void ln_bwd(const T* __restrict__ x, const S* __restrict__ scale,
                                       const float* __restrict__ mean, const float* __restrict__ var,
                                       const T* __restrict__ dy, T* __restrict__ dx, float* __restrict__ pg,
                                       float* __restrict__ pb, i64 M, i64 N, float eps, int has_scale) {
  const i64 T_ = blockDim.x;
  float* pgr = pg + (i64)blockIdx.x * N;
  float* pbr = pb + (i64)blockIdx.x * N;
  const float inv_n = 1.f / (float)N;
  if (N <= T_ * LN_MAXK) {
    float dg[LN_MAXK], db[LN_MAXK], xv[LN_MAXK], dv[LN_MAXK], gs[LN_MAXK];
#pragma unroll
    for (int k = 0; k < LN_MAXK; ++k) {
      const i64 j = threadIdx.x + k * T_;
      dg[k] = 0.f; db[k] = 0.f;
      gs[k] = (j < N && has_scale) ? ld(scale, j) : 1.f;
    }
    for (i64 row = blockIdx.x; row < M; row += gridDim.x) {
      const float mu = mean[row], rs = rsqrtf(var[row] + eps);
      const T* xr = x + row * N;
      const T* dyr = dy + row * N;
      float s1 = 0.f, s2 = 0.f;
#pragma unroll
      for (int k = 0; k < LN_MAXK; ++k) {
        const i64 j = threadIdx.x + k * T_;
        xv[k] = 0.f; dv[k] = 0.f;
        if (j < N) {
          xv[k] = (ld(xr, j) - mu) * rs;  // xhat
          dv[k] = ld(dyr, j);
          const float gk = dv[k] * gs[k];
          s1 += gk;
          s2 += gk * xv[k];
          dg[k] += dv[k] * xv[k];
          db[k] += dv[k];
        }
      }
      block_sum2(s1, s2);
      s1 *= inv_n;
      s2 *= inv_n;
      T* dxr = dx + row * N;
#pragma unroll
      for (int k = 0; k < LN_MAXK; ++k) {
        const i64 j = threadIdx.x + k * T_;
        if (j < N) st(dxr, j, rs * (dv[k] * gs[k] - s1 - xv[k] * s2));
      }
    }
#pragma unroll
    for (int k = 0; k < LN_MAXK; ++k) {
      const i64 j = threadIdx.x + k * T_;
      if (j < N) { pgr[j] = dg[k]; pbr[j] = db[k]; }
    }
  } else {
    for (i64 j = threadIdx.x; j < N; j += T_) { pgr[j] = 0.f; pbr[j] = 0.f; }
    for (i64 row = blockIdx.x; row < M; row += gridDim.x) {
      const float mu = mean[row], rs = rsqrtf(var[row] + eps);
      const T* xr = x + row * N;
      const T* dyr = dy + row * N;
      float s1 = 0.f, s2 = 0.f;
      for (i64 j = threadIdx.x; j < N; j += T_) {
        const float xh = (ld(xr, j) - mu) * rs, d = ld(dyr, j);
        const float gk = d * (has_scale ? ld(scale, j) : 1.f);
        s1 += gk;
        s2 += gk * xh;
        pgr[j] += d * xh;  // this thread's own column partial: no other thread touches it
        pbr[j] += d;
      }
      block_sum2(s1, s2);
      s1 *= inv_n;
      s2 *= inv_n;
      T* dxr = dx + row * N;
      for (i64 j = threadIdx.x; j < N; j += T_) {
        const float xh = (ld(xr, j) - mu) * rs;
        const float gk = ld(dyr, j) * (has_scale ? ld(scale, j) : 1.f);
        st(dxr, j, rs * (gk - s1 - xh * s2));
      }
    }
  }
}

#define LN_WARP_ARGS x, scale, mean, var, dy, dx, part, red, xch, M, N, eps, has_scale
#define LN_WARP_CASE(KV, T, S)                                                                          \
  case KV:                                                                                              \
    if (vec) ln_bwd_warp<KV, 1, true, T, S>(LN_WARP_ARGS);                                              \
    else ln_bwd_warp<KV, 1, false, T, S>(LN_WARP_ARGS);                                                 \
    break;
#define LN_GROUP_CASE(KV, G, T, S)                                                                      \
  case G:                                                                                               \
    ln_bwd_warp<KV, G, true, T, S>(LN_WARP_ARGS);                                                       \
    break;
#define LN_WARP_PARAMS(T, S)                                                                            \
  const T *x, const S *scale, const float *mean, const float *var, const T *dy, T *dx, float *part, i64 M, \
      i64 N, float eps, int has_scale, int kv, int g, int vec
#define LN_SHARED                                                                                       \
  __shared__ float red[2][LN_WARP_MAX];                                                                 \
  __shared__ float xch[2][32][2];

// Two entries, so that each gets the registers its own rows need: ln_bwd_warp8 keeps 32 elements per lane
// (one 256-thread block per SM), ln_bwd_warp4 at most 16 (two blocks per SM: twice the warps to hide
// latency behind).
#define LN_KERNELS(NAME, T, SNAME, S)                                                                   \
  extern "C" __global__ void ln_fwd_##NAME##_##SNAME(const T* x, const S* scale, const S* bias, T* y,   \
                                                     float* mean, float* var, i64 M, i64 N, float eps,  \
                                                     int has_scale, int has_bias, const T* pre,         \
                                                     const T* res, T* hout, float* inv, float alpha,    \
                                                     int has_pre, int has_res, int has_inv) {           \
    ln_fwd<T, S>(x, scale, bias, y, mean, var, M, N, eps, has_scale, has_bias,                           \
                 LnPre{pre, res, hout, inv, alpha, has_pre, has_res, has_inv});                         \
  }                                                                                                     \
  extern "C" __global__ void ln_bwd_##NAME##_##SNAME(const T* x, const S* scale, const float* mean,     \
                                                     const float* var, const T* dy, T* dx, float* pg,   \
                                                     float* pb, i64 M, i64 N, float eps, int has_scale) { \
    ln_bwd<T, S>(x, scale, mean, var, dy, dx, pg, pb, M, N, eps, has_scale);                            \
  }                                                                                                     \
  extern "C" __global__ void __launch_bounds__(256, 1) ln_bwd_warp8_##NAME##_##SNAME(LN_WARP_PARAMS(T, S)) { \
    LN_SHARED                                                                                           \
    if (g == 1) {                                                                                       \
      switch (kv) { LN_WARP_CASE(8, T, S) }                                                             \
    } else {                                                                                            \
      switch (g) { LN_GROUP_CASE(8, 2, T, S) LN_GROUP_CASE(8, 4, T, S) LN_GROUP_CASE(8, 8, T, S) }      \
    }                                                                                                   \
  }                                                                                                     \
  extern "C" __global__ void __launch_bounds__(256, 2) ln_bwd_warp4_##NAME##_##SNAME(LN_WARP_PARAMS(T, S)) { \
    LN_SHARED                                                                                           \
    if (g == 1) {                                                                                       \
      switch (kv) { LN_WARP_CASE(1, T, S) LN_WARP_CASE(2, T, S) LN_WARP_CASE(4, T, S) }                 \
    } else {                                                                                            \
      switch (g) { LN_GROUP_CASE(4, 2, T, S) LN_GROUP_CASE(4, 4, T, S) LN_GROUP_CASE(4, 8, T, S) }      \
    }                                                                                                   \
  }

LN_KERNELS(f32, float, f32, float)
LN_KERNELS(f16, f16, f16, f16)
LN_KERNELS(f16, f16, f32, float)
LN_KERNELS(bf16, bf16, bf16, bf16)
LN_KERNELS(bf16, bf16, f32, float)
