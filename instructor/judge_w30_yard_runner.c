/* judge_w30_yard_runner.c — week 30's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_cudnn_softmax.o (cudnnSoftmaxForward, accurate, instance
 * mode, cuDNN loaded at run time through wb_cudnn.h as the week's test
 * loads it), instructor code only, no student object:
 * judge-w30-yard-runner, beside the judge. The judge times cuDNN through it
 * with the same protocol as the student's calls, so what the protocol
 * costs is in both figures and not in their ratio. The handle and the
 * tensor descriptor are made on the first call (the protocol's untimed
 * warm-up request), as the test makes them before timing. */
#include <stdio.h>

#include "judge.h"
#include "judge_w30.h"
#include "support/yard_cudnn_softmax.h"

/* p[0] x, p[1] y, i64[1] rows, i64[2] cols */
static int cudnn_softmax(const jr_args *a)
{
    char why[300];
    if (!yard_cudnn_open(why, sizeof why)) return fprintf(stderr, "judge-w30-yard-runner: %s\n", why), -1;
    const float *x = (const float *)a->p[0];
    if (yard_cudnn_softmax(x, (float *)a->p[1], (int)a->i64[1], (int)a->i64[2], why, sizeof why) != 0) return fprintf(stderr, "judge-w30-yard-runner: %s\n", why), -1;
    return 0;
}

JR_MAIN({ W30_YARD_CUDNN, "cudnnSoftmaxForward", cudnn_softmax })
