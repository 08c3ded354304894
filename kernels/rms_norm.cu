// rms_norm over a [M, N] view (N = the normalised size), with the residual sum it is usually fused with:
//
//   h   = x (+ bias_j) (+ residual)          written out as ResidualOut when bias or residual is given
//   rs  = 1 / sqrt(sum_j h^2 / N + eps)      InvVar, float32, per row
//   out = h * rs (* w_j) (+ nb_j)
//
// rms_fwd: one warp per row (grid-stride over rows), in float32; h is recomputed from the inputs for the second
// pass (not read back rounded), as the reference computes it. A lane visits columns lane, lane + 32, ..., so a
// row's loads coalesce.
//
// rms_bwd, from h, rs and dout (and the gradient reaching ResidualOut, added to dh):
//
//   xhat = h * rs,  g = dout * w
//   dh   = rs * (g - xhat * mean_j(g * xhat)) (+ dresidual)
//   dw_j = sum_rows dout * xhat,  dnb_j = sum_rows dout
//
// one block per row (grid-stride over rows); each thread owns the same columns j = tid + k * blockDim in every
// row, so its dw/dnb column partials accumulate in the block's own float32 partial rows [G, N] without atomics,
// which reduce_mid (reduce.cu) then sums over the G blocks: deterministic.
#include "common.cuh"

template <class T>
__device__ __forceinline__ float rms_h(const T* xr, const T* bias, const T* rr, i64 j, int has_bias, int has_res) {
  float h = ld(xr, j);
  if (has_bias) h += ld(bias, j);
  if (has_res) h += ld(rr, j);
  return h;
}

template <class T>
__device__ __forceinline__ void rms_fwd(const T* __restrict__ x, const T* __restrict__ bias, const T* __restrict__ res,
                                        const T* __restrict__ w, const T* __restrict__ nb, T* __restrict__ out,
                                        T* __restrict__ hout, float* __restrict__ inv, i64 M, i64 N, float eps,
                                        int has_bias, int has_res, int has_w, int has_nb) {
  const int lane = threadIdx.x & 31;
  const int fused = has_bias || has_res;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 r = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); r < M; r += warps) {
    const T* xr = x + r * N;
    const T* rr = res + r * N;
    float s = 0.f;
    for (i64 j = lane; j < N; j += 32) {
      const float h = rms_h(xr, bias, rr, j, has_bias, has_res);
      if (fused) st(hout + r * N, j, h);
      s += h * h;
    }
    const float rs = 1.f / sqrtf(warp_sum(s) / (float)N + eps);
    T* yr = out + r * N;
    for (i64 j = lane; j < N; j += 32) {
      float o = rms_h(xr, bias, rr, j, has_bias, has_res) * rs;
      if (has_w) o *= ld(w, j);
      if (has_nb) o += ld(nb, j);
      st(yr, j, o);
    }
    if (lane == 0) inv[r] = rs;
  }
}

template <class T>
__device__ __forceinline__ void rms_bwd(const T* __restrict__ h, const T* __restrict__ w, const float* __restrict__ inv,
                                        const T* __restrict__ dout, const T* __restrict__ dres, T* __restrict__ dh,
                                        float* __restrict__ pw, float* __restrict__ pb, i64 M, i64 N, int has_w,
                                        int has_dres) {
  const i64 T_ = blockDim.x;
  float* pwr = pw + (i64)blockIdx.x * N;
  float* pbr = pb + (i64)blockIdx.x * N;
  for (i64 j = threadIdx.x; j < N; j += T_) { pwr[j] = 0.f; pbr[j] = 0.f; }
  const float inv_n = 1.f / (float)N;
  for (i64 row = blockIdx.x; row < M; row += gridDim.x) {
    const float rs = inv[row];
    const T* hr = h + row * N;
    const T* dr = dout + row * N;
    float s = 0.f, unused = 0.f;
    for (i64 j = threadIdx.x; j < N; j += T_) {
      const float xh = ld(hr, j) * rs, d = ld(dr, j);
      s += d * (has_w ? ld(w, j) : 1.f) * xh;
      pwr[j] += d * xh;  // this thread's own column partial: no other thread touches it
      pbr[j] += d;
    }
    block_sum2(s, unused);
    s *= inv_n;
    T* dhr = dh + row * N;
    for (i64 j = threadIdx.x; j < N; j += T_) {
      const float xh = ld(hr, j) * rs;
      float v = rs * (ld(dr, j) * (has_w ? ld(w, j) : 1.f) - xh * s);
      if (has_dres) v += ld(dres + row * N, j);
      st(dhr, j, v);
    }
  }
}

#define RMS_KERNELS(NAME, T)                                                                                \
  extern "C" __global__ void rms_fwd_##NAME(const T* x, const T* bias, const T* res, const T* w, const T* nb, \
                                            T* out, T* hout, float* inv, i64 M, i64 N, float eps,           \
                                            int has_bias, int has_res, int has_w, int has_nb) {             \
    rms_fwd<T>(x, bias, res, w, nb, out, hout, inv, M, N, eps, has_bias, has_res, has_w, has_nb);          \
  }                                                                                                         \
  extern "C" __global__ void rms_bwd_##NAME(const T* h, const T* w, const float* inv, const T* dout,        \
                                            const T* dres, T* dh, float* pw, float* pb, i64 M, i64 N,       \
                                            int has_w, int has_dres) {                                      \
    rms_bwd<T>(h, w, inv, dout, dres, dh, pw, pb, M, N, has_w, has_dres);                                  \
  }

RMS_KERNELS(f32, float)
RMS_KERNELS(f16, f16)
RMS_KERNELS(bf16, bf16)
