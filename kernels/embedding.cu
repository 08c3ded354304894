// embedding backward: dW[ids[t], :] += dOut[t, :] (repeated ids accumulate; the padding row stays 0).
//
// embedding_grad_atomic: one block per token (grid-stride), threads across the D columns, float32
//   atomicAdd into a zeroed float32 accumulator [V, D] (the output itself for float32).
// embedding_grad_sorted: the deterministic variant. The host sorts the ids (stable); each
//   run of equal ids is summed by one block in token order in registers and its dW row written
//   once -- no atomics, bitwise reproducible.
// Ids outside [0, V) are skipped (never written out of bounds).
#include "common.cuh"

template <class T>
__device__ __forceinline__ void emb_atomic(const i64* __restrict__ ids, const T* __restrict__ dout,
                                           float* __restrict__ acc, i64 ntok, i64 V, i64 D, i64 padding_idx) {
  for (i64 t = blockIdx.x; t < ntok; t += gridDim.x) {
    const i64 id = ids[t];
    if (id == padding_idx || id < 0 || id >= V) continue;
    const T* src = dout + t * D;
    float* dst = acc + id * D;
    for (i64 d = threadIdx.x; d < D; d += blockDim.x) atomicAdd(dst + d, ld(src, d));
  }
}

// Sorted ids: the block at position k of a run of equal ids (k == 0 or a different id before it)
// sums the whole run in token order; other positions have nothing to do. No host-side segment
// count is needed, so the host never synchronises.
template <class T>
__device__ __forceinline__ void emb_sorted(const i64* __restrict__ sorted_ids, const i64* __restrict__ order,
                                           i64 ntok, const T* __restrict__ dout, T* __restrict__ dw, i64 V,
                                           i64 D, i64 padding_idx) {
  for (i64 k = blockIdx.x; k < ntok; k += gridDim.x) {
    const i64 id = sorted_ids[k];
    if ((k > 0 && sorted_ids[k - 1] == id) || id == padding_idx || id < 0 || id >= V) continue;
    i64 e = k + 1;
    while (e < ntok && sorted_ids[e] == id) ++e;
    for (i64 d = threadIdx.x; d < D; d += blockDim.x) {
      float a = 0.f;
      for (i64 j = k; j < e; ++j) a += ld(dout, order[j] * D + d);
      st(dw, id * D + d, a);
    }
  }
}

#define EMB_KERNELS(NAME, T)                                                                           \
  extern "C" __global__ void embedding_grad_atomic_##NAME(const i64* ids, const T* dout, float* acc,     \
                                                          i64 ntok, i64 V, i64 D, i64 padding_idx) {    \
    emb_atomic<T>(ids, dout, acc, ntok, V, D, padding_idx);                                            \
  }                                                                                                    \
  extern "C" __global__ void embedding_grad_sorted_##NAME(const i64* sorted_ids, const i64* order,      \
                                                          i64 ntok, const T* dout, T* dw, i64 V, i64 D,  \
                                                          i64 padding_idx) {                             \
    emb_sorted<T>(sorted_ids, order, ntok, dout, dw, V, D, padding_idx);                                \
  }

INSTANTIATE_FLOAT_TYPES(EMB_KERNELS)
