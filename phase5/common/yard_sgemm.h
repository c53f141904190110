/* yard_sgemm.h — phase 5's FP32 yardstick, for the SGEMM benchmarks of weeks
 * 21-24: cuBLAS's own speed on the same buffers and the same shape.
 *
 * yard_sgemm_cublas(M, N, K, A, B, C) enqueues, on the default stream,
 *   cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &1, A, M, B, K, &0, C, M)
 * with CUBLAS_PEDANTIC_MATH (every step FP32, no TF32), one handle per
 * process: the column-major product of operands the size of A and B. For the
 * square sizes the benchmarks use (M = N = K) that is the same cuBLAS kernel
 * as week 21's row-major call with A and B swapped, so it takes the same
 * time; it does not compute row-major A B (its C is row-major B A when
 * M = N = K). A stopwatch for cuBLAS, not a reference: tests check against
 * the CPU. M or N <= 0 launches nothing; K == 0 zeroes C. Returns cudaSuccess
 * or the error (a cuBLAS failure goes through WB_CUDA's handler).
 *
 * Test-side C (cuBLAS's API is C), included through gemm_check.h by one test
 * file per binary: a header, not a phase5/common .cu, so that no library
 * object is needed. Link with -lcublas (week.txt's libs:). */
#ifndef PHASE5_YARD_SGEMM_H
#define PHASE5_YARD_SGEMM_H

#include <stdio.h>
#include <cublas_v2.h>
#include "wb_cuda.h"

static cublasHandle_t yard_sgemm_handle_;

static inline cublasHandle_t yard_sgemm_handle(void)
{
    if (!yard_sgemm_handle_) {
        cublasStatus_t s = cublasCreate(&yard_sgemm_handle_);
        if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetMathMode(yard_sgemm_handle_, CUBLAS_PEDANTIC_MATH);
        if (s != CUBLAS_STATUS_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "cublasCreate/cublasSetMathMode: %s", cublasGetStatusString(s));
            wb_cuda_check_(cudaErrorUnknown, what, __FILE__, __LINE__);
            yard_sgemm_handle_ = NULL;
        }
    }
    return yard_sgemm_handle_;
}

static inline cudaError_t yard_sgemm_cublas(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), 0);
    cublasHandle_t h = yard_sgemm_handle();
    if (!h) return cudaErrorUnknown;
    const float one = 1.0f, zero = 0.0f;
    /* column-major, operands as given: times cuBLAS, does not compute row-major A B */
    cublasStatus_t s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, A, M, B, K, &zero, C, M);
    if (s != CUBLAS_STATUS_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "cublasSgemm: %s", cublasGetStatusString(s));
        return wb_cuda_check_(cudaErrorUnknown, what, __FILE__, __LINE__);
    }
    return cudaSuccess;
}

#endif
