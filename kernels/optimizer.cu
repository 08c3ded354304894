// Optimizer updates, Paddle's formulas (paddlelite/ops/optimizer.py is the reference). Float32 math;
// learning rate and beta powers are read from device memory (no host sync per step).
//
// sgd:       p' = p - lr * g
// momentum:  g' = g * rescale (+ l2 * p);  v' = mu * v + g';  p' = p - lr * v'  (nesterov: p - lr (g' + mu v'))
// adam(w):   lr *= lr_ratio; p -= p * lr * coeff (AdamW); m1' = b1 m1 + (1-b1) g; m2' = b2 m2 + (1-b2) g^2;
//            p' = p - lr sqrt(1-b2^t)/(1-b1^t) * m1' / (sqrt(m2') + eps sqrt(1-b2^t))
// adam_multi: every parameter of a model in one launch. A table (int64, on the device, cached by the
//            host while the parameter list is unchanged) holds per tensor ADAM_TABLE_COLS entries:
//            addresses of p, m1, m2, lr, b1^t, b2^t, the element count and the offset of its slice in
//            the flat outputs p', m1', m2' (4-element aligned); then the chunk -> tensor map and each
//            chunk's first element. The gradients' addresses come in their own array (they change every
//            step). Blocks stride over equal-sized chunks; 16-byte accesses where the tensor's inputs
//            are aligned. b1^t', b2^t' of tensor t go to pows[2t], pows[2t + 1].
#include "common.cuh"

struct AdamOut { float p, m1, m2; };

__device__ __forceinline__ AdamOut adam_elem(float p, float g, float m1, float m2, float lr, float coeff,
                                             float b1, float b2, float eps, float b1p, float b2p) {
  if (coeff != 0.f) p = p - p * (lr * coeff);
  m1 = m1 * b1 + g * (1.f - b1);
  m2 = m2 * b2 + (g * g) * (1.f - b2);
  const float sq = sqrtf(1.f - b2p);
  const float lr_t = lr * sq / (1.f - b1p);
  AdamOut o;
  o.p = p - lr_t * (m1 / (sqrtf(m2) + eps * sq));
  o.m1 = m1;
  o.m2 = m2;
  return o;
}

template <class T>
__device__ __forceinline__ void sgd_k(const T* __restrict__ p, const float* __restrict__ lr_p,
                                      const T* __restrict__ g, T* __restrict__ out, i64 n, int vec) {
  const float lr = *lr_p;
  const i64 nvec = vec ? (n >> 2) : 0;
  for (i64 v = GRID_TID; v < nvec; v += GRID_STRIDE) {
    float pv[4], gv[4];
    load4(p, v * 4, pv);
    load4(g, v * 4, gv);
#pragma unroll
    for (int k = 0; k < 4; ++k) pv[k] = pv[k] - lr * gv[k];
    store4(out, v * 4, pv);
  }
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) st(out, i, ld(p, i) - lr * ld(g, i));
}

template <class T>
__device__ __forceinline__ void momentum_k(const T* __restrict__ p, const T* __restrict__ g,
                                           const T* __restrict__ vel, const float* __restrict__ lr_p,
                                           T* __restrict__ pout, T* __restrict__ vout, i64 n, float mu,
                                           float rescale, float l2, int nesterov, int vec) {
  const float lr = *lr_p;
  const i64 nvec = vec ? (n >> 2) : 0;
  for (i64 v = GRID_TID; v < nvec; v += GRID_STRIDE) {
    float pv[4], gv[4], vv[4];
    load4(p, v * 4, pv);
    load4(g, v * 4, gv);
    load4(vel, v * 4, vv);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const float gg = gv[k] * rescale + l2 * pv[k];
      vv[k] = vv[k] * mu + gg;
      pv[k] = nesterov ? pv[k] - (gg + vv[k] * mu) * lr : pv[k] - lr * vv[k];
    }
    store4(pout, v * 4, pv);
    store4(vout, v * 4, vv);
  }
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) {
    const float pi = ld(p, i), gg = ld(g, i) * rescale + l2 * pi;
    const float vn = ld(vel, i) * mu + gg;
    st(vout, i, vn);
    st(pout, i, nesterov ? pi - (gg + vn * mu) * lr : pi - lr * vn);
  }
}

template <class T>
__device__ __forceinline__ void adam_k(const T* __restrict__ p, const T* __restrict__ g,
                                       const float* __restrict__ lr_p, const T* __restrict__ m1,
                                       const T* __restrict__ m2, const float* __restrict__ b1p_p,
                                       const float* __restrict__ b2p_p, T* __restrict__ pout,
                                       T* __restrict__ m1out, T* __restrict__ m2out, float* __restrict__ b1p_out,
                                       float* __restrict__ b2p_out, i64 n, float beta1, float beta2, float eps,
                                       float lr_ratio, float coeff, int write_pows, int vec) {
  const float lr = *lr_p * lr_ratio, b1p = *b1p_p, b2p = *b2p_p;
  if (write_pows && GRID_TID == 0) { *b1p_out = b1p * beta1; *b2p_out = b2p * beta2; }
  const i64 nvec = vec ? (n >> 2) : 0;
  for (i64 v = GRID_TID; v < nvec; v += GRID_STRIDE) {
    float pv[4], gv[4], av[4], bv[4];
    load4(p, v * 4, pv);
    load4(g, v * 4, gv);
    load4(m1, v * 4, av);
    load4(m2, v * 4, bv);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const AdamOut o = adam_elem(pv[k], gv[k], av[k], bv[k], lr, coeff, beta1, beta2, eps, b1p, b2p);
      pv[k] = o.p; av[k] = o.m1; bv[k] = o.m2;
    }
    store4(pout, v * 4, pv);
    store4(m1out, v * 4, av);
    store4(m2out, v * 4, bv);
  }
  for (i64 i = nvec * 4 + GRID_TID; i < n; i += GRID_STRIDE) {
    const AdamOut o = adam_elem(ld(p, i), ld(g, i), ld(m1, i), ld(m2, i), lr, coeff, beta1, beta2, eps, b1p, b2p);
    st(pout, i, o.p);
    st(m1out, i, o.m1);
    st(m2out, i, o.m2);
  }
}

#define ADAM_TABLE_COLS 8

template <class T>
__device__ __forceinline__ void adam_multi_k(const i64* __restrict__ table, const i64* __restrict__ gptrs,
                                             T* __restrict__ pout, T* __restrict__ m1out, T* __restrict__ m2out,
                                             float* __restrict__ pows, i64 ntensors, i64 nchunks, i64 chunk,
                                             float beta1, float beta2, float eps, float coeff, int write_pows,
                                             int in_place) {
  const i64* chunk_tensor = table + ntensors * ADAM_TABLE_COLS;
  const i64* chunk_first = chunk_tensor + nchunks;
  for (i64 c = blockIdx.x; c < nchunks; c += gridDim.x) {
    const i64 t = chunk_tensor[c];
    const i64* row = table + t * ADAM_TABLE_COLS;
    const T* p = (const T*)row[0];
    const T* g = (const T*)gptrs[t];
    const T* m1 = (const T*)row[1];
    const T* m2 = (const T*)row[2];
    const float lr = *(const float*)row[3], b1p = *(const float*)row[4], b2p = *(const float*)row[5];
    const i64 n = row[6], off = row[7], first = chunk_first[c];
    // in place: the updates go where the table's rows point (each element is read, then written, by one thread)
    T* po = in_place ? (T*)row[0] : pout + off;
    T* ao = in_place ? (T*)row[1] : m1out + off;
    T* bo = in_place ? (T*)row[2] : m2out + off;
    if (write_pows && first == 0 && threadIdx.x == 0) {
      pows[2 * t] = b1p * beta1;
      pows[2 * t + 1] = b2p * beta2;
    }
    const i64 last = first + chunk < n ? first + chunk : n;
    const unsigned long long align = (unsigned long long)(4 * sizeof(T)) - 1;
    const bool vec = ((row[0] | gptrs[t] | row[1] | row[2]) & align) == 0;
    const i64 vend = vec ? first + ((last - first) & ~(i64)3) : first;
    for (i64 i = first + 4 * (i64)threadIdx.x; i < vend; i += 4 * (i64)blockDim.x) {
      float pv[4], gv[4], av[4], bv[4];
      load4(p, i, pv);
      load4(g, i, gv);
      load4(m1, i, av);
      load4(m2, i, bv);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const AdamOut o = adam_elem(pv[k], gv[k], av[k], bv[k], lr, coeff, beta1, beta2, eps, b1p, b2p);
        pv[k] = o.p; av[k] = o.m1; bv[k] = o.m2;
      }
      store4(po, i, pv);
      store4(ao, i, av);
      store4(bo, i, bv);
    }
    for (i64 i = vend + threadIdx.x; i < last; i += blockDim.x) {
      const AdamOut o = adam_elem(ld(p, i), ld(g, i), ld(m1, i), ld(m2, i), lr, coeff, beta1, beta2, eps, b1p, b2p);
      st(po, i, o.p);
      st(ao, i, o.m1);
      st(bo, i, o.m2);
    }
  }
}

// momentum_multi: momentum (has_v) or sgd over every parameter in one launch, as adam_multi: a row per tensor holds
// the addresses of p, v (with has_v), lr, the L2 coefficient's float bits (with has_v), the element count and the
// offset of its slice in the flat outputs; with has_v = 0 the update is sgd's, p' = p - lr g.
template <class T>
__device__ __forceinline__ void momentum_multi_k(const i64* __restrict__ table, const i64* __restrict__ gptrs,
                                                 T* __restrict__ pout, T* __restrict__ vout, i64 ntensors,
                                                 i64 nchunks, i64 chunk, int has_v, float mu, float rescale,
                                                 int nesterov, int in_place) {
  const int cols = has_v ? 6 : 4;
  const i64* chunk_tensor = table + ntensors * cols;
  const i64* chunk_first = chunk_tensor + nchunks;
  for (i64 c = blockIdx.x; c < nchunks; c += gridDim.x) {
    const i64 t = chunk_tensor[c];
    const i64* row = table + t * cols;
    const T* p = (const T*)row[0];
    const T* g = (const T*)gptrs[t];
    const T* vel = has_v ? (const T*)row[1] : (const T*)0;
    const float lr = *(const float*)row[has_v ? 2 : 1];
    const float l2 = has_v ? __int_as_float((int)row[3]) : 0.f;
    const i64 n = row[cols - 2], off = row[cols - 1], first = chunk_first[c];
    T* po = in_place ? (T*)row[0] : pout + off;
    T* vo = in_place ? (T*)row[1] : vout + off;
    const i64 last = first + chunk < n ? first + chunk : n;
    const unsigned long long align = (unsigned long long)(4 * sizeof(T)) - 1;
    const bool vec = ((row[0] | gptrs[t] | (has_v ? row[1] : 0)) & align) == 0;
    const i64 vend = vec ? first + ((last - first) & ~(i64)3) : first;
    for (i64 i = first + 4 * (i64)threadIdx.x; i < vend; i += 4 * (i64)blockDim.x) {
      float pv[4], gv[4], vv[4];
      load4(p, i, pv);
      load4(g, i, gv);
      if (has_v) {
        load4(vel, i, vv);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const float gg = gv[k] * rescale + l2 * pv[k];
          vv[k] = vv[k] * mu + gg;
          pv[k] = nesterov ? pv[k] - (gg + vv[k] * mu) * lr : pv[k] - lr * vv[k];
        }
        store4(vo, i, vv);
      } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) pv[k] = pv[k] - lr * gv[k];
      }
      store4(po, i, pv);
    }
    for (i64 i = vend + threadIdx.x; i < last; i += blockDim.x) {
      const float pi = ld(p, i);
      if (has_v) {
        const float gg = ld(g, i) * rescale + l2 * pi;
        const float vn = ld(vel, i) * mu + gg;
        st(vo, i, vn);
        st(po, i, nesterov ? pi - (gg + vn * mu) * lr : pi - lr * vn);
      } else {
        st(po, i, pi - lr * ld(g, i));
      }
    }
  }
}

#define OPT_KERNELS(NAME, T)                                                                              \
  extern "C" __global__ void sgd_##NAME(const T* p, const float* lr, const T* g, T* out, i64 n, int vec) {  \
    sgd_k<T>(p, lr, g, out, n, vec);                                                                      \
  }                                                                                                       \
  extern "C" __global__ void momentum_##NAME(const T* p, const T* g, const T* v, const float* lr, T* pout,  \
                                             T* vout, i64 n, float mu, float rescale, float l2,           \
                                             int nesterov, int vec) {                                     \
    momentum_k<T>(p, g, v, lr, pout, vout, n, mu, rescale, l2, nesterov, vec);                            \
  }                                                                                                       \
  extern "C" __global__ void adam_##NAME(const T* p, const T* g, const float* lr, const T* m1, const T* m2, \
                                         const float* b1p, const float* b2p, T* pout, T* m1out, T* m2out,  \
                                         float* b1p_out, float* b2p_out, i64 n, float beta1, float beta2,  \
                                         float eps, float lr_ratio, float coeff, int write_pows, int vec) { \
    adam_k<T>(p, g, lr, m1, m2, b1p, b2p, pout, m1out, m2out, b1p_out, b2p_out, n, beta1, beta2, eps,     \
              lr_ratio, coeff, write_pows, vec);                                                          \
  }                                                                                                       \
  extern "C" __global__ void adam_multi_##NAME(const i64* table, const i64* gptrs, T* pout, T* m1out,     \
                                               T* m2out, float* pows, i64 ntensors, i64 nchunks, i64 chunk, \
                                               float beta1, float beta2, float eps, float coeff,          \
                                               int write_pows, int in_place) {                            \
    adam_multi_k<T>(table, gptrs, pout, m1out, m2out, pows, ntensors, nchunks, chunk, beta1, beta2, eps,  \
                    coeff, write_pows, in_place);                                                         \
  }                                                                                                       \
  extern "C" __global__ void momentum_multi_##NAME(const i64* table, const i64* gptrs, T* pout, T* vout,  \
                                                   i64 ntensors, i64 nchunks, i64 chunk, int has_v,        \
                                                   float mu, float rescale, int nesterov, int in_place) {  \
    momentum_multi_k<T>(table, gptrs, pout, vout, ntensors, nchunks, chunk, has_v, mu, rescale, nesterov,  \
                        in_place);                                                                        \
  }

INSTANTIATE_FLOAT_TYPES(OPT_KERNELS)

// adam_multi in place: the new beta powers (pows, [b1p', b2p'] per tensor) into each tensor's own beta powers, after
// adam_multi read them (every block of a tensor reads its powers: adam_multi cannot overwrite them itself)
extern "C" __global__ void adam_pows_in_place(const i64* table, const float* pows, i64 ntensors) {
  for (i64 t = GRID_TID; t < ntensors; t += GRID_STRIDE) {
    *(float*)table[t * ADAM_TABLE_COLS + 4] = pows[2 * t];
    *(float*)table[t * ADAM_TABLE_COLS + 5] = pows[2 * t + 1];
  }
}

// ---- element-wise adaptive updates: one thread per element, arguments (inputs, lr, outputs, n, attrs) ----
// adagrad:  m' = m + g^2;  p' = p - lr g / (sqrt(m') + eps)
// rmsprop:  ms' = rho ms + (1-rho) g^2;  [mg' = rho mg + (1-rho) g];  mom' = mu mom + lr g / sqrt(ms' [- mg'^2] + eps);
//           p' = p - mom'
// adadelta: asg' = rho asg + (1-rho) g^2;  u = -sqrt((asu + eps) / (asg' + eps)) g;  asu' = rho asu + (1-rho) u^2;
//           p' = p + lr u
// adamax:   m' = b1 m + (1-b1) g;  inf' = max(b2 inf + eps, |g|);  p' = p - lr / (1 - b1^t) m' / inf'
// nadam:    Paddle's NAdam with element-wise powers (0.96^t, b2^t, prod mu); radam: rectified Adam with
//           element-wise b1^t, b2^t and rho = t b2^t / (1 - b2^t); rprop: per-element step sizes
template <class T>
__device__ __forceinline__ void adagrad_k(const T* p, const T* g, const T* m, const float* lr_p, T* pout, T* mout,
                                          i64 n, float eps) {
  const float lr = *lr_p;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), mi = ld(m, i) + gi * gi;
    st(mout, i, mi);
    st(pout, i, ld(p, i) - lr * gi / (sqrtf(mi) + eps));
  }
}

template <class T>
__device__ __forceinline__ void rmsprop_k(const T* p, const T* ms, const T* g, const T* mom, const T* mg,
                                          const float* lr_p, T* pout, T* momout, T* msout, T* mgout, i64 n,
                                          float eps, float rho, float mu, int centered) {
  const float lr = *lr_p;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), msi = rho * ld(ms, i) + (1.f - rho) * gi * gi;
    float denom = msi + eps, mgi = ld(mg, i);
    if (centered) {
      mgi = rho * mgi + (1.f - rho) * gi;
      denom = msi - mgi * mgi + eps;
    }
    const float momi = mu * ld(mom, i) + lr * gi / sqrtf(denom);
    st(msout, i, msi);
    st(mgout, i, mgi);
    st(momout, i, momi);
    st(pout, i, ld(p, i) - momi);
  }
}

template <class T>
__device__ __forceinline__ void adadelta_k(const T* p, const T* g, const T* asg, const T* asu, const float* lr_p,
                                           T* pout, T* asgout, T* asuout, i64 n, float rho, float eps) {
  const float lr = *lr_p;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), asu_i = ld(asu, i);
    const float asg_i = rho * ld(asg, i) + (1.f - rho) * gi * gi;
    const float u = -sqrtf((asu_i + eps) / (asg_i + eps)) * gi;
    st(asgout, i, asg_i);
    st(asuout, i, rho * asu_i + (1.f - rho) * u * u);
    st(pout, i, ld(p, i) + lr * u);
  }
}

template <class T>
__device__ __forceinline__ void adamax_k(const T* p, const T* g, const T* m, const T* inf, const float* lr_p,
                                         const float* b1p_p, T* pout, T* mout, T* infout, i64 n, float b1, float b2,
                                         float eps) {
  const float lr_t = *lr_p / (1.f - *b1p_p);
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), mi = b1 * ld(m, i) + (1.f - b1) * gi;
    const float inf_i = fmaxf(b2 * ld(inf, i) + eps, fabsf(gi));
    st(mout, i, mi);
    st(infout, i, inf_i);
    st(pout, i, ld(p, i) - lr_t * (mi / inf_i));
  }
}

template <class T>
__device__ __forceinline__ void nadam_k(const T* p, const T* g, const T* dpow, const T* b2p, const T* mup,
                                        const T* m1, const T* m2, const float* lr_p, T* pout, T* dpowout,
                                        T* b2pout, T* mupout, T* m1out, T* m2out, i64 n, float b1, float b2,
                                        float eps, float psi) {
  const float lr = *lr_p;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), d = ld(dpow, i) * 0.96f;
    const float mu_t = b1 * (1.f - 0.5f * powf(d, psi)), mu_t1 = b1 * (1.f - 0.5f * powf(d * 0.96f, psi));
    const float mp = ld(mup, i) * mu_t, bp2 = ld(b2p, i) * b2;
    const float a = b1 * ld(m1, i) + (1.f - b1) * gi, b = b2 * ld(m2, i) + (1.f - b2) * gi * gi;
    const float m_hat = mu_t1 * a / (1.f - mp * mu_t1) + (1.f - mu_t) * gi / (1.f - mp);
    st(pout, i, ld(p, i) - lr * m_hat / (sqrtf(b / (1.f - bp2)) + eps));
    st(dpowout, i, d);
    st(b2pout, i, bp2);
    st(mupout, i, mp);
    st(m1out, i, a);
    st(m2out, i, b);
  }
}

template <class T>
__device__ __forceinline__ void radam_k(const T* p, const T* g, const T* b1p, const T* b2p, const T* rho,
                                        const T* m1, const T* m2, const float* lr_p, T* pout, T* b1pout,
                                        T* b2pout, T* rhoout, T* m1out, T* m2out, i64 n, float b1, float b2,
                                        float eps) {
  const float lr = *lr_p, rho_inf = 2.f / (1.f - b2) - 1.f;
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    const float gi = ld(g, i), bp1 = ld(b1p, i) * b1, bp2 = ld(b2p, i) * b2;
    const float r = (ld(rho, i) * (b2 - bp2) + bp2) / (1.f - bp2);
    const float a = b1 * ld(m1, i) + (1.f - b1) * gi, b = b2 * ld(m2, i) + (1.f - b2) * gi * gi;
    const float m_hat = a / (1.f - bp1), rho_t = rho_inf - 2.f * r;
    float step = lr * m_hat;
    if (rho_t > 5.f) {
      const float rect = sqrtf((rho_t - 4.f) * (rho_t - 2.f) * rho_inf / ((rho_inf - 4.f) * (rho_inf - 2.f) * rho_t));
      step = step * rect * (sqrtf(1.f - bp2) / (sqrtf(b) + eps));
    }
    st(pout, i, ld(p, i) - step);
    st(b1pout, i, bp1);
    st(b2pout, i, bp2);
    st(rhoout, i, r);
    st(m1out, i, a);
    st(m2out, i, b);
  }
}

template <class T>
__device__ __forceinline__ void rprop_k(const T* p, const T* g, const T* prev, const T* rate, T* pout, T* prevout,
                                        T* rateout, i64 n, float lr_min, float lr_max, float eta_neg,
                                        float eta_pos) {
  for (i64 i = GRID_TID; i < n; i += GRID_STRIDE) {
    float gi = ld(g, i), r = ld(rate, i);
    const float prod = gi * ld(prev, i);
    if (prod > 0.f) {
      r = fminf(r * eta_pos, lr_max);
    } else if (prod < 0.f) {
      r = fmaxf(r * eta_neg, lr_min);
      gi = 0.f;
    }
    const float sign = (gi > 0.f) - (gi < 0.f);
    st(pout, i, ld(p, i) - sign * r);
    st(prevout, i, gi);
    st(rateout, i, r);
  }
}

#define ADAPTIVE_KERNELS(NAME, T)                                                                          \
  extern "C" __global__ void adagrad_##NAME(const T* p, const T* g, const T* m, const float* lr, T* pout,   \
                                            T* mout, i64 n, float eps) {                                   \
    adagrad_k<T>(p, g, m, lr, pout, mout, n, eps);                                                         \
  }                                                                                                        \
  extern "C" __global__ void rmsprop_##NAME(const T* p, const T* ms, const T* g, const T* mom, const T* mg, \
                                            const float* lr, T* pout, T* momout, T* msout, T* mgout, i64 n,  \
                                            float eps, float rho, float mu, int centered) {                 \
    rmsprop_k<T>(p, ms, g, mom, mg, lr, pout, momout, msout, mgout, n, eps, rho, mu, centered);            \
  }                                                                                                        \
  extern "C" __global__ void adadelta_##NAME(const T* p, const T* g, const T* asg, const T* asu,            \
                                             const float* lr, T* pout, T* asgout, T* asuout, i64 n,         \
                                             float rho, float eps) {                                       \
    adadelta_k<T>(p, g, asg, asu, lr, pout, asgout, asuout, n, rho, eps);                                  \
  }                                                                                                        \
  extern "C" __global__ void adamax_##NAME(const T* p, const T* g, const T* m, const T* inf, const float* lr, \
                                           const float* b1p, T* pout, T* mout, T* infout, i64 n, float b1,  \
                                           float b2, float eps) {                                          \
    adamax_k<T>(p, g, m, inf, lr, b1p, pout, mout, infout, n, b1, b2, eps);                                \
  }                                                                                                        \
  extern "C" __global__ void nadam_##NAME(const T* p, const T* g, const T* dpow, const T* b2p, const T* mup, \
                                          const T* m1, const T* m2, const float* lr, T* pout, T* dpowout,   \
                                          T* b2pout, T* mupout, T* m1out, T* m2out, i64 n, float b1,        \
                                          float b2, float eps, float psi) {                                 \
    nadam_k<T>(p, g, dpow, b2p, mup, m1, m2, lr, pout, dpowout, b2pout, mupout, m1out, m2out, n, b1, b2,   \
               eps, psi);                                                                                  \
  }                                                                                                        \
  extern "C" __global__ void radam_##NAME(const T* p, const T* g, const T* b1p, const T* b2p, const T* rho,  \
                                          const T* m1, const T* m2, const float* lr, T* pout, T* b1pout,    \
                                          T* b2pout, T* rhoout, T* m1out, T* m2out, i64 n, float b1,        \
                                          float b2, float eps) {                                            \
    radam_k<T>(p, g, b1p, b2p, rho, m1, m2, lr, pout, b1pout, b2pout, rhoout, m1out, m2out, n, b1, b2,     \
               eps);                                                                                       \
  }                                                                                                        \
  extern "C" __global__ void rprop_##NAME(const T* p, const T* g, const T* prev, const T* rate, T* pout,     \
                                          T* prevout, T* rateout, i64 n, float lr_min, float lr_max,        \
                                          float eta_neg, float eta_pos) {                                   \
    rprop_k<T>(p, g, prev, rate, pout, prevout, rateout, n, lr_min, lr_max, eta_neg, eta_pos);              \
  }

INSTANTIATE_FLOAT_TYPES(ADAPTIVE_KERNELS)
