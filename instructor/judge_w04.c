/* judge_w04.c — build/instructor/judge-w04: week 04's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's saxpylib.o, cli.o and mytest.o are linked into the runner
 * (judge_w04_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case, the timed-call protocol and the COPY yardstick are judge_week.c's:
 *
 *   judge-w04 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week04.c's (shared through phase0/week04/w04_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag):
 *   w04.saxpy        every size of W04_SIZES, 16 offset mixes (x and y at
 *                    any float alignment) and 4 cases of NaN and Inf in x,
 *                    y an input and the output (its n floats filled, a
 *                    poisoned guard band and lead around them), every element
 *                    against the double reference at 1e-6 + 1e-6 |ref|,
 *                    nothing written outside y;
 *   w04.dot          every size of W04_SIZES (offsets drawn), the 4 exact
 *                    integer cases and NaN and +Inf, the result one poisoned
 *                    float in a guard band, within the n-scaled tolerance of
 *                    the double reference (exact on integers; NaN where NaN
 *                    is due, and the poison left there counted as not written);
 *   w04.cli-args     the 19 bad argument vectors and -h/--help: cli_saxpy
 *                    called by the runner with the words the judge sends, its
 *                    exit code and printed text (2047 characters at most, as
 *                    the test reads) sent back, checked here (a CPU
 *                    checkpoint: with or without a GPU);
 *   w04.saxpy-bw     the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own x and y of wb_bench_bytes(),
 *                    x and y fresh from the hidden seed before every request
 *                    (y an input and the output: jd_bench.inout, found still
 *                    its fill just before the request) and a new a for every
 *                    request (so the output cannot be computed as the judge
 *                    fills the inputs), the judge's look after the reply and
 *                    every output checked in full by the judge's kernel at
 *                    1e-6 + 1e-6 |ref|; the median of 7 requests, 12 bytes an
 *                    element, against COPY timed through the same protocol
 *                    (jd_copy_yard), the target for this GPU from week.txt;
 *   w04.mytest       the student's mt_check_saxpy, called by the runner for
 *                    each of the test's 8 SAXPYs (3 correct, 5 with a planted
 *                    bug; in an order drawn from the hidden seed) with the
 *                    seed the test gives it. The SAXPY it is handed is the
 *                    runner's: it copies x and y into host buffers both map
 *                    and asks the judge (jr_back) to compute y there, so the
 *                    SAXPY, correct or not, is the judge's (w04_checks.h's,
 *                    the test's own) and the runner is never told which one
 *                    it is: a runner that reports "0 failures" for the correct
 *                    ones and "some" for the planted bugs has told them apart
 *                    by their outputs, which is what a working check does. A
 *                    call of more than 2^25 floats is refused (the test has
 *                    no such limit; the reference's largest is 2^20 + 3). A
 *                    CPU checkpoint: with or without a GPU;
 *   w04.mytest-lib   mt_check_saxpy on the student's sl_saxpy (copied to the
 *                    GPU and back in the runner, as the test does): the
 *                    verdict is the count the runner reports. Both functions
 *                    are the student's, in the student's process, in the
 *                    linked test as here: the count is the student's own
 *                    claim either way, and a runner that reports 0 claims
 *                    only what a student whose check passes its own correct
 *                    sl_saxpy earns anyway (w04.saxpy and w04.mytest, formed
 *                    here, are what say whether either is right);
 *   w04.mybench-csv  mt_csv_header and mt_csv_row on the test's 4 drawn
 *                    cases, their text (1023 characters at most) sent back
 *                    and checked here as the test checks it (a CPU checkpoint).
 * Not listed (judge-w04 --list), so the grader runs them in the week's
 * linked test program: w04.cli (what cli_saxpy prints comes from work in
 * the student's process: its max_err, its result and its reference are its
 * own figures, and the judge cannot see the GPU work behind a printed
 * line), w04.mybench (mt_bench_saxpy times sl_saxpy with CUDA events inside
 * the student's process; its figure is reported, not judged) and w04.dot-bw
 * (a figure only, no target). Run on an H200 (2026-11-29): by itself, plain and
 * sandboxed, the reference passed all seven and the starter failed all seven;
 * through the grader the same cells judged and linked. Without a GPU the
 * plumbing and the three CPU checkpoints are tested by instructor/tests/judge_w04.sh. */
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
#include "judge_w04.h"
#include "judge_week.h"
#include "w04_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the timed runs' inputs */
#define HI    1.0f

/* n cases (jd_cases) with two host arrays of the judge's as ctx (void *[2],
 * b0 and b1 bytes), freed after. */
static void cases_with_room(jd_ck *k, int n_in, size_t in_cap, size_t out_cap, int n, size_t b0, size_t b1,
                            int (*one)(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx))
{
    void *room[2] = { malloc(b0), malloc(b1) };
    if (room[0] && room[1]) jd_cases(k->J, k->t, n_in, in_cap, out_cap, n, one, room);
    else jd_failf(k->t, "buffers: out of memory");
    free(room[0]), free(room[1]);
}

/* ---------------------------------------------------------------- saxpy */

/* Case i: the test's sizes, then its offset mixes, then its NaN/Inf cases,
 * each drawn for this seed (w04_checks.h). */
static int saxpy_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *hy = ((void **)ctx)[0];   /* y before the call */
    double *ref = ((void **)ctx)[1]; /* a x + y in double */
    const int n_off = W04_N_SAXPY_OFFSETS, first_off = (int)W04_N_SIZES, first_nf = first_off + n_off;
    int nonfinite = i >= first_nf, off = !nonfinite && i >= first_off;
    int c = nonfinite ? i - first_nf : off ? i - first_off : i;
    wb_rng rng = wb_rng_for_seed(jd_seed, nonfinite ? W04_SAXPY_NONFINITE_TAG : off ? W04_SAXPY_OFFSETS_TAG
                                                                                     : W04_SAXPY_SIZES_TAG, c);
    size_t n, ox = 0, oy = 0;
    if (off) n = w04_saxpy_offsets_n(&rng), ox = (size_t)(c & 3), oy = (size_t)(c >> 2);
    else if (nonfinite) n = W04_SAXPY_NONFINITE_N, oy = (size_t)c;
    else n = W04_SIZES[c];
    float a = w04_saxpy_draw(&rng, n, ox, nonfinite, B->h[0], hy, ref);
    char what[96];
    snprintf(what, sizeof what, "n=%zu a=%g offsets x+%zu y+%zu%s", n, a, ox, oy, nonfinite ? ", NaN/Inf in x" : "");
    jd_case cs = { .fn = W04_FN_SAXPY, .in = { B->h[0] }, .in_n = { n + ox }, .in_off = { ox }, .n = n, .out_off = oy,
                   .ref64 = ref, .out_init = hy, .atol = W04_SAXPY_ATOL, .rtol = W04_SAXPY_RTOL,
                   .f64 = { a }, .what = what, .out_name = "y", .fn_name = "sl_saxpy" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_saxpy(jd_ck *k)
{
    size_t maxn = W04_SIZES[W04_N_SIZES - 1];
    if (maxn < W04_SAXPY_OFFSET_MAX_N) maxn = W04_SAXPY_OFFSET_MAX_N;
    cases_with_room(k, 1, maxn + 4, maxn, (int)W04_N_SIZES + W04_N_SAXPY_OFFSETS + W04_N_SAXPY_NONFINITE,
                    maxn * sizeof(float), maxn * sizeof(double), saxpy_one);
}

/* ---------------------------------------------------------------- dot */

/* Case i: the test's sizes (offsets drawn), its exact integer cases, its
 * NaN and +Inf cases, drawn for this seed; each input n + 4 floats (as the
 * test allocates them, the rest 0) with the call's pointer at its offset. */
static int dot_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *x = ((void **)ctx)[0], *y = ((void **)ctx)[1]; /* the inputs, before they are placed at their offsets */
    const int first_ex = (int)W04_N_SIZES, first_nf = first_ex + W04_N_DOT_EXACT;
    size_t n, ox = 0, oy = 0;
    double ref, tol = 0;
    char what[160];
    if (i < first_ex) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W04_DOT_SIZES_TAG, i);
        n = W04_SIZES[i];
        w04_dot_sizes_draw(&rng, n, x, y, &ox, &oy);
        tol = w04_dot_tolerance(x, y, n, &ref);
        snprintf(what, sizeof what, "dot, n=%zu, offsets x+%zu y+%zu (tolerance %.3g)", n, ox, oy, tol);
    } else if (i < first_nf) {
        int c = i - first_ex;
        wb_rng rng = wb_rng_for_seed(jd_seed, W04_DOT_EXACT_TAG, c);
        n = w04_dot_exact_n(&rng, c);
        ref = w04_dot_exact_fill(&rng, x, y, n);
        oy = (size_t)(c & 1);
        snprintf(what, sizeof what, "dot, n=%zu, integers in [-4, 4] (exact), offsets x+0 y+%zu", n, oy);
    } else {
        int c = i - first_nf;
        wb_rng rng = wb_rng_for_seed(jd_seed, W04_DOT_NONFINITE_TAG, c);
        n = W04_DOT_NONFINITE_N;
        ref = w04_dot_nonfinite_draw(&rng, c, x, y);
        snprintf(what, sizeof what, "dot, n=%zu, one x[i] = %s, y > 0", n, c ? "+Inf" : "NaN");
    }
    memset(B->h[0], 0, (n + W04_DOT_PAD) * sizeof(float));
    memset(B->h[1], 0, (n + W04_DOT_PAD) * sizeof(float));
    memcpy(B->h[0] + ox, x, n * sizeof(float));
    memcpy(B->h[1] + oy, y, n * sizeof(float));
    jd_case cs = { .fn = W04_FN_DOT, .in = { B->h[0], B->h[1] }, .in_n = { n + W04_DOT_PAD, n + W04_DOT_PAD },
                   .in_off = { ox, oy }, .n = 1, .ref64 = &ref, .atol = tol, .rtol = 0, .i64 = { 0, (long long)n },
                   .what = what, .out_name = "result", .fn_name = "sl_dot" };
    return jd_case_run(J, B, &cs, t);
}

static void judge_dot(jd_ck *k)
{
    size_t maxn = W04_SIZES[W04_N_SIZES - 1];
    if (maxn < W04_DOT_EXACT_MAX_N) maxn = W04_DOT_EXACT_MAX_N;
    cases_with_room(k, 2, maxn + W04_DOT_PAD, 1, (int)W04_N_SIZES + W04_N_DOT_EXACT + W04_N_DOT_NONFINITE,
                    maxn * sizeof(float), maxn * sizeof(float), dot_one);
}

/* ------------------------------------------------------- text through the runner */

/* Two host buffers both map, whatever the run's kind: the text coming back
 * (out, cap bytes) and the text going (in, W04_TEXT bytes). */
typedef struct {
    jd   *J;
    int   iout, iin;
    char *out, *in;
    size_t cap;
} text_bufs;

static int text_alloc(jd *J, text_bufs *T, size_t cap, jd_tally *t)
{
    memset(T, 0, sizeof *T);
    T->J = J, T->cap = cap;
    T->iout = jd_alloc_kind(J, JD_MEM_HOST, cap, (void **)&T->out);
    T->iin = T->iout < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, W04_TEXT, (void **)&T->in);
    if (T->iin < 0) return jd_free(J, T->iout), jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

static void text_free(text_bufs *T) { jd_free(T->J, T->iin), jd_free(T->J, T->iout); }

/* Call fn with `in` as the text going; the text that came back into got
 * (at most cap - 1 characters); 0 and the reply, or -1 (J->why, or the status). */
static int text_call(text_bufs *T, int fn, const char *in, long long i64, double f64, char *got, jd_rep *rp)
{
    jd_req rq;
    snprintf(T->in, W04_TEXT, "%s", in);
    memset(T->out, 0, T->cap);
    jd_call_setup(&rq, fn, 1, 2);
    rq.arg_buf[0][0] = T->iout, rq.arg_buf[0][1] = T->iin;
    rq.i64[0] = i64, rq.f64[0] = f64;
    if (jd_call(T->J, &rq, rp, NULL) != 0) return -1;
    memcpy(got, T->out, T->cap);
    got[T->cap - 1] = 0;
    return rp->status == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- CLI */

typedef struct {
    text_bufs T;
    char      why[300]; /* the runner's failure, if any */
} cli_room;

/* w04_checks.h's CLI under test: cli_saxpy, called by the runner. */
static int cli_remote(void *ctx, const char *args, char *out, size_t outsz)
{
    cli_room *c = ctx;
    char got[W04_CLI_OUT];
    jd_rep rp;
    int rc = -1;
    out[0] = 0;
    if (c->why[0]) return -1;
    if (text_call(&c->T, W04_FN_CLI, args, 0, 0, got, &rp) != 0 || rp.out_len != sizeof rc) {
        snprintf(c->why, sizeof c->why, "`saxpy-cli %s`: %s", args,
                 c->T.J->lost ? c->T.J->why : "the runner could not call cli_saxpy");
        return -1;
    }
    memcpy(&rc, rp.out, sizeof rc);
    snprintf(out, outsz, "%s", got);
    return rc;
}

static void judge_cli_args(jd *J, jd_tally *t)
{
    cli_room c;
    memset(&c, 0, sizeof c);
    t->tests++;
    if (text_alloc(J, &c.T, W04_CLI_OUT, t) != 0) return;
    char why[600];
    int bad = w04_cli_bad_args(cli_remote, &c, why, sizeof why);
    if (c.why[0]) jd_failf(t, "%s", c.why);
    else if (bad) jd_failf(t, "%s", why);
    text_free(&c.T);
}

static void judge_cli_args_gpu(jd_ck *k) { judge_cli_args(k->J, k->t); }

/* ---------------------------------------------------------------- the CSV */

static void judge_csv(jd *J, jd_tally *t)
{
    text_bufs T;
    if (text_alloc(J, &T, W04_CSV_TEXT, t) != 0) return;
    for (int c = 0; c < W04_N_MYBENCH_CSV && !J->lost; c++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, W04_MYBENCH_CSV_TAG, c);
        size_t n;
        double ms, got_ms, gbps;
        char name[32], text[W04_CSV_TEXT], why[600];
        jd_rep rp;
        w04_csv_case(&rng, &n, &ms, name, sizeof name);
        t->tests++;
        if (text_call(&T, W04_FN_CSV, name, (long long)n, ms, text, &rp) != 0)
            jd_failf(t, "mt_csv_header, mt_csv_row: %s", J->lost ? J->why : "the runner could not call them");
        else if (w04_expect_csv(text, name, n, ms, &got_ms, &gbps, why, sizeof why))
            jd_failf(t, "%s", why);
    }
    text_free(&T);
}

static void judge_csv_gpu(jd_ck *k) { judge_csv(k->J, k->t); }

/* ---------------------------------------------------------------- mt_check_saxpy */

/* The judge's side of the runner's SAXPY (judge_w04_runner.c, judged_saxpy):
 * SAXPY `impl` of W04_MT_IMPLS on the host buffers both map. */
typedef struct {
    int    impl;
    float *x, *y;
    unsigned long long saxpys, floats; /* this request's so far (W04_MT_MAX_SAXPYS, W04_MT_MAX_FLOATS) */
} mt_room;

static void mt_back(void *ctx, const jd_rep *ask, jd_req *answer)
{
    mt_room *m = ctx;
    w04_back b;
    answer->i64[0] = -1;
    if (ask->out_len != sizeof b) return;
    memcpy(&b, ask->out, sizeof b);
    if (b.n > W04_MT_CAP) return;
    /* the judge's work a request is bounded: past it the call ends (jd_call) and the checkpoint fails */
    if (++m->saxpys > W04_MT_MAX_SAXPYS || (m->floats += b.n) > W04_MT_MAX_FLOATS) {
        answer->op = 0;
        if (m->saxpys > W04_MT_MAX_SAXPYS)
            snprintf(answer->text, sizeof answer->text, "your checks asked the judge for more than %d SAXPYs in one "
                     "mt_check_saxpy call", W04_MT_MAX_SAXPYS);
        else
            snprintf(answer->text, sizeof answer->text, "your checks asked the judge for more than %llu elements of "
                     "SAXPY in one mt_check_saxpy call", W04_MT_MAX_FLOATS);
        return;
    }
    W04_MT_IMPLS[m->impl].fn(b.a, m->x, m->y, (size_t)b.n);
    answer->i64[0] = 0;
}

/* mt_check_saxpy through the runner (fn: W04_FN_MT_CHECK or _LIB, bufs: the
 * two host buffers or -1): its reply, or -1 with why. */
static int mt_call(jd *J, int fn, const int bufs[2], unsigned long long seed, w04_mt_reply *r, char *why, size_t why_n)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 2);
    rq.arg_buf[0][0] = bufs[0], rq.arg_buf[0][1] = bufs[1];
    rq.i64[0] = (long long)seed;
    if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(why, why_n, "mt_check_saxpy: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *r)
        return snprintf(why, why_n, "the runner could not call mt_check_saxpy (%s)", rp.text), -1;
    memcpy(r, rp.out, sizeof *r);
    r->first[sizeof r->first - 1] = 0;
    return 0;
}

/* The test's 8 SAXPYs, each with the seed the test gives it, in an order
 * drawn from the hidden seed; the failure reported is the first in the
 * test's order. */
static void judge_mytest(jd *J, jd_tally *t)
{
    enum { N = (int)W04_N_MT_IMPLS };
    static char why[N][700];
    int order[N], bufs[2];
    mt_room m;
    memset(&m, 0, sizeof m);
    bufs[0] = jd_alloc_kind(J, JD_MEM_HOST, W04_MT_CAP * sizeof(float), (void **)&m.x);
    bufs[1] = bufs[0] < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, W04_MT_CAP * sizeof(float), (void **)&m.y);
    if (bufs[1] < 0) {
        jd_failf(t, "buffers: %s", J->why);
        jd_free(J, bufs[0]);
        return;
    }
    uint64_t r = jd_mix(jd_seed ^ 0x3e57);
    for (int i = 0; i < N; i++) order[i] = i, why[i][0] = 0;
    for (int i = N - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)((r = jd_mix(r)) % (uint64_t)(i + 1)), s = order[i];
        order[i] = order[j], order[j] = s;
    }
    for (int k = 0; k < N && !J->lost; k++) {
        int i = order[k];
        wb_rng rng = wb_rng_for_seed(jd_seed, W04_MYTEST_CPU_TAG, i);
        unsigned long long seed = wb_rng_u64(&rng);
        w04_mt_reply rep;
        m.impl = i, m.saxpys = m.floats = 0;
        J->back = mt_back, J->back_ctx = &m;
        int c = mt_call(J, W04_FN_MT_CHECK, bufs, seed, &rep, why[i], sizeof why[i]);
        J->back = NULL, J->back_ctx = NULL;
        t->tests++;
        if (c == 0 && w04_mytest_verdict(i, rep.failed, seed, rep.first, why[i], sizeof why[i]) && rep.refused)
            snprintf(why[i] + strlen(why[i]), sizeof why[i] - strlen(why[i]),
                     " (the judge's SAXPYs take at most 2^25 elements a call: your checks handed one more)");
    }
    for (int i = 0; i < N; i++)
        if (why[i][0]) jd_failf(t, "%s", why[i]);
    jd_free(J, bufs[1]), jd_free(J, bufs[0]);
}

static void judge_mytest_gpu(jd_ck *k) { judge_mytest(k->J, k->t); }

static void judge_mytest_lib(jd_ck *k)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, W04_MYTEST_GPU_TAG, 0);
    unsigned long long seed = wb_rng_u64(&rng);
    int none[2] = { -1, -1 };
    w04_mt_reply rep;
    char why[700];
    k->t->tests++;
    if (mt_call(k->J, W04_FN_MT_LIB, none, seed, &rep, why, sizeof why) != 0 ||
        w04_mytest_lib_verdict(rep.failed, seed, rep.first, why, sizeof why))
        jd_failf(k->t, "%s", why);
}

/* ---------------------------------------------------------------- saxpy-bw */

/* y = a x + y0 (x from seed[0], y0 from seed[1]), the look's expected value
 * (rounded once from double), and the judge's kernel over a whole output. */
static float saxpy_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    return (float)(b->f64[0] * wb_hash_uniform_f32(seed[0], i, b->lo, b->hi) + wb_hash_uniform_f32(seed[1], i, b->lo, b->hi));
}

static int saxpy_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    return jd_saxpy_check_f32(out, b->n, seed[0], seed[1], b->lo, b->hi, (float)b->f64[0], b->atol, b->rtol, bad,
                              jd_stream) == cudaSuccess &&
                   cudaMemcpyAsync(h, bad, 2 * sizeof *h, cudaMemcpyDeviceToHost, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

/* a new for every request, |a| in [0.5, 2) of either sign (never 0 or 1: a
 * runner that leaves y alone or ignores a is wrong at every element). The
 * runner sees x and y as the judge fills them, but not a until the request
 * arrives: it cannot have the output ready. */
static void fresh_a(jd_bench *b, uint64_t r) { b->f64[0] = jd_fresh_factor(r); }

static void judge_saxpy_bw(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    memset(&x, 0, sizeof x);
    x.fn = W04_FN_SAXPY, x.n_in = 1, x.inout = 1, x.max_k = JD_BENCH_MAX_K, x.n = wb_bench_bytes() / 4;
    x.lo = LO, x.hi = HI, x.atol = W04_SAXPY_ATOL, x.rtol = W04_SAXPY_RTOL;
    x.fn_name = "sl_saxpy", x.out_name = "y";
    x.fresh = fresh_a, x.expect = saxpy_expect, x.full_check = saxpy_check;
    jd_bw_checkpoint(k, &x, TIMED, 12.0, "saxpy");
}

static const jd_checkpoint CPS[] = {
    { "w04.saxpy", judge_saxpy, NULL, 0, 0 },
    { "w04.dot", judge_dot, NULL, 0, 0 },
    { "w04.cli-args", judge_cli_args_gpu, judge_cli_args, 1, 0 },
    { "w04.saxpy-bw", judge_saxpy_bw, NULL, 0, 12 },
    { "w04.mytest", judge_mytest_gpu, judge_mytest, 1, 0 },
    { "w04.mytest-lib", judge_mytest_lib, NULL, 0, 0 },
    { "w04.mybench-csv", judge_csv_gpu, judge_csv, 1, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w04", "phase0/week04", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
