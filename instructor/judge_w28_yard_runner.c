/* judge_w28_yard_runner.c — week 28's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_epilogue.o (cuBLASLt), instructor code only, no student
 * object: judge-w28-yard-runner, beside the judge. The judge times the
 * library's fused epilogue through it with the same protocol as the
 * student's calls (judge_hgemm.c), so what the protocol costs is in both
 * figures and not in their ratio. */
#include <stdint.h>
#include <stdio.h>

#define JUDGE_HGEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w28.h"
#include "support/yard_epilogue.h"

/* One plan a rep's buffers (the pointers and the shape are the plan's), made
 * on its first call: the protocol's untimed warm-up request makes every
 * rep's, so the timed requests only enqueue cublasLtMatmul. */
enum { MAX_PLANS = 256 };
static struct {
    const void *a, *b, *bias;
    void       *c;
    long long   m, n, k, act;
    yard_lt    *p;
} g_plan[MAX_PLANS];
static int g_nplan;

/* p[0] A, p[1] B with N bias floats i64[5] bytes in (HG_FN_PACKED's), p[2]
 * C, i64[1..4] M, N, K, act: the given cuBLASLt matmul with the epilogue
 * that matches (ACT_RELU with a bias: CUBLASLT_EPILOGUE_RELU_BIAS), on the
 * default stream. */
static int lt(const jr_args *a)
{
    const float *bias = (const float *)((const char *)a->p[1] + a->i64[5]);
    yard_lt *p = NULL;
    for (int i = 0; i < g_nplan && !p; i++)
        if (g_plan[i].a == a->p[0] && g_plan[i].b == a->p[1] && g_plan[i].bias == bias && g_plan[i].c == a->p[2] &&
            g_plan[i].m == a->i64[1] && g_plan[i].n == a->i64[2] && g_plan[i].k == a->i64[3] &&
            g_plan[i].act == a->i64[4])
            p = g_plan[i].p;
    if (!p) {
        char why[200];
        if (g_nplan == MAX_PLANS) return -1;
        p = yard_lt_open((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], bias, (float *)a->p[2], (int)a->i64[1],
                         (int)a->i64[2], (int)a->i64[3], (int)a->i64[4], why, sizeof why);
        if (!p) return fprintf(stderr, "judge-w28-yard-runner: %s\n", why), -1;
        g_plan[g_nplan].a = a->p[0], g_plan[g_nplan].b = a->p[1], g_plan[g_nplan].bias = bias;
        g_plan[g_nplan].c = a->p[2], g_plan[g_nplan].m = a->i64[1], g_plan[g_nplan].n = a->i64[2];
        g_plan[g_nplan].k = a->i64[3], g_plan[g_nplan].act = a->i64[4], g_plan[g_nplan++].p = p;
    }
    return yard_lt_run(p) == 0 ? 0 : -1;
}

JR_MAIN({ HG_YARD_LT, "cublasLtMatmul", lt })
