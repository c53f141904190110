/* judge_w61_runner.c — week 61's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's sp24_pack.o and sp24_gemm.o and the week's
 * given support/sp24_probe.o (as in the test program), nothing that writes
 * a record. Each entry calls one function of the week's API on what the
 * judge sent (judge_w61.h); judge_w61.c holds every check. */
#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "judge_w61.h"
#include "sp24_gemm.h"
#include "sp24_pack.h"
#include "support/sp24_probe.h"

/* p[0] w, p[1] wp; i64[1] rows, i64[2] K, i64[3] W61_IN_PLACE or W61_ALL_NULL */
static int prune(const jr_args *a)
{
    const uint16_t *w = (const uint16_t *)a->p[0];
    uint16_t *wp = (uint16_t *)a->p[1];
    if (a->i64[3] == W61_IN_PLACE) wp = (uint16_t *)a->p[0];
    if (a->i64[3] == W61_ALL_NULL) w = NULL, wp = NULL;
    return (int)sp24_pack_prune(w, wp, (int)a->i64[1], (int)a->i64[2]);
}

/* p[0] wp, p[1] vals, p[2] meta; i64[1] rows, i64[2] K */
static int compress(const jr_args *a)
{
    return (int)sp24_pack_compress((const uint16_t *)a->p[0], (uint16_t *)a->p[1], (uint32_t *)a->p[2],
                                   (int)a->i64[1], (int)a->i64[2]);
}

/* p[0] vals, p[1] meta, p[2] w; i64[1] rows, i64[2] K */
static int decompress(const jr_args *a)
{
    return (int)sp24_pack_decompress((const uint16_t *)a->p[0], (const uint32_t *)a->p[1], (uint16_t *)a->p[2],
                                     (int)a->i64[1], (int)a->i64[2]);
}

/* p[0] x, p[1] vals, p[2] meta, p[3] y; i64[1..3] M N K; i64[4] W61_MADE_UP, i64[5] the unaligned one */
static int gemm(const jr_args *a)
{
    const uint16_t *x = (const uint16_t *)a->p[0], *v = (const uint16_t *)a->p[1];
    const uint32_t *m = (const uint32_t *)a->p[2];
    uint16_t *y = (uint16_t *)a->p[3];
    if (a->i64[4] == W61_MADE_UP) {
        const long long u = a->i64[5];
        x = (const uint16_t *)(uintptr_t)W61_FAKE + (u == 1 ? 4 : 0);
        v = (const uint16_t *)(uintptr_t)(W61_FAKE + 4096) + (u == 2 ? 4 : 0);
        m = (const uint32_t *)(uintptr_t)(W61_FAKE + 8192) + (u == 3 ? 2 : 0);
        y = (uint16_t *)(uintptr_t)(W61_FAKE + 12288) + (u == 4 ? 1 : 0);
    }
    return (int)sp24_gemm(x, v, m, y, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3]);
}

/* p[0] a, p[1] b, p[2] e, p[3] d; i64[1] the selector (the week's given probe) */
static int probe(const jr_args *a)
{
    return (int)sp24_probe_one((const uint32_t *)a->p[0], (const uint32_t *)a->p[1], (const uint32_t *)a->p[2],
                               (int)a->i64[1], (float *)a->p[3]);
}

/* p[0] x | vals | meta, p[1] y; i64[1..3] M N K */
static int timed(const jr_args *a)
{
    const long long M = a->i64[1], N = a->i64[2], K = a->i64[3];
    const uint8_t *in = (const uint8_t *)a->p[0];
    return (int)sp24_gemm((const uint16_t *)in, (const uint16_t *)(in + W61_V_AT(M, K)),
                          (const uint32_t *)(in + W61_E_AT(M, N, K)), (uint16_t *)a->p[1], (int)M, (int)N, (int)K);
}

JR_MAIN({ W61_FN_PRUNE, "sp24_pack_prune", prune }, { W61_FN_COMPRESS, "sp24_pack_compress", compress },
        { W61_FN_DECOMPRESS, "sp24_pack_decompress", decompress }, { W61_FN_GEMM, "sp24_gemm", gemm },
        { W61_FN_PROBE, "sp24_probe_one", probe }, { W61_FN_TIMED, "sp24_gemm", timed })
