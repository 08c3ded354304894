// Dropout backward from the saved mask, alone or fused with the gradient of the activation before it.
//
// dropout_grad:     dx = dout * mask * scale   (scale = 1/(1-p) for upscale_in_train, 1 otherwise)
// dropout_act_grad: y = dropout(act(h)):  dh = dout * mask * scale * act'(a), a = saved out or input.
// The mask is uint8 (NumPy/CuPy bool storage); one pass, 4-wide loads of values and mask.
#include "common.cuh"

template <class T>
__device__ __forceinline__ void dropout_act_grad_k(const unsigned char* __restrict__ mask,
                                                   const T* __restrict__ a, const T* __restrict__ dout,
                                                   T* __restrict__ dx, i64 n, float scale, int act, int vec) {
  struct In { float m[4], d[4], a[4]; };
  const i64 nvec = vec ? (n >> 2) : 0;
  vec_loop2(nvec, [&](i64 v) {
    In in = {};
    load4(mask, v * 4, in.m);
    load4(dout, v * 4, in.d);
    if (act != ACT_IDENTITY) load4(a, v * 4, in.a);
    return in;
  }, [&](i64 v, const In& in) {
    float o[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      o[k] = in.d[k] * in.m[k] * scale * (act != ACT_IDENTITY ? act_grad(act, in.a[k]) : 1.f);
    store4(dx, v * 4, o);
  });
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) {
    const float d = act != ACT_IDENTITY ? act_grad(act, ld(a, i)) : 1.f;
    st(dx, i, ld(dout, i) * ld(mask, i) * scale * d);
  }
}

#define DROPOUT_KERNELS(NAME, T)                                                                       \
  extern "C" __global__ void dropout_grad_##NAME(const unsigned char* mask, const T* dout, T* dx, i64 n, \
                                                 float scale, int vec) {                               \
    dropout_act_grad_k<T>(mask, dout, dout, dx, n, scale, ACT_IDENTITY, vec);                          \
  }                                                                                                    \
  extern "C" __global__ void dropout_act_grad_##NAME(const unsigned char* mask, const T* a, const T* dout, \
                                                     T* dx, i64 n, float scale, int act, int vec) {    \
    dropout_act_grad_k<T>(mask, a, dout, dx, n, scale, act, vec);                                      \
  }

INSTANTIATE_FLOAT_TYPES(DROPOUT_KERNELS)
