/* attn_fwd_lse.cu — see attn_fwd_lse.h. A plain forward, written for the
 * backward's tests rather than for speed: one warp per query row, two passes
 * over the keys the row sees.
 *
 * Lane l holds columns l, l + 32, ... of the row's q (scaled) and of its
 * output. A score is the warp's dot product: D / 32 FMAs a lane, then a
 * butterfly of shuffles leaves the sum in every lane. Pass 1 keeps the
 * running maximum and the sum of exponentials (online, week 30), so
 * lse = max + log(sum); pass 2 accumulates O = sum_j exp(s_j - lse) v_j in
 * FP32 and rounds it to bf16 once. The 8 warps of a block take 8
 * consecutive rows of one head, so they read the same keys at about the same
 * time and mostly from L1. expf and logf are the accurate ones. */
#include <math.h>
#include <cuda_bf16.h>
#include "attn_fwd_lse.h"

#define FWD_ROWS_PER_BLOCK 8

static __device__ __forceinline__ float warp_dot(const float *qs, const __nv_bfloat16 *krow, int ln, int cols)
{
    float part = 0.f;
    for (int c = 0; c < cols; c++) part = fmaf(qs[c], __bfloat162float(krow[ln + 32 * c]), part);
    for (int w = 16; w >= 1; w /= 2) part += __shfl_xor_sync(0xffffffffu, part, w);
    return part;
}

template <int D>
static __global__ void __launch_bounds__(32 * FWD_ROWS_PER_BLOCK)
    fwd_rows(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K,
             const __nv_bfloat16 *__restrict__ V, __nv_bfloat16 *__restrict__ O,
             float *__restrict__ lse, /* [head][query], natural log */
             int S, int causal, float scale, size_t n_rows)
{
    constexpr int C = D / 32;
    const size_t row = (size_t)blockIdx.x * FWD_ROWS_PER_BLOCK + threadIdx.x / 32; /* head * S + query */
    const int ln = threadIdx.x % 32;
    if (row >= n_rows) return; /* the whole warp leaves together */
    const size_t hbase = row / (size_t)S * (size_t)S * D;
    const int qi = (int)(row % (size_t)S), nkeys = causal ? qi + 1 : S;
    const __nv_bfloat16 *keys = K + hbase, *vals = V + hbase;

    float qs[C];
    for (int c = 0; c < C; c++) qs[c] = __bfloat162float(Q[row * D + ln + 32 * c]) * scale;

    float top = -INFINITY, z = 0.f; /* pass 1: the row's maximum and sum of exp(s - maximum) */
    for (int key = 0; key < nkeys; key++) {
        const float sc = warp_dot(qs, keys + (size_t)key * D, ln, C);
        if (sc > top) {
            z = z * expf(top - sc) + 1.f; /* the first time expf(-inf) = 0 */
            top = sc;
        } else {
            z += expf(sc - top);
        }
    }
    const float lz = top + logf(z);

    float out[C];
    for (int c = 0; c < C; c++) out[c] = 0.f;
    for (int key = 0; key < nkeys; key++) { /* pass 2: O = sum of exp(s - lse) v */
        const float w = expf(warp_dot(qs, keys + (size_t)key * D, ln, C) - lz);
        for (int c = 0; c < C; c++) out[c] = fmaf(w, __bfloat162float(vals[(size_t)key * D + ln + 32 * c]), out[c]);
    }
    for (int c = 0; c < C; c++) O[row * D + ln + 32 * c] = __float2bfloat16_rn(out[c]);
    if (ln == 0) lse[row] = lz;
}

cudaError_t attn_fwd_lse(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *lse, int B,
                         int H, int S, int D, int causal, float scale)
{
    if (B < 0 || H < 0 || S < 0 || (D != 64 && D != 128) || !(scale > 0.f) || !isfinite(scale))
        return cudaErrorInvalidValue;
    if (B == 0 || H == 0 || S == 0) return cudaSuccess;
    if (!Q || !K || !V || !O || !lse || (((uintptr_t)Q | (uintptr_t)K | (uintptr_t)V | (uintptr_t)O) & 15) ||
        ((uintptr_t)lse & 3))
        return cudaErrorInvalidValue;
    const size_t n_rows = (size_t)B * H * S, blocks = (n_rows + FWD_ROWS_PER_BLOCK - 1) / FWD_ROWS_PER_BLOCK;
    const __nv_bfloat16 *q = (const __nv_bfloat16 *)Q, *k = (const __nv_bfloat16 *)K, *v = (const __nv_bfloat16 *)V;
    __nv_bfloat16 *o = (__nv_bfloat16 *)O;
    if (D == 64)
        fwd_rows<64><<<(unsigned)blocks, 32 * FWD_ROWS_PER_BLOCK>>>(q, k, v, o, lse, S, causal != 0, scale, n_rows);
    else
        fwd_rows<128><<<(unsigned)blocks, 32 * FWD_ROWS_PER_BLOCK>>>(q, k, v, o, lse, S, causal != 0, scale, n_rows);
    return cudaGetLastError();
}
