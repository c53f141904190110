/* judge_w56_runner.c — week 56's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's cluster_hist.o and tma_multicast.o
 * (sm_90a code, as the week's rules build them; with the week's given
 * support object, as the grader links a week's support), nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent; judge_w56.c holds every check. */
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "cluster_hist.h"
#include "tma_multicast.h"
#include "judge_w56.h"

static int plan(const jr_args *a)
{
    chist_plan p;
    memset(&p, W56_PLAN_FILL, sizeof p); /* what writing nothing leaves */
    int32_t s = (int32_t)cluster_hist_plan((uint32_t)a->i64[1], (int)a->i64[2], (size_t)a->i64[3],
                                           a->i64[4] ? NULL : &p);
    memcpy(a->out, &s, 4);
    memcpy(a->out + 4, &p, sizeof p);
    *a->out_len = W56_PLAN_REPLY;
    return 0;
}

static int hist(const jr_args *a)
{
    const uint32_t *keys = a->p[0] ? (const uint32_t *)a->p[0] : (const uint32_t *)(uintptr_t)a->i64[5];
    uint32_t *bins = a->p[1] ? (uint32_t *)a->p[1] : (uint32_t *)(uintptr_t)a->i64[6];
    return (int)cluster_hist(keys, (size_t)a->i64[1], bins, (uint32_t)a->i64[2], (int)a->i64[3]);
}

static int mc(const jr_args *a)
{
    const float *src = a->p[0] ? (const float *)a->p[0] : (const float *)(uintptr_t)a->i64[5];
    float *dst = a->p[1] ? (float *)a->p[1] : (float *)(uintptr_t)a->i64[6];
    return (int)tma_multicast_f32(src, (size_t)a->i64[1], dst, (size_t)a->i64[2], (size_t)a->i64[3],
                                  (size_t)a->i64[4], (int)a->i64[7], a->f64[0] != 0);
}

JR_MAIN({ W56_FN_PLAN, "cluster_hist_plan", plan }, { W56_FN_HIST, "cluster_hist", hist },
        { W56_FN_MC, "tma_multicast_f32", mc })
