/* judge_bf16gemm_yard_runner.c — the BF16 GEMM weeks' yardstick's runner
 * (judge_week.h, jd_yard_bench): judge_runner.c, this main and cuBLAS,
 * instructor code only, no student object: judge-w54-yard-runner. The judge
 * times it through it with the same protocol as the student's calls
 * (judge_bf16gemm.c), so what the protocol costs is in both figures and not
 * in their ratio. */
#include <stdint.h>
#include <cublas_v2.h>

#define JUDGE_BF16GEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_bf16gemm.h"
#include "bf16_host.h" /* bf16_gemm_cublas_tn: the tests' cuBLAS BF16 GEMM */

/* p[0] A, p[1] B (BF16), p[2] C (floats), i64[1..4] M, N, K, ldc:
 * cublasGemmEx BF16 TN, FP32 compute, on a handle made on the first call
 * (the protocol's untimed warm-up request), on the default stream. */
static int cublas(const jr_args *a)
{
    static cublasHandle_t h;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return h = NULL, -1;
    cublasStatus_t s = bf16_gemm_cublas_tn(h, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (const uint16_t *)a->p[0],
                                           (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[4]);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

JR_MAIN({ BG_YARD_CUBLAS, "cublasGemmEx", cublas })
