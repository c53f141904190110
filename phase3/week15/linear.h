/* linear.h — week 15: a small tiled SGEMM, with its epilogue fused. */
#ifndef LINEAR_H
#define LINEAR_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A is M x K, B is K x N, C is M x N, all row-major and contiguous, device
 * pointers; bias has N elements. relu(v) = v < 0 ? 0 : v (NaN stays NaN).
 * M or N <= 0 does nothing; K == 0 gives A B = 0. Default stream; the
 * launch's error. */

/* C = A B, shared-memory tiles. */
cudaError_t linear_sgemm(const float *A, const float *B, float *C, int M, int N, int K);

/* C = relu(A B + bias[col]): the same GEMM, with the bias and the ReLU
 * applied to each accumulator before its one store. */
cudaError_t linear_sgemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K);

/* Given (support/yard_unfused.cu): C = relu(C + bias[col]) in place, the separate
 * element-wise pass the unfused version runs after linear_sgemm. */
cudaError_t yard_bias_relu_inplace(float *C, const float *bias, int M, int N);

#ifdef __cplusplus
}
#endif
#endif
