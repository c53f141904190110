/* judge_w42_runner.c — week 42's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's ln_bwd.o, nothing that writes a record.
 * Each entry calls one function of the week's API on what the judge sent
 * (judge_w42.h); judge_w42.c holds every check. */
#include <string.h>

#include "judge.h"
#include "judge_w42.h"
#include "ln_bwd.h"

static int ws(const jr_args *a)
{
    size_t b = ln_bwd_workspace_bytes((int)a->i64[1], (int)a->i64[2], (size_t)a->i64[3]);
    memcpy(a->out, &b, sizeof b);
    *a->out_len = sizeof b;
    return 0;
}

/* Input k of the blob p[0] (judge_w42.h), or NULL. */
static const void *in(const jr_args *a, int k)
{
    return a->p[0] && a->i64[k] >= 0 ? (const void *)((const char *)a->p[0] + a->i64[k]) : NULL;
}

static int f32(const jr_args *a)
{
    return (int)ln_bwd_f32((const float *)in(a, W42_IN_X), (const float *)in(a, W42_IN_DY),
                           (const float *)in(a, W42_IN_W), (const float *)in(a, W42_IN_MEAN),
                           (const float *)in(a, W42_IN_RSTD), (float *)a->p[1], (float *)a->p[2], (float *)a->p[3],
                           a->p[4], (int)a->i64[1], (int)a->i64[2]);
}

static int f64(const jr_args *a)
{
    return (int)ln_bwd_f64((const double *)in(a, W42_IN_X), (const double *)in(a, W42_IN_DY),
                           (const double *)in(a, W42_IN_W), (const double *)in(a, W42_IN_MEAN),
                           (const double *)in(a, W42_IN_RSTD), (double *)a->p[1], (double *)a->p[2],
                           (double *)a->p[3], a->p[4], (int)a->i64[1], (int)a->i64[2]);
}

JR_MAIN({ W42_FN_WS, "ln_bwd_workspace_bytes", ws }, { W42_FN_F32, "ln_bwd_f32", f32 },
        { W42_FN_F64, "ln_bwd_f64", f64 })
