// embedding backward: dW[ids[t], :] += dOut[t, :] (repeated ids accumulate; the padding row stays 0).
//
// embedding_grad_atomic: one block per token (grid-stride), threads across the D columns, float32
//   atomicAdd into a zeroed float32 accumulator [V, D] (the output itself for float32).
// embedding_grad_sorted: the deterministic variant. The host sorts the ids (stable) and finds the
//   segments of equal ids; one block per segment sums its tokens' rows in token order in registers
//   and writes the dW row once -- no atomics, bitwise reproducible.
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

template <class T>
__device__ __forceinline__ void emb_sorted(const i64* __restrict__ sorted_ids, const i64* __restrict__ order,
                                           const i64* __restrict__ seg_start, i64 nseg, const T* __restrict__ dout,
                                           T* __restrict__ dw, i64 V, i64 D, i64 padding_idx) {
  for (i64 s = blockIdx.x; s < nseg; s += gridDim.x) {
    const i64 b = seg_start[s], e = seg_start[s + 1];
    const i64 id = sorted_ids[b];
    if (id == padding_idx || id < 0 || id >= V) continue;
    for (i64 d = threadIdx.x; d < D; d += blockDim.x) {
      float a = 0.f;
      for (i64 k = b; k < e; ++k) a += ld(dout, order[k] * D + d);
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
                                                          const i64* seg_start, i64 nseg, const T* dout, \
                                                          T* dw, i64 V, i64 D, i64 padding_idx) {       \
    emb_sorted<T>(sorted_ids, order, seg_start, nseg, dout, dw, V, D, padding_idx);                     \
  }

INSTANTIATE_FLOAT_TYPES(EMB_KERNELS)
