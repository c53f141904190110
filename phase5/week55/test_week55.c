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

#include "wb_test.h"
#include "ws_gemm.h"
#include "wgmma_gemm.h"   /* week 54's kernel (uses: phase5/week54), a rung of the benchmark */
#include "gemm_support.h" /* fill_bf16_uniform */
#include "bf16_host.h"    /* f32_to_bf16, bf16_to_f32, bf16_gemm_cublas_tn */

/* ---------------------------------------------------------------- w55.schedule (CPU) */

static int cdiv(int a, int b) { return (a + b - 1) / b; }

/* The grouped order, written the other way round from ws_tile_of: walk the
 * groups, and in each the columns, and in each column the group's rows; the
 * t-th pair met is tile t. */
static void grouped_order(int tiles_m, int tiles_n, int group_m, int *tm, int *tn)
{
    int t = 0;
    for (int first = 0; first < tiles_m; first += group_m) {
        const int rows = tiles_m - first < group_m ? tiles_m - first : group_m;
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

/* Tolerance: week 54's (its README): a product of two BF16 values is exact in
 * FP32, only the FP32 accumulation errs, at most K^1.5 2^-25 on inputs in
 * [-1, 1]; a C rounded through BF16, a dropped or repeated k16 slice, or a
 * stage read before it was full fails by far. */
static double gemm_atol(int K) { return 1e-6 + pow((double)K, 1.5) * ldexp(1.0, -25); }
#define GEMM_RTOL 1.5e-5

typedef struct {
    int M, N, K;
    int pad;     /* ldc = N + pad */
    int off;     /* C starts `off` floats past a 256-byte boundary (odd: 4-byte aligned only) */
    int special; /* 1: a NaN in A, +Inf and -Inf in B */
    int grid;    /* CTAs (0: one per SM) */
} gemm_shape;

static const gemm_shape SHAPES[] = {
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
};

/* One case: A (M x K) and B (N x K) uniform in [-1, 1] rounded to BF16 (and
 * the non-finite values `special` plants), C = A B^T in double on the CPU,
 * run into a poisoned C of M rows of ldc floats with guard bands; every
 * element compared, every padding float still the poison, the guards
 * untouched. */
static void check_gemm(wb_rng *rng, gemm_shape s)
{
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, ldc = N + (size_t)s.pad;
    const size_t na = M * K, nb = N * K, nc = M * ldc;
    float *fa = wb_hmalloc((na + 1) * 4), *fb = wb_hmalloc((nb + 1) * 4);
    uint16_t *ha = wb_hmalloc((na + 1) * 2), *hb = wb_hmalloc((nb + 1) * 2);
    wb_fill_uniform_f32(rng, fa, na, -1, 1);
    wb_fill_uniform_f32(rng, fb, nb, -1, 1);
    if (s.special && na && nb) {
        fa[wb_rng_int(rng, 0, (int64_t)na - 1)] = NAN;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = INFINITY;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = -INFINITY;
    }
    for (size_t i = 0; i < na; i++) ha[i] = f32_to_bf16(fa[i]), fa[i] = bf16_to_f32(ha[i]);
    for (size_t i = 0; i < nb; i++) hb[i] = f32_to_bf16(fb[i]), fb[i] = bf16_to_f32(hb[i]);
    double *ref = wb_hmalloc((M * N + 1) * 8);
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            const float *a = fa + i * K, *b = fb + j * K;
            double acc = 0;
            for (size_t k = 0; k < K; k++) acc += (double)a[k] * b[k];
            ref[i * N + j] = acc;
        }
    uint16_t *dA = wb_dcopy(ha, na * 2), *dB = wb_dcopy(hb, nb * 2);
    wb_dout o;
    float *dC = wb_dout_alloc(&o, "C", nc * 4, (size_t)s.off * 4);
    char what[200];
    snprintf(what, sizeof what, "M=%d N=%d K=%d ldc=%zu, grid %d%s%s%s", s.M, s.N, s.K, ldc, s.grid,
             s.grid ? "" : " (one CTA per SM)", s.off % 2 ? " (C 4-byte aligned)" : s.off ? " (C 8-byte aligned)" : "",
             s.special ? " with NaN, +Inf and -Inf inputs" : "");
    cudaError_t e = ws_gemm_bf16_grid(dA, dB, dC, s.M, s.N, s.K, ldc, s.grid);
    ck_assert_msg(e == cudaSuccess, "%s: ws_gemm_bf16_grid returned %s", what, cudaGetErrorName(e));
    float *h = wb_hmalloc(nc * 4 + 4), *got = wb_hmalloc((M * N + 1) * 4);
    wb_expect_dout_guards(&o, h, what);
    for (size_t i = 0; i < M; i++) {
        memcpy(got + i * N, h + i * ldc, N * 4);
        for (size_t j = N; j < ldc; j++) {
            uint32_t bits;
            memcpy(&bits, h + i * ldc + j, 4);
            if (bits != 0xFFFFFFFFu)
                ck_abort_msg("%s: C[%zu * ldc + %zu] is row padding (column %zu >= N) and was written (0x%08x)", what,
                             i, j, j, bits);
        }
    }
    wb_cmp cmp;
    wb_compare_f32_f64("C", got, ref, M * N, gemm_atol(s.K), GEMM_RTOL, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wb_dout_free(&o);
    wb_dfree(dA), wb_dfree(dB);
    free(fa), free(fb), free(ha), free(hb), free(ref), free(h), free(got);
}

START_TEST(gemm_shapes)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    check_gemm(&rng, SHAPES[_i]);
}
END_TEST

/* Fresh random shapes and grids on top of the table. */
START_TEST(gemm_random)
{
    NEED_SM90A();
    wb_rng rng = WB_RNG();
    gemm_shape s = { (int)wb_rng_int(&rng, 1, 900), (int)wb_rng_int(&rng, 1, 900), 8 * (int)wb_rng_int(&rng, 1, 60),
                     (int)wb_rng_int(&rng, 0, 3),   (int)wb_rng_int(&rng, 0, 3),   0,
                     (int)wb_rng_int(&rng, 0, 5) };
    check_gemm(&rng, s);
}
END_TEST

/* ---- large shapes, sampled: inputs filled on the device from two seeds */

typedef struct {
    uint16_t *A, *B;
    float *C;
    int M, N, K;
    unsigned long long sa, sb;
} seeded;

enum { SEED_A = 551, SEED_B = 552 };

static seeded seeded_open(int M, int N, int K, unsigned long long sa, unsigned long long sb)
{
    seeded g = { wb_dmalloc((size_t)M * K * 2), wb_dmalloc((size_t)N * K * 2), wb_dmalloc((size_t)M * N * 4),
                 M, N, K, sa, sb };
    WB_CUDA(fill_bf16_uniform(g.A, (size_t)M * K, sa, -1, 1));
    WB_CUDA(fill_bf16_uniform(g.B, (size_t)N * K, sb, -1, 1));
    wb_dpoison(g.C, (size_t)M * N * 4);
    return g;
}

static void seeded_close(seeded *g) { wb_dfree(g->A), wb_dfree(g->B), wb_dfree(g->C); }

/* Element i of a filled matrix as the device holds it: the hash, rounded to BF16. */
static double bf16_at(unsigned long long seed, size_t i)
{
    return bf16_to_f32(f32_to_bf16(wb_hash_uniform_f32(seed, i, -1, 1)));
}

/* Element i of A B^T over the replayed BF16 values, in double. */
static double seeded_expect(size_t i, const void *p)
{
    const seeded *g = p;
    const size_t K = (size_t)g->K, a = i / (size_t)g->N * K, b = i % (size_t)g->N * K;
    double s = 0;
    for (size_t k = 0; k < K; k++) s += bf16_at(g->sa, a + k) * bf16_at(g->sb, b + k);
    return s;
}

static size_t seeded_verify(const seeded *g, size_t samples, wb_cmp *cmp)
{
    return wb_dverify_f32("C", g->C, (size_t)g->M * g->N, seeded_expect, g, samples, gemm_atol(g->K), GEMM_RTOL, cmp);
}

/* Wait for g's C, then check `samples` random elements of it (and its first
 * and last 64) against the replayed product; fail the test naming `who`. */
static void expect_seeded(const seeded *g, size_t samples, const char *who)
{
    wb_sync();
    wb_cmp cmp;
    seeded_verify(g, samples, &cmp);
    char what[160];
    snprintf(what, sizeof what, "%s, M=%d N=%d K=%d (%zu sampled elements)", who, g->M, g->N, g->K, samples);
    WB_EXPECT_CMP(cmp, what);
}

/* 512 tiles (3.88 waves on 132 SMs) and 17 x 12 = 204 tiles with a K that
 * leaves a partial last k-tile; the third on 5 CTAs (41 or 40 tiles each). */
static const gemm_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0, 0 },
                                    { 2049, 3001, 4104, 0, 0, 0, 0 },
                                    { 2049, 3001, 4104, 0, 0, 0, 5 } };

START_TEST(gemm_large)
{
    NEED_SM90A();
    seeded g = seeded_open(LARGE[_i].M, LARGE[_i].N, LARGE[_i].K, SEED_A, SEED_B);
    WB_CUDA(ws_gemm_bf16_grid(g.A, g.B, g.C, g.M, g.N, g.K, (size_t)g.N, LARGE[_i].grid));
    char who[64];
    snprintf(who, sizeof who, "ws_gemm_bf16, grid %d", LARGE[_i].grid);
    expect_seeded(&g, 4096, who);
    seeded_close(&g);
}
END_TEST

/* ---- the contract's refusals */

typedef struct {
    int M, N, K;
    size_t ldc;
    int a_off, b_off; /* in halves past a 256-byte boundary */
    int grid;
    const char *why;
} refused_case;

static const refused_case REFUSED[] = {
    { 8, 8, 12, 8, 0, 0, 0, "K = 12 is not a multiple of 8 (24-byte rows)" },
    { 8, 8, 7, 8, 0, 0, 0, "K = 7" },
    { 8, 8, 8, 7, 0, 0, 0, "ldc < N" },
    { -1, 8, 8, 8, 0, 0, 0, "M < 0" },
    { 8, -8, 8, 8, 0, 0, 0, "N < 0" },
    { 8, 8, -8, 8, 0, 0, 0, "K < 0" },
    { 8, 8, 8, 8, 4, 0, 0, "A 8 bytes past a 16-byte boundary" },
    { 8, 8, 8, 8, 0, 1, 0, "B 2 bytes past a 16-byte boundary" },
    { 8, 8, 8, 8, 0, 0, -1, "grid < 0" },
};

/* Case c on these pointers (A and B offset as the case says): refused with
 * cudaErrorInvalidValue. A case with grid 0 goes through ws_gemm_bf16 too. */
static void expect_refused(const refused_case *c, const uint16_t *A, const uint16_t *B, float *C)
{
    cudaError_t e = ws_gemm_bf16_grid(A + c->a_off, B + c->b_off, C, c->M, c->N, c->K, c->ldc, c->grid);
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: ws_gemm_bf16_grid must refuse it with cudaErrorInvalidValue, got %s",
                  c->why, cudaGetErrorName(e));
    if (c->grid) return;
    e = ws_gemm_bf16(A + c->a_off, B + c->b_off, C, c->M, c->N, c->K, c->ldc);
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: ws_gemm_bf16 must refuse it with cudaErrorInvalidValue, got %s",
                  c->why, cudaGetErrorName(e));
}

/* On real buffers: refused, and C (poisoned) untouched. */
START_TEST(gemm_refused)
{
    NEED_SM90A();
    uint16_t *A = wb_dmalloc(4096), *B = wb_dmalloc(4096);
    wb_dout o;
    const size_t nc = 256;
    uint32_t *poison = wb_hmalloc(nc * 4);
    memset(poison, 0xFF, nc * 4);
    expect_refused(&REFUSED[_i], A, B, wb_dout_alloc(&o, "C", nc * 4, 0));
    wb_expect_dout_u32(&o, poison, nc, REFUSED[_i].why);
    free(poison);
    wb_dout_free(&o), wb_dfree(A), wb_dfree(B);
}
END_TEST

/* The host side of the contract, no GPU needed: refused shapes are refused
 * before any CUDA call (the pointers, never dereferenced, are made up),
 * empty ones accepted without one (NULL pointers). */
START_TEST(gemm_contract)
{
    const uintptr_t P = 0x7f0000000000ull;
    for (size_t i = 0; i < WB_COUNT(REFUSED); i++)
        expect_refused(&REFUSED[i], (const uint16_t *)P, (const uint16_t *)(P + 65536), (float *)(P + 131072));
    const int E[][4] = { { 0, 8, 8, 0 }, { 8, 0, 8, 0 }, { 0, 0, 0, 0 }, { 0, 5, 16, 3 } };
    for (size_t i = 0; i < WB_COUNT(E); i++) {
        cudaError_t e = ws_gemm_bf16_grid(NULL, NULL, NULL, E[i][0], E[i][1], E[i][2], 8, E[i][3]);
        ck_assert_msg(e == cudaSuccess, "M=%d N=%d K=%d grid %d with NULL pointers: an empty C is cudaSuccess, got %s",
                      E[i][0], E[i][1], E[i][2], E[i][3], cudaGetErrorName(e));
    }
}
END_TEST

/* ---------------------------------------------------------------- w55.gemm-speed */

typedef cudaError_t (*bf16_gemm_fn)(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc);

typedef struct {
    seeded g;
    cublasHandle_t h;
    bf16_gemm_fn fn; /* NULL: the work is cuBLAS's call */
} speed_run;

static void speed_work(void *p)
{
    speed_run *r = p;
    if (!r->fn) {
        cublasStatus_t s = bf16_gemm_cublas_tn(r->h, r->g.M, r->g.N, r->g.K, r->g.A, r->g.B, r->g.C, r->g.N);
        ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(s));
    } else {
        WB_CUDA(r->fn(r->g.A, r->g.B, r->g.C, r->g.M, r->g.N, r->g.K, (size_t)r->g.N));
    }
}

/* Fresh inputs for wb_time's spot check: new seeds, a poisoned C. */
static void speed_fresh(void *p, unsigned long long salt)
{
    speed_run *r = p;
    r->g.sa = SEED_A + 1000 * salt, r->g.sb = SEED_B + 1000 * salt;
    WB_CUDA(fill_bf16_uniform(r->g.A, (size_t)r->g.M * r->g.K, r->g.sa, -1, 1));
    WB_CUDA(fill_bf16_uniform(r->g.B, (size_t)r->g.N * r->g.K, r->g.sb, -1, 1));
    wb_dpoison(r->g.C, (size_t)r->g.M * r->g.N * 4);
}

static int speed_check(void *p, char *why, size_t size)
{
    speed_run *r = p;
    wb_cmp cmp;
    if (!seeded_verify(&r->g, 256, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* One row at n^3 of fn (NULL: cuBLAS, yard_name NULL) against `yard`
 * TFLOP/s, the timed output checked on 1024 sampled elements, with
 * wb_time's spot check on fresh inputs. Not printed. */
static wb_bench_row speed_row(speed_run *r, bf16_gemm_fn fn, const char *variant, const char *yard_name, double yard)
{
    const double n = r->g.M;
    wb_bench_row row = { .exercise = "ws_gemm", .variant = variant, .n = (size_t)r->g.M,
                         .bytes = 2.0 * 2.0 * n * n + 4.0 * n * n, .flops = 2.0 * n * n * n, .unit = "TFLOP/s",
                         .yard_name = yard_name, .yard = yard };
    r->fn = fn;
    speed_fresh(r, 0);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = speed_fresh, o.check = speed_check;
    wb_time(speed_work, r, &o, &row.t);
    row.value = row.flops / (row.t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    if (seeded_verify(&r->g, 1024, &cmp)) wb_bench_invalid(&row, cmp.msg);
    return row;
}

/* cuBLAS, week 54's kernel, then ours on the same n^3 data in the same run;
 * cuBLAS's and week 54's rows are printed, ours returned (its yardstick:
 * cuBLAS's figure, NaN if cuBLAS's output was wrong). */
static wb_bench_row speed_rows(int n)
{
    speed_run r = { seeded_open(n, n, n, SEED_A, SEED_B), NULL, NULL };
    ck_assert_msg(cublasCreate(&r.h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    wb_bench_row lib = speed_row(&r, NULL, "cuBLAS GemmEx BF16 TN", NULL, 0);
    wb_bench_emit(&lib);
    const double yard = lib.invalid ? NAN : lib.value;
    wb_bench_row w54 = speed_row(&r, wgmma_gemm_bf16, "week 54: one CTA a tile, 128x256, 4 stages", "cuBLAS", yard);
    wb_bench_emit(&w54);
    wb_bench_row row = speed_row(&r, ws_gemm_bf16, "persistent, warp-specialised 128x256, 4 stages (yours)", "cuBLAS",
                                 yard);
    cublasDestroy(r.h);
    seeded_close(&r.g);
    return row;
}

/* The yardstick itself, on a small shape against the CPU: cuBLAS's TN call
 * must compute the same C = A B^T (M != N: a swapped operand fails). */
START_TEST(yard_check)
{
    NEED_SM90A();
    seeded g = seeded_open(200, 300, 72, SEED_A + 7, SEED_B + 7);
    cublasHandle_t h;
    ck_assert_msg(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    cublasStatus_t st = bf16_gemm_cublas_tn(h, g.M, g.N, g.K, g.A, g.B, g.C, g.N);
    ck_assert_msg(st == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(st));
    expect_seeded(&g, 60000, "the yardstick (cublasGemmEx, TN)");
    cublasDestroy(h);
    seeded_close(&g);
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
    { "w55.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w55.gemm", WB_T(gemm_random), WB_GPU, 8 },
    { "w55.gemm", WB_T(gemm_large), WB_GPU, WB_COUNT(LARGE) },
    { "w55.gemm", WB_T(gemm_refused), WB_GPU, WB_COUNT(REFUSED) },
    { "w55.gemm-speed", WB_T(yard_check), WB_GPU, 0 },
    { "w55.gemm-speed", WB_T(gemm_speed), WB_GPU, 0 },
};

/* cuBLAS, week 54's kernel and ours at 1024, 2048 and 4096, printed only (the
 * 4096 row is w55.gemm-speed's figure, judged by its test): `--bench gemm`. */
static double bench_gemm(void)
{
    if (!wb_device_is_cc(9, 0)) {
        printf("ws_gemm: skipped, sm_90a code needs a compute capability 9.0 GPU (this one is %d.%d)\n",
               wb_this_device()->cc_major, wb_this_device()->cc_minor);
        return NAN;
    }
    static const int SIZES[] = { 1024, 2048, 4096 };
    double ratio = NAN;
    for (size_t i = 0; i < WB_COUNT(SIZES); i++) {
        wb_bench_row row = speed_rows(SIZES[i]);
        wb_bench_emit(&row);
        ratio = wb_bench_ratio(&row);
    }
    return ratio;
}

static const wb_benchmark BENCHES[] = {
    { "gemm", bench_gemm },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
