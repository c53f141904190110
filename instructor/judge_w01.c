/* judge_w01.c — build/instructor/judge-w01: week 01's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's devquery.o and vecadd.o are linked into the runner
 * (judge_w01_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record (common/include/wb_results.h)
 * itself, outside the runner's reach.
 *
 *   judge-w01 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 * (the command line, the runner's start, the record, the correctness case,
 * the timed-call protocol and the COPY yardstick: judge_week.c, shared with
 * week 03's judge)
 *   RUNNER-START: --sock FD [--pid P]     a runner already started (the grader's way: it starts the
 *                                         runner in the sandbox, then execs this with the socket)
 *               | --sandbox SCRATCH RUNNER   started here in a sandbox of default options (the runner
 *                                            copied into SCRATCH, its output in RECORD.runner.log)
 *               | RUNNER                  started here as a plain child (tests, never grading)
 *
 * The checks are test_week01.c's (shared through phase0/week01/w01_checks.h):
 *   w01.devquery    the peak formulas on known parts; the report of the
 *                   judge's device against the runtime's own query; an
 *                   error for device 9999;
 *   w01.vecadd      every size of W01_SIZES, 16 offset mixes (inputs and
 *                   output at any float alignment), each case drawn as the
 *                   test draws it for the seed (wb_rng_for_seed with the
 *                   test's tag: its sizes and inputs), nothing written outside
 *                   the output (a poisoned guard band), and n past 2^31
 *                   (2^28 where the GPU is too small; SKIP on a shared GPU);
 *   w01.vecadd-bw   K calls a request, each on its own three buffers of
 *                   wb_bench_bytes() (K = 64 where memory allows), fresh
 *                   inputs from the hidden seed before every request and a
 *                   poisoned output checked still poisoned before it is
 *                   sent; the clock stops after the judge's look at 256
 *                   hidden positions of every rep's output (judge.c,
 *                   jd_timed_call: the trust model), then every element of
 *                   every output is checked on the GPU by a kernel of the
 *                   judge; the median of 7 requests against COPY timed
 *                   through the same protocol (jd_copy_yard: the yard
 *                   runner, 12 bytes an element a call, before the runner
 *                   ran any student code and after the timed runs: the
 *                   larger), the target from week.txt
 *                   for this GPU (wb_target_for: a `| H200 >= ...` field).
 * Run on H200s (2026-11-28), before its timed protocol and correctness
 * loop moved into judge_week.c: the reference passed at 0.873-0.889 of
 * COPY, the starter failed, and the fixture class graded with it gave what
 * instructor/tests/check_fixture_gradebook.sh expects. After the move,
 * with COPY through the yard runner (an H200, 2026-11-28): the reference
 * 1.015-1.019 of COPY (the linked test 1.027), the starter failing all
 * three, the fixture class as expected. Without a GPU the plumbing is
 * tested by test_judge.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devquery.h"
#include "judge.h"
#include "judge_kernels.h"
#include "judge_w01.h"
#include "judge_week.h"
#include "w01_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f)
#define HI    1.0f

/* ---------------------------------------------------------------- devquery */

/* the formulas on known parts (test_week01.c's peak_formulas): CPU
 * functions, checked with or without a GPU */
static void judge_peaks(jd *J, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    t->tests++;
    for (size_t k = 0; k < W01_N_PEAKS && !J->lost; k++) {
        double v;
        jd_call_setup(&rq, W01_FN_PEAK_GBPS, 1, 0);
        rq.i64[0] = W01_PEAKS[k].mem_khz, rq.i64[1] = W01_PEAKS[k].bus_bits;
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why);
        memcpy(&v, rp.out, sizeof v);
        if (rp.out_len != sizeof v || !(fabs(v - W01_PEAKS[k].gbps) <= W01_PEAK_TOL))
            return jd_failf(t, "dq_peak_gbps(%d, %d) = %g, expected %g", W01_PEAKS[k].mem_khz, W01_PEAKS[k].bus_bits, v,
                            W01_PEAKS[k].gbps);
        jd_call_setup(&rq, W01_FN_PEAK_GFLOPS, 1, 0);
        rq.i64[0] = W01_PEAKS[k].sms, rq.i64[1] = W01_PEAKS[k].lanes, rq.i64[2] = W01_PEAKS[k].sm_khz;
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why);
        memcpy(&v, rp.out, sizeof v);
        if (rp.out_len != sizeof v || !(fabs(v - W01_PEAKS[k].gflops) <= W01_PEAK_TOL))
            return jd_failf(t, "dq_peak_fp32_gflops(%d, %d, %d) = %g, expected %g", W01_PEAKS[k].sms,
                            W01_PEAKS[k].lanes, W01_PEAKS[k].sm_khz, v, W01_PEAKS[k].gflops);
    }
}

static void judge_devquery(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    jd_req rq;
    jd_rep rp;
    judge_peaks(J, t);
    if (t->failed) return;
    /* the report of this GPU, against the judge's own query of it */
    t->tests++;
    jd_call_setup(&rq, W01_FN_QUERY, 1, 0);
    rq.i64[0] = W01_THIS_DEVICE;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why);
    if (rp.status != 0) return jd_failf(t, "dq_query returned %s", cudaGetErrorName((cudaError_t)rp.status));
    dq_report r;
    if (rp.out_len != sizeof r) return jd_failf(t, "the runner sent %u bytes of report, not %zu", rp.out_len, sizeof r);
    memcpy(&r, rp.out, sizeof r);
    r.name[sizeof r.name - 1] = 0;
    char why[300];
    if (w01_report_diff(&r, jd_dev, why, sizeof why)) return jd_failf(t, "%s", why);
    printf("  %s: %d SMs, cc %d.%d, %.0f GB/s, %.1f TFLOP/s FP32 (the student's report)\n", r.name, r.sm_count,
           r.cc_major, r.cc_minor, r.peak_gbps, r.peak_fp32_gflops / 1e3);
    /* a device that does not exist */
    t->tests++;
    jd_call_setup(&rq, W01_FN_QUERY, 1, 0);
    rq.i64[0] = 9999;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why);
    if (rp.status == 0) jd_failf(t, "dq_query(9999) must return an error, not cudaSuccess");
}

/* ---------------------------------------------------------------- vecadd */

/* One case: n elements, inputs oa and ob elements in, output oc elements
 * past the guard; everything but the output must still be poison. The
 * inputs are drawn from rng as test_week01.c's check_vecadd draws them (a
 * then b, n + oa and n + ob floats in [-100, 100)): with the test's
 * generator for the case, the test's inputs bit for bit. */
static int vec_case(jd *J, jd_case_bufs *B, float *ref, wb_rng *rng, size_t n, size_t oa, size_t ob, size_t oc,
                    jd_tally *t)
{
    wb_fill_uniform_f32(rng, B->h[0], n + oa, -100, 100);
    wb_fill_uniform_f32(rng, B->h[1], n + ob, -100, 100);
    for (size_t k = 0; k < n; k++) ref[k] = B->h[0][oa + k] + B->h[1][ob + k];
    char what[96];
    snprintf(what, sizeof what, "n=%zu, offsets a+%zu b+%zu c+%zu", n, oa, ob, oc);
    jd_case c = { .fn = W01_FN_VECADD, .in = { B->h[0], B->h[1] }, .in_n = { n + oa, n + ob }, .in_off = { oa, ob },
                  .n = n, .out_off = oc, .ref = ref, .atol = JD_BITWISE, .what = what, .out_name = "c",
                  .fn_name = "vecadd" };
    return jd_case_run(J, B, &c, t);
}

/* n past 2^31 (an int index wraps), inputs made on the device, the output
 * checked in full on the device by the judge's kernel. */
static void vec_past_2g(jd *J, jd_tally *t)
{
    size_t n = ((size_t)1 << 31) + 17, bytes = n * 4, free_b = 0, total = 0;
    t->tests++;
    cudaMemGetInfo(&free_b, &total);
    if (free_b < 3 * bytes + (1u << 30)) {
        const char *sh = getenv("WB_GPU_SHARED");
        if (sh && !strcmp(sh, "1")) {
            t->tests--, t->skipped++;
            if (!t->msg[0])
                snprintf(t->msg, sizeof t->msg, "the GPU is shared with other runs: %.1f GB free, %.1f GB needed (run "
                         "alone, the test does not shrink)", free_b / 1e9, 3.0 * bytes / 1e9);
            return;
        }
        n = ((size_t)1 << 28) + 17, bytes = n * 4;
    }
    float *a, *b, *c;
    int ia = jd_alloc(J, bytes, (void **)&a), ib = ia < 0 ? -1 : jd_alloc(J, bytes, (void **)&b),
        ic = ib < 0 ? -1 : jd_alloc(J, bytes, (void **)&c);
    if (ic < 0) return jd_failf(t, "n=%zu: buffers: %s", n, J->why);
    uint64_t sa = jd_mix(jd_seed ^ 0x2b), sb = jd_mix(sa);
    wb_dfill_uniform_f32(a, n, sa, -100, 100);
    wb_dfill_uniform_f32(b, n, sb, -100, 100);
    cudaMemset(c, 0xff, bytes);
    cudaDeviceSynchronize();
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W01_FN_VECADD, 1, 3);
    rq.arg_buf[0][0] = ia, rq.arg_buf[0][1] = ib, rq.arg_buf[0][2] = ic;
    rq.i64[0] = (long long)n;
    unsigned long long *bad = NULL, hb[2] = { 0, 0 };
    if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "n=%zu: %s", n, J->why);
    else if (rp.status != 0) jd_failf(t, "n=%zu: vecadd returned %s", n, cudaGetErrorName((cudaError_t)rp.status));
    else if (cudaMalloc((void **)&bad, sizeof hb) != cudaSuccess ||
             jd_sum_check_f32(c, n, sa, sb, -100, 100, bad, jd_stream) != cudaSuccess ||
             cudaMemcpyAsync(hb, bad, sizeof hb, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
             cudaStreamSynchronize(jd_stream) != cudaSuccess)
        jd_failf(t, "n=%zu: the judge's check did not run", n);
    else if (hb[0])
        jd_failf(t, "n=%zu: %llu elements wrong, the first c[%llu]%s", n, hb[0], hb[1],
                 hb[1] >= ((size_t)1 << 31) ? ", past 2^31: is the index an int?" : "");
    if (bad) cudaFree(bad);
    jd_free(J, ia), jd_free(J, ib), jd_free(J, ic);
}

/* Case i: the test's sizes, then its offset mixes, each drawn for this seed
 * (w01_checks.h): its generators, sizes, offsets and inputs, so a slip at a
 * size only some seed draws is found by the judge on the seed the test
 * would find it on. ctx: room for the expected output. */
static int vec_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ref)
{
    if (i < (int)W01_N_SIZES) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W01_SIZES_TAG, i);
        return vec_case(J, B, ref, &rng, W01_SIZES[i], 0, 0, 0, t);
    }
    i -= (int)W01_N_SIZES;
    wb_rng rng = wb_rng_for_seed(jd_seed, W01_OFFSETS_TAG, i);
    size_t n, oa, ob, oc;
    w01_offset_case(&rng, i, &n, &oa, &ob, &oc);
    return vec_case(J, B, ref, &rng, n, oa, ob, oc, t);
}

static void judge_vecadd(jd_ck *k)
{
    size_t maxn = W01_SIZES[W01_N_SIZES - 1];
    if (maxn < 200000) maxn = 200000;
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 2, maxn + 4, maxn, (int)W01_N_SIZES + W01_N_OFFSET_CASES, vec_one, ref);
    free(ref);
    if (!k->J->lost) vec_past_2g(k->J, k->t);
}

/* ------------------------------------------------------------- vecadd-bw */

static float sum_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return wb_hash_uniform_f32(seed[0], i, b->lo, b->hi) + wb_hash_uniform_f32(seed[1], i, b->lo, b->hi);
}

static int sum_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                     unsigned long long h[2])
{
    return jd_sum_check_f32(out, b->n, seed[0], seed[1], b->lo, b->hi, bad, jd_stream) == cudaSuccess &&
                   cudaMemcpyAsync(h, bad, 2 * sizeof *h, cudaMemcpyDeviceToHost, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

/* w01.vecadd-bw: the timed-call protocol (judge_week.h) on fresh inputs
 * from the hidden seed, against COPY and week.txt's target for this GPU. */
static void judge_bw(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    memset(&x, 0, sizeof x);
    x.fn = W01_FN_VECADD, x.n_in = 2, x.max_k = JD_BENCH_MAX_K, x.n = wb_bench_bytes() / 4;
    x.lo = LO, x.hi = HI, x.atol = JD_BITWISE, x.fn_name = "vecadd", x.out_name = "c";
    x.expect = sum_expect, x.full_check = sum_check;
    jd_bw_checkpoint(k, &x, TIMED, 12.0, "vecadd");
}

static const jd_checkpoint CPS[] = {
    { "w01.devquery", judge_devquery, judge_peaks, 0, 0 },
    { "w01.vecadd", judge_vecadd, NULL, 0, 0 },
    { "w01.vecadd-bw", judge_bw, NULL, 0, 12 },
};

int main(int argc, char **argv) { return jd_week_main(argc, argv, "judge-w01", "phase0/week01", CPS, 3); }
