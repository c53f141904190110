/* attn_fwd_lse.h — week 59's given forward pass: attention that also writes
 * the per-row log-sum-exp the backward needs. Given code, not an exercise:
 * plain and exact rather than fast (one warp a query row). */
#ifndef ATTN_FWD_LSE_H
#define ATTN_FWD_LSE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* O = softmax(scale * Q K^T [+ causal mask]) V for every (batch, head), and
 * lse[b][h][i] = log(sum_j exp(scale * q_i . k_j)) over the keys query i
 * sees (natural log, in units of the scaled logits: the "stats" of cuDNN's
 * SDPA), FP32.
 *
 * Q, K, V, O: [B][H][S][D] bfloat16 bit patterns, 16-byte aligned; lse:
 * [B][H][S] floats. D is 64 or 128; causal != 0 masks key j for query i when
 * j > i. Scores, softmax and sums are FP32 (no bf16 P: O is the FP32 sum
 * of exp(s - lse) v, rounded to bf16 once). B, H or S == 0 is nothing to do. Default stream, no
 * wait; cudaErrorInvalidValue for another D, a negative size, a scale that
 * is not a positive finite number, a NULL or misaligned pointer. */
cudaError_t attn_fwd_lse(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *lse, int B,
                         int H, int S, int D, int causal, float scale);

#ifdef __cplusplus
}
#endif
#endif
