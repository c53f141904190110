/* judge_w07_runner.c — week 07's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's reduce.o, scan.o, hist.o, atomics.o and
 * matmul.o and the week's support objects (linked as its test program links
 * them), nothing that writes a record. Each entry calls one function of the
 * week's API on what the judge sent; judge_w07.c holds every check.
 *
 * The reductions and scans take a workspace of the size the student's own
 * reduce_tmp_bytes / scan_tmp_bytes (given code in the student's file) ask
 * for: the runner keeps one of its own, grown as needed, filled with 0xff
 * before each correctness call (the test allocates one a case) and left as
 * it is for timed calls (the test allocates one before timing). */
#include <stddef.h>
#include <cuda_runtime_api.h>

#include "atomics.h"
#include "hist.h"
#include "judge.h"
#include "judge_ws.h"
#include "judge_w07.h"
#include "matmul.h"
#include "reduce.h"
#include "scan.h"

/* The workspace for `bytes` (W07_WS_*, judge_ws.h), or NULL (none asked,
 * or no memory: then the call gets NULL and fails as it would). */
static void *workspace(size_t bytes, long long how)
{
    void *ws = how == W07_WS_NONE ? NULL : jr_workspace(bytes);
    if (ws && bytes && how == W07_WS_POISON) cudaMemset(ws, 0xff, bytes);
    return ws;
}

static int reduce(const jr_args *a)
{
    size_t n = (size_t)a->i64[0];
    void *tmp = workspace(reduce_tmp_bytes(n), a->i64[2]);
    return (int)reduce_sum((int)a->i64[1], (const float *)a->p[0], n, (float *)a->p[1], tmp);
}

static int scan(const jr_args *a)
{
    size_t n = (size_t)a->i64[0];
    void *tmp = workspace(scan_tmp_bytes(n), a->i64[2]);
    const float *x = a->p[0];
    float *y = a->p[1];
    switch (a->i64[1]) {
    case 0: return (int)scan_hs(x, y, n, tmp);
    case 1: return (int)scan_blelloch(x, y, n, tmp);
    case 2: return (int)scan_fast(x, y, n, tmp);
    }
    return -1;
}

static int hist(const jr_args *a)
{
    const unsigned char *x = a->p[0];
    unsigned int *bins = a->p[1];
    size_t n = (size_t)a->i64[0];
    switch (a->i64[1]) {
    case 0: return (int)hist_global(x, n, bins);
    case 1: return (int)hist_shared(x, n, bins);
    case 2: return (int)hist_warp(x, n, bins);
    }
    return -1;
}

static int compact(const jr_args *a)
{
    return (int)atomics_compact_warp((const unsigned int *)a->p[0], (size_t)a->i64[0], (unsigned int)a->i64[1],
                                     (unsigned int *)a->p[1], (unsigned int *)a->p[2]);
}

static int keycount(const jr_args *a)
{
    return (int)atomics_keycount_warp((const unsigned int *)a->p[0], (size_t)a->i64[0], (unsigned int)a->i64[1],
                                      (unsigned int *)a->p[1]);
}

static int matmul(const jr_args *a)
{
    const float *A = a->p[0], *B = a->p[1];
    float *C = a->p[2];
    int M = (int)a->i64[0], N = (int)a->i64[1], K = (int)a->i64[2];
    return (int)(a->i64[3] ? matmul_tiled(A, B, C, M, N, K) : matmul_naive(A, B, C, M, N, K));
}

JR_MAIN({ W07_FN_REDUCE, "reduce_sum", reduce }, { W07_FN_SCAN, "scan_hs, scan_blelloch, scan_fast", scan },
        { W07_FN_HIST, "hist_global, hist_shared, hist_warp", hist }, { W07_FN_COMPACT, "atomics_compact_warp", compact },
        { W07_FN_KEYCOUNT, "atomics_keycount_warp", keycount }, { W07_FN_MATMUL, "matmul_naive, matmul_tiled", matmul })
