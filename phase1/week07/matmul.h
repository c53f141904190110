/* matmul.h — week 07: C = A B in FP32, row-major. */
#ifndef MATMUL_H
#define MATMUL_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A is M x K, B is K x N, C is M x N, all row-major and contiguous, device
 * pointers. C = A B (K == 0 gives zeros). Default stream; the first error. */
cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K);
cudaError_t matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
