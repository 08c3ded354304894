// Shared device helpers for paddlelite's fused kernels. Included (inlined by the loader) at the top of
// every kernels/*.cu file. NVRTC compiles these with no host headers, so nothing here includes any.
//
// 16-bit floats are plain 16-bit storage structs converted with PTX `cvt` on the device (sm_80+ has
// both f16 and bf16 conversions); on the host (the CPU emulation shim) the shim supplies
// emu_f16_to_f32 / emu_f32_to_f16 / emu_f32_to_bf16. All arithmetic happens in float32.
#pragma once

typedef long long i64;

struct __align__(2) f16 { unsigned short bits; };
struct __align__(2) bf16 { unsigned short bits; };

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(f16 v) {
#ifdef __CUDA_ARCH__
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
#else
  return emu_f16_to_f32(v.bits);
#endif
}
__device__ __forceinline__ float to_f(bf16 v) { return __uint_as_float(((unsigned)v.bits) << 16); }

template <class T> __device__ __forceinline__ T from_f(float v);
template <> __device__ __forceinline__ float from_f<float>(float v) { return v; }
template <> __device__ __forceinline__ f16 from_f<f16>(float v) {
  f16 h;
#ifdef __CUDA_ARCH__
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
#else
  h.bits = emu_f32_to_f16(v);
#endif
  return h;
}
template <> __device__ __forceinline__ bf16 from_f<bf16>(float v) {
  bf16 h;
#ifdef __CUDA_ARCH__
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
#else
  h.bits = emu_f32_to_bf16(v);
#endif
  return h;
}

// ---- 4-wide vector loads/stores (16 bytes for float, 8 bytes for 16-bit types) -----------------------
// Callers guarantee 4-element alignment of the base pointers (checked on the host).
__device__ __forceinline__ void load4(const float* p, i64 i, float* o) {
  float4 v = *reinterpret_cast<const float4*>(p + i);
  o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;
}
template <class H> __device__ __forceinline__ void load4_16(const H* p, i64 i, float* o) {
  uint2 v = *reinterpret_cast<const uint2*>(p + i);
  H a, b, c, d;
  a.bits = (unsigned short)(v.x & 0xffffu); b.bits = (unsigned short)(v.x >> 16);
  c.bits = (unsigned short)(v.y & 0xffffu); d.bits = (unsigned short)(v.y >> 16);
  o[0] = to_f(a); o[1] = to_f(b); o[2] = to_f(c); o[3] = to_f(d);
}
__device__ __forceinline__ void load4(const f16* p, i64 i, float* o) { load4_16(p, i, o); }
__device__ __forceinline__ void load4(const bf16* p, i64 i, float* o) { load4_16(p, i, o); }

__device__ __forceinline__ void store4(float* p, i64 i, const float* v) {
  *reinterpret_cast<float4*>(p + i) = make_float4(v[0], v[1], v[2], v[3]);
}
template <class H> __device__ __forceinline__ void store4_16(H* p, i64 i, const float* v) {
  uint2 w;
  w.x = (unsigned)from_f<H>(v[0]).bits | ((unsigned)from_f<H>(v[1]).bits << 16);
  w.y = (unsigned)from_f<H>(v[2]).bits | ((unsigned)from_f<H>(v[3]).bits << 16);
  *reinterpret_cast<uint2*>(p + i) = w;
}
__device__ __forceinline__ void store4(f16* p, i64 i, const float* v) { store4_16(p, i, v); }
__device__ __forceinline__ void store4(bf16* p, i64 i, const float* v) { store4_16(p, i, v); }

// uint8 masks: 4 bytes in one 32-bit load.
__device__ __forceinline__ void load4(const unsigned char* p, i64 i, float* o) {
  unsigned v = *reinterpret_cast<const unsigned*>(p + i);
  o[0] = (float)(v & 0xffu); o[1] = (float)((v >> 8) & 0xffu);
  o[2] = (float)((v >> 16) & 0xffu); o[3] = (float)(v >> 24);
}

template <class T> __device__ __forceinline__ float ld(const T* p, i64 i) { return to_f(p[i]); }
__device__ __forceinline__ float ld(const unsigned char* p, i64 i) { return (float)p[i]; }
template <class T> __device__ __forceinline__ void st(T* p, i64 i, float v) { p[i] = from_f<T>(v); }

// ---- random words: word `counter` of key's SplitMix64 sequence, as paddlelite/framework/random.py draws it -----
__device__ __forceinline__ unsigned long long splitmix_word(unsigned long long key, unsigned long long counter) {
  unsigned long long z = counter * 0x9E3779B97F4A7C15ull + key;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// ---- reductions: warp shuffles, then one shared-memory round across warps --------------------------
// blockDim.x must be a multiple of 32 (the host launchers guarantee it).
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Sum of two values over the whole (1-D) block; every thread gets both results.
__device__ __forceinline__ void block_sum2(float& a, float& b) {
  __shared__ float sa[32];
  __shared__ float sb[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  a = warp_sum(a);
  b = warp_sum(b);
  if (lane == 0) { sa[wid] = a; sb[wid] = b; }
  __syncthreads();
  a = lane < nw ? sa[lane] : 0.f;
  b = lane < nw ? sb[lane] : 0.f;
  a = warp_sum(a);  // every warp reduces the 32 partials itself: no second barrier round needed
  b = warp_sum(b);
  __syncthreads();  // sa/sb may be reused by the caller's next call
}

// ---- activation derivatives (float32 math) -------------------------------------------------------
// Codes shared with paddlelite/device/kernels.py (ACT_CODES). "out" codes take the forward output,
// "x" codes the forward input.
#define ACT_IDENTITY 0
#define ACT_RELU 1       // out
#define ACT_SIGMOID 2    // out
#define ACT_TANH 3       // out
#define ACT_GELU 4       // x (exact, erf)
#define ACT_GELU_TANH 5  // x (tanh approximation)
#define ACT_SILU 6       // x
#define ACT_RELU_X 7     // x (relu derivative from the input: x > 0)

__device__ __forceinline__ float sigmoidf_(float x) { return 1.f / (1.f + expf(-x)); }

// d act / d input, given the saved value `a` (out or x as the code says).
__device__ __forceinline__ float act_grad(int act, float a) {
  switch (act) {
    case ACT_RELU: case ACT_RELU_X: return a > 0.f ? 1.f : 0.f;
    case ACT_SIGMOID: return a * (1.f - a);
    case ACT_TANH: return 1.f - a * a;
    case ACT_GELU: {
      const float cdf = 0.5f * (1.f + erff(a * 0.70710678118654752f));
      const float pdf = 0.39894228040143268f * expf(-0.5f * a * a);
      return cdf + a * pdf;
    }
    case ACT_GELU_TANH: {
      const float k = 0.79788456080286536f, c = 0.044715f;
      const float t = tanhf(k * (a + c * a * a * a));
      return 0.5f * (1.f + t) + 0.5f * a * (1.f - t * t) * k * (1.f + 3.f * c * a * a);
    }
    case ACT_SILU: {
      const float s = sigmoidf_(a);
      return s * (1.f + a * (1.f - s));
    }
    default: return 1.f;
  }
}

__device__ __forceinline__ float act_forward(int act, float x) {
  switch (act) {
    case ACT_RELU: case ACT_RELU_X: return x > 0.f ? x : 0.f;
    case ACT_SIGMOID: return sigmoidf_(x);
    case ACT_TANH: return tanhf(x);
    case ACT_GELU: return 0.5f * x * (1.f + erff(x * 0.70710678118654752f));
    case ACT_GELU_TANH: return 0.5f * x * (1.f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
    case ACT_SILU: return x * sigmoidf_(x);
    default: return x;
  }
}

// Grid-stride index helpers.
#define GRID_TID ((i64)blockIdx.x * blockDim.x + threadIdx.x)
#define GRID_STRIDE ((i64)gridDim.x * blockDim.x)

// Grid-stride over nvec groups of 4 elements, two groups per thread and step: `load(v)` returns group v's
// inputs, `store(v, in)` computes and writes it. Both groups are loaded before either is used, so each
// thread keeps twice the bytes in flight.
template <class Load, class Store>
__device__ __forceinline__ void vec_loop2(i64 nvec, Load load, Store store) {
  for (i64 v = GRID_TID; v < nvec; v += 2 * GRID_STRIDE) {
    const i64 w = v + GRID_STRIDE;
    const auto a = load(v);
    auto b = a;
    if (w < nvec) b = load(w);
    store(v, a);
    if (w < nvec) store(w, b);
  }
}

// Instantiate an extern "C" kernel for each storage type: INSTANTIATE_FLOAT_TYPES(M) expands
// M(f32, float) M(f16, f16) M(bf16, bf16).
#define INSTANTIATE_FLOAT_TYPES(M) M(f32, float) M(f16, f16) M(bf16, bf16)

// V-wide loads/stores: V = 4 uses the 4-wide vector forms above, V = 1 one element.
template <int V, class T> __device__ __forceinline__ void loadv(const T* p, i64 i, float* o) {
  if constexpr (V == 4) load4(p, i, o); else o[0] = ld(p, i);
}
template <int V, class T> __device__ __forceinline__ void storev(T* p, i64 i, const float* v) {
  if constexpr (V == 4) store4(p, i, v); else st(p, i, v[0]);
}

// ---- column sums over a [A, R, B] view (reduce the middle axis), tiled TILE_X*V columns x TILE_Y rows -
// Block = (TILE_X, TILE_Y). Thread (tx, ty) of block (bx, by) owns the V adjacent columns from
// c = (bx*TILE_X + tx) * V (V = 4: 16-byte loads, for B % 4 == 0 and 4-aligned bases) and rows ty,
// ty+TILE_Y, ... of the by-th slice of the R rows, TILE_U rows at a time: `f(r, r1, c, acc)` loads rows
// r + u*TILE_Y (u < TILE_U, below r1) first, then adds their V values into acc in row order (and may
// store side outputs), so each thread has TILE_U loads in flight. The TILE_Y partials are then summed
// through shared memory in a fixed order (deterministic). The sums are valid in threads with
// threadIdx.y == 0. The host sizes the grid to one full wave of blocks.
#define TILE_X 32
#define TILE_Y 8
#define TILE_U 4
template <int V, class F>
__device__ __forceinline__ void tile_colsum(i64 R, i64 c, i64 B, F f, float* acc) {
  const i64 per = (R + gridDim.y - 1) / gridDim.y;
  const i64 r0 = (i64)blockIdx.y * per;
  const i64 r1 = r0 + per < R ? r0 + per : R;
#pragma unroll
  for (int k = 0; k < V; ++k) acc[k] = 0.f;
  if (c < B)
    for (i64 r = r0 + threadIdx.y; r < r1; r += TILE_Y * TILE_U) f(r, r1, c, acc);
  __shared__ float red[TILE_Y][TILE_X * V + 1];
#pragma unroll
  for (int k = 0; k < V; ++k) red[threadIdx.y][threadIdx.x * V + k] = acc[k];
  __syncthreads();
  if (threadIdx.y == 0)
    for (int y = 1; y < TILE_Y; ++y) {
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += red[y][threadIdx.x * V + k];
    }
  __syncthreads();
}
