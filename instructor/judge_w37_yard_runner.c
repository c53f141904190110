/* judge_w37_yard_runner.c — week 37's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_cublas_attn.o (attention on cuBLAS in FP32: two
 * cublasSgemmStridedBatched and the given softmax), instructor code only,
 * no student object: judge-w37-yard-runner, beside the judge. The judge
 * times it through the same protocol as the student's calls, so what the
 * protocol costs is in both figures and not in their ratio. A cuBLAS
 * handle cannot cross processes: this runner makes its own
 * (CUBLAS_DEFAULT_MATH, FP32, as the test's wb_cublas_handle(0)) and its
 * own S x S scores buffer on the first call (the protocol's untimed warm-up
 * request), as the test makes them before timing. */
#include <stdio.h>

#include "judge.h"
#include "judge_w37.h"
#include "support/yard_cublas_attn.h"

static cublasHandle_t g_h;
static float         *g_scores;
static size_t         g_scores_bytes;

/* p[0] Q K V (i64[0] floats each), p[1] O; i64[1] bh, i64[2] S, i64[3] D, i64[4] causal, f64[0] scale */
static int cublas_attn(const jr_args *a)
{
    const int bh = (int)a->i64[1], S = (int)a->i64[2], D = (int)a->i64[3];
    const size_t n = (size_t)a->i64[0], need = yard_attn_cublas_workspace_bytes(bh, S);
    if (!g_h) {
        if (cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(g_h, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
            return fprintf(stderr, "judge-w37-yard-runner: no cuBLAS handle\n"), -1;
    }
    if (need > g_scores_bytes) {
        if (g_scores) cudaFree(g_scores);
        g_scores = NULL, g_scores_bytes = 0;
        if (cudaMalloc((void **)&g_scores, need) != cudaSuccess)
            return fprintf(stderr, "judge-w37-yard-runner: no room for the scores (%zu bytes)\n", need), -1;
        g_scores_bytes = need;
    }
    const float *qkv = (const float *)a->p[0];
    return (int)yard_attn_cublas(g_h, qkv, qkv + n, qkv + 2 * n, (float *)a->p[1], g_scores, bh, S, D,
                                 (float)a->f64[0], (int)a->i64[4]);
}

JR_MAIN({ W37_YARD_CUBLAS, "yard_attn_cublas", cublas_attn })
