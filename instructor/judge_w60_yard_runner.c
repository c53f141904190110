/* judge_w60_yard_runner.c — week 60's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_fp8_lt.o (cuBLASLt's FP8 GEMM: E4M3 TN, BF16 out, FP32
 * compute, the scale pointers, fast accumulation), instructor code only, no
 * student object: judge-w60-yard-runner, beside the judge. The judge times
 * cuBLASLt through it with the same protocol as the student's calls, so
 * what the protocol costs is in both figures and not in their ratio. */
#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "judge_w60.h"
#include "support/yard_fp8_lt.h"

/* One plan a rep's buffers (the pointers and the shape are the plan's), made
 * on its first call: the protocol's untimed warm-up request makes every
 * rep's (yard_fp8_open runs the product once), so the timed requests only
 * enqueue cublasLtMatmul. */
enum { MAX_PLANS = 128 };
static struct {
    const void *in;
    void       *d;
    long long   m, n, k;
    yard_fp8   *p;
} g_plan[MAX_PLANS];
static int g_nplan;

/* p[0] A | B | scales, p[1] D; i64[1..3] M N K (judge_w60.h, W60_FN_TIMED) */
static int lt(const jr_args *a)
{
    const long long M = a->i64[1], N = a->i64[2], K = a->i64[3];
    yard_fp8 *p = NULL;
    for (int i = 0; i < g_nplan && !p; i++)
        if (g_plan[i].in == a->p[0] && g_plan[i].d == a->p[1] && g_plan[i].m == M && g_plan[i].n == N &&
            g_plan[i].k == K)
            p = g_plan[i].p;
    if (!p) {
        char why[700];
        if (g_nplan == MAX_PLANS) return -1;
        const uint8_t *in = (const uint8_t *)a->p[0];
        const float *s = (const float *)(in + W60_S_AT(M, N, K));
        p = yard_fp8_open(in, in + W60_B_AT(M, K), s, s + 4, (uint16_t *)a->p[1], (int)M, (int)N, (int)K, 1, why,
                          sizeof why);
        if (!p) return fprintf(stderr, "judge-w60-yard-runner: cuBLASLt FP8 cannot run here: %s\n", why), -1;
        g_plan[g_nplan].in = a->p[0], g_plan[g_nplan].d = a->p[1];
        g_plan[g_nplan].m = M, g_plan[g_nplan].n = N, g_plan[g_nplan].k = K, g_plan[g_nplan++].p = p;
    }
    const int s = yard_fp8_run(p);
    if (s != 0) fprintf(stderr, "judge-w60-yard-runner: cublasLtMatmul (FP8) failed: %s\n", yard_fp8_status(s));
    return s == 0 ? 0 : -1;
}

JR_MAIN({ W60_YARD_LT, "cublasLtMatmul (FP8)", lt })
