/* bf16_host.h — host code for the BF16 GEMMs of Phase 5's Hopper track
 * (week 54 and after; phase5/common/, on every phase-5 week's include path):
 * cuBLAS's BF16 "TN" GEMM as the yardstick (bfloat16 on the host: wb_f16.h).
 *
 * The track's GEMMs take both operands K-major, the layout wgmma reads
 * without transposing: row-major C (M x N, float) = A (M x K) B^T, with B
 * stored row-major N x K. */
#ifndef PHASE5_BF16_HOST_H
#define PHASE5_BF16_HOST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cublas_v2.h>

#include "wb_f16.h" /* wb_f32_to_bf16, wb_bf16_to_f32 */

/* Row-major C (M x N, float, ldc floats a row) = A (M x K) B^T, A and B
 * row-major BF16 with K elements a row, FP32 accumulate, enqueued on h's
 * stream (the default stream unless cublasSetStream said otherwise).
 *
 * cuBLAS is column-major. Row-major C is column-major C^T (N x M, leading
 * dimension ldc), and C^T = (A B^T)^T = B A^T. Row-major B (N x K) is the
 * column-major K x N matrix B^T, so cuBLAS's first operand is that one
 * transposed (CUBLAS_OP_T, lda = K); row-major A (M x K) is the
 * column-major K x M matrix A^T, which is the second operand as it is
 * (CUBLAS_OP_N, ldb = K). cuBLAS calls this layout "TN": its fastest. */
static inline cublasStatus_t bf16_gemm_cublas_tn(cublasHandle_t h, int M, int N, int K, const uint16_t *A,
                                                 const uint16_t *B, float *C, int ldc)
{
    const float one = 1.f, zero = 0.f;
    return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16BF, K, A, CUDA_R_16BF, K, &zero, C,
                        CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

#endif
