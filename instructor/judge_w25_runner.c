/* judge_w25_runner.c — week 25's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's hgemm_wmma.o, nothing that writes a
 * record. Its one entry calls hgemm_wmma on what the judge sent
 * (judge_hgemm.h: p[0] A, p[1] B, p[2] C, i64[1..3] M, N, K);
 * judge_hgemm.c holds every check. */
#include <stdint.h>

#define JUDGE_HGEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w25.h"
#include "hgemm_wmma.h"

static int call(const jr_args *a)
{
    return (int)hgemm_wmma((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                           (int)a->i64[2], (int)a->i64[3]);
}

JR_MAIN({ HG_FN_STUDENT, "hgemm_wmma", call })
