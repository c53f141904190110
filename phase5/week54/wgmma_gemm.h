/* wgmma_gemm.h — week 54: a BF16 GEMM on Hopper's warpgroup MMA (wgmma),
 * fed by TMA through an mbarrier pipeline. */
#ifndef WGMMA_GEMM_H
#define WGMMA_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A B^T: C is M x N float, row-major with ldc floats from one row to
 * the next (ldc >= N; the columns past N are never written); A is M x K and
 * B is N x K, both row-major BF16 (bit patterns, as uint16_t: C has no
 * bfloat16 type) with K elements a row: both operands are K-major, the
 * layout wgmma reads without a transpose. Products accumulate in FP32.
 *
 * The contract is TMA's: K a multiple of 8 (16-byte rows), A and B 16-byte
 * aligned. C may start at any float. M, N, K >= 0; M == 0 or N == 0:
 * cudaSuccess, nothing done, no CUDA call (the pointers are not looked at);
 * K == 0: C = 0 (A and B are not read, nor their alignment checked).
 * Anything else (a negative size, K % 8 != 0, ldc < N, A or B not 16-byte
 * aligned when K > 0) is refused with cudaErrorInvalidValue before any CUDA
 * call, and nothing is written.
 *
 * The kernel is sm_90a code (week.txt's nvflags): it runs on a compute
 * capability 9.0 GPU (H100, H200) only. Launches on the default stream
 * without waiting; returns the first error. */
cudaError_t wgmma_gemm_bf16(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc);

#ifdef __cplusplus
}
#endif
#endif
