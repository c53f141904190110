/* yard.h — phase 5's yardsticks, shared by weeks 21-24 (support/yard.cu of
 * week 21; later weeks compile the same file). Both enqueue C = A B on the
 * default stream with the interface of naive.h and return cudaSuccess or the
 * error (a cuBLAS failure is reported through WB_CUDA's handler).
 *   yard_sgemm_cublas: cublasSgemm, CUBLAS_PEDANTIC_MATH (FP32, no TF32),
 *                      from row-major data; one handle per process.
 *   yard_sgemm_naive:  the reference naive kernel (week 21's yardstick for
 *                      the coalescing checkpoint). */
#ifndef PHASE5_YARD_H
#define PHASE5_YARD_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t yard_sgemm_cublas(int M, int N, int K, const float *A, const float *B, float *C);
cudaError_t yard_sgemm_naive(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
