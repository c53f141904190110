/* judge_w36_runner.c — week 36's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's traffic.o, smx.o and split.o, nothing
 * that writes a record. Each entry calls one function of the week's API on
 * what the judge sent (judge_w36.h); judge_w36.c holds every check. */
#include <stddef.h>
#include <string.h>

#include "judge.h"
#include "judge_w36.h"
#include "smx.h"
#include "split.h"
#include "traffic.h"

#define SHAPE(a) (int)(a)->i64[1], (int)(a)->i64[2], (int)(a)->i64[3]

static int traffic(const jr_args *a)
{
    double b = traffic_variant_bytes((int)a->i64[5], SHAPE(a), (int)a->i64[4]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int tmp_bytes(const jr_args *a)
{
    unsigned long long b = (unsigned long long)split_smx_tmp_bytes(SHAPE(a));
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

static int smx(const jr_args *a)
{
    return (int)smx_fused((const float *)a->p[0], (float *)a->p[1], SHAPE(a), (float)a->f64[0], (int)a->i64[4]);
}

static int split(const jr_args *a)
{
    return (int)split_smx((const float *)a->p[0], (float *)a->p[1], SHAPE(a), (float)a->f64[0], (int)a->i64[4], a->p[2]);
}

static int split_timed(const jr_args *a)
{
    void *tmp = a->i64[6] ? (char *)a->p[0] + a->i64[5] : NULL;
    return (int)split_smx((const float *)a->p[0], (float *)a->p[1], SHAPE(a), (float)a->f64[0], (int)a->i64[4], tmp);
}

JR_MAIN({ W36_FN_TRAFFIC, "traffic_variant_bytes", traffic }, { W36_FN_TMP_BYTES, "split_smx_tmp_bytes", tmp_bytes },
        { W36_FN_SMX, "smx_fused", smx }, { W36_FN_SPLIT, "split_smx", split },
        { W36_FN_SPLIT_TIMED, "split_smx", split_timed })
