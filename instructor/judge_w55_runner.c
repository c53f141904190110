/* judge_w55_runner.c — week 55's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's ws_gemm.o, nothing that writes a
 * record. Its entries call ws_gemm_bf16 and ws_gemm_bf16_grid on what the
 * judge sent (judge_bf16gemm.h: p[0] A, p[1] B, p[2] C, i64[1..5] M, N,
 * K, ldc, grid) and ws_schedule on the judge's scalars into the judge's
 * host buffer (judge_w55.h); the judge holds every check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JUDGE_BF16GEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w55.h"
#include "ws_gemm.h"

static int gemm(const jr_args *a)
{
    return (int)ws_gemm_bf16((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2], (int)a->i64[1],
                             (int)a->i64[2], (int)a->i64[3], (size_t)a->i64[4]);
}

static int gemm_grid(const jr_args *a)
{
    return (int)ws_gemm_bf16_grid((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2],
                                  (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (size_t)a->i64[4], (int)a->i64[5]);
}

static int sched(const jr_args *a)
{
    const long long *v = a->i64;
    int32_t r = ws_schedule(w55_lo(v[0]), w55_hi(v[0]), w55_lo(v[1]), w55_hi(v[1]), w55_lo(v[2]), w55_hi(v[2]),
                            w55_lo(v[3]), w55_hi(v[3]), w55_lo(v[4]), w55_hi(v[4]), (ws_visit *)a->p[0], (int)v[5]);
    memcpy(a->out, &r, sizeof r);
    *a->out_len = sizeof r;
    return 0;
}

JR_MAIN({ BG_FN_GEMM, "ws_gemm_bf16", gemm }, { BG_FN_GRID, "ws_gemm_bf16_grid", gemm_grid },
        { W55_FN_SCHED, "ws_schedule", sched })
