/* flash_attn.h — week 37: attention in one pass, tiled, with online softmax.
 *
 * Q, K, V and O are device arrays of bh x S x D floats, row-major and
 * contiguous: head h (h < bh, the batch and head dimensions flattened) is
 * the S x D matrix starting at h * S * D. For every head and query row i:
 *
 *     s_ij = scale * sum_d Q[i][d] K[j][d]        for the keys j row i sees
 *     O[i] = sum_j exp(s_ij - m_i) V[j] / sum_j exp(s_ij - m_i),  m_i = max_j s_ij
 *
 * Non-causal: row i sees every key j < S. Causal: only j <= i (row 0 sees
 * itself alone). Non-finite values follow the formula: a NaN in row j of K
 * makes every row that sees key j NaN; logits of +-1e4 must not overflow.
 *
 * What training needs besides O, the log-sum-exp of every row (natural log):
 *
 *     lse[i] = m_i + log(l_i),   l_i = sum_j exp(s_ij - m_i)   (= log sum_j exp(s_ij))
 *
 * lse is bh x S floats, lse[h * S + i] for row i of head h. The backward
 * pass recomputes P = exp(s - lse) from it instead of storing P. Every row
 * sees key 0 under both masks, so lse is finite for finite inputs (NaN
 * where O is NaN); a row that saw no key at all would have lse = -inf (the
 * log of an empty sum) and O = 0.
 */
#ifndef FLASH_ATTN_H
#define FLASH_ATTN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tiling of the reference kernel (and of the IO model's printed table):
 * a block owns FA_BR query rows and walks the keys FA_BC at a time. */
#define FA_BR 64
#define FA_BC 64

/* Yours: one kernel, one pass over K and V per query tile, the running max
 * m, the running sum l and the rescaled accumulator O on chip, O / l and
 * m + log(l) stored once a row at the end; no S x S
 * matrix anywhere, so no workspace argument, and no allocation of your own
 * either (no cudaMalloc or cudaMallocAsync inside flash_attn: the timed call
 * is the kernel alone, and what it needs fits in shared memory and
 * registers). D is 64 or 128 (anything else:
 * cudaErrorInvalidValue, nothing launched); 0 <= S < 2^30; bh >= 0; S == 0
 * or bh == 0 launches nothing and returns cudaSuccess. The pointers are
 * device pointers of any float alignment; lse is required, like o (bh x S
 * floats; nothing outside o and lse is written). Default stream, no wait;
 * returns the launch's error. */
cudaError_t flash_attn(const float *q, const float *k, const float *v, float *o, float *lse, int bh, int S, int D,
                       float scale, int causal);

/* Given (support/yard_naive_attn.cu), the baseline: three kernels a call, the
 * S x S scores written to `scores` (yard_attn_naive_workspace_bytes bytes, a
 * device buffer), softmaxed in place, then multiplied by V. Same layout,
 * arguments and O as flash_attn, without lse (any D that is a multiple of 16;
 * bh at most 65535, S at most 65535 * 64, bh * S below 2^31). */
cudaError_t yard_attn_naive(const float *q, const float *k, const float *v, float *o, float *scores, int bh, int S,
                            int D, float scale, int causal);
size_t yard_attn_naive_workspace_bytes(int bh, int S);

#ifdef __cplusplus
}
#endif
#endif
