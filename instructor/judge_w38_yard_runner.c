/* judge_w38_yard_runner.c — week 38's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * phase6/common/cudnn-frontend/yard_sdpa_cudnn.o (cuDNN's fused attention,
 * SDPA forward, built with the cuDNN frontend's graph API behind a C
 * interface, cuDNN loaded at run time through wb_cudnn.h as the week's test
 * loads it), instructor code only, no student object:
 * judge-w38-yard-runner, beside the judge. The judge times cuDNN through it
 * with the same protocol as the student's calls, so what the protocol
 * costs is in both figures and not in their ratio. The graph for the shape
 * is built on the first call (the protocol's untimed warm-up request), as
 * the test builds it (yard_sdpa_cudnn_prepare) before timing. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "judge_w38.h"
#include "yard_sdpa_cudnn.h"

/* p[0] Q|K|V, p[1] O; i64[1..5] B H S D causal; f64[0] scale */
static int cudnn_sdpa(const jr_args *a)
{
    char why[400];
    const size_t n = (size_t)a->i64[1] * (size_t)a->i64[2] * (size_t)a->i64[3] * (size_t)a->i64[4];
    const uint16_t *q = (const uint16_t *)a->p[0];
    if (!yard_sdpa_cudnn_fwd(q, q + n, q + 2 * n, (uint16_t *)a->p[1], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                             (int)a->i64[4], (int)a->i64[5], (float)a->f64[0], why, sizeof why))
        return fprintf(stderr, "judge-w38-yard-runner: cuDNN SDPA cannot run here: %s\n", why), -1;
    return 0;
}

JR_MAIN({ W38_YARD_CUDNN, "cuDNN SDPA", cudnn_sdpa })
