/* judge_w11.c — build/instructor/judge-w11: week 11's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's polyt.o is linked into the runner (judge_w11_runner.c, with
 * the week's given support/yard_slow.o as the test program has it), which
 * this process starts (or is handed) and asks to call polyt on buffers it
 * allocated (judge.h). It poisons, fills, times and checks, and writes the
 * results record itself, outside the runner's reach. The command line, the
 * runner's start, the record, the checked case and the timed-call protocol
 * are judge_week.c's:
 *
 *   judge-w11 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week11.c's (shared through phase2/week11/w11_checks.h):
 *   w11.polyt        every shape of W11_SHAPES (0x0, 0x5, 1x1, a row, a
 *                    column, one tile, odd edges, 2048x4096, 4099x1031),
 *                    each case drawn as the test draws it for the seed
 *                    (wb_rng_for_seed with the test's tag: its coefficients,
 *                    its input and the two NaN it plants), every element of
 *                    the transposed output against the double reference at
 *                    1e-5 + 1e-5 |ref| (NaN where NaN is due, the poison
 *                    left there counted as not written), nothing written
 *                    outside it (a poisoned guard band of 64 floats each
 *                    side, as the test's); then 4 shapes of the judge's own,
 *                    drawn from the hidden seed (a short wide one, a tall
 *                    narrow one, two up to 2896 x 2896), checked the same
 *                    way: "any shape", not only the test's (stricter);
 *   w11.polyt-speed  the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own 8192 x 8192 input and output,
 *                    fresh inputs from the hidden seed and 16 new
 *                    coefficients (of the test's scale: j's under
 *                    1/(j+1)) before every request (they travel in the
 *                    request, so the runner cannot compute an output as it
 *                    watches the judge fill the input), a poisoned output,
 *                    the judge's look after the reply and every output
 *                    checked in full by the judge's kernel
 *                    (jd_polyt_check_f32, at 1e-5 + 1e-5 |ref| against the
 *                    double reference: the linked test samples 4096); the
 *                    median of 7 requests. The yardstick, GIVEN, is the
 *                    week's given kernel (yard_polyt_given, support/
 *                    yard_slow.cu), instructor code: the judge times it
 *                    itself through the same protocol (jd_yard_bench: a
 *                    runner of the instructor's, judge-w11-yard-runner
 *                    beside the judge, linked with the instructor's
 *                    yard_slow.o and no student object), on the same sizes
 *                    and the same data (the same seed: each request's input
 *                    and coefficients are the student's run's), every
 *                    output checked in full too. It is timed once before
 *                    the student's runner starts and once after the
 *                    student's timed calls, the faster kept (a runner can
 *                    only slow the judge's GPU down, which would flatter a
 *                    ratio to a slowed yardstick), as COPY is kept in
 *                    weeks 01, 03 and 04. The ratio is the given kernel's
 *                    time over polyt's (8 bytes an element both ways), the
 *                    target week.txt's (10x).
 * Every checkpoint of week 11 is judged: none is left to the linked test.
 * Run on an H200 (2026-11-29) through the grader: the
 * reference full marks on both, the starter 0. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w11.sh (both checkpoints SKIP, never PASS). */
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
#include "judge_w11.h"
#include "judge_week.h"
#include "w11_checks.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the benchmark's inputs, as test_week11.c fills them */
#define HI    1.0f

/* ---------------------------------------------------------------- polyt */

#define DRAWN_TAG "w11_polyt_drawn" /* the judge's own shapes (not the test's) */
#define N_DRAWN   4

/* Drawn shape c: short and wide, tall and narrow, then two squarish, each
 * at most W11_MAX_N elements. */
static void drawn_shape(wb_rng *r, int c, int *rows, int *cols)
{
    int a = (int)wb_rng_int(r, 1, 64), b = (int)wb_rng_int(r, 1, 100000);
    if (c >= 2) a = (int)wb_rng_int(r, 1, 2896), b = (int)wb_rng_int(r, 1, 2896);
    *rows = c == 1 ? b : a, *cols = c == 1 ? a : b;
}

/* Case i: the test's shapes, then the judge's drawn ones, each drawn for
 * this seed (w11_checks.h: coefficients, input, NaN); ctx: room for the
 * reference. */
static int polyt_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    double *ref = ctx;
    int drawn = i >= (int)W11_N_SHAPES, c = drawn ? i - (int)W11_N_SHAPES : i, rows, cols;
    wb_rng rng = wb_rng_for_seed(jd_seed, drawn ? DRAWN_TAG : W11_SHAPES_TAG, c);
    if (drawn) drawn_shape(&rng, c, &rows, &cols);
    else rows = W11_SHAPES[c][0], cols = W11_SHAPES[c][1];
    size_t n = (size_t)rows * cols;
    float coef[POLYT_TERMS];
    w11_draw(&rng, rows, cols, coef, B->h[0]);
    w11_polyt_ref(B->h[0], rows, cols, coef, ref);
    char what[64];
    snprintf(what, sizeof what, "rows=%d cols=%d", rows, cols);
    jd_case cs = { .fn = W11_FN_POLYT, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref64 = ref, .atol = W11_ATOL,
                   .rtol = W11_RTOL, .i64 = { 0, rows, cols }, .what = what, .out_name = "out", .fn_name = "polyt" };
    w11_coef_pack(cs.i64, cs.f64, coef);
    return jd_case_run(J, B, &cs, t);
}

static void judge_polyt(jd_ck *k)
{
    double *ref = malloc(W11_MAX_N * sizeof *ref);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, W11_MAX_N, W11_MAX_N, (int)W11_N_SHAPES + N_DRAWN, polyt_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- speed */

/* out[c * rows + r] = p(x), x the input's element (r, c) as the judge
 * filled it from seed[0]: the look's expected value (rounded once from
 * double), and the judge's kernel over a whole output. */
static float polyt_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t rows = (size_t)b->i64[1], cols = (size_t)b->i64[2], c = i / rows, r = i % rows;
    float coef[POLYT_TERMS];
    w11_coef_unpack(b->i64, b->f64, coef);
    return (float)w11_poly_ref(wb_hash_uniform_f32(seed[0], r * cols + c, b->lo, b->hi), coef);
}

static int polyt_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    float coef[POLYT_TERMS];
    w11_coef_unpack(b->i64, b->f64, coef);
    return jd_full_check_done(jd_polyt_check_f32(out, (int)b->i64[1], (int)b->i64[2], seed[0], b->lo, b->hi, coef,
                                                 b->atol, b->rtol, bad, jd_stream),
                              bad, h);
}

/* 16 coefficients, new for every request (drawn from the hidden value r):
 * coefficient j in (-1/(j+1), 1/(j+1)), the scale of the linked test's
 * fixed ones ((j % 3 - 1) / (j + 1)), so that |p| stays under 3.4 and the
 * given kernel's float sum of pow() terms keeps well inside 1e-5 too. The
 * same sequence for the student's run and the given kernel's: both start
 * from the same seed. */
static void fresh_coef(jd_bench *b, uint64_t r)
{
    float coef[POLYT_TERMS];
    for (int j = 0; j < POLYT_TERMS; j++)
        coef[j] = (float)((-1.0 + 2.0 * (double)((r = jd_mix(r)) >> 40) / 16777216.0) / (j + 1));
    w11_coef_pack(b->i64, b->f64, coef);
}

static jd_bench g_mine, g_given; /* large: their sample arrays */
static double   g_given_before_ms = NAN;
static char     g_given_before_why[600];

static void bench_setup(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = (size_t)W11_BENCH_ROWS * W11_BENCH_COLS;
    x->lo = LO, x->hi = HI, x->atol = W11_ATOL, x->rtol = W11_RTOL;
    x->i64[1] = W11_BENCH_ROWS, x->i64[2] = W11_BENCH_COLS;
    x->fn_name = fn_name, x->out_name = "out";
    x->fresh = fresh_coef, x->expect = polyt_expect, x->full_check = polyt_check;
}

/* Before the student's runner starts (jd_checkpoint.yard_before): the
 * given kernel through the yard runner, ms a call, or NAN with why. */
static void given_before(void)
{
    bench_setup(&g_given, W11_FN_GIVEN, "yard_polyt_given");
    if (jd_yard_bench(W11_YARD_RUNNER, &g_given, TIMED, &g_given_before_ms, g_given_before_why,
                      sizeof g_given_before_why) != 0)
        g_given_before_ms = NAN;
}

/* w11.polyt-speed: polyt and the given kernel on the same data, both by
 * the judge's clock through the same protocol; the ratio of their times. */
static void judge_speed(jd_ck *k)
{
    double ms = NAN, given = NAN, value = NAN, yard = NAN;
    char why[600] = "", gwhy[600] = "", detail[200] = "";
    bench_setup(&g_mine, W11_FN_POLYT, "polyt");
    if (jd_bench_run(k->J, &g_mine, TIMED, &ms, why, sizeof why) == 0) {
        double after = NAN, before = g_given_before_ms;
        bench_setup(&g_given, W11_FN_GIVEN, "yard_polyt_given");
        given = jd_yard_faster(W11_YARD_RUNNER, &g_given, TIMED, before, g_given_before_why, &after, gwhy, sizeof gwhy);
        if (!(given > 0)) {
            snprintf(why, sizeof why, "no figure for the given kernel: %s", gwhy);
        } else {
            double bytes = 8.0 * (double)g_mine.n;
            value = bytes / (ms * 1e-3) / 1e9, yard = bytes / (given * 1e-3) / 1e9;
            snprintf(detail, sizeof detail, "%.3f ms vs the given kernel's %.3f ms a call, %.0f vs %.0f GB/s (judge's "
                     "clock, %d calls a request, median of %d)", ms, given, value, yard, g_mine.k, TIMED);
            printf("  polyt: %.4f ms a call by the judge's clock (%.4f by the runner's own); the given kernel %.4f "
                   "(before the runner %.4f, after %.4f): %.2fx\n", ms, g_mine.runner_ms, given, before, after, given / ms);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "GIVEN", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w11.polyt", judge_polyt, NULL, 0, 0, NULL },
    { "w11.polyt-speed", judge_speed, NULL, 0, 0, given_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w11", "phase2/week11", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
