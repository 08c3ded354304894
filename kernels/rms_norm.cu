// rms_norm over a [M, N] view (N = the normalised size), Paddle's fused_rms_norm in float32:
//
//   h   = x + bias + residual                  (bias [N], residual [M, N], each optional)
//   r   = 1 / sqrt(sum_j h_j^2 / N + eps)      (InvVar, float32, per row)
//   out = h * r * w + nb                       (w, nb [N], each optional)
//
// rms_fwd: one warp per row (grid-stride over rows), a lane visits columns lane, lane + 32, ... so a row's
// loads coalesce; h is written as ResidualOut when bias or residual is given, and rebuilt from the inputs
// (L1/L2) for the output pass rather than read back rounded, so out uses the float32 h.
//
// rms_bwd, over H (the saved h), InvVar, dOut and the optional gradient dR of ResidualOut:
//
//   g = dout * w,  dh = r * g - h * r^3 * sum_j(g_j h_j) / N + dR
//   dw_j = sum_rows dout * h * r,  dnb_j = sum_rows dout,  dbias_j = sum_rows dh
//
// Block per row (grid-stride over rows): each thread owns the columns j = tid + k * blockDim in every row it
// visits, so it accumulates its columns' partials in its block's own float32 row of part [G, 3N] (dw, dnb,
// dbias) without atomics; reduce_mid (reduce.cu) then sums the G rows in a fixed order: deterministic.
#include "common.cuh"

template <class T>
__device__ __forceinline__ float rms_h(const T* __restrict__ xr, const T* __restrict__ bias,
                                       const T* __restrict__ rr, i64 j, int has_bias, int has_res) {
  float h = ld(xr, j);
  if (has_bias) h += ld(bias, j);
  if (has_res) h += ld(rr, j);
  return h;
}

template <class T, class S>
__device__ __forceinline__ void rms_fwd(const T* __restrict__ x, const T* __restrict__ bias,
                                        const T* __restrict__ res, const S* __restrict__ w,
                                        const S* __restrict__ nb, T* __restrict__ y, T* __restrict__ hout,
                                        float* __restrict__ inv, i64 M, i64 N, float eps, int has_bias,
                                        int has_res, int has_w, int has_nb) {
  const int lane = threadIdx.x & 31;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 r = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); r < M; r += warps) {
    const T* xr = x + r * N;
    const T* rr = res + r * N;
    float q = 0.f;
    for (i64 j = lane; j < N; j += 32) {
      const float h = rms_h(xr, bias, rr, j, has_bias, has_res);
      q += h * h;
      if (has_bias || has_res) st(hout + r * N, j, h);
    }
    const float ri = 1.f / sqrtf(warp_sum(q) / (float)N + eps);
    T* yr = y + r * N;
    for (i64 j = lane; j < N; j += 32) {
      float o = rms_h(xr, bias, rr, j, has_bias, has_res) * ri;
      if (has_w) o *= ld(w, j);
      if (has_nb) o += ld(nb, j);
      st(yr, j, o);
    }
    if (lane == 0) inv[r] = ri;
  }
}

template <class T, class S>
__device__ __forceinline__ void rms_bwd(const T* __restrict__ h, const S* __restrict__ w,
                                        const float* __restrict__ inv, const T* __restrict__ dy,
                                        const T* __restrict__ dres, T* __restrict__ dh, float* __restrict__ part,
                                        i64 M, i64 N, int has_w, int has_dres) {
  float* pw = part + (i64)blockIdx.x * 3 * N;
  float* pn = pw + N;
  float* pb = pn + N;
  for (i64 j = threadIdx.x; j < N; j += blockDim.x) { pw[j] = 0.f; pn[j] = 0.f; pb[j] = 0.f; }
  for (i64 row = blockIdx.x; row < M; row += gridDim.x) {
    const T* hr = h + row * N;
    const T* dyr = dy + row * N;
    float s = 0.f, unused = 0.f;
    for (i64 j = threadIdx.x; j < N; j += blockDim.x)
      s += ld(dyr, j) * (has_w ? ld(w, j) : 1.f) * ld(hr, j);
    block_sum2(s, unused);
    const float r = inv[row];
    const float c = r * r * r * s / (float)N;
    T* dhr = dh + row * N;
    for (i64 j = threadIdx.x; j < N; j += blockDim.x) {
      const float d = ld(dyr, j), hv = ld(hr, j);
      float v = r * d * (has_w ? ld(w, j) : 1.f) - hv * c;
      if (has_dres) v += ld(dres + row * N, j);
      st(dhr, j, v);
      pw[j] += d * hv * r;  // this thread's own columns: no other thread touches them
      pn[j] += d;
      pb[j] += v;
    }
  }
}

#define RMS_KERNELS(NAME, T, SNAME, S)                                                                    \
  extern "C" __global__ void rms_fwd_##NAME##_##SNAME(const T* x, const T* bias, const T* res, const S* w, \
                                                      const S* nb, T* y, T* hout, float* inv, i64 M, i64 N, \
                                                      float eps, int has_bias, int has_res, int has_w,      \
                                                      int has_nb) {                                         \
    rms_fwd<T, S>(x, bias, res, w, nb, y, hout, inv, M, N, eps, has_bias, has_res, has_w, has_nb);         \
  }                                                                                                         \
  extern "C" __global__ void rms_bwd_##NAME##_##SNAME(const T* h, const S* w, const float* inv, const T* dy, \
                                                      const T* dres, T* dh, float* part, i64 M, i64 N,       \
                                                      int has_w, int has_dres) {                            \
    rms_bwd<T, S>(h, w, inv, dy, dres, dh, part, M, N, has_w, has_dres);                                    \
  }

RMS_KERNELS(f32, float, f32, float)
RMS_KERNELS(f16, f16, f16, f16)
RMS_KERNELS(f16, f16, f32, float)
RMS_KERNELS(bf16, bf16, bf16, bf16)
RMS_KERNELS(bf16, bf16, f32, float)
