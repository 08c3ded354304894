// softmax and softmax_with_cross_entropy, each one pass: the backward d logits = (softmax - target) * d loss,
// and (at the end of the file) the forwards over rows -- softmax, its gradient, and softmax with the hard-label
// loss -- one warp per row.
//
// softmax_with_cross_entropy backward: d logits = (softmax - target) * d loss, one elementwise pass.
//
// Logits are viewed as [outer, C, inner] (the class axis in the middle); the loss and hard labels
// as [outer, inner]. Hard labels: target = one_hot(label), rows whose label == ignore_index get 0.
// Soft labels: target = label. `dloss_stride` is 1 for a per-row loss
// gradient and 0 for a broadcast scalar (a fused mean/sum reduction); `scale` multiplies it
// (1/N for a mean). Reads softmax (+ labels) once, writes dx once; 4-wide vector loads when aligned.
// Hard labels with the class axis last (inner == 1, the usual case): rows on the grid's y axis, classes
// across x, so no index is divided (the general layout divides three times per element).
#include "common.cuh"

template <class T, class L>
__device__ __forceinline__ void sce_hard(const T* __restrict__ sm, const L* __restrict__ label,
                                         const T* __restrict__ dloss, T* __restrict__ dx, i64 n, i64 C,
                                         i64 inner, int dloss_stride, float scale, i64 ignore_index, int vec) {
  const i64 nvec = vec ? (n >> 2) : 0;
  for (i64 v = GRID_TID; v < nvec; v += GRID_STRIDE) {
    float s[4], o[4];
    load4(sm, v * 4, s);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const i64 i = v * 4 + k;
      const i64 outer = i / (C * inner), in = i % inner, c = (i / inner) % C;
      const i64 row = outer * inner + in;
      const i64 lab = (i64)label[row];
      const float g = ld(dloss, row * dloss_stride) * scale;
      o[k] = lab == ignore_index ? 0.f : (s[k] - (c == lab ? 1.f : 0.f)) * g;
    }
    store4(dx, v * 4, o);
  }
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) {
    const i64 outer = i / (C * inner), in = i % inner, c = (i / inner) % C;
    const i64 row = outer * inner + in;
    const i64 lab = (i64)label[row];
    const float g = ld(dloss, row * dloss_stride) * scale;
    st(dx, i, lab == ignore_index ? 0.f : (ld(sm, i) - (c == lab ? 1.f : 0.f)) * g);
  }
}

// Each thread takes up to 4 vectors of a row, loaded before any is written (4 loads in flight).
template <int V, class T, class L>
__device__ __forceinline__ void sce_hard_rows(const T* __restrict__ sm, const L* __restrict__ label,
                                              const T* __restrict__ dloss, T* __restrict__ dx, i64 rows, i64 C,
                                              int dloss_stride, float scale, i64 ignore_index) {
  constexpr int U = 4;
  const i64 stride = (i64)gridDim.x * blockDim.x * V;
  for (i64 r = blockIdx.y; r < rows; r += gridDim.y) {
    const i64 lab = (i64)label[r];
    const bool ignored = lab == ignore_index;
    const float g = ld(dloss, r * dloss_stride) * scale;
    const T* sr = sm + r * C;
    T* dr = dx + r * C;
    for (i64 c0 = ((i64)blockIdx.x * blockDim.x + threadIdx.x) * V; c0 < C; c0 += stride * U) {
      float s[U][V];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (c0 + u * stride < C) loadv<V>(sr, c0 + u * stride, s[u]);
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const i64 c = c0 + u * stride;
        if (c < C) {
#pragma unroll
          for (int k = 0; k < V; ++k) s[u][k] = ignored ? 0.f : (s[u][k] - (c + k == lab ? 1.f : 0.f)) * g;
          storev<V>(dr, c, s[u]);
        }
      }
    }
  }
}

// Soft labels: dx = (softmax - label) * dloss, elementwise, as Paddle's kernels: labels that do not sum to 1 keep
// Paddle's gradient (the exact derivative would multiply softmax by the row's label sum).
template <class T>
__device__ __forceinline__ void sce_soft(const T* __restrict__ sm, const T* __restrict__ label,
                                         const T* __restrict__ dloss, T* __restrict__ dx, i64 n, i64 C,
                                         i64 inner, int dloss_stride, float scale, int vec) {
  const i64 nvec = vec ? (n >> 2) : 0;
  for (i64 v = GRID_TID; v < nvec; v += GRID_STRIDE) {
    float s[4], l[4];
    load4(sm, v * 4, s);
    load4(label, v * 4, l);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const i64 i = v * 4 + k;
      s[k] = (s[k] - l[k]) * (ld(dloss, ((i / (C * inner)) * inner + i % inner) * dloss_stride) * scale);
    }
    store4(dx, v * 4, s);
  }
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE)
    st(dx, i, (ld(sm, i) - ld(label, i)) * (ld(dloss, ((i / (C * inner)) * inner + i % inner) * dloss_stride) * scale));
}

// inner == 1: a 2-D grid over (class vectors, rows); else the 1-D grid-stride elementwise form.
#define SCE_HARD(T, L)                                                                                 \
  if (inner != 1) sce_hard<T, L>(sm, label, dloss, dx, n, C, inner, dloss_stride, scale, ignore_index, vec); \
  else if (vec) sce_hard_rows<4, T, L>(sm, label, dloss, dx, n / C, C, dloss_stride, scale, ignore_index);  \
  else sce_hard_rows<1, T, L>(sm, label, dloss, dx, n / C, C, dloss_stride, scale, ignore_index);

#define SCE_KERNELS(NAME, T)                                                                           \
  extern "C" __global__ void sce_grad_hard_i64_##NAME(const T* sm, const i64* label, const T* dloss,   \
                                                      T* dx, i64 n, i64 C, i64 inner, int dloss_stride, \
                                                      float scale, i64 ignore_index, int vec) {        \
    SCE_HARD(T, i64)                                                                                   \
  }                                                                                                    \
  extern "C" __global__ void sce_grad_hard_i32_##NAME(const T* sm, const int* label, const T* dloss,   \
                                                      T* dx, i64 n, i64 C, i64 inner, int dloss_stride, \
                                                      float scale, i64 ignore_index, int vec) {        \
    SCE_HARD(T, int)                                                                                   \
  }                                                                                                    \
  extern "C" __global__ void sce_grad_soft_##NAME(const T* sm, const T* label, const T* dloss, T* dx,  \
                                                  i64 n, i64 C, i64 inner, int dloss_stride,           \
                                                  float scale, int vec) {                              \
    sce_soft<T>(sm, label, dloss, dx, n, C, inner, dloss_stride, scale, vec);                          \
  }

INSTANTIATE_FLOAT_TYPES(SCE_KERNELS)

// ---- forwards over rows (the class axis last), one warp per row -------------------------------------
// softmax: e = exp(max(x - max_row, -64)) (Paddle's clip: a logit far below the maximum keeps exp(-64)),
// out = e / sum_row(e). Three passes over the row (max, sum, write); its second and third reads hit L1/L2.
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// (max, sum of exp(max(x - max, -64))) of row `xr` of C values, in every lane of the warp.
template <class T>
__device__ __forceinline__ void row_softmax_stats(const T* __restrict__ xr, i64 C, int lane, float& m, float& s) {
  m = ld(xr, 0);  // C >= 1
  for (i64 c = lane; c < C; c += 32) m = fmaxf(m, ld(xr, c));
  m = warp_max(m);
  s = 0.f;
  for (i64 c = lane; c < C; c += 32) s += expf(fmaxf(ld(xr, c) - m, -64.f));
  s = warp_sum(s);
}

#define WARP_ROWS(r)                                                                                    \
  const int lane = threadIdx.x & 31;                                                                    \
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);                                                 \
  for (i64 r = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); r < rows; r += warps)

template <class T>
__device__ __forceinline__ void softmax_rows(const T* __restrict__ x, T* __restrict__ out, i64 rows, i64 C) {
  WARP_ROWS(r) {
    const T* xr = x + r * C;
    float m, s;
    row_softmax_stats(xr, C, lane, m, s);
    const float inv = 1.f / s;
    for (i64 c = lane; c < C; c += 32) st(out + r * C, c, expf(fmaxf(ld(xr, c) - m, -64.f)) * inv);
  }
}

// softmax_grad: dx = (dout - sum_row(dout * out)) * out.
template <class T>
__device__ __forceinline__ void softmax_grad_rows(const T* __restrict__ out, const T* __restrict__ dout,
                                                  T* __restrict__ dx, i64 rows, i64 C) {
  WARP_ROWS(r) {
    const T* o = out + r * C;
    const T* d = dout + r * C;
    float s = 0.f;
    for (i64 c = lane; c < C; c += 32) s += ld(d, c) * ld(o, c);
    s = warp_sum(s);
    for (i64 c = lane; c < C; c += 32) st(dx + r * C, c, (ld(d, c) - s) * ld(o, c));
  }
}

// softmax_with_cross_entropy with hard labels: softmax as above, and loss = log(sum) - (x[label] - max), 0 for
// ignore_index. A label outside [0, C) sets *bad (checked by the host later: device/deferred_checks.py) and
// gives the loss of class 0.
template <class T, class L>
__device__ __forceinline__ void sce_fwd_hard_rows(const T* __restrict__ x, const L* __restrict__ label,
                                                  T* __restrict__ softmax, T* __restrict__ loss,
                                                  int* __restrict__ bad, i64 rows, i64 C, i64 ignore_index) {
  WARP_ROWS(r) {
    const T* xr = x + r * C;
    float m, s;
    row_softmax_stats(xr, C, lane, m, s);
    const float log_sum = logf(s);
    for (i64 c = lane; c < C; c += 32) st(softmax + r * C, c, expf(fmaxf(ld(xr, c) - m, -64.f) - log_sum));
    if (lane == 0) {
      const i64 lab = (i64)label[r];
      const bool out_of_range = lab != ignore_index && (lab < 0 || lab >= C);
      if (out_of_range) *bad = 1;  // any writer: every one writes 1
      const i64 at = out_of_range ? 0 : lab;
      st(loss, r, lab == ignore_index ? 0.f : log_sum - fmaxf(ld(xr, at) - m, -64.f));
    }
  }
}

#define SOFTMAX_ROW_KERNELS(NAME, T)                                                                   \
  extern "C" __global__ void softmax_rows_##NAME(const T* x, T* out, i64 rows, i64 C) {                 \
    softmax_rows<T>(x, out, rows, C);                                                                    \
  }                                                                                                      \
  extern "C" __global__ void softmax_grad_rows_##NAME(const T* out, const T* dout, T* dx, i64 rows, i64 C) { \
    softmax_grad_rows<T>(out, dout, dx, rows, C);                                                        \
  }                                                                                                      \
  extern "C" __global__ void sce_fwd_hard_i64_##NAME(const T* x, const i64* label, T* softmax, T* loss, \
                                                     int* bad, i64 rows, i64 C, i64 ignore_index) {      \
    sce_fwd_hard_rows<T, i64>(x, label, softmax, loss, bad, rows, C, ignore_index);                      \
  }                                                                                                      \
  extern "C" __global__ void sce_fwd_hard_i32_##NAME(const T* x, const int* label, T* softmax, T* loss, \
                                                     int* bad, i64 rows, i64 C, i64 ignore_index) {      \
    sce_fwd_hard_rows<T, int>(x, label, softmax, loss, bad, rows, C, ignore_index);                      \
  }
INSTANTIATE_FLOAT_TYPES(SOFTMAX_ROW_KERNELS)
