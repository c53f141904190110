/* judge_w12.c — build/instructor/judge-w12: week 12's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's ilp.o, graph.o and fuse.o are linked into the runner
 * (judge_w12_runner.c, with the week's given support/tiny.o, yard_eager.o
 * and yard_unfused.o as the test program has them), which this process
 * starts (or is handed) and asks to call them on buffers it allocated
 * (judge.h). It poisons, fills, times and checks, and writes the results
 * record itself, outside the runner's reach. The command line, the
 * runner's start, the record, the checked case, the timed-call protocol and
 * the COPY yardstick are judge_week.c's:
 *
 *   judge-w12 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week12.c's (shared through phase2/week12/w12_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag):
 *   w12.ilp          the test's 26 cases: the 13 sizes (0 to 2^22, odd ones,
 *                    not multiples of 4) on a full grid and again at one
 *                    block per SM, ILP 1, 2, 4, 8 in turn, a and the input
 *                    drawn as the test draws them, NaN and +-Inf in front;
 *                    every element against a x at the test's 1e-7 |ref|
 *                    (NaN where NaN is due, the poison left there counted as
 *                    not written), nothing written outside y (a poisoned
 *                    guard band of 64 floats each side, as the test's); then
 *                    ILP 3 and 16 must be refused with cudaErrorInvalidValue
 *                    (ilp.h; stricter than the test);
 *   w12.ilp-bw       the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own x and y of wb_bench_bytes(),
 *                    ilp_scale at ILP 4 on a full grid, fresh inputs from
 *                    the hidden seed and a new factor a (never 1) before
 *                    every request, a poisoned output, the judge's look
 *                    after the reply and every output checked in full by
 *                    the judge's kernel (jd_fma_check_f32, one step: a x,
 *                    at the test's 1e-7 |ref|; the test samples 2^14); the
 *                    median of 7 requests, 8 bytes an element, against COPY
 *                    timed through the same protocol (jd_copy_yard), the
 *                    target for this GPU from week.txt;
 *   w12.graph        the test's 8 cases (k = 1, 2, 17, 100; n drawn up to
 *                    3000; 1-3 replays): d filled as the test fills it,
 *                    inside a poisoned guard band (jd_gbuf); graph_create
 *                    through the runner, which keeps the graph (a
 *                    cudaGraphExec_t is an object of the runner's process;
 *                    it stays there, by the buffer it was built on); d read
 *                    back by the judge must be unchanged (the capture runs
 *                    nothing); the replays (graph_launch, back to back, as
 *                    the test makes them) and d read back again against k x
 *                    replays adds of 1.0f, exact; graph_destroy must
 *                    succeed; nothing written outside d;
 *   w12.graph-speed  the same protocol: K graphs, one on each rep's buffer
 *                    of 256 floats (graph_create with k = 1000 through the
 *                    runner, untimed, before the warm-up: jd_bench.prepare),
 *                    each timed call one replay (graph_launch), every
 *                    buffer refilled from the hidden seed before every
 *                    request (the graph reads d when it runs), looked at
 *                    and checked in full (1000 adds of 1.0f, exact) by the
 *                    judge. The yardstick EAGER is the week's given
 *                    yard_tiny_eager (1000 launches of tiny_add on the
 *                    default stream), instructor code: the judge times it
 *                    itself through the same protocol (jd_yard_bench over
 *                    judge-w12-yard-runner, judge_w12_runner.c built with
 *                    -DW12_YARD and the instructor's support objects, no
 *                    student object), on the same sizes and data, before
 *                    the student's runner starts and after the student's
 *                    calls, the faster kept. The ratio is EAGER's time a
 *                    call over the replay's (kernels a microsecond, as the
 *                    test's rows), target week.txt's (3x). Judged from
 *                    outside because the protocol's own cost, the same in
 *                    both figures (a socket round trip, the runner's
 *                    cudaDeviceSynchronize and the look, tens of
 *                    microseconds a request), is under a per cent of a
 *                    request of 16 calls of 1000 kernels (about 16 ms
 *                    replayed, 70 ms eager on an H100 by the test's
 *                    figures); K replays back to back measure the steady
 *                    replay cost the checkpoint speaks of, as the test's
 *                    single replay between events does but for the one
 *                    submission it includes. What the judge cannot see,
 *                    the linked test cannot either: that graph_launch
 *                    replays a graph (a runner that adds 1000 in one
 *                    kernel gives the same output); both take the output;
 *   w12.fuse         the test's 13 sizes, a, b, s and the input drawn as the
 *                    test draws them, NaN and +-Inf in front, every element
 *                    against the chain in float at the test's 1e-6 |ref|,
 *                    inside a guard band;
 *   w12.fuse-speed   the protocol on x and y of wb_bench_bytes(), a, b and s
 *                    new for every request, every output checked in full by
 *                    the judge's kernel (jd_chain_check_f32; the test
 *                    samples 2^14). The yardstick UNFUSED is the week's
 *                    given three-kernel chain (yard_unfused_chain), timed by
 *                    the judge through judge-w12-yard-runner on the same
 *                    sizes and data (the yard runner keeps the chain's two
 *                    temporaries), its outputs checked in full too, before
 *                    the student's runner starts and after, the faster
 *                    kept; the ratio is the chain's time over fused_chain's
 *                    (Gelem/s both), target week.txt's (2x).
 * Every checkpoint of week 12 is judged: none is left to the linked test.
 * Not yet run on a GPU. Without a GPU the plumbing (every checkpoint SKIP,
 * the grader's cells as linked) is tested by instructor/tests/judge_w12.sh. */
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
#include "judge_w12.h"
#include "judge_week.h"
#include "w12_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the timed runs' inputs, as test_week12.c fills them */
#define HI    1.0f

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* The test's size of the bandwidth runs: wb_bench_bytes() / 4 floats, a multiple of 4. */
static size_t bench_n(void) { return (wb_bench_bytes() & ~(size_t)15) / 4; }

/* ---------------------------------------------------------------- ILP */

/* Case i drawn for this seed. ctx: room for the expected output. */
static int ilp_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    size_t n;
    int ilp, bps;
    wb_rng rng = wb_rng_for_seed(jd_seed, W12_ILP_TAG, i);
    float a = w12_ilp_case(&rng, i, &n, &ilp, &bps, B->h[0], ref);
    char what[96];
    snprintf(what, sizeof what, "n=%zu ilp=%d blocks_per_sm=%d", n, ilp, bps);
    jd_case cs = { .fn = W12_FN_ILP, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref, .atol = 0,
                   .rtol = W12_ILP_RTOL, .i64 = { 0, ilp, bps }, .f64 = { a }, .what = what, .out_name = "y",
                   .fn_name = "ilp_scale" };
    return jd_case_run(J, B, &cs, t);
}

/* ilp_scale with an ILP it must refuse, on the cases' buffers: its status,
 * or -1 when the runner is lost. */
static int ilp_refused(jd *J, jd_case_bufs *B, int ilp, int *status)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W12_FN_ILP, 1, 2);
    rq.arg_buf[0][0] = B->ib[0], rq.arg_buf[0][1] = B->ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
    rq.i64[0] = 1025, rq.i64[1] = ilp, rq.f64[0] = 1.5;
    if (jd_call(J, &rq, &rp, NULL) != 0) return -1;
    *status = rp.status;
    return 0;
}

static void judge_ilp(jd_ck *k)
{
    float *ref = malloc(W12_MAX_N * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_case_bufs B;
    if (jd_case_bufs_alloc(k->J, &B, 1, W12_MAX_N, W12_MAX_N, k->t) == 0) {
        for (int i = 0; i < (int)W12_N_ILP_CASES && !k->J->lost; i++)
            if (ilp_one(k->J, &B, i, k->t, ref) < 0) break;
        static const int BAD[2] = { 3, 16 };
        for (int j = 0; j < 2 && !k->t->failed && !k->J->lost; j++) {
            int st = 0;
            k->t->tests++;
            if (ilp_refused(k->J, &B, BAD[j], &st) != 0) jd_failf(k->t, "ilp_scale: %s", k->J->why);
            else if (st != (int)cudaErrorInvalidValue)
                jd_failf(k->t, "ilp=%d must return cudaErrorInvalidValue (ilp_scale returned %s)", BAD[j], status_name(st));
        }
    }
    jd_case_bufs_free(k->J, &B);
    free(ref);
}

/* y[i] = a x[i], a in f64[0]: the look's value, and the judge's kernel
 * (one step of the FMA replay with b = 0: a x rounded once, the same value). */
static float scale_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return (float)b->f64[0] * wb_hash_uniform_f32(seed[0], i, b->lo, b->hi);
}

static int scale_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    return jd_full_check_done(jd_fma_check_f32(out, b->n, seed[0], b->lo, b->hi, 1, (float)b->f64[0], 0.0f, b->atol,
                                               b->rtol, bad, jd_stream),
                              bad, h);
}

/* a new for every request (jd_fresh_factor: never 1). */
static void fresh_a(jd_bench *b, uint64_t r) { b->f64[0] = jd_fresh_factor(r); }

static jd_bench g_bench, g_yard; /* large: their sample arrays */

/* w12.ilp-bw: ILP 4 on a full grid, 8 bytes an element, against COPY. */
static void judge_ilp_bw(jd_ck *k)
{
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W12_FN_ILP, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = bench_n();
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = 0, g_bench.rtol = W12_ILP_RTOL;
    g_bench.i64[1] = 4, g_bench.i64[2] = 0;
    g_bench.fn_name = "ilp_scale", g_bench.out_name = "y";
    g_bench.fresh = fresh_a, g_bench.expect = scale_expect, g_bench.full_check = scale_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "ilp_scale, ILP 4, full grid");
}

/* ---------------------------------------------------------------- graph */

/* One call about the graph on d (b's array), scalars i64[0..1]: its
 * status, *made where the reply says whether a graph was made (create), or
 * -1 when the runner is lost. */
static int graph_call(jd *J, int fn, int id, size_t off, long long i0, long long i1, int *status, int *made)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 1);
    rq.arg_buf[0][0] = id, rq.arg_off[0][0] = off;
    rq.i64[0] = i0, rq.i64[1] = i1;
    if (jd_call(J, &rq, &rp, NULL) != 0) return -1;
    *status = rp.status;
    if (made) {
        *made = 0;
        if (rp.out_len == sizeof *made) memcpy(made, rp.out, sizeof *made);
    }
    return 0;
}

/* d (n floats) against want, exact as the test's wb_expect_dout_f32 at 0
 * tolerance: 0, or 1 with t told (WHAT: d[i] expected X got Y). */
static int graph_same(const float *got, const float *want, int n, const char *what, jd_tally *t)
{
    for (int i = 0; i < n; i++)
        if (!wb_close(got[i], want[i], 0, 0))
            return jd_failf(t, "%s: d[%d] expected %.9g got %.9g", what, i, (double)want[i], (double)got[i]), 1;
    return 0;
}

typedef struct {
    jd_gbuf d;
    float  *h, *ref, *got;
} graph_room;

/* Case i: d filled, the graph made, d unchanged, the replays, d against
 * the reference, the graph destroyed. 0 when the case ran, -1 when the
 * runner or the judge's copies failed. */
static int graph_one(jd *J, graph_room *G, int i, jd_tally *t)
{
    int k, n, replays, st = 0, made = 0, rc = 0;
    wb_rng rng = wb_rng_for_seed(jd_seed, W12_GRAPH_TAG, i);
    w12_graph_case(&rng, i, &k, &n, &replays, G->h, G->ref);
    size_t bytes = (size_t)n * 4;
    char what[96];
    t->tests++;
    if (jd_gbuf_poison(&G->d, 0, bytes) != 0 || jd_gbuf_put(&G->d, 0, G->h, bytes) != 0)
        return jd_failf(t, "the judge's own copies failed"), -1;
    snprintf(what, sizeof what, "n=%d k=%d", n, k);
    if (graph_call(J, W12_FN_GRAPH_CREATE, G->d.id, JD_GBAND, n, k, &st, &made) != 0)
        return jd_failf(t, "%s: %s", what, J->why), -1;
    if (st != 0) jd_failf(t, "%s: graph_create returned %s", what, status_name(st));
    else if (!made) jd_failf(t, "%s: graph_create gave no graph", what);
    else {
        snprintf(what, sizeof what, "n=%d k=%d, after capture, before any replay", n, k);
        int f = jd_gbuf_fetch(&G->d, 0, bytes, G->got, "d", what, t); /* capturing must not run anything */
        if (f < 0) rc = -1;
        else if (f == 0 && graph_same(G->got, G->h, n, what, t) == 0) {
            snprintf(what, sizeof what, "n=%d k=%d, %d replays", n, k, replays);
            if (graph_call(J, W12_FN_GRAPH_LAUNCH, G->d.id, JD_GBAND, n, replays, &st, NULL) != 0)
                return jd_failf(t, "%s: %s", what, J->why), -1;
            if (st != 0) jd_failf(t, "%s: graph_launch returned %s", what, status_name(st));
            else if ((f = jd_gbuf_fetch(&G->d, 0, bytes, G->got, "d", what, t)) < 0) rc = -1;
            else if (f == 0) graph_same(G->got, G->ref, n, what, t);
        }
    }
    if (made) { /* every graph made is destroyed, passed or not */
        int failed = t->failed;
        if (graph_call(J, W12_FN_GRAPH_DESTROY, G->d.id, JD_GBAND, 0, 0, &st, NULL) != 0)
            return jd_failf(t, "graph_destroy: %s", J->why), -1;
        if (st != 0 && failed == t->failed) jd_failf(t, "n=%d k=%d: graph_destroy returned %s", n, k, status_name(st));
    }
    return rc;
}

static void judge_graph(jd_ck *k)
{
    graph_room G = { { -1, NULL, 0 }, malloc(W12_GRAPH_MAX_N * 4), malloc(W12_GRAPH_MAX_N * 4),
                     malloc(W12_GRAPH_MAX_N * 4) };
    if (!G.h || !G.ref || !G.got) jd_failf(k->t, "buffers: out of memory");
    else if (jd_gbuf_alloc(k->J, &G.d, W12_GRAPH_MAX_N * 4, k->t) == 0)
        for (int i = 0; i < W12_N_GRAPH_CASES && !k->J->lost; i++)
            if (graph_one(k->J, &G, i, k->t) < 0) break;
    jd_gbuf_free(k->J, &G.d);
    free(G.h), free(G.ref), free(G.got);
}

/* ---------------------------------------------------------------- graph-speed */

/* d[i] after one call (TINY_K kernels, replayed or eager) on the fill of seed[0]. */
static float tiny_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w12_tiny_after(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), W12_TINY_K);
}

/* Every element of a rep's d: 256 floats, read back and checked here. */
static int tiny_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    (void)bad;
    float got[W12_TINY_N];
    if (cudaMemcpyAsync(got, out, sizeof got, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    h[0] = 0, h[1] = ~0ull;
    for (size_t i = 0; i < W12_TINY_N; i++)
        if (!wb_close(got[i], tiny_expect(b, seed, i), 0, 0)) {
            if (!h[0]) h[1] = i;
            h[0]++;
        }
    return 0;
}

static int g_graphs_made; /* the graphs of the timed run, one on each rep's output from the first */

/* Before the warm-up: a graph of TINY_K launches on each rep's output. */
static void graphs_release(jd *J, jd_bench *b)
{
    for (int r = 0; r < g_graphs_made; r++) {
        int st = 0;
        graph_call(J, W12_FN_GRAPH_DESTROY, b->iout[r], 0, 0, 0, &st, NULL);
    }
    g_graphs_made = 0;
}

static int graphs_prepare(jd *J, jd_bench *b, char *why, size_t why_n)
{
    g_graphs_made = 0;
    for (int r = 0; r < b->k; r++) {
        int st = 0, made = 0;
        if (graph_call(J, W12_FN_GRAPH_CREATE, b->iout[r], 0, W12_TINY_N, W12_TINY_K, &st, &made) != 0) {
            snprintf(why, why_n, "graph_create: %s", J->why);
            break;
        }
        if (made) g_graphs_made = r + 1;
        if (st != 0 || !made) {
            snprintf(why, why_n, "graph_create(d, %d, %d) %s%s", W12_TINY_N, W12_TINY_K, st ? "returned " : "gave no graph",
                     st ? status_name(st) : "");
            break;
        }
    }
    if (g_graphs_made == b->k) return 0;
    graphs_release(J, b);
    return -1;
}

static void tiny_setup(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 0, x->inout = 1, x->max_k = JD_BENCH_MAX_K, x->n = W12_TINY_N;
    x->lo = W12_TINY_LO, x->hi = W12_TINY_HI, x->atol = 0, x->rtol = 0;
    x->i64[1] = fn == W12_FN_EAGER ? W12_TINY_K : 1; /* eager: k launches; the graph: one replay */
    x->fn_name = fn_name, x->out_name = "d";
    x->expect = tiny_expect, x->full_check = tiny_check;
}

/* A yardstick through the yard runner: ms a call, or NAN with why. */
static double yard_ms(void (*setup)(jd_bench *x), char *why, size_t why_n)
{
    double ms = NAN;
    setup(&g_yard);
    if (jd_yard_bench(W12_YARD_RUNNER, &g_yard, TIMED, &ms, why, why_n) != 0) return NAN;
    return ms;
}

static void eager_setup(jd_bench *x) { tiny_setup(x, W12_FN_EAGER, "yard_tiny_eager"); }

/* The yardsticks before the student's runner starts (jd_checkpoint.yard_before). */
static double g_eager_before = NAN, g_unfused_before = NAN;
static char   g_eager_why[600], g_unfused_why[600];
static void eager_before(void) { g_eager_before = yard_ms(eager_setup, g_eager_why, sizeof g_eager_why); }

/* The student's timed run of g_bench (set up already), then the yardstick
 * (yard_setup's) through the yard runner, its figure the faster of that
 * and `before`, timed before the student's runner started (a runner can
 * only slow the judge's GPU or CPU down, which would flatter the ratio):
 * 0 with *ms, *after and *yard (ms a call), or -1 with why. */
static int mine_then_yard(jd_ck *k, void (*yard_setup)(jd_bench *), double before, const char *before_why,
                          const char *yard_name, double *ms, double *after, double *yard, char *why, size_t why_n)
{
    char ywhy[600] = "";
    if (jd_bench_run(k->J, &g_bench, TIMED, ms, why, why_n) != 0) return -1;
    *after = yard_ms(yard_setup, ywhy, sizeof ywhy);
    *yard = !(*after > 0) ? before : !(before > 0) ? *after : fmin(before, *after);
    if (*yard > 0) return 0;
    snprintf(why, why_n, "no figure for %s: %s", yard_name, ywhy[0] ? ywhy : before_why);
    return -1;
}

static void judge_graph_speed(jd_ck *k)
{
    double ms = NAN, after = NAN, eager = NAN, value = NAN, yard = NAN;
    char why[600] = "", detail[200] = "";
    tiny_setup(&g_bench, W12_FN_GRAPH_LAUNCH, "graph_launch");
    g_bench.prepare = graphs_prepare, g_bench.release = graphs_release;
    if (mine_then_yard(k, eager_setup, g_eager_before, g_eager_why, "the eager launches", &ms, &after, &eager, why,
                       sizeof why) == 0) {
        value = W12_TINY_K / (ms * 1e3), yard = W12_TINY_K / (eager * 1e3); /* kernels a microsecond */
        snprintf(detail, sizeof detail, "graph replay %.3f us a kernel, eager %.3f (judge's clock, %d calls of %d "
                 "kernels a request, median of %d)", 1 / value, 1 / yard, g_bench.k, W12_TINY_K, TIMED);
        printf("  graph replay: %.4f ms a call of %d kernels by the judge's clock (%.4f by the runner's own); eager "
               "%.4f (before the runner %.4f, after %.4f): %.2fx\n", ms, W12_TINY_K, g_bench.runner_ms, eager,
               g_eager_before, after, eager / ms);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "kernels/us", "EAGER", yard, detail, why);
}

/* ---------------------------------------------------------------- fusion */

/* Case i drawn for this seed. ctx: room for the expected output. */
static int fuse_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx, abs_[3];
    wb_rng rng = wb_rng_for_seed(jd_seed, W12_FUSE_TAG, i);
    size_t n = w12_fuse_case(&rng, i, abs_, B->h[0], ref);
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    jd_case cs = { .fn = W12_FN_FUSE, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref, .atol = 0,
                   .rtol = W12_FUSE_RTOL, .f64 = { abs_[0], abs_[1], abs_[2] }, .what = what, .out_name = "y",
                   .fn_name = "fused_chain" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_fuse(jd_ck *k)
{
    float *ref = malloc(W12_MAX_N * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, W12_MAX_N, W12_MAX_N, (int)W12_N_SIZES, fuse_one, ref);
    free(ref);
}

/* The chain on x of seed[0], a, b, s in f64[0..2]: the look's value and the judge's kernel. */
static float chain_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return w12_chain_ref(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi), (float)b->f64[0], (float)b->f64[1],
                         (float)b->f64[2]);
}

static int chain_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    return jd_full_check_done(jd_chain_check_f32(out, b->n, seed[0], b->lo, b->hi, (float)b->f64[0], (float)b->f64[1],
                                                 (float)b->f64[2], b->atol, b->rtol, bad, jd_stream),
                              bad, h);
}

/* a, b and s new for every request, of the test's scale: a never 1 (|a| in
 * [0.5, 2)), b in [-0.5, 0.5), s in [0.5, 1.5); the same sequence for the
 * student's run and the chain's (the same seed). */
static void fresh_abs(jd_bench *x, uint64_t r)
{
    x->f64[0] = jd_fresh_factor(r);
    x->f64[1] = (float)((double)(jd_mix(r ^ 0xb) >> 40) / 16777216.0 - 0.5);
    x->f64[2] = (float)((double)(jd_mix(r ^ 0x5) >> 40) / 16777216.0 + 0.5);
}

static void chain_setup(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K, x->n = bench_n();
    x->lo = LO, x->hi = HI, x->atol = 0, x->rtol = W12_FUSE_RTOL;
    x->fn_name = fn_name, x->out_name = "y";
    x->fresh = fresh_abs, x->expect = chain_expect, x->full_check = chain_check;
}

static void unfused_setup(jd_bench *x) { chain_setup(x, W12_FN_UNFUSED, "yard_unfused_chain"); }
static void unfused_before(void) { g_unfused_before = yard_ms(unfused_setup, g_unfused_why, sizeof g_unfused_why); }

/* w12.fuse-speed: fused_chain and the given chain on the same data, both by
 * the judge's clock through the same protocol; the ratio of their times. */
static void judge_fuse_speed(jd_ck *k)
{
    double ms = NAN, after = NAN, chain = NAN, value = NAN, yard = NAN;
    char why[600] = "", detail[200] = "";
    chain_setup(&g_bench, W12_FN_FUSE, "fused_chain");
    if (mine_then_yard(k, unfused_setup, g_unfused_before, g_unfused_why, "the given chain", &ms, &after, &chain, why,
                       sizeof why) == 0) {
        double n = (double)g_bench.n;
        value = n / (ms * 1e-3) / 1e9, yard = n / (chain * 1e-3) / 1e9;
        snprintf(detail, sizeof detail, "%.3f ms vs the given chain's %.3f ms a call, %.1f vs %.1f Gelem/s (judge's "
                 "clock, %d calls a request, median of %d)", ms, chain, value, yard, g_bench.k, TIMED);
        printf("  fused_chain: %.4f ms a call by the judge's clock (%.4f by the runner's own); the given chain %.4f "
               "(before the runner %.4f, after %.4f): %.2fx\n", ms, g_bench.runner_ms, chain, g_unfused_before, after,
               chain / ms);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "Gelem/s", "UNFUSED", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w12.ilp", judge_ilp, NULL, 0, 0, NULL },
    { "w12.ilp-bw", judge_ilp_bw, NULL, 0, 8, NULL },
    { "w12.graph", judge_graph, NULL, 0, 0, NULL },
    { "w12.graph-speed", judge_graph_speed, NULL, 0, 0, eager_before },
    { "w12.fuse", judge_fuse, NULL, 0, 0, NULL },
    { "w12.fuse-speed", judge_fuse_speed, NULL, 0, 0, unfused_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w12", "phase2/week12", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
