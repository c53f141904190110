/* judge_w03.c — build/instructor/judge-w03: week 03's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's copy.o, fmachain.o and roofline.o are linked into the runner
 * (judge_w03_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case, the timed-call protocol and the COPY yardstick are judge_week.c's,
 * shared with week 01's judge:
 *
 *   judge-w03 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week03.c's (shared through phase0/week03/w03_checks.h):
 *   w03.copy      every size of W03_SIZES and 16 offset mixes (x and y at
 *                 any float alignment), each case drawn as the test draws
 *                 it for the seed (wb_rng_for_seed with the test's tag: its
 *                 sizes, inputs, the NaN and Inf it plants), compared as the
 *                 test compares (wb_close, no tolerance), nothing written
 *                 outside y (a poisoned guard band);
 *   w03.copy-bw   the timed-call protocol (judge_week.h): K calls a
 *                 request, each on its own x and y of wb_bench_bytes(),
 *                 fresh inputs from the hidden seed before every request,
 *                 a poisoned output, the judge's look after the reply and
 *                 a full check of every output by the judge's kernel; the
 *                 median of 7 requests, 8 bytes an element, against COPY
 *                 timed through the same protocol (jd_copy_yard; before any
 *                 student code ran and after: the larger); the target for
 *                 this GPU from week.txt;
 *   w03.fma       every size of W03_SIZES (random iteration count, a, b)
 *                 and the 3 NaN/Inf/overflow cases, drawn as the test draws
 *                 them, against the CPU replay (fmaf) with the test's
 *                 tolerance, nothing written outside y;
 *   w03.fma-peak  the same protocol on the benchmark's chains (n from the
 *                 SM count, 4096 steps, w03_checks.h; a and b new for every
 *                 request, so the outputs cannot be computed before the
 *                 request as the inputs are filled), every output checked
 *                 in full against the replay by the judge's kernel;
 *                 2 x 4096 x n flops a call against PEAK_FP32 as the linked
 *                 test takes it (w03_peak_fp32_gflops: wb_this_device());
 *   w03.roofline  the test's three roofline checks (w03_checks.h) on the
 *                 student's functions called through the runner, with or
 *                 without a GPU (a CPU checkpoint: it PASSes or FAILs without
 *                 one, as the linked test does).
 * Run on an H200 (2026-11-28), as a plain child and sandboxed: the
 * reference passed all five (copy-bw 0.995-0.996 of COPY, fma-peak
 * 0.897-0.902 of the peak, with COPY through the yard runner), the starter
 * failed all five. Not yet through the grader on a GPU; without a GPU the
 * plumbing and the roofline checkpoint are tested by instructor/tests/judge.sh. */
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
#include "judge_w03.h"
#include "judge_week.h"
#include "w03_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the benchmarks' inputs, as test_week03.c fills them */
#define HI    1.0f

/* ---------------------------------------------------------------- roofline */

/* The student's functions, called through the runner: w03_checks.h's checks
 * run on these exactly as the test runs them on the linked functions. A
 * runner that is gone answers NaN (the check then fails; the message says
 * the runner is gone). */
static jd *g_J;

static rl_cost rl_call(int which, size_t x, size_t y, size_t z)
{
    rl_cost c = { NAN, NAN };
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W03_FN_RL_COST, 1, 0);
    rq.i64[0] = which, rq.i64[1] = (long long)x, rq.i64[2] = (long long)y, rq.i64[3] = (long long)z;
    if (jd_call(g_J, &rq, &rp, NULL) == 0 && rp.status == 0 && rp.out_len == sizeof c) memcpy(&c, rp.out, sizeof c);
    return c;
}
static rl_cost rl_vecadd(size_t n) { return rl_call(W03_RL_VECADD, n, 0, 0); }
static rl_cost rl_saxpy(size_t n) { return rl_call(W03_RL_SAXPY, n, 0, 0); }
static rl_cost rl_dot(size_t n) { return rl_call(W03_RL_DOT, n, 0, 0); }
static rl_cost rl_gemm(size_t m, size_t n, size_t k) { return rl_call(W03_RL_GEMM, m, n, k); }
static rl_cost rl_stencil5(size_t nx, size_t ny) { return rl_call(W03_RL_STENCIL5, nx, ny, 0); }

/* *p as the student's rl_analyse left it: untouched (the runner's point is
 * still all 0x5A), or its fields and bound (a copy of the text). */
static int rl_analyse_call(rl_cost c, double ms, double peak_gbps, double peak_gflops, rl_point *p)
{
    static char bound[sizeof ((w03_rl_reply *)0)->bound];
    jd_req rq;
    jd_rep rp;
    w03_rl_reply r;
    jd_call_setup(&rq, W03_FN_RL_ANALYSE, 1, 0);
    rq.f64[0] = c.bytes, rq.f64[1] = c.flops, rq.f64[2] = ms, rq.f64[3] = peak_gbps;
    memcpy(&rq.i64[0], &peak_gflops, sizeof peak_gflops);
    if (jd_call(g_J, &rq, &rp, NULL) != 0 || rp.status != 0 || rp.out_len != sizeof r) return -2;
    memcpy(&r, rp.out, sizeof r);
    if (r.touched) {
        memcpy(bound, r.bound, sizeof bound);
        bound[sizeof bound - 1] = 0;
        p->gbps = r.gbps, p->gflops = r.gflops, p->intensity = r.intensity, p->ridge = r.ridge;
        p->roof_gflops = r.roof_gflops, p->fraction = r.fraction;
        p->bound = r.bound_null ? NULL : bound;
    }
    return r.rc;
}

static const w03_rl_ops OPS = { rl_vecadd, rl_saxpy, rl_dot, rl_gemm, rl_stencil5, rl_analyse_call };

/* the test's three checks (roofline_costs, _bounds, _edges), each a test */
static void judge_roofline(jd *J, jd_tally *t)
{
    int (*check[3])(const w03_rl_ops *, char *, size_t) = { w03_roofline_costs, w03_roofline_bounds, w03_roofline_edges };
    g_J = J;
    for (int i = 0; i < 3 && !J->lost; i++) {
        char why[400];
        t->tests++;
        if (check[i](&OPS, why, sizeof why) != 0) {
            if (J->lost) jd_failf(t, "%s", J->why);
            else jd_failf(t, "%s", why);
        }
    }
}

static void judge_roofline_gpu(jd_ck *k) { judge_roofline(k->J, k->t); }

/* ---------------------------------------------------------------- copy */

/* Case i: the test's sizes, then its offset mixes, each drawn for this seed
 * (w03_checks.h): its generators, sizes, offsets and inputs (the NaN and
 * Inf it plants), compared as the test compares (no tolerance). */
static int copy_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    (void)ctx;
    int off = i >= (int)W03_N_SIZES, c = off ? i - (int)W03_N_SIZES : i;
    wb_rng rng = wb_rng_for_seed(jd_seed, off ? W03_COPY_OFFSETS_TAG : W03_COPY_SIZES_TAG, c);
    size_t n = W03_SIZES[off ? 0 : c], ox = 0, oy = 0;
    if (off) w03_copy_offset_case(&rng, c, &n, &ox, &oy);
    w03_copy_input(&rng, B->h[0], n, ox);
    char what[96];
    snprintf(what, sizeof what, "n=%zu, offsets x+%zu y+%zu", n, ox, oy);
    jd_case cs = { .fn = W03_FN_COPY, .in = { B->h[0] }, .in_n = { n + ox }, .in_off = { ox }, .n = n, .out_off = oy,
                   .ref = B->h[0] + ox, .atol = 0, .rtol = 0, .what = what, .out_name = "y", .fn_name = "copy_f32" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_copy(jd_ck *k)
{
    size_t maxn = W03_SIZES[W03_N_SIZES - 1];
    if (maxn < 300000) maxn = 300000;
    jd_cases(k->J, k->t, 1, maxn + 4, maxn, (int)W03_N_SIZES + W03_N_COPY_OFFSET_CASES, copy_one, NULL);
}

/* ---------------------------------------------------------------- fma */

/* Case i: the test's sizes (random iteration count, a and b), then its
 * NaN/Inf/overflow cases, drawn for this seed, against the CPU replay with
 * the test's tolerance. ctx: room for the expected output. */
static int fma_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    int nf = i >= (int)W03_N_SIZES, c = nf ? i - (int)W03_N_SIZES : i;
    wb_rng rng = wb_rng_for_seed(jd_seed, nf ? W03_FMA_NONFINITE_TAG : W03_FMA_SIZES_TAG, c);
    w03_fma_case fc;
    if (nf) w03_fma_nonfinite_case(&rng, c, B->h[0], &fc);
    else w03_fma_sizes_case(&rng, c, B->h[0], &fc);
    for (size_t e = 0; e < fc.n; e++) ref[e] = w03_fma_replay(B->h[0][e], fc.iters, fc.a, fc.b);
    char what[160];
    snprintf(what, sizeof what, "%s: n=%zu iters=%d a=%.9g b=%.9g", nf ? "NaN, Inf and overflow" : "random", fc.n,
             fc.iters, fc.a, fc.b);
    jd_case cs = { .fn = W03_FN_FMA, .in = { B->h[0] }, .in_n = { fc.n }, .n = fc.n, .ref = ref, .atol = W03_FMA_ATOL,
                   .rtol = W03_FMA_RTOL, .i64 = { 0, fc.iters }, .f64 = { fc.a, fc.b }, .what = what, .out_name = "y",
                   .fn_name = "fmachain_run" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_fma(jd_ck *k)
{
    size_t maxn = W03_SIZES[W03_N_SIZES - 1];
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn, maxn, (int)W03_N_SIZES + W03_N_FMA_NONFINITE, fma_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- timed */

/* y = x (iters 0) or x after i64[1] FMA steps: the expected value at i
 * (the judge's kernel checks a whole output: jd_fma_full_check). */
static float chain_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w03_fma_replay(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), (int)b->i64[1], (float)b->f64[0],
                          (float)b->f64[1]);
}


/* fma-peak's a and b, new for every request: a in [0.999, 0.9999], b = (1 - a) c
 * with c in [0.5, 1.5] (the chains stay near c, as the test's 0.9999 and 1e-4
 * keep them near 1). The runner sees the inputs as the judge fills them, but
 * not a and b until the request arrives: it cannot have the outputs ready. */
static void fresh_ab(jd_bench *b, uint64_t r)
{
    double u = (double)(jd_mix(r) >> 11) / 9007199254740992.0, v = (double)(jd_mix(r ^ 0xab) >> 11) / 9007199254740992.0;
    float a = (float)(0.999 + 0.0009 * u);
    b->f64[0] = a;
    b->f64[1] = (float)((1.0 - a) * (0.5 + v));
}

static jd_bench g_bench; /* large: its sample arrays */

static void bench_setup(int fn, size_t n, int iters, double atol, double rtol, const char *fn_name)
{
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = fn, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n;
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = atol, g_bench.rtol = rtol;
    g_bench.i64[1] = iters, g_bench.f64[0] = W03_FMA_A, g_bench.f64[1] = W03_FMA_B;
    g_bench.fn_name = fn_name, g_bench.out_name = "y";
    g_bench.expect = chain_expect, g_bench.full_check = jd_fma_full_check;
}

/* w03.copy-bw: 8 bytes an element against COPY, both by the judge's clock. */
static void judge_copy_bw(jd_ck *k)
{
    bench_setup(W03_FN_COPY, wb_bench_bytes() / 4, 0, 0, 0, "copy_f32");
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "copy");
}

/* w03.fma-peak: 2 x 4096 x n flops a call against PEAK_FP32 (the linked test's). */
static void judge_fma_peak(jd_ck *k)
{
    bench_setup(W03_FN_FMA, w03_fma_bench_n(wb_this_device()->sm_count), W03_FMA_ITERS, W03_FMA_ATOL, W03_FMA_RTOL,
                "fmachain_run");
    g_bench.fresh = fresh_ab;
    double ms = NAN, value = NAN, peak = w03_peak_fp32_gflops();
    char why[600] = "", detail[200] = "";
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, why, sizeof why) == 0) {
        value = 2.0 * W03_FMA_ITERS * (double)g_bench.n / (ms * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.0f GFLOP/s vs PEAK_FP32 %.0f GFLOP/s (judge's clock, %d calls a request, "
                 "median of %d)", value, peak, g_bench.k, TIMED);
        printf("  fmachain: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", ms, g_bench.runner_ms,
               detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GFLOP/s", "PEAK_FP32", peak, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w03.copy", judge_copy, NULL, 0, 0 },
    { "w03.copy-bw", judge_copy_bw, NULL, 0, 8 },
    { "w03.fma", judge_fma, NULL, 0, 0 },
    { "w03.fma-peak", judge_fma_peak, NULL, 0, 0 },
    { "w03.roofline", judge_roofline_gpu, judge_roofline, 1, 0 },
};

int main(int argc, char **argv) { return jd_week_main(argc, argv, "judge-w03", "phase0/week03", CPS, 5); }
