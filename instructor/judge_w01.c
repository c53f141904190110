/* judge_w01.c — build/instructor/judge-w01: week 01's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's devquery.o and vecadd.o are linked into the runner
 * (judge_w01_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record (common/include/wb_results.h)
 * itself, outside the runner's reach.
 *
 *   judge-w01 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
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
 *                   wb_bench_bytes() (K = 8 where memory allows), fresh
 *                   inputs from the hidden seed before every request and a
 *                   poisoned output checked still poisoned before it is
 *                   sent; the clock stops after the judge's look at 256
 *                   hidden positions of every rep's output (judge.c,
 *                   jd_timed_call: the trust model), then every element of
 *                   every output is checked on the GPU by a kernel of the
 *                   judge; the median of 7 requests against COPY
 *                   (wb_yard_copy_gbps, timed by the judge in the same run,
 *                   before the runner ran any student code and after the
 *                   timed runs: the larger), the target from week.txt
 *                   for this GPU (wb_target_for: a `| H200 >= ...` field).
 * Run on H200s (2026-11-28): the reference passes at 0.873-0.889 of COPY,
 * the starter fails, and the fixture class graded with it gives what
 * instructor/tests/check_fixture_gradebook.sh expects; without a GPU the
 * plumbing is tested by test_judge.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devquery.h"
#include "judge.h"
#include "judge_kernels.h"
#include "judge_sb.h"
#include "judge_w01.h"
#include "w01_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"
#include "wb_meta.h"
#include "wb_results.h"

#define GUARD    64       /* floats of poison on each side of a correctness output */
#define SAMPLES  256      /* positions a look reads, per rep */
#define TIMED    7
#define MAX_K    8
#define LO       (-1.0f)
#define HI       1.0f

static unsigned long long g_seed = 20261128;
static int g_dev;
static cudaStream_t g_s;
/* COPY, measured by the judge before the runner has run any student code
 * (each checkpoint's runner is a new process, and the object check refuses
 * code that runs before main): a runner can slow the judge's GPU from then
 * on (a kernel of its own, time-sliced with the judge's work), never before */
static double g_copy_before = NAN;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* One checkpoint's tally: tests run, failed, skipped, the first message. */
typedef struct {
    int  tests, failed, skipped;
    char msg[600];
} tally;

static void failf(tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(tally *t, const char *fmt, ...)
{
    t->failed++;
    if (t->msg[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
}

static void call_setup(jd_req *rq, int fn, int reps, int nargs)
{
    memset(rq, 0, sizeof *rq);
    rq->op = JD_OP_CALL, rq->fn = fn, rq->reps = reps, rq->nargs = nargs;
    for (int r = 0; r < JD_MAX_REPS; r++)
        for (int a = 0; a < JD_MAX_ARGS; a++) rq->arg_buf[r][a] = -1;
}

/* ---------------------------------------------------------------- devquery */

/* the formulas on known parts (test_week01.c's peak_formulas): CPU
 * functions, checked with or without a GPU */
static void judge_peaks(jd *J, tally *t)
{
    jd_req rq;
    jd_rep rp;
    t->tests++;
    for (size_t k = 0; k < W01_N_PEAKS && !J->lost; k++) {
        double v;
        call_setup(&rq, W01_FN_PEAK_GBPS, 1, 0);
        rq.i64[0] = W01_PEAKS[k].mem_khz, rq.i64[1] = W01_PEAKS[k].bus_bits;
        if (jd_call(J, &rq, &rp, NULL) != 0) return failf(t, "%s", J->why);
        memcpy(&v, rp.out, sizeof v);
        if (rp.out_len != sizeof v || !(fabs(v - W01_PEAKS[k].gbps) <= W01_PEAK_TOL))
            return failf(t, "dq_peak_gbps(%d, %d) = %g, expected %g", W01_PEAKS[k].mem_khz, W01_PEAKS[k].bus_bits, v,
                         W01_PEAKS[k].gbps);
        call_setup(&rq, W01_FN_PEAK_GFLOPS, 1, 0);
        rq.i64[0] = W01_PEAKS[k].sms, rq.i64[1] = W01_PEAKS[k].lanes, rq.i64[2] = W01_PEAKS[k].sm_khz;
        if (jd_call(J, &rq, &rp, NULL) != 0) return failf(t, "%s", J->why);
        memcpy(&v, rp.out, sizeof v);
        if (rp.out_len != sizeof v || !(fabs(v - W01_PEAKS[k].gflops) <= W01_PEAK_TOL))
            return failf(t, "dq_peak_fp32_gflops(%d, %d, %d) = %g, expected %g", W01_PEAKS[k].sms, W01_PEAKS[k].lanes,
                         W01_PEAKS[k].sm_khz, v, W01_PEAKS[k].gflops);
    }
}

static void judge_devquery(jd *J, tally *t)
{
    jd_req rq;
    jd_rep rp;
    judge_peaks(J, t);
    if (t->failed) return;
    /* the report of this GPU, against the judge's own query of it */
    t->tests++;
    call_setup(&rq, W01_FN_QUERY, 1, 0);
    rq.i64[0] = W01_THIS_DEVICE;
    if (jd_call(J, &rq, &rp, NULL) != 0) return failf(t, "%s", J->why);
    if (rp.status != 0) return failf(t, "dq_query returned %s", cudaGetErrorName((cudaError_t)rp.status));
    dq_report r;
    if (rp.out_len != sizeof r) return failf(t, "the runner sent %u bytes of report, not %zu", rp.out_len, sizeof r);
    memcpy(&r, rp.out, sizeof r);
    r.name[sizeof r.name - 1] = 0;
    char why[300];
    if (w01_report_diff(&r, g_dev, why, sizeof why)) return failf(t, "%s", why);
    printf("  %s: %d SMs, cc %d.%d, %.0f GB/s, %.1f TFLOP/s FP32 (the student's report)\n", r.name, r.sm_count,
           r.cc_major, r.cc_minor, r.peak_gbps, r.peak_fp32_gflops / 1e3);
    /* a device that does not exist */
    t->tests++;
    call_setup(&rq, W01_FN_QUERY, 1, 0);
    rq.i64[0] = 9999;
    if (jd_call(J, &rq, &rp, NULL) != 0) return failf(t, "%s", J->why);
    if (rp.status == 0) failf(t, "dq_query(9999) must return an error, not cudaSuccess");
}

/* ---------------------------------------------------------------- vecadd */

typedef struct {
    int    ia, ib, ic;
    float *a, *b, *c;     /* the judge's device pointers */
    float *ha, *hb, *hc;  /* host copies */
    size_t maxn;
} vbufs;

/* One case: n elements, inputs oa and ob elements in, output oc elements
 * past the guard; everything but the output must still be poison. The
 * inputs are drawn from rng as test_week01.c's check_vecadd draws them (a
 * then b, n + oa and n + ob floats in [-100, 100)): with the test's
 * generator for the case, the test's inputs bit for bit. */
static int vec_case(jd *J, vbufs *v, wb_rng *rng, size_t n, size_t oa, size_t ob, size_t oc, tally *t)
{
    t->tests++;
    wb_fill_uniform_f32(rng, v->ha, n + oa, -100, 100);
    wb_fill_uniform_f32(rng, v->hb, n + ob, -100, 100);
    size_t cn = GUARD + oc + n + GUARD;
    cudaError_t e = cudaMemcpy(v->a, v->ha, (n + oa) * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(v->b, v->hb, (n + ob) * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(v->c, 0xff, cn * 4);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return failf(t, "the judge's own copies: %s", cudaGetErrorName(e)), -1;
    jd_req rq;
    jd_rep rp;
    call_setup(&rq, W01_FN_VECADD, 1, 3);
    rq.arg_buf[0][0] = v->ia, rq.arg_off[0][0] = oa * 4;
    rq.arg_buf[0][1] = v->ib, rq.arg_off[0][1] = ob * 4;
    rq.arg_buf[0][2] = v->ic, rq.arg_off[0][2] = (GUARD + oc) * 4;
    rq.i64[0] = (long long)n;
    if (jd_call(J, &rq, &rp, NULL) != 0) return failf(t, "n=%zu: %s", n, J->why), -1;
    if (rp.status != 0) return failf(t, "n=%zu: vecadd returned %s", n, cudaGetErrorName((cudaError_t)rp.status)), 0;
    e = cudaMemcpy(v->hc, v->c, cn * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return failf(t, "n=%zu: reading the output: %s", n, cudaGetErrorName(e)), -1;
    for (size_t i = 0; i < cn; i++) {
        int inside = i >= GUARD + oc && i < GUARD + oc + n;
        size_t k = i - GUARD - oc;
        float want = inside ? v->ha[oa + k] + v->hb[ob + k] : 0;
        uint32_t got;
        memcpy(&got, &v->hc[i], 4);
        if (inside ? memcmp(&v->hc[i], &want, 4) != 0 : got != 0xffffffffu) {
            if (inside)
                failf(t, "n=%zu, offsets a+%zu b+%zu c+%zu: c[%zu] expected %.9g got %.9g", n, oa, ob, oc, k,
                      (double)want, (double)v->hc[i]);
            else
                failf(t, "n=%zu, offsets a+%zu b+%zu c+%zu: written outside the output (%zd from its start)", n, oa,
                      ob, oc, (ssize_t)i - (ssize_t)(GUARD + oc));
            return 0;
        }
    }
    return 0;
}

/* n past 2^31 (an int index wraps), inputs made on the device, the output
 * checked in full on the device by the judge's kernel. */
static void vec_past_2g(jd *J, tally *t)
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
    if (ic < 0) return failf(t, "n=%zu: buffers: %s", n, J->why);
    uint64_t sa = mix(g_seed ^ 0x2b), sb = mix(sa);
    wb_dfill_uniform_f32(a, n, sa, -100, 100);
    wb_dfill_uniform_f32(b, n, sb, -100, 100);
    cudaMemset(c, 0xff, bytes);
    cudaDeviceSynchronize();
    jd_req rq;
    jd_rep rp;
    call_setup(&rq, W01_FN_VECADD, 1, 3);
    rq.arg_buf[0][0] = ia, rq.arg_buf[0][1] = ib, rq.arg_buf[0][2] = ic;
    rq.i64[0] = (long long)n;
    unsigned long long *bad = NULL, hb[2] = { 0, 0 };
    if (jd_call(J, &rq, &rp, NULL) != 0) failf(t, "n=%zu: %s", n, J->why);
    else if (rp.status != 0) failf(t, "n=%zu: vecadd returned %s", n, cudaGetErrorName((cudaError_t)rp.status));
    else if (cudaMalloc((void **)&bad, sizeof hb) != cudaSuccess ||
             jd_sum_check_f32(c, n, sa, sb, -100, 100, bad, g_s) != cudaSuccess ||
             cudaMemcpyAsync(hb, bad, sizeof hb, cudaMemcpyDeviceToHost, g_s) != cudaSuccess ||
             cudaStreamSynchronize(g_s) != cudaSuccess)
        failf(t, "n=%zu: the judge's check did not run", n);
    else if (hb[0])
        failf(t, "n=%zu: %llu elements wrong, the first c[%llu]%s", n, hb[0], hb[1],
              hb[1] >= ((size_t)1 << 31) ? ", past 2^31: is the index an int?" : "");
    if (bad) cudaFree(bad);
    jd_free(J, ia), jd_free(J, ib), jd_free(J, ic);
}

static void judge_vecadd(jd *J, tally *t)
{
    vbufs v;
    memset(&v, 0, sizeof v);
    v.maxn = W01_SIZES[W01_N_SIZES - 1];
    if (v.maxn < 200000) v.maxn = 200000;
    size_t in = (v.maxn + 4) * 4, out = (GUARD + 4 + v.maxn + GUARD) * 4;
    v.ia = jd_alloc(J, in, (void **)&v.a);
    v.ib = v.ia < 0 ? -1 : jd_alloc(J, in, (void **)&v.b);
    v.ic = v.ib < 0 ? -1 : jd_alloc(J, out, (void **)&v.c);
    v.ha = malloc(in), v.hb = malloc(in), v.hc = malloc(out);
    if (v.ic < 0 || !v.ha || !v.hb || !v.hc) {
        failf(t, "buffers: %s", J->why);
        goto done;
    }
    /* the test's cases for this seed (w01_checks.h): its generators, sizes,
     * offsets and inputs, so a slip at a size only some seed draws is found
     * by the judge on the seed the test would find it on */
    for (size_t s = 0; s < W01_N_SIZES && !J->lost; s++) {
        wb_rng rng = wb_rng_for_seed(g_seed, W01_SIZES_TAG, (int)s);
        if (vec_case(J, &v, &rng, W01_SIZES[s], 0, 0, 0, t) < 0) goto done;
    }
    for (int i = 0; i < W01_N_OFFSET_CASES && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(g_seed, W01_OFFSETS_TAG, i);
        size_t n, oa, ob, oc;
        w01_offset_case(&rng, i, &n, &oa, &ob, &oc);
        if (vec_case(J, &v, &rng, n, oa, ob, oc, t) < 0) goto done;
    }
    jd_free(J, v.ia), jd_free(J, v.ib), jd_free(J, v.ic);
    v.ia = v.ib = v.ic = -1;
    if (!J->lost) vec_past_2g(J, t);
done:
    jd_free(J, v.ia), jd_free(J, v.ib), jd_free(J, v.ic);
    free(v.ha), free(v.hb), free(v.hc);
}

/* ------------------------------------------------------------- vecadd-bw */

typedef struct {
    int    k;                             /* reps a request */
    size_t n;
    float *a[MAX_K], *b[MAX_K], *c[MAX_K];
    int    ia[MAX_K], ib[MAX_K], ic[MAX_K];
    unsigned long long sa[MAX_K], sb[MAX_K];
    unsigned long long *idx_d, idx_h[SAMPLES];
    float *got_d, got_h[MAX_K * SAMPLES];
    uint64_t pick;                        /* hidden: where looks read */
} bw_ctx;

/* Read SAMPLES positions (new ones each time) of every rep's output. */
static int gather(bw_ctx *x)
{
    uint64_t k = x->pick = mix(x->pick);
    for (int j = 0; j < SAMPLES; j++) x->idx_h[j] = (k = mix(k)) % x->n;
    if (cudaMemcpyAsync(x->idx_d, x->idx_h, sizeof x->idx_h, cudaMemcpyHostToDevice, g_s) != cudaSuccess) return -1;
    for (int r = 0; r < x->k; r++)
        if (jd_gather_f32(x->c[r], x->idx_d, SAMPLES, x->got_d + r * SAMPLES, g_s) != cudaSuccess) return -1;
    if (cudaMemcpyAsync(x->got_h, x->got_d, sizeof(float) * SAMPLES * x->k, cudaMemcpyDeviceToHost, g_s) != cudaSuccess)
        return -1;
    return cudaStreamSynchronize(g_s) == cudaSuccess ? 0 : -1;
}

/* What a timed run's wrong or unwritten output is called, in the words of
 * the linked harness's timing (common/src/wb_bench.c, its spot check), so
 * the feedback says the same whichever graded it; the detail follows a colon. */
#define W01_TIMED_WRONG "a timed run on fresh inputs gave a wrong output"

/* The look right after a reply: every sampled value is the sum. */
static int look(void *p, char *why, size_t n)
{
    bw_ctx *x = p;
    if (gather(x) != 0) return snprintf(why, n, "the judge's look did not run"), 1;
    for (int r = 0; r < x->k; r++)
        for (int j = 0; j < SAMPLES; j++) {
            size_t i = x->idx_h[j];
            float want = wb_hash_uniform_f32(x->sa[r], i, LO, HI) + wb_hash_uniform_f32(x->sb[r], i, LO, HI), got = x->got_h[r * SAMPLES + j];
            if (memcmp(&got, &want, 4) != 0) {
                uint32_t u;
                memcpy(&u, &got, 4);
                return snprintf(why, n, W01_TIMED_WRONG ": call %d of a timed request: c[%zu] %s right after the "
                                "reply", r, i, u == 0xffffffffu ? "not yet written (still the poison)" : "wrong"), 1;
            }
        }
    return 0;
}

/* Fresh inputs and poisoned outputs for every rep; then a look that must
 * find every sampled output still poison (nothing computed before the call). */
static int refill(bw_ctx *x, uint64_t *salt, char *why, size_t n)
{
    for (int r = 0; r < x->k; r++) {
        x->sa[r] = *salt = mix(*salt), x->sb[r] = *salt = mix(*salt);
        wb_dfill_uniform_f32(x->a[r], x->n, x->sa[r], LO, HI);
        wb_dfill_uniform_f32(x->b[r], x->n, x->sb[r], LO, HI);
        cudaMemsetAsync(x->c[r], 0xff, x->n * 4, 0);
    }
    if (cudaDeviceSynchronize() != cudaSuccess || gather(x) != 0) return snprintf(why, n, "the judge's fill failed"), -1;
    for (int j = 0; j < SAMPLES * x->k; j++) {
        uint32_t u;
        memcpy(&u, &x->got_h[j], 4);
        if (u != 0xffffffffu)
            return snprintf(why, n, "call %d: the output was written before the request was sent", j / SAMPLES), 1;
    }
    return 0;
}

static int full_check(bw_ctx *x, unsigned long long *bad, char *why, size_t n)
{
    for (int r = 0; r < x->k; r++) {
        unsigned long long h[2];
        if (jd_sum_check_f32(x->c[r], x->n, x->sa[r], x->sb[r], LO, HI, bad, g_s) != cudaSuccess ||
            cudaMemcpyAsync(h, bad, sizeof h, cudaMemcpyDeviceToHost, g_s) != cudaSuccess ||
            cudaStreamSynchronize(g_s) != cudaSuccess)
            return snprintf(why, n, "the judge's check did not run"), 1;
        if (h[0]) return snprintf(why, n, W01_TIMED_WRONG ": call %d of a timed request: %llu of %zu elements wrong, "
                                  "the first c[%llu] (checked in full after the timing)", r, h[0], x->n, h[1]), 1;
    }
    return 0;
}

/* w01.vecadd-bw against week.txt's target for this GPU (gpu: its name;
 * wb_target_for picks a `| H200 >= ...` field where the line has one). */
static void judge_bw(jd *J, wb_result *R, const wb_checkpoint *c, const char *gpu)
{
    double target = wb_target_for(c, gpu, NULL);
    const char *yard = c->yard[0] ? c->yard : "COPY";
    bw_ctx x;
    memset(&x, 0, sizeof x);
    size_t bytes = wb_bench_bytes(), free_b = 0, total = 0;
    x.n = bytes / 4;
    cudaMemGetInfo(&free_b, &total);
    x.k = (int)(free_b / 2 / (3 * bytes));
    if (x.k > MAX_K) x.k = MAX_K;
    if (x.k < 1) x.k = 1;
    x.pick = mix(g_seed ^ 0x51ed);
    R->tests = 1, R->failed = 1; /* until it passes */
    char why[600] = "";
    unsigned long long *bad = NULL;
    for (int r = 0; r < x.k; r++) {
        x.ia[r] = jd_alloc(J, bytes, (void **)&x.a[r]);
        x.ib[r] = x.ia[r] < 0 ? -1 : jd_alloc(J, bytes, (void **)&x.b[r]);
        x.ic[r] = x.ib[r] < 0 ? -1 : jd_alloc(J, bytes, (void **)&x.c[r]);
        if (x.ic[r] < 0) {
            snprintf(why, sizeof why, "buffers: %s", J->why);
            goto out;
        }
    }
    if (cudaMalloc((void **)&x.idx_d, sizeof x.idx_h) != cudaSuccess ||
        cudaMalloc((void **)&x.got_d, sizeof x.got_h) != cudaSuccess || cudaMalloc((void **)&bad, 16) != cudaSuccess) {
        snprintf(why, sizeof why, "the judge's own buffers: cudaMalloc failed");
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    call_setup(&rq, W01_FN_VECADD, x.k, 3);
    for (int r = 0; r < x.k; r++) rq.arg_buf[r][0] = x.ia[r], rq.arg_buf[r][1] = x.ib[r], rq.arg_buf[r][2] = x.ic[r];
    rq.i64[0] = (long long)x.n;
    uint64_t salt = mix(g_seed ^ 0xb0b);
    double t[TIMED], look_us = 0, us = 0, runner_us = 0;
    for (int k = -1; k < TIMED; k++) { /* k = -1: a warm-up, checked, not timed */
        if (refill(&x, &salt, why, sizeof why)) goto out;
        int rc = jd_timed_call(J, &rq, &rp, look, &x, look_us, &us);
        if (rc == -1) snprintf(why, sizeof why, "%s", J->why);
        else if (rc == 1) snprintf(why, sizeof why, "vecadd returned %s", cudaGetErrorName((cudaError_t)rp.status));
        else if (rc == 2) snprintf(why, sizeof why, "%s", J->why);
        else if (rp.reps_done != x.k) snprintf(why, sizeof why, "the runner made %d of %d calls", rp.reps_done, x.k);
        else full_check(&x, bad, why, sizeof why);
        if (why[0]) goto out;
        if (k < 0) { /* the judge's own cost of a look (gather and compare), on a finished output: min of 5 */
            look_us = 1e30;
            for (int j = 0; j < 5; j++) {
                char w2[200];
                double a0 = jd_now_us();
                look(&x, w2, sizeof w2);
                double d = jd_now_us() - a0;
                if (d < look_us) look_us = d;
            }
        } else {
            t[k] = us / x.k / 1e3; /* ms a call */
            runner_us += rp.host_us;
        }
    }
    double ms = wb_median(t, TIMED);
    /* the yardstick, by the judge, in this run: before any student code ran
     * and again now; the larger (a runner can only slow it down) */
    double copy = wb_yard_copy_gbps(bytes);
    if (g_copy_before > copy) copy = g_copy_before;
    R->value = 12.0 * x.n / (ms * 1e-3) / 1e9;
    R->yard_value = copy;
    R->ratio = copy > 0 ? R->value / copy : NAN;
    R->target = target;
    snprintf(R->unit, sizeof R->unit, "GB/s");
    snprintf(R->yard, sizeof R->yard, "%s", yard);
    snprintf(R->detail, sizeof R->detail, "%.0f GB/s vs %s %.0f GB/s (judge's clock, %d calls a request, median of %d)",
             R->value, yard, copy, x.k, TIMED);
    printf("  vecadd: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n", ms,
           runner_us / TIMED / x.k / 1e3, R->detail);
    char tgt[96];
    if (!(R->ratio >= target))
        snprintf(why, sizeof why, "below target: %.3f of %s (target %s)", R->ratio, yard,
                 wb_target_text(c, gpu, tgt, sizeof tgt));
    else
        R->failed = 0;
out:
    if (why[0]) {
        R->failed = 1;
        snprintf(R->message, sizeof R->message, "%s", why);
        if (strncmp(why, "below target", 12) != 0) R->ratio = R->value = NAN; /* no figure from a wrong run */
    }
    if (bad) cudaFree(bad);
    if (x.idx_d) cudaFree(x.idx_d);
    if (x.got_d) cudaFree(x.got_d);
    for (int r = 0; r < x.k; r++) jd_free(J, x.ia[r]), jd_free(J, x.ib[r]), jd_free(J, x.ic[r]);
}

/* --sandbox SCRATCH RUNNER: the sandbox shows the scratch folder and nothing
 * of the tree, so the runner is copied in (SCRATCH/judge-runner, 0755; the
 * folder made if missing, its absolute path used) and run from there; its
 * output goes to RECORD.runner.log, beside the record, outside the sandbox.
 * 0, or -1 with why. */
static char g_sb_scratch[PATH_MAX], g_sb_runner[PATH_MAX + 16], g_sb_log[PATH_MAX + 16];
static int sandbox_runner(const char *scratch, const char *runner, const char *record, char *why, size_t why_size)
{
    mkdir(scratch, 0755);
    if (!realpath(scratch, g_sb_scratch)) return snprintf(why, why_size, "--sandbox %s: not a folder", scratch), -1;
    snprintf(g_sb_runner, sizeof g_sb_runner, "%s/judge-runner", g_sb_scratch);
    snprintf(g_sb_log, sizeof g_sb_log, "%s.runner.log", record);
    if (sb_copy_exe(runner, g_sb_runner) != 0)
        return snprintf(why, why_size, "copying %s to %s failed", runner, g_sb_runner), -1;
    return 0;
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
    fprintf(stderr, "usage: judge-w01 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] "
                    "(--sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)\n");
}

int main(int argc, char **argv)
{
    const char *record = NULL, *which = NULL, *scratch = NULL, *week_dir = "phase0/week01";
    int sock = -1, pid = -1, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--record") && i + 1 < argc) record = argv[++i];
        else if (!strcmp(argv[i], "--checkpoint") && i + 1 < argc) which = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) g_seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) g_dev = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--week-dir") && i + 1 < argc) week_dir = argv[++i];
        else if (!strcmp(argv[i], "--sock") && i + 1 < argc) sock = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pid") && i + 1 < argc) pid = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc) scratch = argv[++i];
        else return usage(), 2;
    }
    if (!record || !which || (sock < 0 && i >= argc)) return usage(), 2;
    char *sb_argv[2] = { g_sb_runner, NULL };
    if (scratch && sock < 0) {
        char why[PATH_MAX * 2 + 64];
        if (sandbox_runner(scratch, argv[i], record, why, sizeof why) != 0)
            return fprintf(stderr, "judge-w01: %s\n", why), 2;
        scratch = g_sb_scratch;
    }
    /* week.txt: the checkpoints and the speed target */
    char wt[600], err[400];
    snprintf(wt, sizeof wt, "%s/week.txt", week_dir);
    static wb_week W;
    if (wb_week_load(wt, &W, err, sizeof err) != 0) return fprintf(stderr, "judge-w01: %s\n", err), 2;
    const char *ids[3] = { "w01.devquery", "w01.vecadd", "w01.vecadd-bw" };
    wb_result R[3];
    int want[3], n_out = 0;
    for (int k = 0; k < 3; k++) {
        want[k] = !strcmp(which, "all") || !strcmp(which, ids[k]);
        wb_result_init(&R[k]);
        snprintf(R[k].week, sizeof R[k].week, "%s", week_dir);
        snprintf(R[k].id, sizeof R[k].id, "%s", ids[k]);
        R[k].seed = g_seed;
        n_out += want[k];
        if (!wb_week_checkpoint(&W, ids[k])) return fprintf(stderr, "judge-w01: %s has no checkpoint %s\n", wt, ids[k]), 2;
    }
    if (!n_out) return fprintf(stderr, "judge-w01: no checkpoint %s in week 01\n", which), 2;
    /* the GPU, or every checkpoint is SKIP (nogpu) */
    int count = 0;
    const char *ng = getenv("WB_NO_GPU");
    cudaError_t e = ng && !strcmp(ng, "1") ? cudaErrorNoDevice : cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count > g_dev) e = cudaSetDevice(g_dev);
    if (e == cudaSuccess && count > g_dev) e = cudaStreamCreateWithFlags(&g_s, cudaStreamNonBlocking);
    jd J;
    int started = 0;
    char gpu[128] = "-";
    if (e != cudaSuccess || count <= g_dev) {
        for (int k = 0; k < 3; k++) {
            R[k].status = WB_RES_SKIP, R[k].reason = WB_WHY_NOGPU, R[k].skipped = 1;
            snprintf(R[k].message, sizeof R[k].message, "no GPU for the judge (%s)", cudaGetErrorName(e));
        }
        /* devquery's peak formulas are CPU functions: checked anyway, through
         * a runner that opens no GPU (host buffers only), as the week's test
         * checks them without one; a wrong formula FAILs, else SKIP stands */
        if (want[0]) {
            if (sock >= 0) jd_adopt(&J, sock, pid), started = 1;
            else if (scratch) {
                sb_opts o;
                memset(&o, 0, sizeof o);
                o.scratch = scratch, o.wall_s = 120, o.mem_bytes = 4ll << 30, o.max_procs = 64;
                o.log_path = g_sb_log;
                started = jd_start_sandboxed(&J, &o, sb_argv) == 0;
            } else {
                started = jd_start_plain(&J, argv + i, NULL) == 0;
            }
            if (started) started = jd_hello(&J, JD_MEM_HOST, -1) == 0;
            tally t;
            memset(&t, 0, sizeof t);
            if (!started) failf(&t, "the runner did not start: %s%s%s", J.why, scratch ? "; its output: " : "",
                                scratch ? g_sb_log : "");
            else judge_peaks(&J, &t);
            if (t.failed) {
                R[0].status = WB_RES_FAIL, R[0].reason = WB_WHY_CODE, R[0].tests = t.tests, R[0].failed = t.failed;
                snprintf(R[0].message, sizeof R[0].message, "%s", t.msg);
            }
            jd_stop(&J);
        } else if (sock >= 0) {
            close(sock);
        }
    } else {
        struct cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, g_dev) == cudaSuccess) snprintf(gpu, sizeof gpu, "%s", p.name);
        if (want[2]) g_copy_before = wb_yard_copy_gbps(wb_bench_bytes()); /* before any student code runs */
        if (sock >= 0) jd_adopt(&J, sock, pid), started = 1;
        else if (scratch) {
            sb_opts o;
            memset(&o, 0, sizeof o);
            o.scratch = scratch, o.gpu = 1, o.wall_s = 600, o.mem_bytes = 16ll << 30, o.max_procs = 64;
            o.log_path = g_sb_log;
            if (access("/usr/local/nvidia/lib64", F_OK) == 0) o.ld_library_path = "/usr/local/nvidia/lib64";
            started = jd_start_sandboxed(&J, &o, sb_argv) == 0;
        } else {
            started = jd_start_plain(&J, argv + i, NULL) == 0;
        }
        if (started) started = jd_hello(&J, JD_MEM_DEVICE, g_dev) == 0;
        for (int k = 0; k < 3; k++) {
            if (!want[k]) continue;
            snprintf(R[k].gpu, sizeof R[k].gpu, "%s", gpu);
            tally t;
            memset(&t, 0, sizeof t);
            if (!started || J.lost) {
                t.tests = t.failed = 1;
                snprintf(t.msg, sizeof t.msg, "the runner %s: %s%s%s", started ? "is gone" : "did not start", J.why,
                         scratch ? "; its output: " : "", scratch ? g_sb_log : "");
            } else if (k == 0) {
                judge_devquery(&J, &t);
            } else if (k == 1) {
                judge_vecadd(&J, &t);
            } else {
                const wb_checkpoint *c = wb_week_checkpoint(&W, ids[k]);
                judge_bw(&J, &R[k], c, gpu);
                t.tests = R[k].tests, t.failed = R[k].failed;
                snprintf(t.msg, sizeof t.msg, "%s", R[k].message);
            }
            R[k].tests = t.tests, R[k].failed = t.failed, R[k].skipped = t.skipped;
            snprintf(R[k].message, sizeof R[k].message, "%s", t.msg);
            R[k].status = t.failed ? WB_RES_FAIL : t.skipped || !t.tests ? WB_RES_SKIP : WB_RES_PASS;
            R[k].reason = t.failed ? WB_WHY_CODE : R[k].status == WB_RES_SKIP ? WB_WHY_ENV : WB_WHY_NONE;
        }
        jd_stop(&J);
    }
    /* only the checkpoints asked for */
    wb_result out[3];
    int m = 0;
    for (int k = 0; k < 3; k++)
        if (want[k]) out[m++] = R[k];
    for (int k = 0; k < m; k++)
        printf("judge-w01: %s %s%s%s\n", out[k].id, wb_result_status_name(out[k].status), out[k].message[0] ? ": " : "",
               out[k].message);
    if (wb_results_write(record, out, m, err, sizeof err) != 0) return fprintf(stderr, "judge-w01: %s\n", err), 2;
    return 0;
}
