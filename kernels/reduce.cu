// Broadcast-reduce for elementwise gradients (registry op `reduce_as`): sum over broadcast dims.
//
// The host collapses the reduction into passes over two layouts, each touching its input once:
//   reduce_mid:  [A, R, B] -> [A, G, B]  (sum the middle axis; G = gridDim.y row slices, G == 1 gives
//                the result, G > 1 float32 partials that a second reduce_mid pass with R = G sums;
//                4 columns per thread, 16-byte loads, when B % 4 == 0 and x is 4-element aligned);
//   reduce_last: [A, R] -> [A, G]        (sum the contiguous last axis; one warp per row when rows
//                are many, G blocks per row when they are few; 4-wide vector loads when aligned).
// Accumulation is float32; outputs are float32 (partials, intermediate passes) or the input type.
#include "common.cuh"

template <int V, class TI, class TO>
__device__ __forceinline__ void reduce_mid(const TI* __restrict__ x, TO* __restrict__ out, i64 A, i64 R,
                                           i64 B) {
  const i64 c = ((i64)blockIdx.x * TILE_X + threadIdx.x) * V;
  for (i64 a = blockIdx.z; a < A; a += gridDim.z) {
    const TI* xa = x + a * R * B;
    float s[V];
    tile_colsum<V>(R, c, B, [&](i64 r, i64 r1, i64 cc, float* acc) {
      float t[TILE_U][V];
#pragma unroll
      for (int u = 0; u < TILE_U; ++u)
        if (r + u * TILE_Y < r1) loadv<V>(xa, (r + u * TILE_Y) * B + cc, t[u]);
#pragma unroll
      for (int u = 0; u < TILE_U; ++u)
        if (r + u * TILE_Y < r1) {
#pragma unroll
          for (int k = 0; k < V; ++k) acc[k] += t[u][k];
        }
    }, s);
    if (threadIdx.y == 0 && c < B) storev<V>(out, (a * gridDim.y + blockIdx.y) * B + c, s);
  }
}

// One warp per row (rows = A), vectorised when vec != 0 (R % 4 == 0 and x 4-element aligned).
template <class TI, class TO>
__device__ __forceinline__ void reduce_last_warp(const TI* __restrict__ x, TO* __restrict__ out, i64 A,
                                                 i64 R, int vec) {
  const int lane = threadIdx.x & 31;
  const i64 warps = (i64)gridDim.x * (blockDim.x >> 5);
  for (i64 row = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < A; row += warps) {
    const TI* xr = x + row * R;
    float acc = 0.f;
    if (vec) {
      for (i64 v = lane; v < (R >> 2); v += 32) {
        float t[4];
        load4(xr, v * 4, t);
        acc += (t[0] + t[1]) + (t[2] + t[3]);
      }
    } else {
      for (i64 i = lane; i < R; i += 32) acc += ld(xr, i);
    }
    acc = warp_sum(acc);
    if (lane == 0) st(out, row, acc);
  }
}

// gridDim.x blocks per row, rows along blockIdx.y: out[row, blockIdx.x] = sum of that block's slice.
template <class TI, class TO>
__device__ __forceinline__ void reduce_last_block(const TI* __restrict__ x, TO* __restrict__ out, i64 A,
                                                  i64 R, int vec) {
  const i64 per = ((R + gridDim.x - 1) / gridDim.x + 3) / 4 * 4;  // slices start 4-aligned
  const i64 s0 = (i64)blockIdx.x * per;
  const i64 s1 = s0 + per < R ? s0 + per : R;
  for (i64 row = blockIdx.y; row < A; row += gridDim.y) {
    const TI* xr = x + row * R;
    float acc = 0.f;
    if (vec) {
      for (i64 i = s0 + 4 * (i64)threadIdx.x; i < s1; i += 4 * (i64)blockDim.x) {
        float t[4];
        load4(xr, i, t);
        acc += (t[0] + t[1]) + (t[2] + t[3]);
      }
    } else {
      for (i64 i = s0 + threadIdx.x; i < s1; i += blockDim.x) acc += ld(xr, i);
    }
    float unused = 0.f;
    block_sum2(acc, unused);
    if (threadIdx.x == 0) st(out, row * gridDim.x + blockIdx.x, acc);
  }
}

#define REDUCE_MID_BLOCKS_PER_SM 4  // resident 256-thread blocks (launch/reduce.py sizes the grid)

#define REDUCE_KERNELS(IN, TI, OUT, TO)                                                                 \
  extern "C" __global__ void __launch_bounds__(256, REDUCE_MID_BLOCKS_PER_SM)                          \
  reduce_mid_##IN##_##OUT(const TI* x, TO* out, i64 A, i64 R, i64 B, int v) {                          \
    if (v) reduce_mid<4, TI, TO>(x, out, A, R, B);                                                     \
    else reduce_mid<1, TI, TO>(x, out, A, R, B);                                                       \
  }                                                                                                    \
  extern "C" __global__ void reduce_last_warp_##IN##_##OUT(const TI* x, TO* out, i64 A, i64 R, int v) { \
    reduce_last_warp<TI, TO>(x, out, A, R, v);                                                         \
  }                                                                                                    \
  extern "C" __global__ void reduce_last_block_##IN##_##OUT(const TI* x, TO* out, i64 A, i64 R, int v) { \
    reduce_last_block<TI, TO>(x, out, A, R, v);                                                        \
  }

REDUCE_KERNELS(f32, float, f32, float)
REDUCE_KERNELS(f16, f16, f32, float)
REDUCE_KERNELS(f16, f16, f16, f16)
REDUCE_KERNELS(bf16, bf16, f32, float)
REDUCE_KERNELS(bf16, bf16, bf16, bf16)
REDUCE_KERNELS(f32, float, f16, f16)
REDUCE_KERNELS(f32, float, bf16, bf16)
