// softmax_with_cross_entropy backward: d logits = (softmax - target) * d loss, one elementwise pass.
//
// Logits are viewed as [outer, C, inner] (the class axis in the middle); the loss and hard labels
// as [outer, inner]. Hard labels: target = one_hot(label), rows whose label == ignore_index get 0.
// Soft labels: d logits = softmax * sum(label) - label (row sums by warp). `dloss_stride` is 1 for a per-row loss
// gradient and 0 for a broadcast scalar (a fused mean/sum reduction); `scale` multiplies it
// (1/N for a mean). Reads softmax (+ labels) once, writes dx once; 4-wide vector loads when aligned.
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

// Soft labels: dx = (softmax * sum_c label - label) * dloss. One warp per row: the label row sum is a
// warp-shuffle reduction, then the row is written (its second read hits L1/L2, not DRAM).
template <class T>
__device__ __forceinline__ void sce_soft(const T* __restrict__ sm, const T* __restrict__ label,
                                         const T* __restrict__ dloss, T* __restrict__ dx, i64 n, i64 C,
                                         i64 inner, int dloss_stride, float scale, int vec) {
  const int lane = threadIdx.x & 31;
  const i64 rows = n / C, warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 row = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < rows; row += warps) {
    const i64 base = (row / inner) * C * inner + row % inner;  // element (row, c) is at base + c * inner
    float lsum = 0.f;
    if (vec) {  // inner == 1, C % 4 == 0, aligned
      for (i64 v = lane; v < (C >> 2); v += 32) {
        float l[4];
        load4(label, base + v * 4, l);
        lsum += (l[0] + l[1]) + (l[2] + l[3]);
      }
    } else {
      for (i64 c = lane; c < C; c += 32) lsum += ld(label, base + c * inner);
    }
    lsum = warp_sum(lsum);
    const float g = ld(dloss, row * dloss_stride) * scale;
    if (vec) {
      for (i64 v = lane; v < (C >> 2); v += 32) {
        float s[4], l[4], o[4];
        load4(sm, base + v * 4, s);
        load4(label, base + v * 4, l);
#pragma unroll
        for (int k = 0; k < 4; ++k) o[k] = (s[k] * lsum - l[k]) * g;
        store4(dx, base + v * 4, o);
      }
    } else {
      for (i64 c = lane; c < C; c += 32) {
        const i64 i = base + c * inner;
        st(dx, i, (ld(sm, i) * lsum - ld(label, i)) * g);
      }
    }
  }
}

#define SCE_KERNELS(NAME, T)                                                                           \
  extern "C" __global__ void sce_grad_hard_i64_##NAME(const T* sm, const i64* label, const T* dloss,   \
                                                      T* dx, i64 n, i64 C, i64 inner, int dloss_stride, \
                                                      float scale, i64 ignore_index, int vec) {        \
    sce_hard<T, i64>(sm, label, dloss, dx, n, C, inner, dloss_stride, scale, ignore_index, vec);       \
  }                                                                                                    \
  extern "C" __global__ void sce_grad_hard_i32_##NAME(const T* sm, const int* label, const T* dloss,   \
                                                      T* dx, i64 n, i64 C, i64 inner, int dloss_stride, \
                                                      float scale, i64 ignore_index, int vec) {        \
    sce_hard<T, int>(sm, label, dloss, dx, n, C, inner, dloss_stride, scale, ignore_index, vec);       \
  }                                                                                                    \
  extern "C" __global__ void sce_grad_soft_##NAME(const T* sm, const T* label, const T* dloss, T* dx,  \
                                                  i64 n, i64 C, i64 inner, int dloss_stride,           \
                                                  float scale, int vec) {                              \
    sce_soft<T>(sm, label, dloss, dx, n, C, inner, dloss_stride, scale, vec);                          \
  }

INSTANTIATE_FLOAT_TYPES(SCE_KERNELS)
