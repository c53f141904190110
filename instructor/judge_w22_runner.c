/* judge_w22_runner.c — week 22's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's tiled.o, nothing that writes a record.
 * Each entry calls one function of tiled.h on what the judge sent;
 * judge_w22.c holds every check. */
#include <string.h>
#include <cuda_runtime_api.h>

#define JG_RUNNER_ONLY
#include "judge.h"
#include "judge_gemm.h"
#include "judge_w22.h"
#include "tiled.h"

static int tiled_t(const jr_args *a)
{
    return (int)tiled_sgemm_t((int)a->i64[4], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (const float *)a->p[0],
                              (const float *)a->p[1], (float *)a->p[2]);
}

static int tiled(const jr_args *a) { return jg_call(a, tiled_sgemm); }

static int blocks(const jr_args *a)
{
    int b = tiled_sgemm_blocks_per_sm((int)a->i64[0]);
    memcpy(a->out, &b, sizeof b), *a->out_len = sizeof b;
    return 0;
}

JR_MAIN({ W22_FN_TILED_T, "tiled_sgemm_t", tiled_t }, { W22_FN_TILED, "tiled_sgemm", tiled },
        { W22_FN_BLOCKS, "tiled_sgemm_blocks_per_sm", blocks })
