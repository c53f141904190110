/* pv.h — week 34: the second GEMM of attention, O = P V, for every
 * (batch, head), in one cuBLAS call.
 *
 * Layout (row-major, contiguous, device memory):
 *   P  [B, H, L, L]: the attention weights (softmax of the scores)
 *   V  [B, H, L, D]: element (b, h, j, d) at ((b * H + h) * L + j) * D + d
 *   O  [B, H, L, D]: O[b, h, i, d] = sum_j P[b, h, i, j] V[b, h, j, d] */
#ifndef W34_PV_H
#define W34_PV_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* O = P V for all B * H heads with one cublasSgemmStridedBatched call (batch
 * B * H), on the handle's stream, in its math mode. B, H, L >= 0 and D >= 1:
 * anything else, or B * H past INT_MAX, returns CUBLAS_STATUS_INVALID_VALUE
 * and writes nothing. B * H * L == 0: CUBLAS_STATUS_SUCCESS, nothing
 * written. O is not read (it may hold NaN). Returns cuBLAS's status. */
cublasStatus_t pv_output(cublasHandle_t h, const float *P, const float *V, float *O, int B, int H, int L, int D);

#ifdef __cplusplus
}
#endif
#endif
