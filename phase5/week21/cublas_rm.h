/* cublas_rm.h — week 21: cuBLAS on row-major data.
 *
 * C = A B with row-major A (M x K), B (K x N), C (M x N) as in naive.h,
 * computed by cublasSgemm on handle h in FP32 only (no TF32), enqueued on the
 * handle's stream. Returns CUBLAS_STATUS_SUCCESS or the first error. */
#ifndef CUBLAS_RM_H
#define CUBLAS_RM_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

cublasStatus_t cublas_rm_sgemm(cublasHandle_t h, int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
