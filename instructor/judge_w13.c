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
 * the hidden seed); every output is a guarded byte buffer (jd_gbuf: 256
 * bytes of poison on each side and the lead before an offset output), a
 * write outside it fails, and an element still the poison counts as wrong.
 *   w13.scan1pass   scan1pass on the test's 16 cases (n = 0, 1, 31, 33, a
 *                   tile -1, a tile, a tile +1, two tiles, 32, 33 and 37
 *                   tiles, 1000003, 256 tiles and 3072 tiles + 77; x and y
 *                   0-3 ints off alignment; the whole int32 range or
 *                   [-1000, 1000]), each run twice on one workspace of the
 *                   runner's (scan1pass_tmp_bytes(n) bytes, every byte 0xff
 *                   before the first run, the second run on what the first
 *                   left), y poisoned before each run; 100M+ 7 ints of the
 *                   whole range once (16M + 7 when the GPU has not 2n ints
 *                   and 1 GB free, as the test); the three shaken cases
 *                   (40 tiles + 17, up to 3M, 2^24 + 3, values in [-1000,
 *                   1000]) with the test's odd shake, which makes random
 *                   tiles wait before they publish, each twice; every
 *                   element exact modulo 2^32; and n = SCAN1_TILE x 2^31
 *                   refused with cudaErrorInvalidValue.
 *   w13.scan-speed  the timed-call protocol (judge_week.h): K calls a
 *                   request, each on its own wb_bench_bytes() / 4 int32
 *                   fresh from the hidden seed (jd_hash_u32: values in
 *                   [0, 16), as the test's, so CUB's signed sums never
 *                   overflow) and its own poisoned y, shake 0, the runner's
 *                   workspace kept across calls (the test allocates it
 *                   before timing); the judge's look after the reply and
 *                   every element of every y checked bit for bit after the
 *                   timing against the prefix sums the judge's kernels
 *                   compute from the input's seed (jd_hash_prefix_u32); the
 *                   median of 7 requests, 8 bytes an element, against CUB's
 *                   DeviceScan::InclusiveSum (support/yard_cub_scan.cu) run
 *                   and timed by the judge through a runner of the
 *                   instructor's (judge_w13_yard_runner.c, with that given
 *                   object alone, beside the judge; jd_yard_bench) on the
 *                   same protocol, sizes and checks, before the student's
 *                   runner starts and after its timing, the larger figure
 *                   taken; the target for this GPU from week.txt. (The
 *                   test also prints both against a device-to-device copy;
 *                   not judged, not printed here.)
 * Left to the linked test (judge-w13 --list does not name them; the grader
 * runs them in the week's test program and says so): w13.masks,
 * w13.warpreduce, w13.warpscan, w13.vote, w13.blockreduce, w13.shfl-speed,
 * w13.shfl-cub, w13.reduce-bw, w13.gemv, w13.gemv-bw and w13.cg — not yet
 * written here, not for a reason of principle: each is a correctness or a
 * timed checkpoint a judge can form. Not yet run on a GPU; without a GPU
 * every checkpoint is SKIP (instructor/tests/judge_w13.sh). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_kernels.h"
#include "judge_w13.h"
#include "judge_week.h"
#include "w13_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"

/* The call: buffer arguments (gbufs, NULL for none) at byte leads; 0, 1 (a
 * status other than success: t has it), -1 (the runner is lost). */
static int call(jd *J, int fn, int nargs, jd_gbuf *const *b, const size_t *lead, const long long *i64,
                const char *fn_name, const char *what, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, nargs);
    for (int a = 0; a < nargs; a++) jd_gbuf_arg(&rq, a, b[a], b[a] ? lead[a] : 0);
    for (int k = 0; k < 8; k++) rq.i64[k] = i64[k];
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0)
        return jd_failf(t, "%s: %s returned %s", what, fn_name,
                        rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status)),
               1;
    return 0;
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

/* ---------------------------------------------------------------- the timed scan */

#define TIMED     7
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

static jd_bench g_yard_b;                /* large: its sample arrays */
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

/* The student's scan timed, then CUB's again: the larger of before and now
 * (the student's runner can only slow the GPU down). */
static void judge_scan_speed(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    scan_bench(&x, 0);
    double ms = NAN, value = NAN, yard = NAN;
    char why[700] = "", detail[200] = "";
    if (jd_bench_run(k->J, &x, TIMED, &ms, why, sizeof why) == 0) {
        yard = cub_scan_figure();
        if (g_scan_before > yard || !(yard > 0)) yard = g_scan_before;
        if (!(yard > 0)) snprintf(why, sizeof why, "no yardstick figure: %s", g_yard_why);
        value = 8.0 * (double)x.n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.4g GB/s vs CUB %.4g (judge's clock, %d calls a request, median of %d)", value,
                 yard, x.k, TIMED);
        printf("  scan1pass: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", ms, x.runner_ms,
               detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w13.scan1pass", judge_scan1, NULL, 0, 0 },
    { "w13.scan-speed", judge_scan_speed, NULL, 0, 0, before_scan },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w13", "phase3/week13", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
