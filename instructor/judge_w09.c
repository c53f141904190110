/* judge_w09.c — build/instructor/judge-w09: week 09's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's intensity.o and sweep.o are linked into the runner
 * (judge_w09_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case, the timed-call protocol and the COPY yardstick are judge_week.c's:
 *
 *   judge-w09 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week09.c's (shared through phase2/week09/w09_checks.h):
 *   w09.intensity  the test's two intensity checks (w09_checks.h) on the
 *                  student's functions called through the runner, with or
 *                  without a GPU (a CPU checkpoint: it PASSes or FAILs
 *                  without one, as the linked test does);
 *   w09.sweep      the test's 26 cases (every size of W09_SIZES, 0 to 2^22,
 *                  each with a k of W09_KS, 0 to 64; odd cases with NaN and
 *                  +-Inf in front), each drawn as the test draws it for the
 *                  seed (wb_rng_for_seed with the test's tag: its a, b and
 *                  inputs), against the CPU replay (fmaf) with the test's
 *                  tolerance, nothing written outside y (a poisoned guard
 *                  band on each side);
 *   w09.roof-low   the timed-call protocol (judge_week.h): K calls a
 *   w09.roof-high  request, each on its own x and y of wb_bench_bytes()
 *                  (as the test's, a multiple of 16 bytes), x fresh from the
 *                  hidden seed and a and b new before every request (so the
 *                  outputs cannot be computed as the judge fills the
 *                  inputs), a poisoned output, the judge's look after the
 *                  reply and every output checked in full against the
 *                  replay by the judge's kernel (the test samples 2^14
 *                  points); the median of 7 requests; k = 1 (0.25 flop/byte)
 *                  and k = 1024 (256 flop/byte), 2 k n flops a call, against
 *                  the ROOF as the test computes it (w09_roof): the lower of
 *                  k / 4 times COPY, timed by the judge through the yard
 *                  runner and the same protocol (jd_copy_yard: before any
 *                  student code ran and after, the larger), and the FMA peak
 *                  as the test takes it (w09_fmapeak_gflops: the given
 *                  support/yard_fmapeak.cu kernel, built from the
 *                  workbook's own copy and linked into this judge, timed by
 *                  wb_time in the judge's own process, 3 warm-ups and the
 *                  median of 20; measured before the runner started
 *                  (yard_before) and after the student's timed
 *                  requests, the larger, since a runner can only slow the
 *                  judge's GPU down; not through the protocol: a launch
 *                  runs for milliseconds, and the protocol's cost, tens of
 *                  microseconds a request of K calls, is far under a per
 *                  cent of the student's figure at k = 1024); the target
 *                  for this GPU from week.txt.
 * Not listed (judge-w09 --list), so the grader runs it in the week's linked
 * test program: w09.plot (the sweep's CSV and PNG are files the test writes
 * in the student's build folder from figures measured in the student's
 * process, and the PNG is drawn by gnuplot there; it has no target. What
 * it would add to a verdict, that the kernel is correct and measurable at
 * every k, the judge's w09.sweep and the two roof checkpoints establish
 * outside the student's process at both ends of the sweep).
 * Run on an H200 (2026-11-29) through the grader: the
 * reference full marks on all four, the starter 0. Without a GPU the plumbing and the intensity
 * checkpoint are tested by instructor/tests/judge_w09.sh. */
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
#include "judge_w09.h"
#include "judge_week.h"
#include "w09_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the timed runs' inputs, as test_week09.c fills them */
#define HI    1.0f

/* ---------------------------------------------------------------- intensity */

/* The student's functions, called through the runner: w09_checks.h's checks
 * run on these exactly as the test runs them on the linked functions. A
 * runner that is gone, or a call that fails, answers NaN (and -2 for the
 * bound): the check then fails; the message says the runner is gone. */
static jd *g_J;

static w09_in_reply in_call(int which, double a, double b, double c, double d)
{
    w09_in_reply r = { NAN, -2 };
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W09_FN_INTENSITY, 1, 0);
    rq.i64[0] = which, rq.f64[0] = a, rq.f64[1] = b, rq.f64[2] = c, rq.f64[3] = d;
    if (jd_call(g_J, &rq, &rp, NULL) == 0 && rp.status == 0 && rp.out_len == sizeof r) memcpy(&r, rp.out, sizeof r);
    return r;
}
static double in_of(double flops, double bytes) { return in_call(W09_IN_OF, flops, bytes, 0, 0).value; }
static double in_vecadd(void) { return in_call(W09_IN_VECADD, 0, 0, 0, 0).value; }
static double in_saxpy(void) { return in_call(W09_IN_SAXPY, 0, 0, 0, 0).value; }
static double in_dot(void) { return in_call(W09_IN_DOT, 0, 0, 0, 0).value; }
static double in_stencil5(void) { return in_call(W09_IN_STENCIL5, 0, 0, 0, 0).value; }
static double in_gemm(double m, double n, double k, double e) { return in_call(W09_IN_GEMM, m, n, k, e).value; }
static double in_roof(double ai, double gbps, double peak) { return in_call(W09_IN_ROOF, ai, gbps, peak, 0).value; }
static double in_ridge(double gbps, double peak) { return in_call(W09_IN_RIDGE, gbps, peak, 0, 0).value; }
static int in_bound(double ai, double gbps, double peak) { return in_call(W09_IN_MEMORY_BOUND, ai, gbps, peak, 0).bound; }

static const w09_intensity_ops OPS = { in_of, in_vecadd, in_saxpy, in_dot, in_stencil5,
                                       in_gemm, in_roof, in_ridge, in_bound };

/* the test's two checks (intensity_given_kernels, intensity_roof_and_ridge), each a test */
static void judge_intensity(jd *J, jd_tally *t)
{
    int (*check[2])(const w09_intensity_ops *, char *, size_t) = { w09_intensity_given, w09_intensity_roof };
    g_J = J;
    for (int i = 0; i < 2 && !J->lost; i++) {
        char why[400];
        t->tests++;
        if (check[i](&OPS, why, sizeof why) != 0) {
            if (J->lost) jd_failf(t, "%s", J->why);
            else jd_failf(t, "%s", why);
        }
    }
}

static void judge_intensity_gpu(jd_ck *k) { judge_intensity(k->J, k->t); }

/* ---------------------------------------------------------------- sweep */

/* Case i: the test's size and k, drawn for this seed (w09_checks.h): a, b
 * and the input (the NaN and Inf it plants), against the CPU replay with
 * the test's tolerance. ctx: room for the expected output. */
static int sweep_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    wb_rng rng = wb_rng_for_seed(jd_seed, W09_SWEEP_SIZES_TAG, i);
    w09_sweep_case c;
    w09_sweep_draw(&rng, i, B->h[0], &c);
    for (size_t e = 0; e < c.n; e++) ref[e] = w09_sweep_ref(B->h[0][e], c.k, c.a, c.b);
    char what[96];
    snprintf(what, sizeof what, "n=%zu k=%d a=%g b=%g", c.n, c.k, c.a, c.b);
    jd_case cs = { .fn = W09_FN_SWEEP, .in = { B->h[0] }, .in_n = { c.n }, .n = c.n, .ref = ref,
                   .atol = W09_SWEEP_ATOL, .rtol = W09_SWEEP_RTOL, .i64 = { 0, c.k }, .f64 = { c.a, c.b },
                   .what = what, .out_name = "y", .fn_name = "sweep_fma" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_sweep(jd_ck *k)
{
    size_t maxn = 0;
    for (size_t i = 0; i < W09_N_SIZES; i++)
        if (W09_SIZES[i] > maxn) maxn = W09_SIZES[i];
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn, maxn, W09_N_SWEEP_CASES, sweep_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- the roof */

/* y[i] after k FMA steps from x[i]: the expected value at i (the judge's
 * kernel checks a whole output: jd_fma_full_check). */
static float sweep_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w09_sweep_ref(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), (int)b->i64[1], (float)b->f64[0],
                         (float)b->f64[1]);
}

/* a and b new for every request, near the test's 0.9 and 0.05: a in
 * [0.85, 0.95], b in [0.02, 0.08] (the chains converge to b / (1 - a), as
 * the test's do; the values do not change the speed). The runner sees the
 * inputs as the judge fills them, but not a and b until the request
 * arrives: it cannot have the outputs ready. */
static void fresh_ab(jd_bench *b, uint64_t r)
{
    double u = (double)(jd_mix(r) >> 11) / 9007199254740992.0, v = (double)(jd_mix(r ^ 0xab) >> 11) / 9007199254740992.0;
    b->f64[0] = (float)(0.85 + 0.1 * u);
    b->f64[1] = (float)(0.02 + 0.06 * v);
}

static jd_bench g_bench; /* large: its sample arrays */

/* The FMA peak measured before the runner started (jd_checkpoint.yard_before
 * of the two roof checkpoints): no student code had run. */
static double g_peak_before = NAN;
static void peak_before(void) { g_peak_before = w09_fmapeak_gflops(NULL, NULL); }

/* The checkpoint at k FMAs an element: the figure in GFLOP/s against the
 * ROOF at k / 4 flop/byte, both halves of it measured by the judge. */
static void judge_roof(jd_ck *k, int kk)
{
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W09_FN_SWEEP, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K;
    g_bench.n = (wb_bench_bytes() & ~(size_t)15) / 4; /* the test's g_bytes / 4 */
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = W09_SWEEP_ATOL, g_bench.rtol = W09_SWEEP_RTOL;
    g_bench.i64[1] = kk, g_bench.f64[0] = W09_SA, g_bench.f64[1] = W09_SB;
    g_bench.fn_name = "sweep_fma", g_bench.out_name = "y";
    g_bench.expect = sweep_expect, g_bench.full_check = jd_fma_full_check, g_bench.fresh = fresh_ab;
    double ai = kk / 4.0, ms = NAN, value = NAN, copy = NAN, peak = NAN, roof = NAN;
    char why[600] = "", detail[200] = "";
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, why, sizeof why) == 0) {
        /* the peak now, or as measured before the runner started when that was larger */
        peak = w09_fmapeak_gflops(NULL, NULL);
        if (g_peak_before > peak) peak = g_peak_before;
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        else if (!(peak > 0)) snprintf(why, sizeof why, "no FMA peak figure");
        roof = w09_roof(ai, copy, peak);
        value = 2.0 * kk * (double)g_bench.n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.0f GFLOP/s vs ROOF %.0f GFLOP/s at %.3g flop/B (COPY %.0f GB/s, FMA peak "
                 "%.0f GFLOP/s; judge's clock, %d calls a request, median of %d)", value, roof, ai, copy, peak,
                 g_bench.k, TIMED);
        printf("  sweep k=%d: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", kk, ms,
               g_bench.runner_ms, detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GFLOP/s", "ROOF", roof, detail, why);
}

static void judge_roof_low(jd_ck *k) { judge_roof(k, W09_K_LOW); }
static void judge_roof_high(jd_ck *k) { judge_roof(k, W09_K_HIGH); }

static const jd_checkpoint CPS[] = {
    { "w09.intensity", judge_intensity_gpu, judge_intensity, 1, 0 },
    { "w09.sweep", judge_sweep, NULL, 0, 0 },
    { "w09.roof-low", judge_roof_low, NULL, 0, 8, peak_before },
    { "w09.roof-high", judge_roof_high, NULL, 0, 8, peak_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w09", "phase2/week09", CPS, 4);
}
