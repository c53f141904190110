/* judge_w13.c — build/instructor/judge-w13: week 13's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's objects of the week are linked into the runner
 * (judge_w13_runner.c, with the week's given support objects, as the test
 * program links them), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills and
 * checks, and writes the results record itself, outside the runner's reach.
 * The command line, the runner's start and the record are judge_week.c's:
 *
 *   judge-w13 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week13.c's (drawn through phase3/week13/w13_checks.h,
 * shared with the test, each from wb_rng_for_seed with the test's tag for
 * the hidden seed); every output is poisoned with a guard band of 64 floats
 * (256 bytes) on each side (jd_case for floats, the guarded byte buffer
 * jd_gbuf for ints and bits), a write outside it fails, and an element
 * still the poison where NaN is due counts as not written. Tolerances are
 * the test's.
 *   w13.masks       wr_tail_mask(0 .. 32) and vt_lanes_below(0 .. 31), host
 *                   functions called by the runner (with no GPU, by a
 *                   runner that opens none: PASS and FAIL stand), each exact.
 *   w13.warpreduce  the 16 sizes (uniform) and the 3 special cases (NaN and
 *                   infinities planted, all negative, all positive), sum
 *                   (1e-4 + 1e-6 |ref|), max and min (exact, NaN
 *                   propagating) each into a fresh poison; ops 3 and -1
 *                   refused with cudaErrorInvalidValue.
 *   w13.warpscan    the 16 sizes on integers (exact, x and y 0-2 floats
 *                   off alignment) and the 3 float cases (NaN, Inf),
 *                   inclusive and exclusive.
 *   w13.vote        ballots and flags of the 16 sizes, exact; compaction of
 *                   the 16 sizes (values +-(i + 1): each group's kept values
 *                   next to each other and in order) and of the 3 special
 *                   cases: the count, out past it untouched, the kept
 *                   values as a multiset (w13_compact_verify).
 *   w13.blockreduce br_rowsum on the 30 shape cases and the NaN/Inf case,
 *                   rows = 2^31 refused; br_sum on the 18 exact cases (the
 *                   float of the exact sum), the 4 float cases and the 3
 *                   NaN/Inf cases.
 *   w13.gemv        the 42 shape cases (A or x off alignment, NaN and Inf
 *                   planted on every fourth) and 2^25 + 77 rows of 4 and of
 *                   3 columns (more rows than warps), the latter on inputs
 *                   from the hidden seed with every row checked by the
 *                   judge's kernel (the test samples 4096).
 *   w13.cg          cg::reduce sum and max over tiles of 32 and 8 on the
 *                   16 sizes, cgr_sum on the 18 exact and 5 float/NaN/Inf
 *                   cases, __reduce_*_sync's words of the 16 sizes exact;
 *                   the bad op and tile (and REDUX op) refused.
 *   w13.scan1pass   scan1pass on the test's 16 cases (n = 0, 1, 31, 33, a
 *                   tile -1, a tile, a tile +1, two tiles, 32, 33 and 37
 *                   tiles, 1000003, 256 tiles and 3072 tiles + 77; x and y
 *                   0-3 ints off alignment; the whole int32 range or
 *                   [-1000, 1000]), each run twice on one workspace of the
 *                   runner's (scan1pass_tmp_bytes(n) bytes, every byte 0xff
 *                   before the first run, the second run on what the first
 *                   left), y poisoned before each run; 100M + 7 ints of the
 *                   whole range once (16M + 7 when the GPU has not 2n ints
 *                   and 1 GB free, as the test); the three shaken cases
 *                   (40 tiles + 17, up to 3M, 2^24 + 3, values in [-1000,
 *                   1000]) with the test's odd `shake` argument, which makes
 *                   random tiles wait before they publish, each twice;
 *                   every element exact modulo 2^32; and n = SCAN1_TILE x
 *                   2^31 refused with cudaErrorInvalidValue.
 * The speed checkpoints: the timed-call protocol (judge_week.h): K calls a
 * request, each on its own inputs fresh from the hidden seed and its own
 * poisoned output, the judge's look right after the reply and every
 * element of every output checked after the timing by the judge's kernels
 * against what the input's seed gives; the median of 7 requests:
 *   w13.shfl-speed  br_rowsum of rows of 1024 floats in [-1, 1),
 *                   wb_bench_bytes() of matrix, each row within 1e-4 +
 *                   1e-5 |ref| of the double sum (jd_rowdot_check_f32);
 *                   bytes: the matrix and the sums; against COPY of the
 *                   matrix through the same protocol (jd_copy_yard).
 *   w13.shfl-cub    the same timing against the faster of CUB's BlockLoad +
 *                   BlockReduce kernel and DeviceSegmentedReduce::Sum
 *                   (support/yard_cub_rowsum.cu).
 *   w13.reduce-bw   br_sum of wb_bench_bytes() of floats in [0, 1), within
 *                   the test's 1e-5 sum |x| (taken at 0.4999 n) of the
 *                   double sum; 4 bytes an element, against COPY.
 *   w13.gemv-bw     gv_gemv, 1024 columns, A and x in [-1, 1), each row
 *                   within 1e-4 + 1e-5 |ref|; bytes: A, x and y; against
 *                   COPY of A.
 *   w13.scan-speed  scan1pass (shake 0, the runner's workspace kept across
 *                   calls, as the test allocates it before timing) on
 *                   wb_bench_bytes() / 4 int32 in [0, 16) (jd_hash_u32, as
 *                   the test's, so CUB's signed sums never overflow), every
 *                   element bit for bit against the judge's prefix sums
 *                   (jd_hash_prefix_u32, jd_u32_check); 8 bytes an element,
 *                   against CUB's DeviceScan::InclusiveSum
 *                   (support/yard_cub_scan.cu). (The test also prints both
 *                   against a copy; not judged.)
 * The CUB yardsticks are instructor code: the judge runs and times them
 * itself through a runner of the instructor's (judge_w13_yard_runner.c:
 * judge_runner.c and the given yard_cub_scan.o and yard_cub_rowsum.o, no
 * student object, beside the judge; jd_yard_bench) on the same protocol,
 * sizes and checks, before the student's runner starts and after its
 * timing, the larger figure taken (a runner can only slow the judge's GPU);
 * the runners hold CUB's workspaces (allocated in the untimed warm-up
 * request). The target for this GPU from week.txt.
 * Every checkpoint of week 13 is judged: none is left to the linked test.
 * Not yet run on a GPU; without a GPU every checkpoint but w13.masks is
 * SKIP (instructor/tests/judge_w13.sh).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgreduce.h"
#include "judge.h"
#include "judge_kernels.h"
#include "judge_w13.h"
#include "judge_week.h"
#include "w13_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7 /* requests of a timed checkpoint, the median taken */

/* The call: buffer arguments (gbufs, NULL for none) at byte leads; 0, 1 (a
 * status other than success: t has it), -1 (the runner is lost). */
static int call_f(jd *J, int fn, int nargs, jd_gbuf *const *b, const size_t *lead, const long long *i64, double f0,
                  const char *fn_name, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, nargs);
    for (int a = 0; a < nargs; a++) jd_gbuf_arg(&rq, a, b[a], b[a] ? lead[a] : 0);
    for (int k = 0; k < 8; k++) rq.i64[k] = i64[k];
    rq.f64[0] = f0;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: %s returned %s", what, fn_name,
                        rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status)),
               1;
    return 0;
}

static int call(jd *J, int fn, int nargs, jd_gbuf *const *b, const size_t *lead, const long long *i64,
                const char *fn_name, const char *what, jd_tally *t)
{
    return call_f(J, fn, nargs, b, lead, i64, 0, fn_name, what, t);
}

/* ---------------------------------------------------------------- single-pass scan */

/* The test's check_scan1: scan1pass of the n ints at hx[ox] (x ox ints into
 * its buffer) into y oy ints into its guarded one, once or twice on one
 * workspace (poisoned before the first run), y poisoned before each run,
 * every element against the CPU's scan modulo 2^32. 0, or -1 (lost, or the
 * judge's own copies failed). */
static int scan1_case(jd *J, jd_gbuf *bx, jd_gbuf *by, const int32_t *hx, size_t n, size_t ox, size_t oy,
                      unsigned shake, int twice, const char *data, uint32_t *ref, uint32_t *got, jd_tally *t)
{
    w13_scan1_ref(hx + ox, n, ref);
    if (jd_gbuf_put(bx, 0, hx, (n + ox) * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    for (int run = 0; run < 1 + twice; run++) {
        char what[200];
        snprintf(what, sizeof what, "scan1pass n=%zu (%zu tiles), x+%zu, y+%zu%s, %s%s", n,
                 (n + SCAN1_TILE - 1) / SCAN1_TILE, ox, oy, shake ? ", random tiles delayed" : "", data,
                 run ? ", second run on the same workspace" : "");
        t->tests++;
        if (jd_gbuf_poison(by, oy * 4, n * 4) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
        jd_gbuf *b[2] = { n + ox ? bx : NULL, by };
        size_t lead[2] = { ox * 4, oy * 4 };
        long long i64[8] = { (long long)n, shake, run ? W13_WS_KEEP : W13_WS_POISON };
        int c = call(J, W13_FN_SCAN1, 2, b, lead, i64, "scan1pass", what, t);
        if (c < 0) return -1;
        if (c) continue;
        int f = jd_gbuf_fetch(by, oy * 4, n * 4, got, "y", what, t);
        if (f < 0) return -1;
        if (f) continue;
        for (size_t i = 0; i < n; i++)
            if (got[i] != ref[i]) {
                jd_failf(t, "%s: y[%zu] expected %d got %d%s", what, i, (int32_t)ref[i], (int32_t)got[i],
                         got[i] == 0xffffffffu ? " (the poison: perhaps never written)" : "");
                break;
            }
    }
    return 0;
}

static void judge_scan1(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    /* the 100M+ case where the GPU has room for it (the test's wb_device_room), else 16M + 7 */
    size_t big = W13_SCAN1_LARGE_N, free_b = 0, total = 0;
    if (cudaMemGetInfo(&free_b, &total) != cudaSuccess || free_b < 2 * big * 4 + ((size_t)1 << 30)) {
        big = ((size_t)16 << 20) + 7;
        printf("  scan1_large: %.1f GB of device memory free; checked at n = %zu instead of 100M+\n", free_b / 1e9, big);
    }
    size_t cap = big > W13_SCAN1_SHAKEN_MAX_N ? big : W13_SCAN1_SHAKEN_MAX_N;
    for (size_t i = 0; i < W13_N_SCAN1_CASES; i++)
        if (W13_SCAN1_CASES[i].n + 3 > cap) cap = W13_SCAN1_CASES[i].n + 3;
    jd_gbuf bx = { -1, NULL, 0 }, by = { -1, NULL, 0 };
    if (jd_gbuf_alloc(J, &bx, cap * 4, t) != 0 || jd_gbuf_alloc(J, &by, cap * 4, t) != 0) {
        jd_gbuf_free(J, &bx), jd_gbuf_free(J, &by);
        return;
    }
    int32_t *hx = malloc(cap * 4);
    uint32_t *ref = malloc(cap * 4), *got = malloc(cap * 4);
    int ok = hx && ref && got;
    if (!ok) jd_failf(t, "out of memory");
    for (int i = 0; ok && i < (int)W13_N_SCAN1_CASES && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_SCAN1_SIZES_TAG, i);
        const char *data = w13_scan1_sizes_fill(&r, i, hx);
        if (scan1_case(J, &bx, &by, hx, W13_SCAN1_CASES[i].n, W13_SCAN1_CASES[i].ox, W13_SCAN1_CASES[i].oy, 0, 1, data,
                       ref, got, t) < 0)
            ok = 0;
    }
    if (ok && !J->lost) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_SCAN1_LARGE_TAG, 0);
        w13_scan1_large_fill(&r, hx, big);
        if (scan1_case(J, &bx, &by, hx, big, 0, 0, 0, 0, "the whole int32 range", ref, got, t) < 0) ok = 0;
    }
    for (int i = 0; ok && i < W13_N_SCAN1_SHAKEN && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_SCAN1_SHAKEN_TAG, i);
        size_t n = w13_scan1_shaken_n(&r, i);
        unsigned shake = w13_scan1_shaken_fill(&r, hx, n);
        if (scan1_case(J, &bx, &by, hx, n, 0, 0, shake, 1, "values in [-1000, 1000]", ref, got, t) < 0) ok = 0;
    }
    if (ok && !J->lost) { /* scan1pass(NULL, NULL, SCAN1_TILE << 31, NULL, 0) */
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W13_FN_SCAN1, 1, 2);
        rq.i64[0] = (long long)((size_t)SCAN1_TILE << 31), rq.i64[1] = 0, rq.i64[2] = W13_WS_NONE;
        t->tests++;
        if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "scan1pass n = SCAN1_TILE x 2^31: %s", J->why);
        else if (rp.status != (int)cudaErrorInvalidValue)
            jd_failf(t, "n = SCAN1_TILE x 2^31 (2^31 tiles) must return cudaErrorInvalidValue (scan1pass returned %s)",
                     rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
    }
    free(hx), free(ref), free(got);
    jd_gbuf_free(J, &bx), jd_gbuf_free(J, &by);
}

/* ---------------------------------------------------------------- masks (CPU) */

/* wr_tail_mask(0 .. 32) and vt_lanes_below(0 .. 31) from the runner (host
 * functions: with a GPU or without one), each against its value. */
static void judge_masks(jd *J, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W13_FN_MASKS, 1, 0);
    t->tests += 2;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "wr_tail_mask, vt_lanes_below: %s", J->why);
    unsigned m[65];
    if (rp.status != 0 || rp.out_len != sizeof m)
        return jd_failf(t, "wr_tail_mask, vt_lanes_below: the runner's call failed (%s)", rp.status ? rp.text : "no values");
    memcpy(m, rp.out, sizeof m);
    for (unsigned v = 0; v <= 32; v++) {
        unsigned want = (unsigned)((1ull << v) - 1ull);
        if (m[v] != want) return jd_failf(t, "wr_tail_mask(%u) = 0x%08x, expected 0x%08x", v, m[v], want);
    }
    for (unsigned l = 0; l < 32; l++) {
        unsigned want = (unsigned)((1ull << l) - 1ull);
        if (m[33 + l] != want) return jd_failf(t, "vt_lanes_below(%u) = 0x%08x, expected 0x%08x", l, m[33 + l], want);
    }
}

static void judge_masks_gpu(jd_ck *k) { judge_masks(k->J, k->t); }

/* ---------------------------------------------------------------- warp reduce and scan */

static const char *const OP_NAMES[3] = { "sum", "max", "min" };

/* The three ops on hx[0..n) (B's input), each into a fresh poison. */
static int wreduce_ops(jd *J, jd_case_bufs *B, size_t n, const char *data, double *ref, jd_tally *t)
{
    size_t groups = (n + 31) / 32;
    for (int op = 0; op < 3; op++) {
        char what[160];
        snprintf(what, sizeof what, "warp %s, n=%zu (%zu groups, last has %zu), %s", OP_NAMES[op], n, groups,
                 n % 32 ? n % 32 : 32, data);
        w13_warp_reduce_ref(B->h[0], n, op, ref);
        jd_case c;
        memset(&c, 0, sizeof c);
        c.fn = W13_FN_WREDUCE, c.fn_name = "wr_warp_reduce", c.out_name = "out", c.what = what;
        c.in[0] = B->h[0], c.in_n[0] = n, c.n = groups, c.ref64 = ref;
        c.atol = w13_warp_reduce_atol(op), c.rtol = w13_warp_reduce_rtol(op);
        c.i64[1] = op, c.i64[2] = (long long)n;
        if (jd_case_run(J, B, &c, t) < 0) return -1;
    }
    return 0;
}

/* warp_reduce_sizes (the sizes, uniform), then warp_reduce_specials. */
static int wreduce_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    if (i < (int)W13_N_SIZES) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_WREDUCE_TAG, i);
        wb_fill_uniform_f32(&r, B->h[0], W13_SIZES[i], -1, 1);
        return wreduce_ops(J, B, W13_SIZES[i], "uniform [-1, 1]", ctx, t);
    }
    wb_rng r = wb_rng_for_seed(jd_seed, W13_WREDUCE_SPECIALS_TAG, i - (int)W13_N_SIZES);
    const char *data;
    size_t n = w13_warp_reduce_specials_fill(&r, i - (int)W13_N_SIZES, B->h[0], &data);
    return wreduce_ops(J, B, n, data, ctx, t);
}

#define WR_IN_CAP (W13_SIZES[W13_N_SIZES - 1] + 8)

static void judge_warpreduce(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    double *ref = malloc(WR_IN_CAP * sizeof *ref);
    if (!ref) return jd_failf(t, "out of memory");
    jd_cases(J, t, 1, WR_IN_CAP, WR_IN_CAP / 32 + 1, (int)W13_N_SIZES + W13_N_WREDUCE_SPECIALS, wreduce_one, ref);
    free(ref);
    for (int op = 3; op >= -1 && !J->lost; op -= 4) { /* wr_warp_reduce(3 and -1, NULL, 10, NULL) */
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W13_FN_WREDUCE, 1, 2);
        rq.i64[1] = op, rq.i64[2] = 10;
        t->tests++;
        if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "wr_warp_reduce(%d, ...): %s", op, J->why);
        else if (rp.status != (int)cudaErrorInvalidValue)
            jd_failf(t, "ops other than WR_SUM, WR_MAX, WR_MIN must return cudaErrorInvalidValue (op %d returned %s)", op,
                     rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
    }
}

/* Both scans of the n floats at hx[off] (B's input) into y at the same
 * offset, each into a fresh poison. */
static int wscan_both(jd *J, jd_case_bufs *B, size_t n, size_t off, double atol, double rtol, const char *data,
                      double *ref, jd_tally *t)
{
    for (int inclusive = 1; inclusive >= 0; inclusive--) {
        char what[160];
        snprintf(what, sizeof what, "%s warp scan, n=%zu, offset %zu, %s", inclusive ? "inclusive" : "exclusive", n, off,
                 data);
        w13_warp_scan_ref(B->h[0], n, off, inclusive, ref);
        jd_case c;
        memset(&c, 0, sizeof c);
        c.fn = W13_FN_WSCAN, c.fn_name = "warpscan_prefix_sum", c.out_name = "y", c.what = what;
        c.in[0] = B->h[0], c.in_n[0] = n + off, c.in_off[0] = off, c.n = n, c.out_off = off, c.ref64 = ref;
        c.atol = atol, c.rtol = rtol, c.i64[1] = inclusive;
        if (jd_case_run(J, B, &c, t) < 0) return -1;
    }
    return 0;
}

/* warp_scan_exact (the sizes, integers), then warp_scan_float_specials. */
static int wscan_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    if (i < (int)W13_N_SIZES) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_WSCAN_TAG, i);
        size_t off, n = w13_warp_scan_exact_fill(&r, i, B->h[0], &off);
        return wscan_both(J, B, n, off, 0, 0, "integer data", ctx, t);
    }
    wb_rng r = wb_rng_for_seed(jd_seed, W13_WSCAN_FLOAT_TAG, i - (int)W13_N_SIZES);
    const char *data;
    size_t n = w13_warp_scan_float_fill(&r, i - (int)W13_N_SIZES, B->h[0], &data);
    return wscan_both(J, B, n, 0, 1e-5, 1e-5, data, ctx, t);
}

static void judge_warpscan(jd_ck *k)
{
    double *ref = malloc(WR_IN_CAP * sizeof *ref);
    if (!ref) return jd_failf(k->t, "out of memory");
    jd_cases(k->J, k->t, 1, WR_IN_CAP, WR_IN_CAP, (int)W13_N_SIZES + W13_N_WSCAN_FLOAT, wscan_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- votes */

/* The inputs and outputs of the vote cases: x, ballot and flags (or out and
 * count), guarded; host copies. */
typedef struct {
    jd_gbuf   x, o1, o2;
    float    *hx, *got, *scratch;
    uint32_t *rb, *rf, *gb, *gf;
    long long *last;
} vt_bufs;

/* fn on V's buffers: V->hx[0..n) put in x, o1 (bytes1) and o2 (bytes2)
 * poisoned, the call on (x, o1, o2) with n and thr, then both read back
 * (into h1 and h2, named n1 and n2) with their bands checked. 0 read, 1
 * failed (t says why), -1 lost. */
static int vt_call(jd *J, vt_bufs *V, int fn, const char *fn_name, size_t n, float thr, size_t bytes1, void *h1,
                   const char *n1, size_t bytes2, void *h2, const char *n2, const char *what, jd_tally *t)
{
    t->tests++;
    if (jd_gbuf_put(&V->x, 0, V->hx, n * 4) != 0 || jd_gbuf_poison(&V->o1, 0, bytes1) != 0 ||
        jd_gbuf_poison(&V->o2, 0, bytes2) != 0)
        return jd_failf(t, "the judge's own copies failed"), -1;
    jd_gbuf *b[3] = { n ? &V->x : NULL, &V->o1, &V->o2 };
    size_t lead[3] = { 0, 0, 0 };
    long long i64[8] = { 0, 0, (long long)n };
    int c = call_f(J, fn, 3, b, lead, i64, thr, fn_name, what, t);
    if (c) return c;
    int f = jd_gbuf_fetch(&V->o1, 0, bytes1, h1, n1, what, t);
    return f ? f : jd_gbuf_fetch(&V->o2, 0, bytes2, h2, n2, what, t);
}

/* vt_warp_votes on case cs of votes_sizes: ballots and flags exact, nothing
 * written outside them. 0, or -1 lost. */
static int votes_case(jd *J, vt_bufs *V, int cs, jd_tally *t)
{
    wb_rng r = wb_rng_for_seed(jd_seed, W13_VOTES_TAG, cs);
    float thr;
    size_t n = w13_votes_fill(&r, cs, V->hx, &thr, V->rb, V->rf), groups = (n + 31) / 32;
    char what[160];
    snprintf(what, sizeof what, "n=%zu, thr=%g, last group %zu elements", n, thr, n % 32 ? n % 32 : 32);
    int c = vt_call(J, V, W13_FN_VOTES, "vt_warp_votes", n, thr, groups * 4, V->gb, "ballot", groups * 4, V->gf, "flags",
                    what, t);
    if (c) return c < 0 ? -1 : 0;
    for (size_t g = 0; g < groups; g++) {
        if (V->gb[g] != V->rb[g]) return jd_failf(t, "%s: ballot[%zu] expected %u got %u", what, g, V->rb[g], V->gb[g]), 0;
        if (V->gf[g] != V->rf[g]) return jd_failf(t, "%s: flags[%zu] expected %u got %u", what, g, V->rf[g], V->gf[g]), 0;
    }
    return 0;
}

/* vt_compact of hx[0..n) by > thr (w13_compact_verify). 0, or -1 lost. */
static int compact_case(jd *J, vt_bufs *V, size_t n, float thr, int ordered, const char *data, jd_tally *t)
{
    char what[160], why[300];
    snprintf(what, sizeof what, "compact n=%zu, thr=%g, %s", n, thr, data);
    unsigned long long count = 0;
    int c = vt_call(J, V, W13_FN_COMPACT, "vt_compact", n, thr, n * 4, V->got, "out", 8, &count, "count", what, t);
    if (c) return c < 0 ? -1 : 0;
    if (w13_compact_verify(V->hx, n, thr, ordered, V->got, count, V->scratch, V->last, why, sizeof why))
        jd_failf(t, "%s: %s", what, why);
    return 0;
}

static void judge_vote(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t cap = W13_COMPACT_MAX_N > W13_SIZES[W13_N_SIZES - 1] ? W13_COMPACT_MAX_N : W13_SIZES[W13_N_SIZES - 1];
    size_t gcap = (cap + 31) / 32;
    vt_bufs V = { { -1, NULL, 0 }, { -1, NULL, 0 }, { -1, NULL, 0 }, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    V.hx = malloc(cap * 4), V.got = malloc(cap * 4), V.scratch = malloc(cap * 4);
    V.rb = malloc(gcap * 4), V.rf = malloc(gcap * 4), V.gb = malloc(gcap * 4), V.gf = malloc(gcap * 4);
    V.last = malloc(gcap * sizeof *V.last);
    int ok = V.hx && V.got && V.scratch && V.rb && V.rf && V.gb && V.gf && V.last;
    if (!ok) jd_failf(t, "out of memory");
    else
        ok = jd_gbuf_alloc(J, &V.x, cap * 4, t) == 0 && jd_gbuf_alloc(J, &V.o1, cap * 4, t) == 0 &&
             jd_gbuf_alloc(J, &V.o2, gcap * 4 + 8, t) == 0;
    for (int i = 0; ok && i < (int)W13_N_SIZES && !J->lost; i++)
        if (votes_case(J, &V, i, t) < 0) ok = 0;
    for (int i = 0; ok && i < (int)W13_N_SIZES && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_COMPACT_TAG, i);
        size_t n = w13_compact_sizes_fill(&r, i, V.hx);
        if (compact_case(J, &V, n, 0.0f, 1, "values +-(i+1)", t) < 0) ok = 0;
    }
    for (int i = 0; ok && i < W13_N_COMPACT_SPECIALS && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_COMPACT_SPECIALS_TAG, i);
        float thr;
        size_t n = w13_compact_specials_fill(&r, i, V.hx, &thr);
        if (compact_case(J, &V, n, thr, 0, "uniform with NaN and Inf", t) < 0) ok = 0;
    }
    free(V.hx), free(V.got), free(V.scratch), free(V.rb), free(V.rf), free(V.gb), free(V.gf), free(V.last);
    jd_gbuf_free(J, &V.x), jd_gbuf_free(J, &V.o1), jd_gbuf_free(J, &V.o2);
}

/* ---------------------------------------------------------------- block reduce */

/* The one-pass sums' and row sums' cases, in one numbering: the rowsum
 * shapes, rowsum_specials, sum_exact, sum_float, sum_nan_inf. */
enum {
    BR_SHAPES = 0,
    BR_SPECIALS = BR_SHAPES + (int)W13_ROWSUM_CASES,
    BR_SUM_EXACT = BR_SPECIALS + 1,
    BR_SUM_FLOAT = BR_SUM_EXACT + (int)W13_SUM_CASES,
    BR_SUM_NANINF = BR_SUM_FLOAT + W13_N_SUM_FLOAT,
    BR_CASES = BR_SUM_NANINF + W13_N_SUM_NANINF,
};
#define BR_IN_CAP  (W13_SUM_MAX_N + 8)  /* floats: the largest input of them (sum_float's 2^24 + 3 + 3) */
#define BR_OUT_CAP W13_ROWSUM_MAX_ROWS

static int br_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    double *ref = ctx;
    float *hx = B->h[0], want32 = 0;
    char what[160];
    jd_case c;
    memset(&c, 0, sizeof c);
    c.in[0] = hx, c.out_name = "out", c.what = what;
    if (i < BR_SPECIALS) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_ROWSUM_TAG, i - BR_SHAPES);
        size_t rows, cols, off;
        int exact;
        w13_rowsum_shape(i - BR_SHAPES, &rows, &cols, &off, &exact);
        w13_rowsum_fill(&r, i - BR_SHAPES, hx, ref, &c.atol, &c.rtol);
        snprintf(what, sizeof what, "rowsum %zu x %zu, x+%zu, %s", rows, cols, off, exact ? "integer data" : "float data");
        c.fn = W13_FN_ROWSUM, c.fn_name = "br_rowsum", c.in_n[0] = rows * cols + off, c.in_off[0] = off, c.n = rows;
        c.ref64 = ref, c.i64[1] = (long long)cols, c.i64[2] = (long long)rows;
    } else if (i == BR_SPECIALS) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_ROWSUM_SPECIALS_TAG, 0);
        size_t rows = W13_ROWSUM_SPECIALS_ROWS, cols = w13_rowsum_specials_fill(&r, hx, ref);
        snprintf(what, sizeof what, "rowsum %zu x %zu with NaN and Inf", rows, cols);
        c.fn = W13_FN_ROWSUM, c.fn_name = "br_rowsum", c.in_n[0] = rows * cols, c.n = rows;
        c.ref64 = ref, c.atol = 1e-6 * (double)cols, c.rtol = 1e-5, c.i64[1] = (long long)cols, c.i64[2] = (long long)rows;
    } else {
        size_t n, off = 0;
        c.fn = W13_FN_SUM, c.fn_name = "br_sum", c.out_name = "sum", c.n = 1;
        if (i < BR_SUM_FLOAT) {
            int cs = i - BR_SUM_EXACT;
            wb_rng r = wb_rng_for_seed(jd_seed, W13_SUM_EXACT_TAG, cs);
            n = w13_sum_exact_n(cs), off = (size_t)(cs & 3);
            want32 = (float)w13_sum_exact_fill(&r, cs, hx); /* the float of the exact sum, exactly */
            c.ref = &want32;
            snprintf(what, sizeof what, "br_sum n=%zu, x+%zu, integer data", n, off);
        } else if (i < BR_SUM_NANINF) {
            wb_rng r = wb_rng_for_seed(jd_seed, W13_SUM_FLOAT_TAG, i - BR_SUM_FLOAT);
            off = (size_t)((i - BR_SUM_FLOAT) & 3);
            n = w13_sum_float_fill(&r, i - BR_SUM_FLOAT, hx, &ref[0], &c.atol);
            c.ref64 = ref;
            snprintf(what, sizeof what, "br_sum n=%zu, x+%zu, floats in [-1, 2)", n, off);
        } else {
            wb_rng r = wb_rng_for_seed(jd_seed, W13_SUM_NANINF_TAG, i - BR_SUM_NANINF);
            const char *data;
            n = w13_sum_naninf_fill(&r, i - BR_SUM_NANINF, hx, &want32, &data);
            c.ref = &want32;
            snprintf(what, sizeof what, "br_sum n=%zu with %s", n, data);
        }
        c.in_n[0] = n + off, c.in_off[0] = off, c.i64[1] = (long long)n;
    }
    return jd_case_run(J, B, &c, t);
}

static void judge_blockreduce(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    double *ref = malloc(BR_OUT_CAP * sizeof *ref);
    if (!ref) return jd_failf(t, "out of memory");
    jd_cases(J, t, 1, BR_IN_CAP, BR_OUT_CAP, BR_CASES, br_one, ref);
    free(ref);
    if (J->lost) return;
    /* br_rowsum(NULL, 2^31, 1, NULL) */
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W13_FN_ROWSUM, 1, 2);
    rq.i64[0] = 0, rq.i64[1] = 1, rq.i64[2] = (long long)((size_t)1 << 31);
    t->tests++;
    if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "br_rowsum rows = 2^31: %s", J->why);
    else if (rp.status != (int)cudaErrorInvalidValue)
        jd_failf(t, "rows = 2^31 must return cudaErrorInvalidValue (br_rowsum returned %s)",
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
}

/* ---------------------------------------------------------------- gemv */

#define GV_IN_CAP (W13_GEMV_MAX_M + 8)

static int gemv_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    double *ref = ctx;
    wb_rng r = wb_rng_for_seed(jd_seed, W13_GEMV_TAG, i);
    size_t rows, cols, oa, ox;
    w13_gemv_shape(i, &rows, &cols, &oa, &ox);
    int specials = w13_gemv_fill(&r, i, B->h[0], B->h[1], ref);
    char what[160];
    snprintf(what, sizeof what, "gemv %zu x %zu, A+%zu x+%zu%s", rows, cols, oa, ox, specials ? ", NaN and Inf in A" : "");
    jd_case c;
    memset(&c, 0, sizeof c);
    c.fn = W13_FN_GEMV, c.fn_name = "gv_gemv", c.out_name = "y", c.what = what;
    c.in[0] = B->h[0], c.in_n[0] = rows * cols + oa, c.in_off[0] = oa;
    c.in[1] = B->h[1], c.in_n[1] = cols + ox, c.in_off[1] = ox;
    c.n = rows, c.ref64 = ref, c.atol = w13_gemv_atol(cols), c.rtol = W13_GEMV_RTOL;
    c.i64[1] = (long long)cols, c.i64[2] = (long long)rows;
    return jd_case_run(J, B, &c, t);
}

/* gemv_many_rows: 2^25 + 77 rows of 4 (the 16-byte path) and of 3 columns,
 * A and x from seeds of the hidden seed, every row of y checked by the
 * judge's kernel (the test samples 4096) at the test's 1e-5 + 1e-5 |ref|,
 * nothing written outside y. 0, or -1 lost. */
static int gemv_many(jd *J, int loop, jd_tally *t)
{
    size_t cols = loop == 0 ? 4 : 3, rows = W13_GEMV_MANY_ROWS, m = rows * cols;
    char what[96];
    snprintf(what, sizeof what, "gemv %zu x %zu (more rows than warps)", rows, cols);
    t->tests++;
    float *dA = NULL, *dx = NULL, *hy = malloc(rows * 4);
    unsigned long long *bad = NULL, h[2] = { 0, 0 };
    int ia = jd_alloc(J, m * 4, (void **)&dA), ix = jd_alloc(J, cols * 4, (void **)&dx), rc = 0;
    jd_gbuf by = { -1, NULL, 0 };
    if (ia < 0 || ix < 0 || jd_gbuf_alloc(J, &by, rows * 4, t) != 0 || !hy || cudaMalloc((void **)&bad, 16) != cudaSuccess) {
        if (!t->msg[0]) jd_failf(t, "%s: buffers: %s", what, J->why);
        rc = -1;
        goto out;
    }
    unsigned long long sa = jd_mix(jd_seed ^ 0x6e31 ^ (unsigned long long)loop), sx = jd_mix(sa);
    wb_dfill_uniform_f32(dA, m, sa, -1, 1);
    wb_dfill_uniform_f32(dx, cols, sx, -1, 1);
    if (cudaDeviceSynchronize() != cudaSuccess || jd_gbuf_poison(&by, 0, rows * 4) != 0) {
        jd_failf(t, "%s: the judge's own fill failed", what);
        rc = -1;
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W13_FN_GEMV, 1, 3);
    rq.arg_buf[0][0] = ia, rq.arg_buf[0][1] = ix;
    jd_gbuf_arg(&rq, 2, &by, 0);
    rq.i64[0] = (long long)rows, rq.i64[1] = (long long)cols, rq.i64[2] = (long long)rows;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        rc = -1;
        goto out;
    }
    if (rp.status != 0) {
        jd_failf(t, "%s: gv_gemv returned %s", what, rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&by, 0, rows * 4, hy, "y", what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    if (jd_full_check_done(jd_rowdot_check_f32((const float *)(by.d + JD_GBAND), rows, cols, sa, sx, 1, -1, 1, 1e-5, 1e-5,
                                               bad, jd_stream),
                           bad, h) != 0) {
        jd_failf(t, "%s: the judge's check did not run", what);
        rc = -1;
    } else if (h[0]) {
        jd_failf(t, "%s: %llu of %zu rows wrong, the first y[%llu] = %.9g", what, h[0], rows, h[1], (double)hy[h[1]]);
    }
out:
    if (bad) cudaFree(bad);
    free(hy);
    jd_gbuf_free(J, &by);
    if (ia >= 0) jd_free(J, ia);
    if (ix >= 0) jd_free(J, ix);
    return rc;
}

static void judge_gemv(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    double *ref = malloc(W13_GEMV_MAX_ROWS * sizeof *ref);
    if (!ref) return jd_failf(t, "out of memory");
    jd_cases(J, t, 2, GV_IN_CAP, W13_GEMV_MAX_ROWS, (int)W13_GEMV_CASES, gemv_one, ref);
    free(ref);
    for (int loop = 0; loop < 2 && !J->lost; loop++)
        if (gemv_many(J, loop, t) < 0) break;
}

/* ---------------------------------------------------------------- cooperative groups */

/* cg_tile_sizes case i: the sum over its tiles, then the max on new data. */
static int cg_tile_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    double *ref = ctx;
    wb_rng r = wb_rng_for_seed(jd_seed, W13_CG_TILE_TAG, i);
    size_t n = W13_SIZES[i / 2];
    unsigned tile = w13_cg_tile(i);
    for (int op = 0; op < 2; op++) {
        const char *data = "uniform [-1, 1]";
        if (op == 0) w13_cg_tile_sum_fill(&r, i, B->h[0]);
        else data = w13_cg_tile_max_fill(&r, i, B->h[0]);
        w13_cg_tile_ref(op, tile, B->h[0], n, ref);
        char what[160];
        snprintf(what, sizeof what, "cg::reduce %s over tiles of %u, n=%zu (last tile %zu), %s", op == 0 ? "sum" : "max",
                 tile, n, n % tile ? n % tile : (size_t)tile, data);
        jd_case c;
        memset(&c, 0, sizeof c);
        c.fn = W13_FN_CG_TILE, c.fn_name = "cgr_tile_reduce", c.out_name = "out", c.what = what;
        c.in[0] = B->h[0], c.in_n[0] = n, c.n = (n + tile - 1) / tile, c.ref64 = ref;
        c.atol = op == 0 ? 1e-5 : 0, c.rtol = op == 0 ? 1e-6 : 0;
        c.i64[1] = op == 0 ? CGR_SUM : CGR_MAX, c.i64[2] = (long long)n, c.i64[3] = tile;
        if (jd_case_run(J, B, &c, t) < 0) return -1;
    }
    return 0;
}

/* cg_sum_exact (the test's sum_exact cases for cgr_sum), then cg_sum_float. */
static int cg_sum_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    double *ref = ctx;
    float *hx = B->h[0], want32 = 0;
    size_t n, off = 0;
    char what[160];
    jd_case c;
    memset(&c, 0, sizeof c);
    c.fn = W13_FN_CG_SUM, c.fn_name = "cgr_sum", c.out_name = "sum", c.what = what, c.n = 1, c.in[0] = hx;
    if (i < (int)W13_SUM_CASES) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_CG_SUM_EXACT_TAG, i);
        n = w13_sum_exact_n(i), off = (size_t)(i & 3);
        want32 = (float)w13_sum_exact_fill(&r, i, hx);
        c.ref = &want32;
        snprintf(what, sizeof what, "cgr_sum n=%zu, x+%zu, integer data", n, off);
    } else {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_CG_FLOAT_TAG, i - (int)W13_SUM_CASES);
        const char *data;
        n = w13_cg_sum_float_fill(&r, i - (int)W13_SUM_CASES, hx, &ref[0], &c.atol, &data);
        c.ref64 = ref;
        snprintf(what, sizeof what, "cgr_sum n=%zu, %s", n, data);
    }
    c.in_n[0] = n + off, c.in_off[0] = off, c.i64[1] = (long long)n;
    return jd_case_run(J, B, &c, t);
}

static const char *const REDUX_NAMES[3] = { "add", "max", "min" };

/* redux_sizes: the three ops of each size on the test's words, exact. 0, or -1 lost. */
static int redux_cases(jd *J, jd_tally *t)
{
    size_t cap = W13_SIZES[W13_N_SIZES - 1], gcap = (cap + 31) / 32;
    jd_gbuf bx = { -1, NULL, 0 }, bo = { -1, NULL, 0 };
    uint32_t *hx = malloc(cap * 4), *ref = malloc(gcap * 4), *got = malloc(gcap * 4);
    int rc = 0;
    if (!hx || !ref || !got) jd_failf(t, "out of memory"), rc = -1;
    else if (jd_gbuf_alloc(J, &bx, cap * 4, t) != 0 || jd_gbuf_alloc(J, &bo, gcap * 4, t) != 0) rc = -1;
    for (int i = 0; !rc && i < (int)W13_N_SIZES && !J->lost; i++) {
        wb_rng r = wb_rng_for_seed(jd_seed, W13_REDUX_TAG, i);
        size_t n = W13_SIZES[i], groups = (n + 31) / 32;
        const char *data = w13_redux_fill(&r, i, hx);
        if (jd_gbuf_put(&bx, 0, hx, n * 4) != 0) {
            jd_failf(t, "the judge's own copies failed");
            rc = -1;
            break;
        }
        for (int op = 0; op < 3 && !rc; op++) {
            char what[160];
            snprintf(what, sizeof what, "__reduce_%s_sync, n=%zu (last warp %zu lanes), %s", REDUX_NAMES[op], n,
                     n % 32 ? n % 32 : 32, data);
            w13_redux_ref(op, hx, n, ref);
            t->tests++;
            if (jd_gbuf_poison(&bo, 0, groups * 4) != 0) {
                jd_failf(t, "the judge's own copies failed");
                rc = -1;
                break;
            }
            jd_gbuf *b[2] = { n ? &bx : NULL, &bo };
            size_t lead[2] = { 0, 0 };
            long long i64[8] = { 0, op, (long long)n };
            int c = call(J, W13_FN_REDUX, 2, b, lead, i64, "cgr_warp_u32", what, t);
            if (c < 0) rc = -1;
            if (c) continue;
            int f = jd_gbuf_fetch(&bo, 0, groups * 4, got, "out", what, t);
            if (f < 0) rc = -1;
            if (f) continue;
            for (size_t g = 0; g < groups; g++)
                if (got[g] != ref[g]) {
                    jd_failf(t, "%s: out[%zu] expected %u got %u", what, g, ref[g], got[g]);
                    break;
                }
        }
    }
    free(hx), free(ref), free(got);
    jd_gbuf_free(J, &bx), jd_gbuf_free(J, &bo);
    return rc;
}

/* One call that must return cudaErrorInvalidValue (NULL buffers). */
static void refused(jd *J, int fn, long long op, long long tile, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 2);
    rq.i64[1] = op, rq.i64[2] = 10, rq.i64[3] = tile;
    t->tests++;
    if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "%s: %s", what, J->why);
    else if (rp.status != (int)cudaErrorInvalidValue)
        jd_failf(t, "%s must return cudaErrorInvalidValue (it returned %s)", what,
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
}

static void judge_cg(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    double *ref = malloc(WR_IN_CAP * sizeof *ref);
    if (!ref) return jd_failf(t, "out of memory");
    jd_cases(J, t, 1, WR_IN_CAP, WR_IN_CAP / 8 + 1, (int)W13_CG_TILE_CASES, cg_tile_one, ref);
    if (!J->lost) jd_cases(J, t, 1, BR_IN_CAP, 1, (int)W13_SUM_CASES + W13_N_CG_FLOAT, cg_sum_one, ref);
    free(ref);
    if (J->lost || redux_cases(J, t) < 0 || J->lost) return;
    refused(J, W13_FN_CG_TILE, CGR_MIN, 32, "cgr_tile_reduce(CGR_MIN, 32, ...)", t);
    refused(J, W13_FN_CG_TILE, CGR_SUM, 16, "cgr_tile_reduce(CGR_SUM, 16, ...)", t);
    refused(J, W13_FN_CG_TILE, CGR_MAX, 0, "cgr_tile_reduce(CGR_MAX, 0, ...)", t);
    refused(J, W13_FN_REDUX, 3, 0, "cgr_warp_u32(3, ...)", t);
    refused(J, W13_FN_REDUX, -1, 0, "cgr_warp_u32(-1, ...)", t);
}

/* ---------------------------------------------------------------- the COPY-timed checkpoints */

/* Row sums and GEMV of rows of 1024 floats, wb_bench_bytes() of matrix:
 * the look's expected row (the double sum, or dot with x, on the host) and
 * every row of every output by the judge's kernel, at the test's tolerance
 * (rows: 1e-4 cols / 1024 + 1e-5 |ref|; GEMV 1e-4 + 1e-5 |ref|). */
#define BENCH_COLS 1024

static float rowdot_expect(const jd_bench *b, const unsigned long long *seed, size_t r)
{
    size_t cols = (size_t)b->i64[1];
    int has_x = b->n_in == 2;
    double s = 0;
    for (size_t c = 0; c < cols; c++) {
        double a = wb_hash_uniform_f32(seed[0], r * cols + c, b->lo, b->hi);
        s += has_x ? a * wb_hash_uniform_f32(seed[1], c, b->lo, b->hi) : a;
    }
    return (float)s;
}

static int rowdot_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                        unsigned long long h[2])
{
    int has_x = b->n_in == 2;
    return jd_full_check_done(jd_rowdot_check_f32(out, (size_t)b->i64[2], (size_t)b->i64[1], seed[0], has_x ? seed[1] : 0,
                                                  has_x, b->lo, b->hi, b->atol, b->rtol, bad, jd_stream),
                              bad, h);
}

static jd_bench g_bench;  /* large: its sample arrays */
static jd_bench g_yard_b; /* a yardstick's, through the yard runner */

/* br_rowsum (yard 0) or CUB's row sums (W13_YARD_CUB_ROWSUM_*) of rows of
 * 1024 floats in [-1, 1), wb_bench_bytes() of matrix. */
static void rowsum_bench(jd_bench *x, int fn)
{
    memset(x, 0, sizeof *x);
    size_t rows = wb_bench_bytes() / (BENCH_COLS * 4);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = rows * BENCH_COLS, x->out_n = rows;
    x->lo = -1.0f, x->hi = 1.0f, x->atol = 1e-4 * BENCH_COLS / 1024, x->rtol = 1e-5;
    x->i64[1] = BENCH_COLS, x->i64[2] = (long long)rows;
    x->expect = rowdot_expect, x->full_check = rowdot_check, x->out_name = "out";
    x->fn_name = fn == W13_FN_ROWSUM ? "br_rowsum" : fn == W13_YARD_CUB_ROWSUM_BLOCK ? "CUB BlockLoad + BlockReduce"
                                                                                   : "cub::DeviceSegmentedReduce::Sum";
}

/* GB/s of the row sums: the matrix read and the sums written. */
static double rowsum_gbps(const jd_bench *x, double ms)
{
    return 4.0 * (double)(x->n + (size_t)x->i64[2]) / (ms * 1e-3) / 1e9;
}

/* w13.shfl-speed: br_rowsum against COPY. */
static void judge_shfl_speed(jd_ck *k)
{
    rowsum_bench(&g_bench, W13_FN_ROWSUM);
    jd_bw_checkpoint(k, &g_bench, TIMED, 4.0 * (double)(g_bench.n + (size_t)g_bench.i64[2]) / (double)g_bench.n,
                     "br_rowsum, 1024 cols");
}

/* w13.shfl-cub's yardstick: the faster of CUB's two row sums, each through
 * the yard runner (jd_yard_bench); NAN when both failed (g_cub_why). */
static double g_cub_before = NAN;
static char   g_cub_why[700];

static double cub_rowsum_figure(void)
{
    double best = NAN;
    for (int fn = W13_YARD_CUB_ROWSUM_BLOCK; fn <= W13_YARD_CUB_ROWSUM_SEG; fn++) {
        double ms = NAN;
        rowsum_bench(&g_yard_b, fn);
        if (jd_yard_bench(W13_YARD_RUNNER, &g_yard_b, TIMED, &ms, g_cub_why, sizeof g_cub_why) != 0) continue;
        double v = rowsum_gbps(&g_yard_b, ms);
        if (!(best >= v)) best = v;
    }
    return best;
}

static void before_shfl_cub(void) { g_cub_before = cub_rowsum_figure(); }

/* The student's call x timed, then CUB's (figure(): GB/s, or NAN with
 * yard_why) again: the larger of `before` and now (the student's runner can
 * only slow the GPU down); bytes_per_elem bytes an element of x. */
static void cub_speed(jd_ck *k, jd_bench *x, double bytes_per_elem, double (*figure)(void), double before,
                      const char *yard_why, const char *label)
{
    double ms = NAN, value = NAN, yard = NAN;
    char why[700] = "", detail[200] = "";
    if (jd_bench_run(k->J, x, TIMED, &ms, why, sizeof why) == 0) {
        yard = figure();
        if (before > yard || !(yard > 0)) yard = before;
        if (!(yard > 0)) snprintf(why, sizeof why, "no yardstick figure: %s", yard_why);
        value = bytes_per_elem * (double)x->n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.4g GB/s vs CUB %.4g (judge's clock, %d calls a request, median of %d)", value,
                 yard, x->k, TIMED);
        printf("  %s: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", label, ms, x->runner_ms,
               detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "", yard, detail, why);
}

/* w13.shfl-cub: br_rowsum against CUB's faster row sums. */
static void judge_shfl_cub(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    rowsum_bench(&x, W13_FN_ROWSUM);
    cub_speed(k, &x, 4.0 * (double)(x.n + (size_t)x.i64[2]) / (double)x.n, cub_rowsum_figure, g_cub_before, g_cub_why,
              "br_rowsum vs CUB");
}

/* w13.gemv-bw: gv_gemv on rows of 1024 floats (A and x in [-1, 1)); bytes:
 * A, x and y, each once. x's buffer is as large as A's (the protocol's
 * inputs are one size); the call reads its first 1024. */
static void judge_gemv_bw(jd_ck *k)
{
    jd_bench *x = &g_bench;
    memset(x, 0, sizeof *x);
    size_t rows = wb_bench_bytes() / (BENCH_COLS * 4);
    x->fn = W13_FN_GEMV, x->n_in = 2, x->max_k = JD_BENCH_MAX_K, x->n = rows * BENCH_COLS, x->out_n = rows;
    x->lo = -1.0f, x->hi = 1.0f, x->atol = 1e-4, x->rtol = 1e-5;
    x->i64[1] = BENCH_COLS, x->i64[2] = (long long)rows;
    x->expect = rowdot_expect, x->full_check = rowdot_check, x->fn_name = "gv_gemv", x->out_name = "y";
    jd_bw_checkpoint(k, x, TIMED, 4.0 * (double)(x->n + BENCH_COLS + rows) / (double)x->n, "gv_gemv, 1024 cols");
}

/* The double sum of the last seed asked, from the judge's kernel. */
static int sum_wanted(const jd_bench *b, unsigned long long seed, double *sum)
{
    static double *d, have_sum;
    static unsigned long long have;
    static int ok;
    if (ok && have == seed) return *sum = have_sum, 0;
    ok = 0;
    if (!d && cudaMalloc((void **)&d, sizeof *d) != cudaSuccess) return d = NULL, -1;
    if (cudaMemsetAsync(d, 0, sizeof *d, jd_stream) != cudaSuccess ||
        jd_hash_sum_f64(b->n, seed, b->lo, b->hi, d, jd_stream) != cudaSuccess ||
        cudaMemcpyAsync(&have_sum, d, sizeof have_sum, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    have = seed, ok = 1, *sum = have_sum;
    return 0;
}

static float sum_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    (void)i;
    double s;
    return sum_wanted(b, seed[0], &s) != 0 ? NAN : (float)s;
}

static int sum_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                     unsigned long long h[2])
{
    (void)bad;
    float got;
    double s;
    if (sum_wanted(b, seed[0], &s) != 0 || cudaMemcpyAsync(&got, out, 4, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    h[0] = !wb_close(got, s, b->atol, 0), h[1] = 0;
    return 0;
}

/* w13.reduce-bw: br_sum of wb_bench_bytes() of floats in [0, 1), one float
 * out, within the test's 1e-5 sum |x| (taken at 0.4999 n: sum |x| is n / 2
 * within a few 1e-5 of it, so no laxer) of the double sum; bytes: x read. */
static void judge_reduce_bw(jd_ck *k)
{
    jd_bench *x = &g_bench;
    memset(x, 0, sizeof *x);
    x->fn = W13_FN_SUM, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = wb_bench_bytes() / 4, x->out_n = 1;
    x->lo = 0.0f, x->hi = 1.0f, x->atol = 1e-5 * 0.4999 * (double)x->n;
    x->i64[1] = (long long)x->n;
    x->expect = sum_expect, x->full_check = sum_check, x->fn_name = "br_sum", x->out_name = "sum";
    jd_bw_checkpoint(k, x, TIMED, 4.0, "br_sum");
}

/* ---------------------------------------------------------------- the timed scan */

#define SCAN_BITS 4 /* the timed inputs in [0, 16), as the test's */

/* The prefix sums of the last seed asked (the look asks JD_SAMPLES times a
 * rep, the full check once), on the device: 0, or -1 when a kernel failed. */
static int scan_wanted(const jd_bench *b, unsigned long long seed, const uint32_t **ref)
{
    static uint32_t *d;
    static size_t cap;
    static unsigned long long have;
    static int ok;
    if (b->n > cap) {
        if (d) cudaFree(d);
        d = NULL, cap = 0, ok = 0;
        if (cudaMalloc((void **)&d, b->n * 4) != cudaSuccess) return d = NULL, -1;
        cap = b->n;
    }
    *ref = d;
    if (ok && have == seed) return 0;
    ok = 0;
    if (jd_hash_prefix_u32(b->n, seed, SCAN_BITS, d, jd_stream) != cudaSuccess) return -1;
    have = seed, ok = 1;
    return 0;
}

/* y[i]'s bits as a float (compared bit for bit: JD_BITWISE); NaN when the kernel failed. */
static float scan_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const uint32_t *ref;
    uint32_t u;
    float f;
    if (scan_wanted(b, seed[0], &ref) != 0 || cudaMemcpy(&u, ref + i, 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return NAN;
    memcpy(&f, &u, 4);
    return f;
}

static int scan_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const uint32_t *ref;
    if (scan_wanted(b, seed[0], &ref) != 0) return -1;
    return jd_full_check_done(jd_u32_check((const unsigned *)out, ref, b->n, bad, jd_stream), bad, h);
}

static void scan_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    jd_hash_u32((unsigned *)in, b->n, seed, SCAN_BITS, 0);
}

/* scan1pass (yard 0: the student's, shake 0, the runner's workspace kept)
 * or CUB's InclusiveSum on wb_bench_bytes() / 4 int32. */
static void scan_bench(jd_bench *x, int yard)
{
    memset(x, 0, sizeof *x);
    x->fn = yard ? W13_YARD_CUB_SCAN : W13_FN_SCAN1, x->n_in = 1, x->max_k = JD_BENCH_MAX_K;
    x->n = wb_bench_bytes() / 4, x->fill = scan_fill, x->atol = JD_BITWISE;
    x->i64[1] = 0, x->i64[2] = W13_WS_KEEP;
    x->expect = scan_expect, x->full_check = scan_check;
    x->fn_name = yard ? "cub::DeviceScan::InclusiveSum" : "scan1pass", x->out_name = "y";
}

static double   g_scan_before = NAN;     /* CUB's figure before the student's runner started */
static char     g_yard_why[700];

/* CUB's scan through the week's yard runner: GB/s (x read, y written), or NAN (g_yard_why). */
static double cub_scan_figure(void)
{
    scan_bench(&g_yard_b, 1);
    double ms = NAN;
    if (jd_yard_bench(W13_YARD_RUNNER, &g_yard_b, TIMED, &ms, g_yard_why, sizeof g_yard_why) != 0) return NAN;
    return 8.0 * (double)g_yard_b.n / (ms * 1e-3) / 1e9;
}

static void before_scan(void) { g_scan_before = cub_scan_figure(); }

/* w13.scan-speed: scan1pass against CUB's InclusiveSum. */
static void judge_scan_speed(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    scan_bench(&x, 0);
    cub_speed(k, &x, 8.0, cub_scan_figure, g_scan_before, g_yard_why, "scan1pass");
}

static const jd_checkpoint CPS[] = {
    { "w13.masks", judge_masks_gpu, judge_masks, 1, 0 },
    { "w13.warpreduce", judge_warpreduce, NULL, 0, 0 },
    { "w13.warpscan", judge_warpscan, NULL, 0, 0 },
    { "w13.vote", judge_vote, NULL, 0, 0 },
    { "w13.blockreduce", judge_blockreduce, NULL, 0, 0 },
    { "w13.shfl-speed", judge_shfl_speed, NULL, 0, 8 },
    { "w13.shfl-cub", judge_shfl_cub, NULL, 0, 0, before_shfl_cub },
    { "w13.reduce-bw", judge_reduce_bw, NULL, 0, 8 },
    { "w13.gemv", judge_gemv, NULL, 0, 0 },
    { "w13.gemv-bw", judge_gemv_bw, NULL, 0, 8 },
    { "w13.cg", judge_cg, NULL, 0, 0 },
    { "w13.scan1pass", judge_scan1, NULL, 0, 0 },
    { "w13.scan-speed", judge_scan_speed, NULL, 0, 0, before_scan },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w13", "phase3/week13", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
