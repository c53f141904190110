/* qkt.h — week 33: the scores of scaled dot-product attention,
 * S = Q K^T / sqrt(D), for every (batch, head), in one cuBLAS call.
 *
 * Layout (row-major, contiguous, device memory):
 *   Q, K  [B, H, L, D]: element (b, h, i, d) at ((b * H + h) * L + i) * D + d
 *   S     [B, H, L, L]: element (b, h, i, j) at ((b * H + h) * L + i) * L + j
 * Query i of head (b, h) is row i of Q; key j is row j of K; S[b, h, i, j] is
 * their dot product times scale = 1.0f / sqrtf((float)D). Self-attention:
 * queries and keys share the length L. */
#ifndef W33_QKT_H
#define W33_QKT_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* S = scale * Q K^T for all B * H heads with one cublasSgemmStridedBatched
 * call (batch B * H), on the handle's stream, in the handle's math mode.
 * B, H, L >= 0 and D >= 1: anything else, or B * H past INT_MAX, returns
 * CUBLAS_STATUS_INVALID_VALUE and writes nothing. B * H * L == 0: nothing to
 * do, CUBLAS_STATUS_SUCCESS. Nothing outside S's B*H*L*L floats is written.
 * Returns cuBLAS's status (a null handle is cuBLAS's error, passed on). */
cublasStatus_t qkt_scores(cublasHandle_t h, const float *Q, const float *K, float *S, int B, int H, int L, int D);

#ifdef __cplusplus
}
#endif
#endif
