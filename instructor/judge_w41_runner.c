/* judge_w41_runner.c — week 41's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's ln_fwd.o, nothing that writes a record.
 * Its one entry calls ln_fwd on what the judge sent (judge_w41.h);
 * judge_w41.c holds every check. */
#include "judge.h"
#include "judge_w41.h"
#include "ln_fwd.h"

static int fwd(const jr_args *a)
{
    return (int)ln_fwd((const float *)a->p[0], (const float *)a->p[1], (const float *)a->p[2], (float *)a->p[3],
                       (float *)a->p[4], (float *)a->p[5], (int)a->i64[1], (int)a->i64[2], (float)a->f64[0]);
}

JR_MAIN({ W41_FN_FWD, "ln_fwd", fwd })
