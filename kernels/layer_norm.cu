// layer_norm backward over a [M, N] view (N = the normalised size), one pass over X and dY.
//
//   xhat = (x - mean) * rstd,  rstd = 1 / sqrt(var + eps),  g = dy * scale
//   dx   = rstd * (g - mean_j(g) - xhat * mean_j(g * xhat))
//   dscale_j = sum_rows dy * xhat,  dbias_j = sum_rows dy
//
// Block-per-row (grid-stride over rows). Each thread owns the same columns j = tid + k*blockDim in
// every row it visits, so its dscale/dbias column partials stay in registers across rows; at the
// end the block writes one float32 partial row [G, N], which reduce_mid (reduce.cu) sums over the
// G blocks -- deterministic, no atomics. With N <= blockDim * LN_MAXK the row's x and dy are also
// kept in registers between the row reduction and the dx write (each byte read once); larger rows
// re-read them (from L1/L2) and keep the column partials in the block's own partial row.
#include "common.cuh"

#define LN_MAXK 8

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

#define LN_KERNELS(NAME, T, SNAME, S)                                                                   \
  extern "C" __global__ void ln_bwd_##NAME##_##SNAME(const T* x, const S* scale, const float* mean,     \
                                                     const float* var, const T* dy, T* dx, float* pg,   \
                                                     float* pb, i64 M, i64 N, float eps, int has_scale) { \
    ln_bwd<T, S>(x, scale, mean, var, dy, dx, pg, pb, M, N, eps, has_scale);                            \
  }

LN_KERNELS(f32, float, f32, float)
LN_KERNELS(f16, f16, f16, f16)
LN_KERNELS(f16, f16, f32, float)
LN_KERNELS(bf16, bf16, bf16, bf16)
LN_KERNELS(bf16, bf16, f32, float)
