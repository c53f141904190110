/* judge_w18_yard_runner.c — week 18's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c and the week's given
 * support/yard_lt_layer.o, no student object. The judge times cuBLASLt's
 * fused layer (CUBLASLT_EPILOGUE_RELU_BIAS: FP32, or BF16 in with FP32
 * accumulation and output) through the same protocol as the student's
 * fp32_linear and bf16_linear, on the same inputs (judge_w18.h's timed
 * calls), every output checked by the judge. */
#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "judge_w18.h"
#include "support/yard_lt_layer.h"

/* One plan a rep's buffers (the pointers, the type and the shape are the plan's), made the first time
 * they are seen (the warm-up request) and kept for the run. */
enum { MAX_PLANS = 128 };
static struct {
    const void   *in;
    void         *y;
    long long     type, m, k, n;
    yard_lt_layer *p;
} g_plan[MAX_PLANS];
static int g_nplan;

/* p[0] x | W | b, p[1] y; i64[1..3] batch, in, out (judge_w18.h, W18_FN_TIMED_*) */
static int lt(const jr_args *a, yard_lt_type type, size_t es)
{
    const long long B = a->i64[1], I = a->i64[2], O = a->i64[3];
    yard_lt_layer *p = NULL;
    for (int i = 0; i < g_nplan && !p; i++)
        if (g_plan[i].in == a->p[0] && g_plan[i].y == a->p[1] && g_plan[i].type == type && g_plan[i].m == B &&
            g_plan[i].k == I && g_plan[i].n == O)
            p = g_plan[i].p;
    char why[300];
    if (!p) {
        if (g_nplan == MAX_PLANS) return -1;
        const unsigned char *in = (const unsigned char *)a->p[0];
        p = yard_lt_layer_open_as(type, in, in + W18_W_AT(es, B, I), (const float *)(in + W18_B_AT(es, B, I, O)),
                                  a->p[1], (int)B, (int)I, (int)O, why, sizeof why);
        if (!p) return fprintf(stderr, "judge-w18-yard-runner: cuBLASLt cannot run the layer here: %s\n", why), -1;
        g_plan[g_nplan].in = a->p[0], g_plan[g_nplan].y = a->p[1], g_plan[g_nplan].type = type;
        g_plan[g_nplan].m = B, g_plan[g_nplan].k = I, g_plan[g_nplan].n = O, g_plan[g_nplan++].p = p;
    }
    if (yard_lt_layer_run(p, why, sizeof why) != 0)
        return fprintf(stderr, "judge-w18-yard-runner: cublasLtMatmul failed: %s\n", why), -1;
    return 0;
}

static int lt_f32(const jr_args *a) { return lt(a, YARD_LT_F32, 4); }
static int lt_bf16(const jr_args *a) { return lt(a, YARD_LT_BF16, 2); }

JR_MAIN({ W18_FN_TIMED_F32, "cublasLtMatmul (FP32, RELU_BIAS)", lt_f32 },
        { W18_FN_TIMED_BF16, "cublasLtMatmul (BF16, RELU_BIAS)", lt_bf16 })
