// Dropout backward from the saved mask, alone or fused with the gradient of the activation before it.
//
// dropout_grad:     dx = dout * mask * scale   (scale = 1/(1-p) for upscale_in_train, 1 otherwise)
// dropout_act_grad: y = dropout(act(h)):  dh = dout * mask * scale * act'(a), a = saved out or input.
// The mask is uint8 (NumPy/CuPy bool storage); one pass, 4-wide loads of values and mask.
//
// dropout_add (forward, training): h = x + bias[c] (bias over the last axis B, optional), keep = u >= p with
// u = the top 53 bits of the framework generator's next 64-bit word per element as a float64 (its `random()`, so
// the same mask as the dropout op's on the same stream), the words computed here (splitmix_word) from the draw's
// key (a scalar, or read on the device for a captured draw) and first counter; out = h * keep * scale + y.
#include "common.cuh"

template <class T>
__device__ __forceinline__ void dropout_add_k(unsigned long long key, const unsigned long long* __restrict__ key_dev,
                                              unsigned long long first, const T* __restrict__ x,
                                              const T* __restrict__ bias, const T* __restrict__ y,
                                              T* __restrict__ out, unsigned char* __restrict__ mask, i64 n, i64 B,
                                              double p, float scale, int has_bias, int key_on_device) {
  if (key_on_device) key = key_dev[0];
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const unsigned long long word = splitmix_word(key, first + (unsigned long long)i);
    const bool keep = (double)(long long)(word >> 11) * 0x1p-53 >= p;
    const float h = ld(x, i) + (has_bias ? ld(bias, i % B) : 0.f);
    st(out, i, (keep ? h * scale : 0.f) + ld(y, i));
    mask[i] = keep;
  }
}

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
  }                                                                                                    \
  extern "C" __global__ void dropout_add_##NAME(unsigned long long key, const unsigned long long* key_dev,    \
                                                unsigned long long first, const T* x, const T* bias,     \
                                                const T* y, T* out, unsigned char* mask, i64 n, i64 B,     \
                                                double p, float scale, int has_bias, int key_on_device) { \
    dropout_add_k<T>(key, key_dev, first, x, bias, y, out, mask, n, B, p, scale, has_bias, key_on_device); \
  }

INSTANTIATE_FLOAT_TYPES(DROPOUT_KERNELS)
