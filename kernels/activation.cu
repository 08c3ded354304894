// Activation backward and bias + activation (forward, and backward with the bias-grad column sum fused).
//
// act_grad:      dx = dout * act'(a), a = the saved forward output (relu/sigmoid/tanh) or input
//                (gelu exact/tanh, silu) -- codes ACT_* in common.cuh. One elementwise pass.
// bias_act:      out = act(x + bias[c]) over a [R, B] view.
// bias_act_grad: h = x + bias[c] recomputed (cheaper than storing it), dx = dout * act'(h), and
//                dbias[c] = sum_r dx[r, c] accumulated in registers while dx is written: x and dout
//                are read once, dx written once. Tiles as tile_colsum (16-byte accesses when B % 4 == 0
//                and aligned); with gridDim.y > 1 the column sums are float32 partials [G, B] finished
//                by reduce_mid (reduce.cu).
// swiglu:        out = act(a) * b over the n = R * D outputs (act silu, or gelu for geglu), (a, b) = (x, y), or
//                without y the two halves of each row of x [R, 2D] plus bias [2D] when given: output i (column
//                c = i % D) reads a at 2i - c (bias c) and b at 2i - c + D (bias c + D).
// swiglu_grad:   da = dout * b * act'(a), db = dout * act(a), written where a and b were read.
#include "common.cuh"

template <class T>
__device__ __forceinline__ void act_grad_k(const T* __restrict__ a, const T* __restrict__ dout,
                                           T* __restrict__ dx, i64 n, int act, int vec) {
  struct In { float a[4], d[4]; };
  const i64 nvec = vec ? (n >> 2) : 0;
  vec_loop2(nvec, [&](i64 v) {
    In in;
    load4(a, v * 4, in.a);
    load4(dout, v * 4, in.d);
    return in;
  }, [&](i64 v, const In& in) {
    float o[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) o[k] = in.d[k] * act_grad(act, in.a[k]);
    store4(dx, v * 4, o);
  });
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) st(dx, i, ld(dout, i) * act_grad(act, ld(a, i)));
}

// "out" codes need act(h) to evaluate the derivative from h.
__device__ __forceinline__ float act_grad_from_input(int act, float h) {
  const bool from_out = act == ACT_RELU || act == ACT_SIGMOID || act == ACT_TANH;
  return act_grad(act, from_out ? act_forward(act, h) : h);
}

// A thread's elements step by the grid's stride, so their bias column steps by stride % B: one i64 division per
// thread instead of one per element (a 64-bit `%` is a ~70-instruction subroutine).
__device__ __forceinline__ i64 next_col(i64 c, i64 step, i64 B) {
  c += step;
  return c >= B ? c - B : c;
}

template <class T>
__device__ __forceinline__ void bias_act_k(const T* __restrict__ x, const T* __restrict__ bias,
                                           T* __restrict__ out, i64 n, i64 B, int act, int vec) {
  const i64 nvec = vec ? (n >> 2) : 0;  // vec requires B % 4 == 0: a 4-group shares one bias row
  const i64 vstep = GRID_STRIDE * 4 % B;
  i64 c = GRID_TID * 4 % B;
  for (i64 v = GRID_TID; v < nvec; v += 2 * GRID_STRIDE) {  // two groups in flight per thread
    const i64 w = v + GRID_STRIDE, cw = next_col(c, vstep, B);
    float xv[4], bv[4], xw[4], bw[4];
    load4(x, v * 4, xv);
    load4(bias, c, bv);
    if (w < nvec) {
      load4(x, w * 4, xw);
      load4(bias, cw, bw);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) xv[k] = act_forward(act, xv[k] + bv[k]);
    store4(out, v * 4, xv);
    if (w < nvec) {
#pragma unroll
      for (int k = 0; k < 4; ++k) xw[k] = act_forward(act, xw[k] + bw[k]);
      store4(out, w * 4, xw);
    }
    c = next_col(cw, vstep, B);
  }
  const i64 step = GRID_STRIDE % B;
  c = (nvec * 4 + GRID_TID) % B;
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE, c = next_col(c, step, B))
    st(out, i, act_forward(act, ld(x, i) + ld(bias, c)));
}

template <int V, class T>
__device__ __forceinline__ void bias_act_grad_k(const T* __restrict__ x, const T* __restrict__ bias,
                                                const T* __restrict__ dout, T* __restrict__ dx,
                                                T* __restrict__ dbias, float* __restrict__ partial, i64 R,
                                                i64 B, int act) {
  const i64 c = ((i64)blockIdx.x * TILE_X + threadIdx.x) * V;
  float b[V], s[V];
#pragma unroll
  for (int k = 0; k < V; ++k) b[k] = 0.f;
  if (c < B) loadv<V>(bias, c, b);
  tile_colsum<V>(R, c, B, [&](i64 r, i64 r1, i64 cc, float* acc) {
    float xv[TILE_U][V], dv[TILE_U][V];
#pragma unroll
    for (int u = 0; u < TILE_U; ++u)
      if (r + u * TILE_Y < r1) {
        loadv<V>(x, (r + u * TILE_Y) * B + cc, xv[u]);
        loadv<V>(dout, (r + u * TILE_Y) * B + cc, dv[u]);
      }
#pragma unroll
    for (int u = 0; u < TILE_U; ++u)
      if (r + u * TILE_Y < r1) {
        float g[V];
#pragma unroll
        for (int k = 0; k < V; ++k) {
          g[k] = dv[u][k] * act_grad_from_input(act, xv[u][k] + b[k]);
          acc[k] += g[k];
        }
        storev<V>(dx, (r + u * TILE_Y) * B + cc, g);
      }
  }, s);
  if (threadIdx.y == 0 && c < B) {
    if (gridDim.y == 1) storev<V>(dbias, c, s);
    else storev<V>(partial, (i64)blockIdx.y * B + c, s);
  }
}

// Grid-stride over the outputs: f(i, ia, a, b) with a's index ia (b's is i with y, else ia + D); see above.
template <class T, class F>
__device__ __forceinline__ void glu_loop(const T* __restrict__ x, const T* __restrict__ y, const T* __restrict__ bias,
                                         i64 n, i64 D, int has_y, int has_bias, F f) {
  const i64 step = GRID_STRIDE % D;
  i64 c = GRID_TID % D;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE, c = next_col(c, step, D)) {
    const i64 ia = has_y ? i : 2 * i - c;
    float a = ld(x, ia), b = has_y ? ld(y, i) : ld(x, ia + D);
    if (has_bias) {
      a += ld(bias, c);
      b += ld(bias, c + D);
    }
    f(i, ia, a, b);
  }
}

template <class T>
__device__ __forceinline__ void swiglu_k(const T* __restrict__ x, const T* __restrict__ y, const T* __restrict__ bias,
                                         T* __restrict__ out, i64 n, i64 D, int has_y, int has_bias, int act) {
  glu_loop(x, y, bias, n, D, has_y, has_bias, [&](i64 i, i64, float a, float b) {
    st(out, i, act_forward(act, a) * b);
  });
}

template <class T>
__device__ __forceinline__ void swiglu_grad_k(const T* __restrict__ x, const T* __restrict__ y,
                                              const T* __restrict__ bias, const T* __restrict__ dout,
                                              T* __restrict__ dx, T* __restrict__ dy, i64 n, i64 D, int has_y,
                                              int has_bias, int act) {
  glu_loop(x, y, bias, n, D, has_y, has_bias, [&](i64 i, i64 ia, float a, float b) {
    const float d = ld(dout, i);
    st(dx, ia, d * b * act_grad(act, a));
    if (has_y) st(dy, i, d * act_forward(act, a));
    else st(dx, ia + D, d * act_forward(act, a));
  });
}

#define SWIGLU_KERNELS(NAME, T)                                                                          \
  extern "C" __global__ void swiglu_##NAME(const T* x, const T* y, const T* bias, T* out, i64 n, i64 D,  \
                                           int has_y, int has_bias, int act) {                           \
    swiglu_k<T>(x, y, bias, out, n, D, has_y, has_bias, act);                                            \
  }                                                                                                      \
  extern "C" __global__ void swiglu_grad_##NAME(const T* x, const T* y, const T* bias, const T* dout, T* dx, \
                                                T* dy, i64 n, i64 D, int has_y, int has_bias, int act) { \
    swiglu_grad_k<T>(x, y, bias, dout, dx, dy, n, D, has_y, has_bias, act);                              \
  }

INSTANTIATE_FLOAT_TYPES(SWIGLU_KERNELS)

#define BIAS_ACT_GRAD_BLOCKS_PER_SM 2  // resident 256-thread blocks (launch/activation.py sizes the grid)

#define ACT_KERNELS(NAME, T)                                                                             \
  extern "C" __global__ void act_grad_##NAME(const T* a, const T* dout, T* dx, i64 n, int act, int vec) { \
    act_grad_k<T>(a, dout, dx, n, act, vec);                                                             \
  }                                                                                                      \
  extern "C" __global__ void bias_act_##NAME(const T* x, const T* bias, T* out, i64 n, i64 B, int act,    \
                                             int vec) {                                                  \
    bias_act_k<T>(x, bias, out, n, B, act, vec);                                                         \
  }                                                                                                      \
  extern "C" __global__ void __launch_bounds__(256, BIAS_ACT_GRAD_BLOCKS_PER_SM)                        \
  bias_act_grad_##NAME(const T* x, const T* bias, const T* dout, T* dx,                                  \
                                                  T* dbias, float* partial, i64 R, i64 B, int act,       \
                                                  int vec) {                                             \
    if (vec) bias_act_grad_k<4, T>(x, bias, dout, dx, dbias, partial, R, B, act);                        \
    else bias_act_grad_k<1, T>(x, bias, dout, dx, dbias, partial, R, B, act);                            \
  }

INSTANTIATE_FLOAT_TYPES(ACT_KERNELS)
