/* test_week55.c — week 55 (Phase 5's optional Hopper track): the persistent
 * grid's tile schedule checked on the CPU, and a persistent, warp-specialised
 * TMA + wgmma BF16 GEMM checked against a double-precision reference and
 * timed against cublasGemmEx, with week 54's kernel printed beside it. The
 * GEMM is sm_90a code: on a GPU that is not compute capability 9.0 its
 * checkpoints are SKIP, saying why. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "ws_gemm.h"
#include "wgmma_gemm.h"      /* week 54's kernel (uses: phase5/week54), a rung of the benchmark */
#include "bf16_gemm_check.h" /* the checks and timing rows weeks 54 and 55 share */

/* ---------------------------------------------------------------- w55.schedule (CPU) */

static int cdiv(int a, int b) { return (a + b - 1) / b; }

/* The grouped order, written the other way round from ws_tile_of: walk the
 * groups, and in each the columns, and in each column the group's rows; the
 * t-th pair met is tile t. */
static void grouped_order(int tiles_m, int tiles_n, int group_m, int *tm, int *tn)
{
    int t = 0;
    for (int first = 0; first < tiles_m; first += group_m) {
        const int rows = first + group_m <= tiles_m ? group_m : tiles_m - first; /* the last group may be short */
        for (int c = 0; c < tiles_n; c++)
            for (int r = 0; r < rows; r++) tm[t] = first + r, tn[t] = c, t++;
    }
}

typedef struct { int M, N, K, bm, bn, bk, stages, group_m, grid; } sched_case;

/* Every CTA of c.grid: its tiles are cta, cta + grid, ... in that order, each
 * where the grouped order puts it, its k-iteration counter i * ktiles with
 * that counter's stage and parity; across the CTAs every tile exactly once. */
static void check_schedule(sched_case c)
{
    const int tiles_m = cdiv(c.M, c.bm), tiles_n = cdiv(c.N, c.bn), tiles = tiles_m * tiles_n;
    const long long ktiles = cdiv(c.K, c.bk);
    int *tm = wb_hmalloc((size_t)tiles * 4 + 4), *tn = wb_hmalloc((size_t)tiles * 4 + 4);
    unsigned char *seen = wb_hmalloc((size_t)tiles + 1);
    memset(seen, 0, (size_t)tiles + 1);
    grouped_order(tiles_m, tiles_n, c.group_m, tm, tn);
    const int cap = tiles / c.grid + 2;
    ws_visit *v = wb_hmalloc((size_t)cap * sizeof *v);
    char what[200];
    snprintf(what, sizeof what, "M=%d N=%d K=%d, %dx%dx%d tiles, %d stages, group_m %d, grid %d", c.M, c.N, c.K, c.bm,
             c.bn, c.bk, c.stages, c.group_m, c.grid);
    for (int cta = 0; cta < c.grid; cta++) {
        const int n = ws_schedule(c.M, c.N, c.K, c.bm, c.bn, c.bk, c.stages, c.group_m, c.grid, cta, v, cap);
        const int want = cta < tiles ? cdiv(tiles - cta, c.grid) : 0;
        if (n != want) ck_abort_msg("%s: CTA %d visits %d tiles, expected %d", what, cta, n, want);
        for (int i = 0; i < n; i++) {
            const int t = cta + i * c.grid;
            const long long it = i * ktiles;
            if (v[i].tile != t)
                ck_abort_msg("%s: CTA %d's tile %d is tile %d, expected %d (cta + i * grid)", what, cta, i, v[i].tile, t);
            if (v[i].tm != tm[t] || v[i].tn != tn[t])
                ck_abort_msg("%s: tile %d is (tm %d, tn %d), the grouped order puts it at (%d, %d)", what, t, v[i].tm,
                             v[i].tn, tm[t], tn[t]);
            if (v[i].it != it || v[i].stage != (int)(it % c.stages) || v[i].phase != (int)(it / c.stages & 1))
                ck_abort_msg("%s: CTA %d's tile %d (its %d-th) starts at k-iteration %lld, stage %d, phase %d; "
                             "expected %lld, %d, %d (the counter runs on across tiles: i * ktiles, ktiles %lld)",
                             what, cta, t, i, v[i].it, v[i].stage, v[i].phase, it, (int)(it % c.stages),
                             (int)(it / c.stages & 1), ktiles);
            if (seen[t]++) ck_abort_msg("%s: tile %d visited twice", what, t);
        }
    }
    for (int t = 0; t < tiles; t++)
        if (!seen[t]) ck_abort_msg("%s: tile %d (tm %d, tn %d) visited by no CTA", what, t, tm[t], tn[t]);
    free(tm), free(tn), free(seen), free(v);
}

static const sched_case SCHED[] = {
    /* the GEMM's own at 4096^3 on 132 SMs: 32 x 16 = 512 tiles, 64 k-tiles each */
    { 4096, 4096, 4096, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132 },
    /* fewer tiles than CTAs: the last CTAs get none (the GEMM launches min(SMs, tiles)) */
    { 300, 300, 72, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132 },
    /* one CTA walks every tile; ktiles 2, 3, 5 are no multiples of the 4 stages */
    { 1000, 1000, 72, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 1 },
    { 777, 1500, 136, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 7 },
    { 2049, 3001, 264, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 3 },
    /* the last group has fewer rows than group_m (17 row-tiles, groups of 16, 8 and 5) */
    { 2176, 999, 8, WS_BM, WS_BN, WS_BK, WS_STAGES, 16, 5 },
    { 2176, 999, 8, WS_BM, WS_BN, WS_BK, WS_STAGES, 8, 13 },
    { 2176, 999, 8, 128, 256, 64, 3, 5, 132 },
    /* other tiles and rings */
    { 1024, 768, 1000, 64, 64, 32, 5, 4, 17 },
    { 1, 1, 1, 128, 256, 64, 4, 16, 1 },
    { 5, 7, 0, 128, 256, 64, 4, 16, 2 },  /* K = 0: ktiles 0, every counter 0 */
    { 0, 100, 64, 128, 256, 64, 4, 16, 4 }, /* no tiles */
};

START_TEST(sched_cases) { check_schedule(SCHED[_i]); }
END_TEST

START_TEST(sched_random)
{
    wb_rng rng = WB_RNG();
    for (int i = 0; i < 200; i++) {
        sched_case c = { (int)wb_rng_int(&rng, 0, 5000), (int)wb_rng_int(&rng, 0, 5000), (int)wb_rng_int(&rng, 0, 3000),
                         (int)wb_rng_int(&rng, 16, 300), (int)wb_rng_int(&rng, 16, 300), (int)wb_rng_int(&rng, 8, 128),
                         (int)wb_rng_int(&rng, 1, 8), (int)wb_rng_int(&rng, 1, 20), (int)wb_rng_int(&rng, 1, 140) };
        check_schedule(c);
    }
}
END_TEST

/* Worked by hand: 256 x 512 in 128 x 256 tiles is 2 x 2 tiles, grouped
 * order (0,0) (1,0) (0,1) (1,1); K = 320 is 5 k-tiles, a ring of 4 stages.
 * CTA 0 of 2: tiles 0 and 2, starting at k-iterations 0 and 5: stage 0
 * parity 0, then stage 1 parity 1 (k-iterations 4..7 are the ring's second
 * round). CTA 1: tiles 1 and 3, the same counters. With one CTA: tiles 0-3
 * at 0, 5, 10, 15: stages 0, 1, 2, 3, parities 0, 1, 0, 1. */
START_TEST(sched_by_hand)
{
    ws_visit v[4];
    const struct { int grid, cta, n; ws_visit want[4]; } T[] = {
        { 2, 0, 2, { { 0, 0, 0, 0, 0, 0 }, { 2, 0, 1, 5, 1, 1 } } },
        { 2, 1, 2, { { 1, 1, 0, 0, 0, 0 }, { 3, 1, 1, 5, 1, 1 } } },
        { 1, 0, 4, { { 0, 0, 0, 0, 0, 0 }, { 1, 1, 0, 5, 1, 1 }, { 2, 0, 1, 10, 2, 0 }, { 3, 1, 1, 15, 3, 1 } } },
    };
    for (size_t c = 0; c < WB_COUNT(T); c++) {
        const int n = ws_schedule(256, 512, 320, 128, 256, 64, 4, 16, T[c].grid, T[c].cta, v, 4);
        ck_assert_msg(n == T[c].n, "256 x 512 x 320, grid %d, CTA %d: %d tiles, expected %d", T[c].grid, T[c].cta, n,
                      T[c].n);
        for (int i = 0; i < n; i++) {
            const ws_visit *g = &v[i], *w = &T[c].want[i];
            ck_assert_msg(g->tile == w->tile && g->tm == w->tm && g->tn == w->tn && g->it == w->it &&
                              g->stage == w->stage && g->phase == w->phase,
                          "256 x 512 x 320, grid %d, CTA %d, visit %d: tile %d (%d, %d) it %lld stage %d phase %d; "
                          "expected tile %d (%d, %d) it %lld stage %d phase %d",
                          T[c].grid, T[c].cta, i, g->tile, g->tm, g->tn, g->it, g->stage, g->phase, w->tile, w->tm,
                          w->tn, w->it, w->stage, w->phase);
        }
    }
}
END_TEST

/* The waves at 4096^3 (README): 512 tiles on 132 CTAs are 3.88 waves: CTAs
 * 0-115 compute 4 tiles, 116-131 three. Then: refusals, and a short `out`. */
START_TEST(sched_refused)
{
    for (int cta = 0; cta < 132; cta++) {
        const int n = ws_schedule(4096, 4096, 4096, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132, cta, NULL, 0);
        ck_assert_msg(n == (cta < 116 ? 4 : 3), "4096^3 on 132 CTAs: CTA %d visits %d tiles, expected %d", cta, n,
                      cta < 116 ? 4 : 3);
    }
    const ws_visit poison = { -7, -7, -7, -7, -7, -7 };
    ws_visit v[3] = { poison, poison, poison };
    const int bad[][10] = {
        { -1, 8, 8, 128, 256, 64, 4, 16, 1, 0 }, { 8, -1, 8, 128, 256, 64, 4, 16, 1, 0 },
        { 8, 8, -8, 128, 256, 64, 4, 16, 1, 0 }, { 8, 8, 8, 0, 256, 64, 4, 16, 1, 0 },
        { 8, 8, 8, 128, 0, 64, 4, 16, 1, 0 },    { 8, 8, 8, 128, 256, 0, 4, 16, 1, 0 },
        { 8, 8, 8, 128, 256, 64, 0, 16, 1, 0 },  { 8, 8, 8, 128, 256, 64, 4, 0, 1, 0 },
        { 8, 8, 8, 128, 256, 64, 4, 16, 0, 0 },  { 8, 8, 8, 128, 256, 64, 4, 16, 2, 2 },
        { 8, 8, 8, 128, 256, 64, 4, 16, 2, -1 },
    };
    for (size_t i = 0; i < WB_COUNT(bad); i++) {
        const int *b = bad[i];
        const int r = ws_schedule(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], v, 3);
        ck_assert_msg(r == -1 && v[0].tile == -7,
                      "ws_schedule(M %d, N %d, K %d, %dx%dx%d, stages %d, group_m %d, grid %d, cta %d) must "
                      "return -1 with out untouched: returned %d",
                      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], r);
    }
    ck_assert_msg(ws_schedule(8, 8, 8, 128, 256, 64, 4, 16, 1, 0, v, -1) == -1, "cap < 0 must be refused");
    ck_assert_msg(ws_schedule(8, 8, 8, 128, 256, 64, 4, 16, 1, 0, NULL, 1) == -1, "out NULL with cap 1 must be refused");
    /* 1000 x 1000 is 8 x 4 = 32 tiles; one CTA, room for 2: the count is 32, two visits filled, the third untouched */
    const int n = ws_schedule(1000, 1000, 64, 128, 256, 64, 4, 16, 1, 0, v, 2);
    ck_assert_msg(n == 32 && v[1].tile == 1 && v[2].tile == -7,
                  "1000 x 1000 on one CTA with cap 2: returned %d (expected 32), out[1].tile %d (1), out[2] must stay "
                  "untouched (tile %d)",
                  n, v[1].tile, v[2].tile);
}
END_TEST

/* ---------------------------------------------------------------- w55.gemm */

#define NEED_SM90A() wb_need_sm90a("ws_gemm (wgmma, TMA, setmaxnreg)")

/* The GEMM under test, for bf16_gemm_check.h: every check runs
 * ws_gemm_bf16_grid on the shape's grid, the refusals ws_gemm_bf16 too.
 * Tolerance: week 54's (bf16_gemm_atol there): a product of two BF16 values
 * is exact in FP32, only the FP32 accumulation errs, at most K^1.5 2^-25 on
 * inputs in [-1, 1]; a C rounded through BF16, a dropped or repeated k16
 * slice, or a stage read before it was full fails by far. */
static const bf16_gemm_api API = { "ws_gemm_bf16", ws_gemm_bf16, "ws_gemm_bf16_grid", ws_gemm_bf16_grid };

/* Two epilogues (ws_gemm.h): through shared memory and TMA stores where C is
 * 16-byte aligned and N and ldc are multiples of 4, from registers elsewhere.
 * A shape (M, N, K, pad, off, ...) takes the TMA one when K > 0, off % 4 ==
 * 0, N % 4 == 0 and pad % 4 == 0, as tma_epilogue says; both are in the
 * table, each with ragged tiles, and gemm_paths checks that it stays so. */
static int tma_epilogue(bf16_gemm_shape s)
{
    return s.K > 0 && s.off % 4 == 0 && s.N % 4 == 0 && s.pad % 4 == 0;
}

static const bf16_gemm_shape SHAPES[] = {
    { 1, 1, 8, 0, 0, 0, 0 },      { 0, 5, 8, 0, 0, 0, 0 },       { 5, 0, 8, 0, 0, 0, 0 },     { 5, 7, 0, 3, 1, 0, 0 },
    { 1, 1, 0, 0, 0, 0, 0 },      { 3, 5, 8, 1, 1, 0, 0 },       { 64, 64, 64, 0, 0, 0, 0 },  { 127, 129, 72, 0, 0, 0, 0 },
    { 128, 256, 64, 0, 0, 0, 0 }, { 129, 257, 136, 2, 0, 0, 0 }, { 255, 256, 1000, 0, 1, 0, 0 },
    { 257, 511, 64, 0, 0, 0, 0 }, { 1000, 1000, 96, 0, 3, 0, 0 }, { 64, 4096, 8, 0, 0, 0, 0 },
    { 4096, 64, 128, 0, 0, 0, 0 }, { 300, 300, 4096, 5, 0, 0, 0 },
    /* more tiles than SMs (144 and 160 on an H100's 132): some CTAs walk two tiles */
    { 2048, 2304, 64, 0, 0, 0, 0 }, { 2048, 2560, 136, 1, 2, 0, 0 },
    /* small grids: many tiles a CTA, k-tiles 2, 4, 6, 1, 5 (the ring's parity across tile boundaries) */
    { 1000, 1000, 72, 0, 0, 0, 1 }, { 1000, 1000, 200, 0, 0, 0, 3 }, { 777, 1500, 328, 3, 1, 0, 7 },
    { 513, 769, 8, 0, 0, 0, 2 },    { 640, 1280, 264, 0, 0, 0, 1 },
    /* NaN and +-Inf: a multiple of the tile, not, and on a CTA of many tiles */
    { 128, 256, 128, 0, 0, 1, 0 }, { 77, 300, 56, 3, 1, 1, 0 }, { 300, 600, 72, 0, 0, 1, 1 },
    /* odd N with ldc padded to a multiple of 4: the register epilogue (a TMA
     * store would write the row's last 16-byte unit whole, into the padding) */
    { 127, 129, 72, 3, 0, 0, 0 }, { 129, 257, 136, 3, 4, 0, 3 }, { 3, 5, 8, 3, 4, 0, 0 }, { 1, 1, 8, 3, 0, 0, 0 },
    { 77, 301, 56, 3, 4, 1, 0 },
    /* the TMA epilogue on what it clips: N a multiple of 4 but not of the
     * 32-column box, padded ldc, C 16 bytes past a 256-byte boundary, a
     * tile's rows and columns past M and N (whole 32-column boxes and a
     * consumer's 64 rows among them), N below one box */
    { 127, 132, 72, 4, 0, 0, 0 }, { 129, 260, 136, 0, 4, 0, 3 }, { 3, 4, 8, 4, 4, 0, 0 }, { 1, 4, 8, 0, 0, 0, 0 },
    { 77, 300, 56, 4, 4, 1, 0 }, { 200, 36, 64, 8, 0, 0, 1 },
    /* N = 4096 with ldc a multiple of 4 (TMA), odd (registers), and C only
     * 8-byte aligned (registers, float2 stores) */
    { 64, 4096, 8, 4, 0, 0, 0 }, { 64, 4096, 8, 1, 0, 0, 0 }, { 64, 4096, 8, 0, 2, 0, 0 },
};

/* Every element of each shape against the CPU (bf16_check_gemm). */
START_TEST(gemm_shapes)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    bf16_check_gemm(&API, &rng, SHAPES[_i]);
}
END_TEST

/* The table holds both epilogues: K > 0 shapes of each, each with a tile
 * off the edge of C (M or N not a multiple of 128 or 256) and one with C
 * not at a 256-byte boundary. No GPU needed. */
START_TEST(gemm_paths)
{
    int n[2] = { 0, 0 }, ragged[2] = { 0, 0 }, offset[2] = { 0, 0 };
    for (size_t i = 0; i < WB_COUNT(SHAPES); i++) {
        const bf16_gemm_shape s = SHAPES[i];
        if (s.M == 0 || s.N == 0 || s.K == 0) continue;
        const int p = tma_epilogue(s);
        n[p]++, ragged[p] += s.M % WS_BM || s.N % WS_BN, offset[p] += s.off != 0;
    }
    for (int p = 0; p < 2; p++)
        ck_assert_msg(n[p] >= 5 && ragged[p] >= 3 && offset[p] >= 1,
                      "SHAPES: the %s epilogue is run on %d shapes, %d of them ragged, %d with C offset; want at "
                      "least 5, 3 and 1",
                      p ? "TMA-store" : "register", n[p], ragged[p], offset[p]);
}
END_TEST

/* Fresh random shapes and grids on top of the table: half of them with C
 * as the TMA epilogue wants it (16-byte aligned, N and ldc multiples of 4). */
START_TEST(gemm_random)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    bf16_gemm_shape s = { (int)wb_rng_int(&rng, 1, 900), (int)wb_rng_int(&rng, 1, 900),
                          8 * (int)wb_rng_int(&rng, 1, 60), (int)wb_rng_int(&rng, 0, 3),
                          (int)wb_rng_int(&rng, 0, 3), 0, (int)wb_rng_int(&rng, 0, 5) };
    if (_i % 2) s.N = (s.N + 3) / 4 * 4, s.pad = 4 * (int)wb_rng_int(&rng, 0, 1), s.off = 4 * (int)wb_rng_int(&rng, 0, 1);
    bf16_check_gemm(&API, &rng, s);
}
END_TEST

/* ---- large shapes, sampled: inputs filled on the device from two seeds */

enum { SEED_A = 551, SEED_B = 552 };

/* 512 tiles (3.88 waves on 132 SMs) and 17 x 12 = 204 tiles with a K that
 * leaves a partial last k-tile; the third on 5 CTAs (41 or 40 tiles each).
 * ldc = N: N = 3001 takes the register epilogue, 4096 and 3004 the TMA one
 * (3004: the last row- and column-tiles ragged). */
static const bf16_gemm_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0, 0 },
                                         { 2049, 3001, 4104, 0, 0, 0, 0 },
                                         { 2049, 3001, 4104, 0, 0, 0, 5 },
                                         { 2049, 3004, 4104, 0, 0, 0, 0 } };

START_TEST(gemm_large)
{
    NEED_SM90A();
    bf16_seeded g = bf16_seeded_open(LARGE[_i].M, LARGE[_i].N, LARGE[_i].K, SEED_A, SEED_B);
    WB_CUDA(ws_gemm_bf16_grid(g.A, g.B, g.C, g.M, g.N, g.K, (size_t)g.N, LARGE[_i].grid));
    char who[64];
    snprintf(who, sizeof who, "ws_gemm_bf16, grid %d", LARGE[_i].grid);
    bf16_expect_seeded(&g, 4096, who);
    bf16_seeded_close(&g);
}
END_TEST

/* ---- the contract's refusals (bf16_expect_refused: ws_gemm_bf16_grid on
 * the case's grid, and ws_gemm_bf16 too where that grid is 0) */

static const bf16_refused_case REFUSED[] = {
    { 8, 8, 12, 8, 0, 0, "K = 12 is not a multiple of 8 (24-byte rows)", 0 },
    { 8, 8, 7, 8, 0, 0, "K = 7", 0 },
    { 8, 8, 8, 7, 0, 0, "ldc < N", 0 },
    { -1, 8, 8, 8, 0, 0, "M < 0", 0 },
    { 8, -8, 8, 8, 0, 0, "N < 0", 0 },
    { 8, 8, -8, 8, 0, 0, "K < 0", 0 },
    { 8, 8, 8, 8, 4, 0, "A 8 bytes past a 16-byte boundary", 0 },
    { 8, 8, 8, 8, 0, 1, "B 2 bytes past a 16-byte boundary", 0 },
    { 8, 8, 8, 8, 0, 0, "grid < 0", -1 },
};

/* On real buffers: refused, and C (poisoned) untouched. */
START_TEST(gemm_refused)
{
    NEED_SM90A();
    bf16_check_refused(&API, &REFUSED[_i]);
}
END_TEST

/* The host side of the contract, no GPU needed: refused shapes are refused
 * before any CUDA call, empty ones accepted without one. */
START_TEST(gemm_contract) { bf16_check_contract(&API, REFUSED, WB_COUNT(REFUSED)); }
END_TEST

/* ---------------------------------------------------------------- w55.gemm-speed */

/* cuBLAS, week 54's kernel, then ours on the same n^3 data in the same run;
 * cuBLAS's and week 54's rows are printed, ours returned (its yardstick:
 * cuBLAS's figure, NaN if cuBLAS's output was wrong). */
static wb_bench_row speed_rows(int n)
{
    bf16_speed_run r = bf16_speed_open("ws_gemm", n, SEED_A, SEED_B);
    wb_bench_row lib = bf16_speed_row(&r, NULL, "cuBLAS GemmEx BF16 TN", NULL, 0);
    wb_bench_emit(&lib);
    const double yard = lib.invalid ? NAN : lib.value;
    wb_bench_row w54 =
        bf16_speed_row(&r, wgmma_gemm_bf16, "week 54: one CTA a tile, 128x256, 4 stages", "cuBLAS", yard);
    wb_bench_emit(&w54);
    wb_bench_row row = bf16_speed_row(&r, ws_gemm_bf16, "persistent, warp-specialised 128x256, 4 stages (yours)",
                                      "cuBLAS", yard);
    bf16_speed_close(&r);
    return row;
}

/* The yardstick itself, on a small shape against the CPU (bf16_check_yardstick). */
START_TEST(yard_check)
{
    NEED_SM90A();
    bf16_check_yardstick(SEED_A + 7, SEED_B + 7);
}
END_TEST

/* A test, not a WB_SPEED line: off compute capability 9.0 it must be SKIP,
 * and only a test can skip. */
START_TEST(gemm_speed)
{
    NEED_SM90A();
    wb_bench_row row = speed_rows(4096);
    wb_expect_target_row("w55.gemm-speed", &row);
}
END_TEST

static const wb_test TESTS[] = {
    { "w55.schedule", WB_T(sched_by_hand), WB_CPU, 0 },
    { "w55.schedule", WB_T(sched_cases), WB_CPU, WB_COUNT(SCHED) },
    { "w55.schedule", WB_T(sched_random), WB_CPU, 4 },
    { "w55.schedule", WB_T(sched_refused), WB_CPU, 0 },
    { "w55.gemm", WB_T(gemm_contract), WB_CPU, 0 },
    { "w55.gemm", WB_T(gemm_paths), WB_CPU, 0 },
    { "w55.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w55.gemm", WB_T(gemm_random), WB_GPU, 8 },
    { "w55.gemm", WB_T(gemm_large), WB_GPU, WB_COUNT(LARGE) },
    { "w55.gemm", WB_T(gemm_refused), WB_GPU, WB_COUNT(REFUSED) },
    { "w55.gemm-speed", WB_T(yard_check), WB_GPU, 0 },
    { "w55.gemm-speed", WB_T(gemm_speed), WB_GPU, 0 },
};

/* cuBLAS, week 54's kernel and ours at 1024, 2048 and 4096, printed only (the
 * 4096 row is w55.gemm-speed's figure, judged by its test): `--bench gemm`. */
static double bench_gemm(void) { return bf16_bench_sizes("ws_gemm", speed_rows); }

static const wb_benchmark BENCHES[] = {
    { "gemm", bench_gemm },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
