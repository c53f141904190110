/* judge_w30_runner.c — week 30's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's online.o and rowsoftmax.o, nothing that
 * writes a record. Each entry calls one function of the week's API on what
 * the judge sent (judge_w30.h); judge_w30.c holds every check. */
#include <string.h>

#include "judge.h"
#include "judge_w30.h"
#include "online.h"
#include "rowsoftmax.h"

/* p[0] x (host), i64[1] n: the pair online_stats stored, 12345 where it stored nothing */
static int stats(const jr_args *a)
{
    double ms[2] = { 12345, 12345 };
    online_stats((const float *)a->p[0], (size_t)a->i64[1], &ms[0], &ms[1]);
    memcpy(a->out, ms, sizeof ms), *a->out_len = sizeof ms;
    return 0;
}

/* p[0] x, p[1] y, i64[1] rows, i64[2] cols */
static int warp(const jr_args *a)
{
    return (int)rowsoftmax_warp((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

static int block(const jr_args *a)
{
    return (int)rowsoftmax_block((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

static int online(const jr_args *a)
{
    return (int)rowsoftmax_online((const float *)a->p[0], (float *)a->p[1], (int)a->i64[1], (int)a->i64[2]);
}

JR_MAIN({ W30_FN_STATS, "online_stats", stats }, { W30_FN_WARP, "rowsoftmax_warp", warp },
        { W30_FN_BLOCK, "rowsoftmax_block", block }, { W30_FN_ONLINE, "rowsoftmax_online", online })
