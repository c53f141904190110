/* judge_w62_runner.c — week 62's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's fa3_fwd.o, nothing that writes a
 * record. Each entry calls fa3_fwd or fa3_fwd_desc on what the judge sent
 * (judge_w62.h); judge_w62.c holds every check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fa3_fwd.h"
#include "judge.h"
#include "judge_w62.h"

/* p[0] Q, p[1] K, p[2] V, p[3] O, p[4] lse; i64[1..5] B H S D causal; f64[0] scale */
static int fwd(const jr_args *a)
{
    return (int)fa3_fwd((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (const uint16_t *)a->p[2],
                        (uint16_t *)a->p[3], (float *)a->p[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                        (int)a->i64[4], (int)a->i64[5], (float)a->f64[0]);
}

/* p[0] Q|K|V, p[1] O|lse */
static int fwd_timed(const jr_args *a)
{
    const size_t n = (size_t)a->i64[1] * (size_t)a->i64[2] * (size_t)a->i64[3] * (size_t)a->i64[4];
    const uint16_t *q = (const uint16_t *)a->p[0];
    uint16_t *o = (uint16_t *)a->p[1];
    return (int)fa3_fwd(q, q + n, q + 2 * n, o, (float *)(o + n), (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                        (int)a->i64[4], (int)a->i64[5], (float)a->f64[0]);
}

/* i64[0] operand, i64[1] tile_addr, i64[2] kk, i64[3] the output's value before, i64[4] 1: desc NULL */
static int desc(const jr_args *a)
{
    w62_desc_out o = { 0, 0, (uint64_t)a->i64[3] };
    o.ret = fa3_fwd_desc((int)a->i64[0], (uint32_t)a->i64[1], (int)a->i64[2], a->i64[4] ? NULL : &o.desc);
    memcpy(a->out, &o, sizeof o);
    *a->out_len = sizeof o;
    return 0;
}

JR_MAIN({ W62_FN_FWD, "fa3_fwd", fwd }, { W62_FN_FWD_TIMED, "fa3_fwd", fwd_timed }, { W62_FN_DESC, "fa3_fwd_desc", desc })
