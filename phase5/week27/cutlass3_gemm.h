/* cutlass3_gemm.h — week 27: the same GEMM through CUTLASS 3's Hopper kernel
 * (TMA, wgmma, warp-specialised and persistent), built from its collective
 * builders. */
#ifndef CUTLASS3_GEMM_H
#define CUTLASS3_GEMM_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A * B with a CUTLASS 3 sm90 GEMM: row-major, A (M x K) and B (K x N)
 * half bit patterns, C (M x N) float, float accumulation; the same layouts
 * as cutlass_hgemm. TMA moves rows that start on 16-byte boundaries, so:
 *   - M >= 0 any; N and K must be multiples of 8 (0 included). Any other
 *     shape, and any negative size, returns cudaErrorInvalidValue before
 *     touching the GPU (nothing is written);
 *   - M == 0 or N == 0: cudaSuccess, nothing written; K == 0: C = 0;
 *   - A, B, C may start anywhere (2-byte aligned halves, 4-byte aligned
 *     floats): pointers that are not 16-byte aligned are copied through
 *     aligned scratch buffers (slower, same result);
 *   - it needs a compute capability 9.0 GPU (H100, H200) running this
 *     file's sm_90a code: anywhere else cudaErrorNotSupported.
 * Nothing outside C[0 .. M*N) is written. Default stream, no wait; returns
 * cudaErrorInvalidValue when CUTLASS refuses or fails (cutlass::Status is
 * not a CUDA error), else the error of the first CUDA call that failed. */
cudaError_t cutlass3_hgemm(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
