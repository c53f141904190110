/* judge_w36_yard_runner.c — week 36's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_unfused.o (scale, mask and softmax, one kernel each, through
 * a temporary T), instructor code only, no student object:
 * judge-w36-yard-runner, beside the judge. The judge times the given chain
 * of w36.model through it with the same protocol as the student's calls. */
#include <stddef.h>

#include "judge.h"
#include "judge_w36.h"
#include "smx.h"

/* p[0] S with T i64[0] floats after it, p[1] P; i64[1..4] batch, rows, cols, causal; f64[0] scale */
static int unfused(const jr_args *a)
{
    const float *S = (const float *)a->p[0];
    return (int)yard_smx_unfused(S, (float *)a->p[0] + a->i64[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2],
                                 (int)a->i64[3], (float)a->f64[0], (int)a->i64[4]);
}

JR_MAIN({ W36_YARD_UNFUSED, "yard_smx_unfused", unfused })
