/* judge_w27_runner.c — week 27's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's hgemm_tiled.o, cutlass_gemm.o and
 * cutlass3_gemm.o, nothing that writes a record. Its entries call the
 * week's three functions on what the judge sent (judge_hgemm.h: p[0] A,
 * p[1] B, p[2] C, i64[1..3] M, N, K; any of them NULL and any size, for
 * cutlass3_hgemm's contract); judge_hgemm.c and judge_w27.c hold every
 * check. */
#include <stdint.h>

#define JUDGE_HGEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w27.h"
#include "hgemm_tiled.h"
#include "cutlass_gemm.h"
#include "cutlass3_gemm.h"

static int tiled(const jr_args *a)
{
    return (int)hgemm_tiled((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                            (int)a->i64[2], (int)a->i64[3]);
}

static int cutlass2(const jr_args *a)
{
    return (int)cutlass_hgemm((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                              (int)a->i64[2], (int)a->i64[3]);
}

static int cutlass3(const jr_args *a)
{
    return (int)cutlass3_hgemm((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                               (int)a->i64[2], (int)a->i64[3]);
}

JR_MAIN({ HG_FN_STUDENT, "hgemm_tiled", tiled }, { HG_FN_CUTLASS, "cutlass_hgemm", cutlass2 },
        { HG_FN_CUTLASS3, "cutlass3_hgemm", cutlass3 })
