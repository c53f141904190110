/* judge_w53_runner.c — week 53's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's tma_box.o and tma_copy.o (with the
 * week's given support object, as the grader links a week's support), nothing
 * that writes a record. Each entry calls one function of the week's API on
 * what the judge sent; judge_w53.c holds every check. */
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "tma_box.h"
#include "tma_copy.h"
#include "judge_w53.h"

static int box(const jr_args *a)
{
    tma_plan p;
    memset(&p, W53_PLAN_FILL, sizeof p); /* what writing nothing leaves */
    int32_t s = (int32_t)tma_box_plan((const void *)(uintptr_t)a->i64[0], (size_t)a->i64[1], (size_t)a->i64[2],
                                      (size_t)a->i64[3], (size_t)a->i64[4], (unsigned)a->i64[5], (unsigned)a->i64[6],
                                      (int)a->i64[7], &p);
    memcpy(a->out, &s, 4);
    memcpy(a->out + 4, &p, sizeof p);
    *a->out_len = W53_BOX_REPLY;
    return 0;
}

static int copy(const jr_args *a)
{
    const float *src = a->p[0] ? (const float *)a->p[0] : (const float *)(uintptr_t)a->i64[5];
    float *dst = a->p[1] ? (float *)a->p[1] : (float *)(uintptr_t)a->i64[6];
    return (int)tma_copy_f32(src, (size_t)a->i64[1], dst, (size_t)a->i64[2], (size_t)a->i64[3], (size_t)a->i64[4]);
}

JR_MAIN({ W53_FN_BOX, "tma_box_plan", box }, { W53_FN_COPY, "tma_copy_f32", copy })
