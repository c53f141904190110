/* cutlass_gemm.h — week 27: the same GEMM through CUTLASS used as a library. */
#ifndef CUTLASS_GEMM_H
#define CUTLASS_GEMM_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A * B with cutlass::gemm::device::Gemm: row-major, A (M x K) and B
 * (K x N) half bit patterns, C (M x N) float, float accumulation. Any
 * M, N, K >= 0; nothing outside C[0 .. M*N) is written. Default stream, no
 * wait; returns cudaErrorInvalidValue when CUTLASS refuses the problem or
 * fails (cutlass::Status is not a CUDA error), else the launch's error. */
cudaError_t cutlass_hgemm(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
