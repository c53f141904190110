/* judge_w59_runner.c — week 59's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's flash_bwd.o, nothing that writes a
 * record. Each entry calls one function of flash_bwd.h on what the judge
 * sent (judge_w59.h); judge_w59.c holds every check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flash_bwd.h"
#include "judge.h"
#include "judge_w59.h"

/* i64[1..4] B H S D; out: the bytes, an unsigned long long */
static int ws_bytes(const jr_args *a)
{
    const unsigned long long v =
        flash_bwd_workspace_bytes((int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4]);
    memcpy(a->out, &v, sizeof v), *a->out_len = sizeof v;
    return 0;
}

/* p[0] Q, p[1] K|V|O|dO|lse (i64[6] bytes apart), p[2] dQ, p[3] dK, p[4] dV, p[5] workspace */
static int bwd(const jr_args *a)
{
    const size_t st = (size_t)a->i64[6];
    const unsigned char *in = (const unsigned char *)a->p[1];
    return (int)flash_bwd((const uint16_t *)a->p[0], (const uint16_t *)in, (const uint16_t *)(in + st),
                          (const uint16_t *)(in + 2 * st), (const uint16_t *)(in + 3 * st),
                          (const float *)(in + 4 * st), (uint16_t *)a->p[2], (uint16_t *)a->p[3],
                          (uint16_t *)a->p[4], a->p[5], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                          (int)a->i64[4], (int)a->i64[5], (float)a->f64[0]);
}

JR_MAIN({ W59_FN_WS, "flash_bwd_workspace_bytes", ws_bytes }, { W59_FN_BWD, "flash_bwd", bwd })
