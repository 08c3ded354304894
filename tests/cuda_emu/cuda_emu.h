// CPU emulation of the slice of CUDA that paddlelite's kernels use, so their own source runs under g++.
//
// Force-included (g++ -include cuda_emu.h) before a kernels/*.cu file. A launch runs the grid's
// blocks one after another; each block runs one host thread per CUDA thread. __syncthreads is a
// barrier over the block's threads, warp shuffles exchange values through a per-warp slot array
// between two warp barriers, __shared__ variables are function statics (blocks never overlap, so a
// static is exactly one block's shared memory), atomics are std::atomic_ref operations. A thread
// that returns early drops out of its block's and warp's barriers, as an exited GPU thread does.
#pragma once
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint3 { unsigned x, y, z; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) float2 { float x, y; };
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline float2 make_float2(float x, float y) { return float2{x, y}; }

namespace emu {
struct BlockState {
  int nthreads = 0;
  std::unique_ptr<std::barrier<>> bar;
  std::vector<std::unique_ptr<std::barrier<>>> warp_bar;
  std::vector<uint64_t> slots;  // one per thread, for shuffles
  void reset(int n) {
    nthreads = n;
    bar = std::make_unique<std::barrier<>>(n);
    int nw = (n + 31) / 32;
    warp_bar.clear();
    for (int w = 0; w < nw; ++w) warp_bar.push_back(std::make_unique<std::barrier<>>(std::min(32, n - 32 * w)));
    slots.assign(n, 0);
  }
};
inline thread_local uint3 t_idx{0, 0, 0};
inline thread_local uint3 b_idx{0, 0, 0};
inline thread_local int t_lin = 0;
inline dim3 g_dim, b_dim;
inline BlockState* state = nullptr;

template <class T> inline T shfl(T v, int (*src_of)(int lane, int arg, int width), int arg, int width) {
  static_assert(sizeof(T) <= 8, "shuffle of a type wider than 8 bytes");
  const int lane = t_lin & 31, base = t_lin - lane;
  auto& wb = *state->warp_bar[t_lin / 32];
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  state->slots[t_lin] = bits;
  wb.arrive_and_wait();
  int src = src_of(lane, arg, width);
  uint64_t got = state->slots[base + src];
  wb.arrive_and_wait();
  T r;
  std::memcpy(&r, &got, sizeof(T));
  return r;
}
inline int src_xor(int lane, int m, int w) { int s = lane ^ m; return (s / w == lane / w) ? s : lane; }
inline int src_down(int lane, int d, int w) { int s = lane + d; return (s / w == lane / w) ? s : lane; }
inline int src_up(int lane, int d, int w) { int s = lane - d; return (s >= 0 && s / w == lane / w) ? s : lane; }
inline int src_idx(int lane, int s, int w) { return (lane / w) * w + (s % w); }

// Launch `k` over `grid` x `block` with cuLaunchKernel-style params (pointers to each argument).
template <class... A, size_t... I>
inline void call(void (*k)(A...), void** params, std::index_sequence<I...>) {
  k(*static_cast<std::remove_reference_t<A>*>(params[I])...);
}

template <class... A>
inline int launch(void (*k)(A...), dim3 grid, dim3 block, void** params, const int* sizes, int nargs) {
  if (nargs != (int)sizeof...(A)) return 1000 + (int)sizeof...(A);
  const int expect[] = {(int)sizeof(A)..., 0};
  for (int i = 0; i < nargs; ++i)
    if (sizes[i] != expect[i]) return 2000 + i;
  const int nt = block.x * block.y * block.z;
  g_dim = grid;
  b_dim = block;
  BlockState st;
  st.reset(nt);
  state = &st;
  std::barrier outer(nt, [&]() noexcept { st.reset(nt); });
  std::vector<std::thread> threads;
  threads.reserve(nt);
  for (int t = 0; t < nt; ++t) {
    threads.emplace_back([&, t]() {
      t_lin = t;
      t_idx = uint3{t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
      for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
          for (unsigned bx = 0; bx < grid.x; ++bx) {
            b_idx = uint3{bx, by, bz};
            call(k, params, std::index_sequence_for<A...>{});
            st.bar->arrive_and_drop();
            st.warp_bar[t / 32]->arrive_and_drop();
            outer.arrive_and_wait();
          }
    });
  }
  for (auto& th : threads) th.join();
  state = nullptr;
  return 0;
}
}  // namespace emu

#define threadIdx (emu::t_idx)
#define blockIdx (emu::b_idx)
#define blockDim (emu::b_dim)
#define gridDim (emu::g_dim)
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __shared__ static
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)

inline void __syncthreads() { emu::state->bar->arrive_and_wait(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu::state->warp_bar[emu::t_lin / 32]->arrive_and_wait(); }
template <class T> inline T __shfl_xor_sync(unsigned, T v, int m, int w = 32) { return emu::shfl(v, emu::src_xor, m, w); }
template <class T> inline T __shfl_down_sync(unsigned, T v, unsigned d, int w = 32) { return emu::shfl(v, emu::src_down, (int)d, w); }
template <class T> inline T __shfl_up_sync(unsigned, T v, unsigned d, int w = 32) { return emu::shfl(v, emu::src_up, (int)d, w); }
template <class T> inline T __shfl_sync(unsigned, T v, int s, int w = 32) { return emu::shfl(v, emu::src_idx, s, w); }

template <class T> inline T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <class T> inline T __ldg(const T* p) { return *p; }

inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline float __int_as_float(int u) { float f; std::memcpy(&f, &u, 4); return f; }
inline int __float_as_int(float f) { int u; std::memcpy(&u, &f, 4); return u; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __fdividef(float a, float b) { return a / b; }
using std::max;
using std::min;

// IEEE binary16 / bfloat16 conversions, round to nearest even (what cvt.rn does on the GPU).
inline float emu_f16_to_f32(unsigned short h) {
  unsigned sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
  if (exp == 0) {
    if (man == 0) { bits = sign; }
    else {  // subnormal half: normalise
      int e = -1;
      do { man <<= 1; ++e; } while (!(man & 0x400u));
      bits = sign | ((unsigned)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  return __uint_as_float(bits);
}
inline unsigned short emu_f32_to_f16(float f) {
  unsigned x = __float_as_uint(f), sign = (x >> 16) & 0x8000u;
  unsigned ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (unsigned short)(sign | 0x7e00u);           // NaN
  if (ax >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u);          // overflow -> inf
  if (ax < 0x38800000u) {                                                  // subnormal or zero
    float a = __uint_as_float(ax) * 16777216.0f;                           // scale by 2^24
    unsigned m = (unsigned)std::nearbyint(a);                              // default mode: nearest-even
    return (unsigned short)(sign | m);
  }
  unsigned mant_odd = (ax >> 13) & 1u;
  ax += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
  return (unsigned short)(sign | (ax >> 13));
}
inline unsigned short emu_f32_to_bf16(float f) {
  unsigned x = __float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}
