/* attention.h — week 34: naive scaled dot-product attention end to end, and
 * the count of what it moves.
 *
 *   O = softmax(mask(Q K^T / sqrt(D))) V   for every (batch, head)
 *
 * in four steps, each a full pass over the L x L score matrix of every head:
 * qkt_scores and mask_scores (week 33), softmax_scores and pv_output (this week).
 * Q, K, V, O are [B, H, L, D], row-major and contiguous (qkt.h, pv.h). */
#ifndef W34_ATTENTION_H
#define W34_ATTENTION_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Naive attention. work: a device buffer of B * H * L * L floats for the
 * scores (overwritten). causal, kv_len: the masks of week 33 (mask.h);
 * a query whose keys are all masked (kv_len[b] <= 0) gets an output row of
 * zeros. Everything runs on the default stream (the handle's stream must be
 * the default one), asynchronously. Sizes as qkt_scores: B, H, L >= 0, D >= 1,
 * else CUBLAS_STATUS_INVALID_VALUE with nothing written; B * H * L == 0 does
 * nothing. Returns the first failure: a cuBLAS status, or
 * CUBLAS_STATUS_EXECUTION_FAILED when a kernel launch failed. */
cublasStatus_t attention(cublasHandle_t h, const float *Q, const float *K, const float *V, float *O, float *work,
                         int B, int H, int L, int D, int causal, const int *kv_len);

/* Host functions: the traffic model of the naive pipeline (4-byte floats),
 * each step reading its inputs from DRAM once and writing its outputs once:
 *   qkt      reads Q and K (2 B H L D floats), writes S (B H L^2);
 *   mask     with causal != 0 writes the masked entries only, B H L (L - 1) / 2
 *            (it need not read: a masked entry is -inf whatever it held);
 *            without: nothing (padding is not counted: it depends on kv_len);
 *   softmax  reads S and writes P in place (2 B H L^2);
 *   pv       reads P (B H L^2) and V (B H L D), writes O (B H L D).
 * attention_naive_bytes returns the total in bytes; attention_fused_bytes the least
 * any attention must move (read Q, K, V, write O: 4 B H L D floats), which a
 * fused kernel that never writes S (FlashAttention, weeks 37-38) approaches;
 * attention_flops the two GEMMs' flops, 4 B H L^2 D (2 per multiply-add, the
 * full L x L even when causal: cuBLAS computes the masked half too). */
double attention_naive_bytes(int B, int H, int L, int D, int causal);
double attention_fused_bytes(int B, int H, int L, int D);
double attention_flops(int B, int H, int L, int D);

#ifdef __cplusplus
}
#endif
#endif
