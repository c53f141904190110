/* flash_attn.h — week 38: FlashAttention-2 forward on the tensor cores (BF16 in, FP32 accumulate). */
#ifndef FLASH_ATTN_H
#define FLASH_ATTN_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* O = softmax(scale * Q K^T [+ causal mask]) V for every (batch, head).
 *
 * Q, K, V and O are [B][H][S][D] arrays of bfloat16 (their bit patterns, as
 * uint16_t: C has no bf16 type), rows of D contiguous, on the device, each
 * pointer 16-byte aligned (cudaMalloc's are). Queries and keys have the same
 * length S. D is 64 or 128. causal != 0 masks key j for query i when j > i
 * (the top-left diagonal; with equal lengths it is also the bottom-right
 * one), so every query still sees key 0. scale > 0 (1/sqrt(D) usually).
 * The scores, the softmax and the sums are FP32; P is rounded to bf16 for the
 * P V product (as every FlashAttention kernel does); O is rounded to bf16.
 *
 * lse is what training needs besides O: a [B][H][S] array of FP32 on the
 * device (4-byte aligned), the log-sum-exp of every query row in natural log,
 *
 *     lse[i] = m_i + log(l_i),  m_i = max_j s_ij,  l_i = sum_j exp(s_ij - m_i),
 *
 * s_ij = scale q_i . k_j over the keys row i sees, from the FP32 scores and
 * sum (not the bf16 P). The backward pass recomputes P = exp(s - lse) from
 * it. Every row sees key 0 under both masks, so lse is finite; a row that saw
 * no key would have lse = -inf and O = 0. lse is required, like O.
 *
 * B, H or S == 0 is nothing to do. Nothing outside O[0 .. B*H*S*D) and
 * lse[0 .. B*H*S) is written. Launches on the default stream without waiting
 * and returns the first error: cudaErrorInvalidValue for another D, a
 * negative size, a scale that is not a positive finite number, a NULL or
 * misaligned pointer. */
cudaError_t flash_attn_fwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *lse, int B,
                           int H, int S, int D, int causal, float scale);

#ifdef __cplusplus
}
#endif
#endif
