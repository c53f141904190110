/* judge_w55.c — build/instructor/judge-w55: week 55's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's ws_gemm.o is linked into the runner (judge_w55_runner.c), which
 * this process starts (or is handed) and asks to call it on scalars and
 * buffers it allocated (judge.h). The command line, the runner's start and
 * the record are judge_week.c's:
 *
 *   judge-w55 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * Staged: written and tested without a GPU, not yet used by the grader.
 * The cases are test_week55.c's, copied here (the test keeps its tables to
 * itself); the GEMM's checks and timing are judge_bf16gemm.c's, shared with
 * week 54's judge, with the test's tolerance and types from its own
 * phase5/common/bf16_gemm_check.h:
 *   w55.schedule    (CPU, also judged without a GPU) the test's four cases:
 *                   sched_by_hand's three worked visits lists,
 *                   sched_cases' 12 problems and sched_random's 4 x 200
 *                   fresh ones (from the hidden seed), every CTA of each
 *                   grid asked for its visits: its count, its tiles in
 *                   stride order where the grouped order (the judge's own,
 *                   written the other way round, as the test's) puts them,
 *                   each k-iteration counter with its stage and parity,
 *                   every tile exactly once across the CTAs; and
 *                   sched_refused's waves at 4096^3 on 132 CTAs, its 11 bad
 *                   argument lists (-1, the output untouched), cap < 0, a
 *                   NULL output with room asked for, and a short output
 *                   (the count, and nothing written past the room). The
 *                   runner calls ws_schedule on the judge's scalars into a
 *                   host buffer the judge poisoned and reads back itself;
 *   w55.gemm        the 41 shapes (both epilogues, grids of 0, 1, 2, 3 and
 *                   7 CTAs, NaN/+-Inf, padded ldc, C off its boundary) and
 *                   8 random shapes drawn as the test draws them from the
 *                   hidden seed (the odd ones as the TMA epilogue wants C),
 *                   each through ws_gemm_bf16_grid on its grid, every
 *                   element within bf16_gemm_atol(K) + 1.5e-5 |ref| of the
 *                   product in double, padding and guard bands untouched;
 *                   the 4 large shapes (4096^3, 2049 x 3001 x 4104 on the
 *                   default grid and on 5 CTAs, 2049 x 3004 x 4104) on
 *                   inputs from the hidden seed, every element against
 *                   cuBLAS's DGEMM (the test samples 4096); the 9 refusals
 *                   on real buffers through ws_gemm_bf16_grid and, where
 *                   their grid is 0, ws_gemm_bf16 (cudaErrorInvalidValue, C
 *                   untouched), the 4 empty shapes on NULL pointers
 *                   (cudaSuccess). Without a GPU, the refusals and the empty
 *                   shapes on host buffers through a runner that opens none
 *                   (the test's CPU gemm_contract: only its FAIL stands).
 *                   The test's CPU case gemm_paths checks its own table
 *                   (both epilogues present), no student code: nothing to
 *                   judge;
 *   w55.gemm-speed  ws_gemm_bf16 at 4096^3 through the timed-call protocol
 *                   (up to 64 calls a request, fresh A and B, a poisoned C,
 *                   every timed C checked in full; the median of 7
 *                   requests), against cublasGemmEx BF16 TN timed by the
 *                   judge through judge-w54-yard-runner (week 54's,
 *                   instructor code, no student object) on the same
 *                   protocol and checks, before the student's runner
 *                   starts and after, the faster kept; TFLOP/s, >= 0.90
 *                   cuBLAS. The test's week 54 row is printed only (no
 *                   target): not judged.
 * The GPU checkpoints SKIP on a GPU that is not compute capability 9.0,
 * with the test's reason. Every checkpoint of week 55 is judged: none is
 * left to the linked test. Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL; without a GPU
 * w55.schedule is judged and the others SKIP (instructor/tests/judge_w55.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_w55.h"
#include "wb_rand.h"
#include "ws_gemm.h" /* ws_visit and the GEMM's tile sizes: the header only */

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---------------------------------------------------------------- w55.schedule */

enum { VISIT_CAP = 100002 }; /* the most visits a case asks room for: sched_random's 313^2 tiles on one CTA, + 2 */

typedef struct { int M, N, K, bm, bn, bk, stages, group_m, grid; } sched_case;

/* The runner's output: a host buffer of the judge's, VISIT_CAP visits. */
typedef struct {
    int       id;
    ws_visit *v;
} visits;

static const ws_visit POISON = { -7, -7, -7, -7, -7, -7 };

static void poison(visits *o, int n)
{
    for (int i = 0; i < n && i < VISIT_CAP; i++) o->v[i] = POISON;
}

/* ws_schedule(c, cta, out, cap) through the runner (out NULL when null_out):
 * 0 and *ret, or -1 (t says why). */
static int sched_call(jd *J, visits *o, const int a[10], int cap, int null_out, int *ret, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W55_FN_SCHED, 1, 1);
    rq.arg_buf[0][0] = null_out ? -1 : o->id;
    for (int k = 0; k < 5; k++) rq.i64[k] = w55_pack(a[2 * k], a[2 * k + 1]);
    rq.i64[5] = cap;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "ws_schedule: %s", J->why), -1;
    int32_t r;
    if (rp.status != 0 || rp.out_len != sizeof r)
        return jd_failf(t, "ws_schedule: no answer from the runner (%s)", rp.text), -1;
    memcpy(&r, rp.out, sizeof r);
    *ret = r;
    return 0;
}

static int cdiv(int a, int b) { return (a + b - 1) / b; }

/* The grouped order, the other way round from the function's (the test's
 * grouped_order): the t-th (row, column) pair met is tile t. */
static void grouped_order(int tiles_m, int tiles_n, int group_m, int *tm, int *tn)
{
    int t = 0;
    for (int first = 0; first < tiles_m; first += group_m) {
        const int rows = first + group_m <= tiles_m ? group_m : tiles_m - first;
        for (int c = 0; c < tiles_n; c++)
            for (int r = 0; r < rows; r++) tm[t] = first + r, tn[t] = c, t++;
    }
}

/* The test's check_schedule: every CTA of c.grid. 0 right, 1 wrong, -1 lost. */
static int check_schedule(jd *J, visits *o, sched_case c, jd_tally *t)
{
    const int tiles_m = cdiv(c.M, c.bm), tiles_n = cdiv(c.N, c.bn), tiles = tiles_m * tiles_n;
    const long long ktiles = cdiv(c.K, c.bk);
    const int cap = tiles / c.grid + 2;
    int *tm = malloc((size_t)tiles * 4 + 4), *tn = malloc((size_t)tiles * 4 + 4);
    unsigned char *seen = calloc((size_t)tiles + 1, 1);
    char what[200];
    int rc = 0;
    snprintf(what, sizeof what, "M=%d N=%d K=%d, %dx%dx%d tiles, %d stages, group_m %d, grid %d", c.M, c.N, c.K, c.bm,
             c.bn, c.bk, c.stages, c.group_m, c.grid);
    t->tests++;
    if (!tm || !tn || !seen || cap > VISIT_CAP) {
        rc = -1;
        jd_failf(t, "%s: the judge is out of room", what);
        goto out;
    }
    grouped_order(tiles_m, tiles_n, c.group_m, tm, tn);
    for (int cta = 0; cta < c.grid; cta++) {
        const int a[10] = { c.M, c.N, c.K, c.bm, c.bn, c.bk, c.stages, c.group_m, c.grid, cta };
        int n;
        poison(o, cap);
        if (sched_call(J, o, a, cap, 0, &n, t) != 0) {
            rc = -1;
            goto out;
        }
        const int want = cta < tiles ? cdiv(tiles - cta, c.grid) : 0;
        if (n != want) {
            jd_failf(t, "%s: CTA %d visits %d tiles, expected %d", what, cta, n, want);
            rc = 1;
            goto out;
        }
        for (int i = 0; i < n; i++) {
            const int tt = cta + i * c.grid;
            const long long it = (long long)i * ktiles;
            const ws_visit *v = &o->v[i];
            if (v->tile != tt) {
                jd_failf(t, "%s: CTA %d's tile %d is tile %d, expected %d (cta + i * grid)", what, cta, i, v->tile, tt);
                rc = 1;
            } else if (v->tm != tm[tt] || v->tn != tn[tt]) {
                jd_failf(t, "%s: tile %d is (tm %d, tn %d), the grouped order puts it at (%d, %d)", what, tt, v->tm,
                         v->tn, tm[tt], tn[tt]);
                rc = 1;
            } else if (v->it != it || v->stage != (int)(it % c.stages) || v->phase != (int)(it / c.stages & 1)) {
                jd_failf(t, "%s: CTA %d's tile %d (its %d-th) starts at k-iteration %lld, stage %d, phase %d; "
                            "expected %lld, %d, %d (the counter runs on across tiles: i * ktiles, ktiles %lld)",
                         what, cta, tt, i, v->it, v->stage, v->phase, it, (int)(it % c.stages),
                         (int)(it / c.stages & 1), ktiles);
                rc = 1;
            } else if (seen[tt]++) {
                jd_failf(t, "%s: tile %d visited twice", what, tt);
                rc = 1;
            }
            if (rc) goto out;
        }
    }
    for (int x = 0; x < tiles; x++)
        if (!seen[x]) {
            jd_failf(t, "%s: tile %d (tm %d, tn %d) visited by no CTA", what, x, tm[x], tn[x]);
            rc = 1;
            break;
        }
out:
    free(tm), free(tn), free(seen);
    return rc;
}

/* test_week55.c's SCHED. */
static const sched_case SCHED[] = {
    { 4096, 4096, 4096, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132 },
    { 300, 300, 72, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132 },
    { 1000, 1000, 72, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 1 },
    { 777, 1500, 136, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 7 },
    { 2049, 3001, 264, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 3 },
    { 2176, 999, 8, WS_BM, WS_BN, WS_BK, WS_STAGES, 16, 5 },
    { 2176, 999, 8, WS_BM, WS_BN, WS_BK, WS_STAGES, 8, 13 },
    { 2176, 999, 8, 128, 256, 64, 3, 5, 132 },
    { 1024, 768, 1000, 64, 64, 32, 5, 4, 17 },
    { 1, 1, 1, 128, 256, 64, 4, 16, 1 },
    { 5, 7, 0, 128, 256, 64, 4, 16, 2 },
    { 0, 100, 64, 128, 256, 64, 4, 16, 4 },
};

/* sched_by_hand: 256 x 512 x 320 in 128 x 256 x 64 tiles, 4 stages. */
static int sched_by_hand(jd *J, visits *o, jd_tally *t)
{
    const struct { int grid, cta, n; ws_visit want[4]; } T[] = {
        { 2, 0, 2, { { 0, 0, 0, 0, 0, 0 }, { 2, 0, 1, 5, 1, 1 } } },
        { 2, 1, 2, { { 1, 1, 0, 0, 0, 0 }, { 3, 1, 1, 5, 1, 1 } } },
        { 1, 0, 4, { { 0, 0, 0, 0, 0, 0 }, { 1, 1, 0, 5, 1, 1 }, { 2, 0, 1, 10, 2, 0 }, { 3, 1, 1, 15, 3, 1 } } },
    };
    t->tests++;
    for (int c = 0; c < COUNT(T); c++) {
        const int a[10] = { 256, 512, 320, 128, 256, 64, 4, 16, T[c].grid, T[c].cta };
        int n;
        poison(o, 4);
        if (sched_call(J, o, a, 4, 0, &n, t) != 0) return -1;
        if (n != T[c].n)
            return jd_failf(t, "256 x 512 x 320, grid %d, CTA %d: %d tiles, expected %d", T[c].grid, T[c].cta, n,
                            T[c].n), 1;
        for (int i = 0; i < n; i++) {
            const ws_visit *g = &o->v[i], *w = &T[c].want[i];
            if (g->tile != w->tile || g->tm != w->tm || g->tn != w->tn || g->it != w->it || g->stage != w->stage ||
                g->phase != w->phase)
                return jd_failf(t, "256 x 512 x 320, grid %d, CTA %d, visit %d: tile %d (%d, %d) it %lld stage %d "
                                   "phase %d; expected tile %d (%d, %d) it %lld stage %d phase %d",
                                T[c].grid, T[c].cta, i, g->tile, g->tm, g->tn, g->it, g->stage, g->phase, w->tile,
                                w->tm, w->tn, w->it, w->stage, w->phase), 1;
        }
    }
    return 0;
}

/* sched_refused: the waves at 4096^3, the bad arguments, cap < 0, NULL out, a short out. */
static int sched_refused(jd *J, visits *o, jd_tally *t)
{
    int r;
    t->tests++;
    for (int cta = 0; cta < 132; cta++) {
        const int a[10] = { 4096, 4096, 4096, WS_BM, WS_BN, WS_BK, WS_STAGES, WS_GROUP_M, 132, cta };
        if (sched_call(J, o, a, 0, 1, &r, t) != 0) return -1;
        if (r != (cta < 116 ? 4 : 3))
            return jd_failf(t, "4096^3 on 132 CTAs: CTA %d visits %d tiles, expected %d", cta, r, cta < 116 ? 4 : 3), 1;
    }
    static const int bad[][10] = {
        { -1, 8, 8, 128, 256, 64, 4, 16, 1, 0 }, { 8, -1, 8, 128, 256, 64, 4, 16, 1, 0 },
        { 8, 8, -8, 128, 256, 64, 4, 16, 1, 0 }, { 8, 8, 8, 0, 256, 64, 4, 16, 1, 0 },
        { 8, 8, 8, 128, 0, 64, 4, 16, 1, 0 },    { 8, 8, 8, 128, 256, 0, 4, 16, 1, 0 },
        { 8, 8, 8, 128, 256, 64, 0, 16, 1, 0 },  { 8, 8, 8, 128, 256, 64, 4, 0, 1, 0 },
        { 8, 8, 8, 128, 256, 64, 4, 16, 0, 0 },  { 8, 8, 8, 128, 256, 64, 4, 16, 2, 2 },
        { 8, 8, 8, 128, 256, 64, 4, 16, 2, -1 },
    };
    for (int i = 0; i < COUNT(bad); i++) {
        const int *b = bad[i];
        poison(o, 3);
        if (sched_call(J, o, b, 3, 0, &r, t) != 0) return -1;
        if (r != -1 || o->v[0].tile != -7)
            return jd_failf(t, "ws_schedule(M %d, N %d, K %d, %dx%dx%d, stages %d, group_m %d, grid %d, cta %d) must "
                               "return -1 with out untouched: returned %d",
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], r), 1;
    }
    const int ok[10] = { 8, 8, 8, 128, 256, 64, 4, 16, 1, 0 };
    if (sched_call(J, o, ok, -1, 0, &r, t) != 0) return -1;
    if (r != -1) return jd_failf(t, "cap < 0 must be refused (ws_schedule returned %d)", r), 1;
    if (sched_call(J, o, ok, 1, 1, &r, t) != 0) return -1;
    if (r != -1) return jd_failf(t, "out NULL with cap 1 must be refused (ws_schedule returned %d)", r), 1;
    const int many[10] = { 1000, 1000, 64, 128, 256, 64, 4, 16, 1, 0 };
    poison(o, 3);
    if (sched_call(J, o, many, 2, 0, &r, t) != 0) return -1;
    if (r != 32 || o->v[1].tile != 1 || o->v[2].tile != -7)
        return jd_failf(t, "1000 x 1000 on one CTA with cap 2: returned %d (expected 32), out[1].tile %d (1), out[2] "
                           "must stay untouched (tile %d)",
                        r, o->v[1].tile, o->v[2].tile), 1;
    return 0;
}

/* The four, in the test's order; each runs to its first failure, as a test does. */
static void judge_schedule(jd *J, jd_tally *t)
{
    visits o;
    o.id = jd_alloc_kind(J, JD_MEM_HOST, (size_t)VISIT_CAP * sizeof(ws_visit), (void **)&o.v);
    if (o.id < 0) {
        jd_failf(t, "buffers: %s", J->why);
        return;
    }
    if (sched_by_hand(J, &o, t) < 0) goto out;
    for (int i = 0; i < COUNT(SCHED); i++)
        if (check_schedule(J, &o, SCHED[i], t) < 0) goto out;
    for (int i = 0; i < 4; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "w55_sched_random", i);
        for (int k = 0; k < 200; k++) {
            sched_case c = { (int)wb_rng_int(&rng, 0, 5000), (int)wb_rng_int(&rng, 0, 5000),
                             (int)wb_rng_int(&rng, 0, 3000), (int)wb_rng_int(&rng, 16, 300),
                             (int)wb_rng_int(&rng, 16, 300), (int)wb_rng_int(&rng, 8, 128),
                             (int)wb_rng_int(&rng, 1, 8), (int)wb_rng_int(&rng, 1, 20), (int)wb_rng_int(&rng, 1, 140) };
            int r = check_schedule(J, &o, c, t);
            if (r < 0) goto out;
            if (r) break;
        }
    }
    sched_refused(J, &o, t);
out:
    jd_free(J, o.id);
}

static void judge_schedule_gpu(jd_ck *k) { judge_schedule(k->J, k->t); }

/* ---------------------------------------------------------------- w55.gemm, w55.gemm-speed */

/* test_week55.c's SHAPES and LARGE (M, N, K, pad, off, special, grid); its
 * REFUSED is judge_bf16gemm.c's bg_refused. */
static const bf16_gemm_shape SHAPES[] = {
    { 1, 1, 8, 0, 0, 0, 0 },      { 0, 5, 8, 0, 0, 0, 0 },       { 5, 0, 8, 0, 0, 0, 0 },     { 5, 7, 0, 3, 1, 0, 0 },
    { 1, 1, 0, 0, 0, 0, 0 },      { 3, 5, 8, 1, 1, 0, 0 },       { 64, 64, 64, 0, 0, 0, 0 },  { 127, 129, 72, 0, 0, 0, 0 },
    { 128, 256, 64, 0, 0, 0, 0 }, { 129, 257, 136, 2, 0, 0, 0 }, { 255, 256, 1000, 0, 1, 0, 0 },
    { 257, 511, 64, 0, 0, 0, 0 }, { 1000, 1000, 96, 0, 3, 0, 0 }, { 64, 4096, 8, 0, 0, 0, 0 },
    { 4096, 64, 128, 0, 0, 0, 0 }, { 300, 300, 4096, 5, 0, 0, 0 },
    { 2048, 2304, 64, 0, 0, 0, 0 }, { 2048, 2560, 136, 1, 2, 0, 0 },
    { 1000, 1000, 72, 0, 0, 0, 1 }, { 1000, 1000, 200, 0, 0, 0, 3 }, { 777, 1500, 328, 3, 1, 0, 7 },
    { 513, 769, 8, 0, 0, 0, 2 },    { 640, 1280, 264, 0, 0, 0, 1 },
    { 128, 256, 128, 0, 0, 1, 0 }, { 77, 300, 56, 3, 1, 1, 0 }, { 300, 600, 72, 0, 0, 1, 1 },
    { 127, 129, 72, 3, 0, 0, 0 }, { 129, 257, 136, 3, 4, 0, 3 }, { 3, 5, 8, 3, 4, 0, 0 }, { 1, 1, 8, 3, 0, 0, 0 },
    { 77, 301, 56, 3, 4, 1, 0 },
    { 127, 132, 72, 4, 0, 0, 0 }, { 129, 260, 136, 0, 4, 0, 3 }, { 3, 4, 8, 4, 4, 0, 0 }, { 1, 4, 8, 0, 0, 0, 0 },
    { 77, 300, 56, 4, 4, 1, 0 }, { 200, 36, 64, 8, 0, 0, 1 },
    { 64, 4096, 8, 4, 0, 0, 0 }, { 64, 4096, 8, 1, 0, 0, 0 }, { 64, 4096, 8, 0, 2, 0, 0 },
};
static const bf16_gemm_shape LARGE[] = { { 4096, 4096, 4096, 0, 0, 0, 0 },
                                         { 2049, 3001, 4104, 0, 0, 0, 0 },
                                         { 2049, 3001, 4104, 0, 0, 0, 5 },
                                         { 2049, 3004, 4104, 0, 0, 0, 0 } };

/* test_week55.c's gemm_random (index i): M, N 1..900, K 8..480 in steps of
 * 8, pad and C's offset 0..3, grid 0..5; the odd ones with C as the TMA
 * epilogue wants it (N and ldc multiples of 4, C 16-byte aligned or not). */
static bf16_gemm_shape random_shape(wb_rng *r, int i)
{
    bf16_gemm_shape s = { (int)wb_rng_int(r, 1, 900), (int)wb_rng_int(r, 1, 900), 8 * (int)wb_rng_int(r, 1, 60),
                          (int)wb_rng_int(r, 0, 3), (int)wb_rng_int(r, 0, 3), 0, (int)wb_rng_int(r, 0, 5) };
    if (i % 2) s.N = (s.N + 3) / 4 * 4, s.pad = 4 * (int)wb_rng_int(r, 0, 1), s.off = 4 * (int)wb_rng_int(r, 0, 1);
    return s;
}

static const bg_week W55 = { "ws_gemm_bf16", "ws_gemm_bf16_grid", "w55", W55_YARD_RUNNER,
                             "ws_gemm (wgmma, TMA, setmaxnreg)", SHAPES, COUNT(SHAPES), 8, random_shape, LARGE,
                             COUNT(LARGE), bg_refused, BG_N_REFUSED_TMA + 1 };

static const jd_checkpoint CPS[] = {
    { "w55.schedule", judge_schedule_gpu, judge_schedule, 1, 0, NULL },
    { "w55.gemm", bg_gemm_ck, bg_contract_ck, 0, 0, NULL },
    { "w55.gemm-speed", bg_speed_ck, NULL, 0, 0, bg_before },
};

int main(int argc, char **argv)
{
    bg_use(&W55);
    return jd_week_main(argc, argv, "judge-w55", "phase5/week55", CPS, COUNT(CPS));
}
