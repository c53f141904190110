/* judge_w54_runner.c — week 54's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's wgmma_desc.o and wgmma_gemm.o, nothing
 * that writes a record. Its entries call wgmma_gemm_bf16 on what the judge
 * sent (judge_bf16gemm.h: p[0] A, p[1] B, p[2] C, i64[1..4] M, N, K, ldc)
 * and the descriptor functions on the judge's scalars (judge_w54.h); the
 * judge holds every check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JUDGE_BF16GEMM_RUNNER_ONLY
#include "judge.h"
#include "judge_w54.h"
#include "wgmma_desc.h"
#include "wgmma_gemm.h"

static int gemm(const jr_args *a)
{
    return (int)wgmma_gemm_bf16((const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (float *)a->p[2],
                                (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (size_t)a->i64[4]);
}

static int desc(const jr_args *a)
{
    w54_desc_out o = { 0, 0, (uint64_t)a->i64[6] };
    uint64_t *out = a->i64[7] ? NULL : &o.desc;
    switch (a->i64[0]) {
    case W54_DESC_MAKE:
        o.ret = wgmma_desc_make((uint32_t)a->i64[1], (uint32_t)a->i64[2], (uint32_t)a->i64[3], (unsigned)a->i64[4],
                                (int)a->i64[5], out);
        break;
    case W54_DESC_ADVANCE: o.ret = wgmma_desc_advance((uint64_t)a->i64[1], (uint32_t)a->i64[2], out); break;
    case W54_DESC_SW128: o.ret = wgmma_desc_bf16_sw128((uint32_t)a->i64[1], (unsigned)a->i64[2], out); break;
    default: return -1;
    }
    memcpy(a->out, &o, sizeof o);
    *a->out_len = sizeof o;
    return 0;
}

JR_MAIN({ BG_FN_GEMM, "wgmma_gemm_bf16", gemm }, { W54_FN_DESC, "wgmma_desc", desc })
