/* yard_sgemm_simt.h — week 26's given FP32 CUDA-core GEMM (support/yard_sgemm_simt.cu):
 * row-major C = A B on the default stream. */
#ifndef W26_YARD_SGEMM_SIMT_H
#define W26_YARD_SGEMM_SIMT_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A given FP32 GEMM on the CUDA cores (no tensor cores): C = A * B row-major,
 * 64 x 64 block tiles, 4 x 4 outputs a thread, any M, N, K. */
cudaError_t yard_sgemm_simt(const float *A, const float *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
