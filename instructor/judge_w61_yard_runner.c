/* judge_w61_yard_runner.c — week 61's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c and this main, instructor code only, no
 * student object: judge-w61-yard-runner, beside the judge. cuBLAS's dense
 * FP16 GEMM on the pruned weights decompressed (the test's sp_cublas:
 * row-major y = x W^T as column-major y^T = W x^T, the "TN" cublasGemmEx,
 * FP16 in and out, FP32 compute, CUBLAS_GEMM_DEFAULT), on a handle of the
 * runner's own made in the untimed warm-up request; the judge times it with
 * the same protocol as the student's calls, so what the protocol costs is
 * in both figures and not in their ratio. */
#include <stdint.h>
#include <stdio.h>
#include <cublas_v2.h>

#include "judge.h"
#include "judge_w61.h"

/* p[0] x | dense W, p[1] y; i64[1..3] M N K (judge_w61.h, W61_YARD_CUBLAS) */
static int dense(const jr_args *a)
{
    static cublasHandle_t h;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return h = NULL, -1;
    const long long M = a->i64[1], N = a->i64[2], K = a->i64[3];
    const uint8_t *in = (const uint8_t *)a->p[0];
    const float one = 1.f, zero = 0.f;
    cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K, &one, in + W61_V_AT(M, K),
                                    CUDA_R_16F, (int)K, in, CUDA_R_16F, (int)K, &zero, a->p[1], CUDA_R_16F, (int)N,
                                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) fprintf(stderr, "judge-w61-yard-runner: cublasGemmEx failed (%d)\n", (int)s);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

JR_MAIN({ W61_YARD_CUBLAS, "cublasGemmEx (dense pruned FP16)", dense })
