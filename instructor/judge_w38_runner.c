/* judge_w38_runner.c — week 38's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's flash_attn.o, nothing that writes a
 * record. Each entry calls flash_attn_fwd on what the judge sent
 * (judge_w38.h); judge_w38.c holds every check. */
#include <stddef.h>
#include <stdint.h>

#include "flash_attn.h"
#include "judge.h"
#include "judge_w38.h"

/* p[0] Q, p[1] K, p[2] V, p[3] O, p[4] lse; i64[1..5] B H S D causal; f64[0] scale */
static int fwd(const jr_args *a)
{
    return (int)flash_attn_fwd((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (const uint16_t *)a->p[2],
                               (uint16_t *)a->p[3], (float *)a->p[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                               (int)a->i64[4], (int)a->i64[5], (float)a->f64[0]);
}

/* p[0] Q|K|V, p[1] O|lse */
static int fwd_timed(const jr_args *a)
{
    const size_t n = (size_t)a->i64[1] * (size_t)a->i64[2] * (size_t)a->i64[3] * (size_t)a->i64[4];
    const uint16_t *q = (const uint16_t *)a->p[0];
    uint16_t *o = (uint16_t *)a->p[1];
    return (int)flash_attn_fwd(q, q + n, q + 2 * n, o, (float *)(o + n), (int)a->i64[1], (int)a->i64[2],
                               (int)a->i64[3], (int)a->i64[4], (int)a->i64[5], (float)a->f64[0]);
}

JR_MAIN({ W38_FN_FWD, "flash_attn_fwd", fwd }, { W38_FN_FWD_TIMED, "flash_attn_fwd", fwd_timed })
