/* judge_w28_runner.c — week 28's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's gemm_epilogue.o, nothing that writes a
 * record. Its entries call gemm_epilogue_bias_act and gemm_epilogue_act on
 * what the judge sent (judge_hgemm.h, judge_w28.h); judge_hgemm.c and
 * judge_w28.c hold every check. */
#include <stdint.h>

#define JUDGE_HGEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w28.h"
#include "gemm_epilogue.h"

/* p[0] A, p[1] B, p[2] C, p[3] bias (NULL: none), i64[1..4] M, N, K, act */
static int fused(const jr_args *a)
{
    return (int)gemm_epilogue_bias_act((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (const float *)a->p[3],
                                       (float *)a->p[2], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4]);
}

/* the timed calls: the bias i64[5] bytes into B's buffer (the protocol sends two inputs) */
static int packed(const jr_args *a)
{
    const float *bias = (const float *)((const char *)a->p[1] + a->i64[5]);
    return (int)gemm_epilogue_bias_act((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], bias, (float *)a->p[2],
                                       (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4]);
}

/* p[0] C in place, p[1] bias, i64[1..3] M, N, act */
static int act(const jr_args *a)
{
    return (int)gemm_epilogue_act((float *)a->p[0], (const float *)a->p[1], (int)a->i64[1], (int)a->i64[2],
                                  (int)a->i64[3]);
}

JR_MAIN({ HG_FN_STUDENT, "gemm_epilogue_bias_act", fused }, { HG_FN_PACKED, "gemm_epilogue_bias_act", packed },
        { W28_FN_ACT, "gemm_epilogue_act", act })
