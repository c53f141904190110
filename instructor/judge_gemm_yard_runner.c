/* judge_gemm_yard_runner.c — the yardstick's runner of phase 5's SGEMM
 * judges (judge_gemm.h, jd_yard_bench): judge_runner.c and this main,
 * instructor code only, beside the judges. JG_YARD_CUBLAS computes
 * row-major C = A B with cublasSgemm in CUBLAS_PEDANTIC_MATH (every step
 * FP32, no TF32) on a handle of its own, made on the first call (the
 * untimed warm-up request), enqueued on the default stream as the
 * students' kernels are: the test's yardstick (phase5/common/yard_sgemm.h),
 * its operands swapped so that its output is the product the judge checks
 * (at M = N = K the same cuBLAS kernel). JG_YARD_NAIVE is week 21's NAIVE:
 * phase5/week21/support/yard_naive.cu as the instructor's tree builds it,
 * the reference naive kernel. */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#define JG_RUNNER_ONLY
#include "judge.h"
#include "judge_gemm.h"

static cudaError_t cublas_rm(int M, int N, int K, const float *A, const float *B, float *C)
{
    static cublasHandle_t h;
    if (M <= 0 || N <= 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), 0);
    if (!h) {
        cublasHandle_t made;
        if (cublasCreate(&made) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
        if (cublasSetMathMode(made, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
            return cublasDestroy(made), cudaErrorUnknown;
        h = made;
    }
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N) == CUBLAS_STATUS_SUCCESS
               ? cudaSuccess
               : cudaErrorUnknown;
}

/* week 21's support/yard_naive.cu: the reference naive kernel under its own name */
cudaError_t yard_naive_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

static int yard_cublas(const jr_args *a) { return jg_call(a, cublas_rm); }
static int yard_naive(const jr_args *a) { return jg_call(a, yard_naive_sgemm); }

JR_MAIN({ JG_YARD_CUBLAS, "cublasSgemm (pedantic)", yard_cublas }, { JG_YARD_NAIVE, "yard_naive_sgemm", yard_naive })
