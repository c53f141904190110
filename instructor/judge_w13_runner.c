/* judge_w13_runner.c — week 13's runner (instructor/judge.h): this main,
 * judge_runner.c, the student's objects of the week and its given support
 * objects (linked as its test program links them), nothing that writes a
 * record. Each entry calls one function of the week's API on what the judge
 * sent; judge_w13.c holds every check.
 *
 * scan1pass takes a workspace of the size the student's own
 * scan1pass_tmp_bytes (given code in the student's file) asks for: the
 * runner keeps one of its own, grown as needed, filled with 0xff before a
 * case's first call (the test poisons one a case) and left as it is for the
 * case's second call and for timed calls (the test allocates one before
 * timing). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "blockreduce.h"
#include "cgreduce.h"
#include "gemv.h"
#include "judge.h"
#include "judge_ws.h"
#include "judge_w13.h"
#include "scan1pass.h"
#include "vote.h"
#include "warpreduce.h"
#include "warpscan.h"

/* The workspace for `bytes` (W13_WS_*, judge_ws.h), or NULL (none asked,
 * or no memory: then the call gets NULL and fails as it would). */
static void *workspace(size_t bytes, long long how)
{
    void *ws = how == W13_WS_NONE ? NULL : jr_workspace(bytes);
    if (ws && bytes && how == W13_WS_POISON && cudaMemset(ws, 0xff, bytes) != cudaSuccess) return NULL;
    return ws;
}

static int scan1(const jr_args *a)
{
    size_t n = (size_t)a->i64[0];
    void *tmp = a->i64[2] == W13_WS_NONE ? NULL : workspace(scan1pass_tmp_bytes(n), a->i64[2]);
    return (int)scan1pass((const int32_t *)a->p[0], (int32_t *)a->p[1], n, tmp, (unsigned)a->i64[1]);
}

static int rowsum(const jr_args *a)
{
    return (int)br_rowsum((const float *)a->p[0], (size_t)a->i64[2], (size_t)a->i64[1], (float *)a->p[1]);
}

static int sum(const jr_args *a) { return (int)br_sum((const float *)a->p[0], (size_t)a->i64[1], (float *)a->p[1]); }

static int gemv(const jr_args *a)
{
    return (int)gv_gemv((const float *)a->p[0], (const float *)a->p[1], (float *)a->p[2], (size_t)a->i64[2],
                        (size_t)a->i64[1]);
}

static int masks(const jr_args *a)
{
    unsigned m[65];
    for (unsigned v = 0; v <= 32; v++) m[v] = wr_tail_mask(v);
    for (unsigned l = 0; l < 32; l++) m[33 + l] = vt_lanes_below(l);
    memcpy(a->out, m, sizeof m), *a->out_len = sizeof m;
    return 0;
}

static int wreduce(const jr_args *a)
{
    return (int)wr_warp_reduce((int)a->i64[1], (const float *)a->p[0], (size_t)a->i64[2], (float *)a->p[1]);
}

static int wscan(const jr_args *a)
{
    return (int)warpscan_prefix_sum((const float *)a->p[0], (size_t)a->i64[0], (float *)a->p[1], (int)a->i64[1]);
}

static int cg_tile(const jr_args *a)
{
    return (int)cgr_tile_reduce((int)a->i64[1], (unsigned)a->i64[3], (const float *)a->p[0], (size_t)a->i64[2],
                                (float *)a->p[1]);
}

static int cg_sum(const jr_args *a) { return (int)cgr_sum((const float *)a->p[0], (size_t)a->i64[1], (float *)a->p[1]); }

static int redux(const jr_args *a)
{
    return (int)cgr_warp_u32((int)a->i64[1], (const uint32_t *)a->p[0], (size_t)a->i64[2], (uint32_t *)a->p[1]);
}

static int votes(const jr_args *a)
{
    return (int)vt_warp_votes((const float *)a->p[0], (size_t)a->i64[2], (float)a->f64[0], (unsigned *)a->p[1],
                              (unsigned *)a->p[2]);
}

static int compact(const jr_args *a)
{
    return (int)vt_compact((const float *)a->p[0], (size_t)a->i64[2], (float)a->f64[0], (float *)a->p[1],
                           (unsigned long long *)a->p[2]);
}

JR_MAIN({ W13_FN_SCAN1, "scan1pass", scan1 }, { W13_FN_ROWSUM, "br_rowsum", rowsum }, { W13_FN_SUM, "br_sum", sum },
        { W13_FN_GEMV, "gv_gemv", gemv }, { W13_FN_MASKS, "wr_tail_mask, vt_lanes_below", masks },
        { W13_FN_WREDUCE, "wr_warp_reduce", wreduce }, { W13_FN_WSCAN, "warpscan_prefix_sum", wscan },
        { W13_FN_CG_TILE, "cgr_tile_reduce", cg_tile }, { W13_FN_CG_SUM, "cgr_sum", cg_sum },
        { W13_FN_REDUX, "cgr_warp_u32", redux }, { W13_FN_VOTES, "vt_warp_votes", votes },
        { W13_FN_COMPACT, "vt_compact", compact })
