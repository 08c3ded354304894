// Fused scaled-dot-product attention, flash-attention style: softmax(scale * q k^T + bias, causal) v computed one
// tile of keys at a time with an online softmax, so no [seq_q, seq_k] matrix ever exists in memory. Forward, and a
// backward in two deterministic passes (dQ over query rows; dK and dV over key tiles, no atomics).
//
// Layouts: q [B, Sq, H, D], k and v [B, Sk, Hk, D] (H a multiple of Hk: grouped-query heads share K/V), each with its
// own element strides for batch, sequence and head (the last dim contiguous); out and the gradients dense in the same
// layouts; lse (log-sum-exp of each score row) [B, H, Sq] float32. `bias` is an additive mask broadcast to
// [B, H, Sq, Sk] by its strides (0 for a broadcast dim). All arithmetic is float32.
//
// Dropout (training): element (b, h, i, j) of the attention weights is kept when the 53-bit draw of word
// ((b*H + h)*Sq + i)*Sk + j of the stream key derived from seed_offset = [seed, offset] is >= p * 2^53 --
// exactly the mask the dropout op draws for the same weights from the same stream state (framework/random.py:
// SplitMix64 words), so the fused op and the unfused ops agree on every device. Kept weights scale by 1 / (1 - p).
//
// Mapping (D <= DMAX, DMAX 64 or 128): a block of 4 warps owns 4*R query rows of one (b, h) (R rows per warp) and
// sweeps the keys in tiles of 32 held in shared memory. For each row a warp computes the tile's 32 scores with one
// key per lane (q from shared memory, broadcast), updates the running max and sum with two warp reductions, and adds
// the tile's weights times V with one output dim per lane (DMAX/32 accumulators per row in registers).
// The dK/dV pass runs one warp per tile of 32*64/DMAX keys: LPK = DMAX/64 lanes per key split its dims, and each
// lane accumulates its key's dK and dV slice in shared memory over every query row of the heads sharing it.
#include "common.cuh"

#define ATTN_WARPS 4
#define ATTN_BK 32
#define ATTN_GAMMA 0x9E3779B97F4A7C15ull

typedef unsigned long long u64;

__device__ __forceinline__ u64 splitmix64(u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The key of the stream draws at [seed, offset] (framework/random.py: _word(_word(seed, 1), offset)).
__device__ __forceinline__ u64 stream_key(const i64* seed_offset) {
  const u64 k1 = splitmix64(1ull * ATTN_GAMMA + (u64)seed_offset[0]);
  return splitmix64((u64)seed_offset[1] * ATTN_GAMMA + k1);
}

__device__ __forceinline__ bool keep(u64 key, u64 index, u64 threshold) {
  return (splitmix64(index * ATTN_GAMMA + key) >> 11) >= threshold;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

#define NEG_INF __int_as_float(0xff800000)

// What every pass takes: the problem's sizes, strides (elements), mask and dropout.
struct AttnArgs {
  i64 B, Sq, Sk, H, Hk, D;
  i64 qb, qs, qh, kb, ks, kh, vb, vs, vh;   // q / k / v strides (batch, seq, head)
  i64 ob, os, oh;                           // out and dout strides (dense [B, Sq, H, D] ones are passed)
  i64 mb, mh, mi, mj;                       // bias strides over [B, H, Sq, Sk] (0: broadcast)
  float scale, keep_scale;                  // softmax scale; 1 / (1 - p)
  u64 threshold;                            // p * 2^53 rounded up (0: no dropout)
  int causal, has_bias;
};

// The masked, scaled score of (b, h, i, j): -inf when masked.
template <class T>
__device__ __forceinline__ float score(float dot, const AttnArgs& a, const T* bias, i64 b, i64 h, i64 i, i64 j) {
  if (j >= a.Sk || (a.causal && j > i)) return NEG_INF;
  float s = dot * a.scale;
  if (a.has_bias) s += to_f(bias[b * a.mb + h * a.mh + i * a.mi + j * a.mj]);
  return s;
}

// Copy rows [r0, r0 + n) of a [*, S, *, D] tensor (row r at base + r * rs) into shared rows of DMAX + PAD floats;
// rows past `rows` are zero. Every thread of the block takes part.
template <int DMAX, int PAD, class T>
__device__ __forceinline__ void load_rows(float (*dst)[DMAX + PAD], const T* base, i64 rs, i64 r0, int n, i64 rows,
                                          i64 D, int tid, int nthreads) {
  for (int e = tid; e < n * DMAX; e += nthreads) {
    const int r = e / DMAX, d = e % DMAX;
    dst[r][d] = (r0 + r < rows && d < D) ? to_f(base[(r0 + r) * rs + d]) : 0.f;
  }
}

// The flat index of weight (b, h, i, j) in [B, H, Sq, Sk]: the dropout draw's counter.
__device__ __forceinline__ u64 weight_index(const AttnArgs& a, i64 b, i64 h, i64 i, i64 j) {
  return (u64)(((b * a.H + h) * a.Sq + i) * a.Sk + j);
}

// One warp's row accumulators (output dims lane, lane + 32, ...) scaled by alpha plus the tile's 32 weights in
// `w` (shared, one per key) times the tile's rows `tile` [key][dim]. The warp's weights were just written.
template <int C, int DMAX>
__device__ __forceinline__ void add_weighted_rows(float* acc, float alpha, const float* w,
                                                  const float (*tile)[DMAX + 1], int lane) {
  __syncwarp();
#pragma unroll
  for (int c = 0; c < C; ++c) {
    float o = acc[c] * alpha;
    for (int jj = 0; jj < ATTN_BK; ++jj) o += w[jj] * tile[jj][lane + 32 * c];
    acc[c] = o;
  }
  __syncwarp();  // w is rewritten for the next row
}

// A row of D values from one warp's accumulators, times `factor`.
template <int C, class T>
__device__ __forceinline__ void store_row(T* row, const float* acc, float factor, i64 D, int lane) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (lane + 32 * c < D) st(row, lane + 32 * c, acc[c] * factor);
}

// A block of the forward or dQ pass: `rows` query rows of head h of batch b, from q0; kv head hk; the dropout key.
struct RowBlock {
  int tid, lane, warp;
  i64 b, h, hk, q0;
  u64 key;
};

// Its shared memory: the block's query rows, the current tile of keys and values, each warp's 32 weights.
template <int DMAX, int R>
struct RowTiles {
  float Q[ATTN_WARPS * R][DMAX];
  float K[ATTN_BK][DMAX + 1];
  float V[ATTN_BK][DMAX + 1];
  float P[ATTN_WARPS][ATTN_BK];
};

__device__ __forceinline__ RowBlock row_block(const AttnArgs& a, int rows, const i64* seed_offset) {
  RowBlock rb;
  rb.key = a.threshold ? stream_key(seed_offset) : 0ull;
  rb.tid = threadIdx.x;
  rb.lane = rb.tid & 31;
  rb.warp = rb.tid >> 5;
  rb.b = blockIdx.z;
  rb.h = blockIdx.y;
  rb.hk = rb.h / (a.H / a.Hk);
  rb.q0 = (i64)blockIdx.x * rows;
  return rb;
}

// The block's next tile of 32 keys and values, from key k0, into shared memory (every thread of the block).
template <int DMAX, class T>
__device__ __forceinline__ void load_kv_tile(float (*Ks)[DMAX + 1], float (*Vs)[DMAX + 1], const T* k, const T* v,
                                             const AttnArgs& a, const RowBlock& rb, i64 k0) {
  __syncthreads();  // the previous tile is no longer read
  load_rows<DMAX, 1>(Ks, k + rb.b * a.kb + rb.hk * a.kh, a.ks, k0, ATTN_BK, a.Sk, a.D, rb.tid, blockDim.x);
  load_rows<DMAX, 1>(Vs, v + rb.b * a.vb + rb.hk * a.vh, a.vs, k0, ATTN_BK, a.Sk, a.D, rb.tid, blockDim.x);
  __syncthreads();
}

// The forward's and the dQ pass's sweep: every tile of keys the block's rows can see, loaded into Ks / Vs, then
// row_fn(r, row, i, j) for each of the warp's R rows below Sq (row: the block's, i: the sequence's; lane = key j).
template <int DMAX, int R, class T, class F>
__device__ __forceinline__ void sweep_keys(float (*Ks)[DMAX + 1], float (*Vs)[DMAX + 1], const T* k, const T* v,
                                           const AttnArgs& a, const RowBlock& rb, F row_fn) {
  const i64 kend = a.causal ? min(a.Sk, rb.q0 + ATTN_WARPS * R) : a.Sk;
  for (i64 k0 = 0; k0 < kend; k0 += ATTN_BK) {
    load_kv_tile<DMAX>(Ks, Vs, k, v, a, rb, k0);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int row = rb.warp * R + r;
      if (rb.q0 + row < a.Sq) row_fn(r, row, rb.q0 + row, k0 + rb.lane);  // the same for the whole warp
    }
  }
}

template <class T, int DMAX, int R>
__device__ void attn_fwd_k(const T* __restrict__ q, const T* __restrict__ k, const T* __restrict__ v,
                           const T* __restrict__ bias, const i64* __restrict__ seed_offset, T* __restrict__ out,
                           float* __restrict__ lse, AttnArgs a) {
  constexpr int BQ = ATTN_WARPS * R, C = DMAX / 32;
  __shared__ RowTiles<DMAX, R> t;
  const RowBlock rb = row_block(a, BQ, seed_offset);
  const int lane = rb.lane, warp = rb.warp;
  const i64 b = rb.b, h = rb.h;
  load_rows<DMAX, 0>(t.Q, q + b * a.qb + h * a.qh, a.qs, rb.q0, BQ, a.Sq, a.D, rb.tid, blockDim.x);
  float m[R], l[R], acc[R][C];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    m[r] = NEG_INF;
    l[r] = 0.f;
#pragma unroll
    for (int c = 0; c < C; ++c) acc[r][c] = 0.f;
  }
  sweep_keys<DMAX, R>(t.K, t.V, k, v, a, rb, [&](int r, int row, i64 i, i64 j) {
    float dot = 0.f;
    for (int d = 0; d < a.D; ++d) dot += t.Q[row][d] * t.K[lane][d];
    const float s = score(dot, a, bias, b, h, i, j);
    const float m_new = fmaxf(m[r], warp_max(s));
    const float p = s == NEG_INF ? 0.f : expf(s - m_new);
    const float alpha = m[r] == NEG_INF ? 0.f : expf(m[r] - m_new);
    l[r] = l[r] * alpha + warp_sum(p);
    m[r] = m_new;
    float pd = p;
    if (a.threshold) pd = keep(rb.key, weight_index(a, b, h, i, j), a.threshold) ? p * a.keep_scale : 0.f;
    t.P[warp][lane] = pd;
    add_weighted_rows<C, DMAX>(acc[r], alpha, t.P[warp], t.V, lane);
  });
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const i64 i = rb.q0 + warp * R + r;
    if (i >= a.Sq) continue;
    // a row with every key masked: 0 * (1 / 0), NaN as the softmax of such a row
    store_row<C>(out + b * a.ob + i * a.os + h * a.oh, acc[r], 1.f / l[r], a.D, lane);
    if (lane == 0) lse[(b * a.H + h) * a.Sq + i] = m[r] + logf(l[r]);
  }
}

// dQ, and delta = rowsum(dO * O) for the dK/dV pass. Same mapping as the forward.
template <class T, int DMAX, int R>
__device__ void attn_bwd_dq_k(const T* __restrict__ q, const T* __restrict__ k, const T* __restrict__ v,
                              const T* __restrict__ bias, const i64* __restrict__ seed_offset,
                              const T* __restrict__ out, const T* __restrict__ dout, const float* __restrict__ lse,
                              float* __restrict__ delta, T* __restrict__ dq, AttnArgs a) {
  constexpr int BQ = ATTN_WARPS * R, C = DMAX / 32;
  __shared__ RowTiles<DMAX, R> t;
  __shared__ float dOs[BQ][DMAX];
  const RowBlock rb = row_block(a, BQ, seed_offset);
  const int lane = rb.lane, warp = rb.warp;
  const i64 b = rb.b, h = rb.h, q0 = rb.q0;
  load_rows<DMAX, 0>(t.Q, q + b * a.qb + h * a.qh, a.qs, q0, BQ, a.Sq, a.D, rb.tid, blockDim.x);
  load_rows<DMAX, 0>(dOs, dout + b * a.ob + h * a.oh, a.os, q0, BQ, a.Sq, a.D, rb.tid, blockDim.x);
  float lse_r[R], delta_r[R], acc[R][C];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const i64 i = q0 + warp * R + r;
    float dd = 0.f;
    if (i < a.Sq) {
      const T* orow = out + b * a.ob + i * a.os + h * a.oh;
      const T* grow = dout + b * a.ob + i * a.os + h * a.oh;
      for (int d = lane; d < a.D; d += 32) dd += to_f(orow[d]) * to_f(grow[d]);
    }
    delta_r[r] = warp_sum(dd);
    lse_r[r] = i < a.Sq ? lse[(b * a.H + h) * a.Sq + i] : 0.f;
    if (i < a.Sq && lane == 0) delta[(b * a.H + h) * a.Sq + i] = delta_r[r];
#pragma unroll
    for (int c = 0; c < C; ++c) acc[r][c] = 0.f;
  }
  sweep_keys<DMAX, R>(t.K, t.V, k, v, a, rb, [&](int r, int row, i64 i, i64 j) {
    float dot = 0.f, dp = 0.f;
    for (int d = 0; d < a.D; ++d) {
      dot += t.Q[row][d] * t.K[lane][d];
      dp += dOs[row][d] * t.V[lane][d];
    }
    const float s = score(dot, a, bias, b, h, i, j);
    const float p = s == NEG_INF ? 0.f : expf(s - lse_r[r]);
    if (a.threshold) dp = keep(rb.key, weight_index(a, b, h, i, j), a.threshold) ? dp * a.keep_scale : 0.f;
    t.P[warp][lane] = p * (dp - delta_r[r]);
    add_weighted_rows<C, DMAX>(acc[r], 1.f, t.P[warp], t.K, lane);
  });
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const i64 i = q0 + warp * R + r;
    if (i < a.Sq) store_row<C>(dq + ((b * a.Sq + i) * a.H + h) * a.D, acc[r], a.scale, a.D, lane);
  }
}

// dK and dV of one tile of BKV = 32 / LPK keys of (b, hk): one warp, LPK lanes per key, each owning the dims
// d = part, part + LPK, ... of its key's rows, summed over every query row of the H / Hk heads that share the key.
template <class T, int DMAX>
__device__ void attn_bwd_dkdv_k(const T* __restrict__ q, const T* __restrict__ k, const T* __restrict__ v,
                                const T* __restrict__ bias, const i64* __restrict__ seed_offset,
                                const T* __restrict__ dout, const float* __restrict__ lse,
                                const float* __restrict__ delta, T* __restrict__ dk, T* __restrict__ dv, AttnArgs a) {
  constexpr int LPK = DMAX / 64 > 0 ? DMAX / 64 : 1, BKV = 32 / LPK;
  __shared__ float Ks[BKV][DMAX + 1];
  __shared__ float Vs[BKV][DMAX + 1];
  __shared__ float dKs[BKV][DMAX + 1];
  __shared__ float dVs[BKV][DMAX + 1];
  __shared__ float qrow[DMAX];
  __shared__ float grow[DMAX];
  const int lane = threadIdx.x & 31, kl = lane / LPK, part = lane % LPK;
  const i64 b = blockIdx.z, hk = blockIdx.y, k0 = (i64)blockIdx.x * BKV, j = k0 + kl, group = a.H / a.Hk;
  const u64 key = a.threshold ? stream_key(seed_offset) : 0ull;
  load_rows<DMAX, 1>(Ks, k + b * a.kb + hk * a.kh, a.ks, k0, BKV, a.Sk, a.D, lane, 32);
  load_rows<DMAX, 1>(Vs, v + b * a.vb + hk * a.vh, a.vs, k0, BKV, a.Sk, a.D, lane, 32);
  for (int d = part; d < DMAX; d += LPK) {
    dKs[kl][d] = 0.f;
    dVs[kl][d] = 0.f;
  }
  const i64 i0 = a.causal ? k0 : 0;  // causal: rows before the tile's first key see none of it
  for (i64 h = hk * group; h < (hk + 1) * group; ++h) {
    for (i64 i = i0; i < a.Sq; ++i) {
      __syncwarp();  // the previous row's q and dO are no longer read
      const T* qr = q + b * a.qb + i * a.qs + h * a.qh;
      const T* gr = dout + b * a.ob + i * a.os + h * a.oh;
      for (int d = lane; d < DMAX; d += 32) {
        qrow[d] = d < a.D ? to_f(qr[d]) : 0.f;
        grow[d] = d < a.D ? to_f(gr[d]) : 0.f;
      }
      __syncwarp();
      float dot = 0.f, dp = 0.f;
      for (int d = part; d < a.D; d += LPK) {
        dot += qrow[d] * Ks[kl][d];
        dp += grow[d] * Vs[kl][d];
      }
#pragma unroll
      for (int o = LPK / 2; o > 0; o >>= 1) {  // the key's LPK lanes hold its partial sums
        dot += __shfl_xor_sync(0xffffffffu, dot, o);
        dp += __shfl_xor_sync(0xffffffffu, dp, o);
      }
      const float s = score(dot, a, bias, b, h, i, j);
      const i64 row = (b * a.H + h) * a.Sq + i;
      const float p = s == NEG_INF ? 0.f : expf(s - lse[row]);
      float pd = p;
      if (a.threshold) {
        const bool kept = j < a.Sk && keep(key, weight_index(a, b, h, i, j), a.threshold);
        pd = kept ? p * a.keep_scale : 0.f;
        dp = kept ? dp * a.keep_scale : 0.f;
      }
      const float ds = p * (dp - delta[row]) * a.scale;
      for (int d = part; d < a.D; d += LPK) {
        dVs[kl][d] += pd * grow[d];
        dKs[kl][d] += ds * qrow[d];
      }
    }
  }
  __syncwarp();
  if (j < a.Sk)
    for (int d = part; d < a.D; d += LPK) {
      const i64 at = ((b * a.Sk + j) * a.Hk + hk) * a.D + d;
      st(dk, at, dKs[kl][d]);
      st(dv, at, dVs[kl][d]);
    }
}

// The kernels take AttnArgs' fields as scalars (CuPy passes no structs).
#define ATTN_PARAMS                                                                                            \
  i64 B, i64 Sq, i64 Sk, i64 H, i64 Hk, i64 D, i64 qb, i64 qs, i64 qh, i64 kb, i64 ks, i64 kh, i64 vb, i64 vs,  \
      i64 vh, i64 ob, i64 os, i64 oh, i64 mb, i64 mh, i64 mi, i64 mj, float scale, float keep_scale,            \
      u64 threshold, int causal, int has_bias
#define ATTN_ARGS                                                                                              \
  AttnArgs{B, Sq, Sk, H, Hk, D, qb, qs, qh, kb, ks, kh, vb, vs, vh, ob, os, oh, mb, mh, mi, mj, scale,          \
           keep_scale, threshold, causal, has_bias}

// Rows per warp: two for 128-wide heads (shared memory), four below.
#define ATTN_KERNELS_D(NAME, T, DMAX, R)                                                                        \
  extern "C" __global__ void __launch_bounds__(ATTN_WARPS * 32) attn_fwd_##NAME##_d##DMAX(                     \
      const T* q, const T* k, const T* v, const T* bias, const i64* seed_offset, T* out, float* lse,           \
      ATTN_PARAMS) {                                                                                           \
    attn_fwd_k<T, DMAX, R>(q, k, v, bias, seed_offset, out, lse, ATTN_ARGS);                                   \
  }                                                                                                            \
  extern "C" __global__ void __launch_bounds__(ATTN_WARPS * 32) attn_bwd_dq_##NAME##_d##DMAX(                  \
      const T* q, const T* k, const T* v, const T* bias, const i64* seed_offset, const T* out, const T* dout,  \
      const float* lse, float* delta, T* dq, ATTN_PARAMS) {                                                    \
    attn_bwd_dq_k<T, DMAX, R>(q, k, v, bias, seed_offset, out, dout, lse, delta, dq, ATTN_ARGS);               \
  }                                                                                                            \
  extern "C" __global__ void __launch_bounds__(32) attn_bwd_dkdv_##NAME##_d##DMAX(                             \
      const T* q, const T* k, const T* v, const T* bias, const i64* seed_offset, const T* dout,                \
      const float* lse, const float* delta, T* dk, T* dv, ATTN_PARAMS) {                                       \
    attn_bwd_dkdv_k<T, DMAX>(q, k, v, bias, seed_offset, dout, lse, delta, dk, dv, ATTN_ARGS);                 \
  }
#define ATTN_KERNELS(NAME, T) ATTN_KERNELS_D(NAME, T, 64, 4) ATTN_KERNELS_D(NAME, T, 128, 2)

INSTANTIATE_FLOAT_TYPES(ATTN_KERNELS)
