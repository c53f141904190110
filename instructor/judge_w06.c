/* judge_w06.c — build/instructor/judge-w06: week 06's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's transpose.o, strided.o, localmem.o and constmem.o are linked
 * into the runner (judge_w06_runner.c), which this process starts (or is
 * handed) and asks to call them on buffers it allocated (judge.h). It
 * poisons, fills, times and checks, and writes the results record itself,
 * outside the runner's reach. The command line, the runner's start, the
 * record, the checked case, the timed-call protocol and the COPY yardstick
 * are judge_week.c's:
 *
 *   judge-w06 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week06.c's (shared through phase1/week06/w06_checks.h),
 * each case drawn as the test draws it for the seed (wb_rng_for_seed with
 * the test's tag):
 *   w06.transpose    the test's 11 shapes (empty, 1 x 1, single rows and
 *                    columns, tile edges, 3 x 70001, 2049 x 2047), each
 *                    through transpose_naive, _tiled and _padded on a fresh
 *                    poison, compared bit for bit, nothing written outside
 *                    the output (a poisoned guard band);
 *   w06.transpose-bw the timed-call protocol (judge_week.h): K calls a
 *                    request, each on its own square matrix of the test's
 *                    side (wb_bench_bytes(), a multiple of 32), fresh inputs
 *                    from the hidden seed before every request, a poisoned
 *                    output, the judge's look after the reply and every
 *                    output checked in full by the judge's kernel
 *                    (jd_perm_check_f32); transpose_padded timed, the
 *                    median of 7 requests, 8 bytes an element (the test's
 *                    count: each float read once and written once), against
 *                    COPY timed through the same protocol (jd_copy_yard),
 *                    the target for this GPU from week.txt;
 *   w06.strided      the test's 10 strides (n = R s, R drawn), bit for bit
 *                    with a guard band, and cudaErrorInvalidValue for n % s
 *                    != 0 and for s = 0; then the sweep (strides 1 to 64 on
 *                    wb_bench_bytes() / 4 floats, as the test's rows): each
 *                    stride through the same protocol (one call a request,
 *                    one timed request), every output checked in full by
 *                    the judge's kernel. A row is valid when its output is
 *                    right, as in the test; the judge prints each row's GB/s
 *                    by its own clock (shown, not judged: the checkpoint has
 *                    no target);
 *   w06.localmem     the test's 7 sizes through localmem_median9_local and
 *                    _regs, bit for bit against the CPU median, with a guard
 *                    band; then "no local memory": localmem_median9_attrs(0)
 *                    and (1) called by the runner, as the test calls them,
 *                    and the regs kernel's local bytes must be 0. The
 *                    figures are what cudaFuncGetAttributes says inside the
 *                    student's process (localmem_median9_attrs is the
 *                    student's code), in the linked test as here: the judge
 *                    asks as the test asks, and a runner that reports 0
 *                    claims no more than a test program that does. Reading
 *                    the binary instead (cuobjdump -res-usage, or the
 *                    driver's own attributes of the runner's kernels) lists
 *                    every kernel's local memory but not which kernel
 *                    localmem_median9_regs launches (the student names its
 *                    kernels; a decoy with no local memory would pass), and
 *                    the grader starts the runner, which can rewrite its own
 *                    files, before the judge; instructor/README.md says what
 *                    would close it. The filter's values are formed here;
 *   w06.const        the test's 5 cases: constmem_poly_set with the drawn
 *                    coefficients (a host buffer both map, overwritten with
 *                    NaN by the judge once the call returned: the copy must
 *                    be made by then), constmem_poly_eval on a poisoned
 *                    output against the double Horner reference within
 *                    4e-7 m sum|c| + 1e-6 |ref|, then the coefficients
 *                    reversed, set again and evaluated again on a fresh
 *                    poison; 0 and POLY_MAX + 1 coefficients must be refused
 *                    with cudaErrorInvalidValue.
 * Not listed (judge-w06 --list), so the grader runs it in the week's linked
 * test program: w06.strided-plot (the sweep written to build/WEEK/strided.csv
 * and drawn to strided.png by gnuplot from the student's process: the files
 * are the checkpoint, in the student's tree, and the judge, outside it,
 * would draw them from its own figures; the sweep's correctness, what the
 * plot stands on, is formed here under w06.strided).
 * Run on an H200 (2026-11-29) through the grader: the
 * reference full marks on all five, the starter 0. Without a GPU the plumbing (every checkpoint SKIP,
 * the grader's cells as linked) is tested by instructor/tests/judge_w06.sh. */
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
#include "judge_w06.h"
#include "judge_week.h"
#include "w06_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"

#define TIMED 7
#define LO    (-1.0f) /* the timed runs' inputs, as test_week06.c fills them */
#define HI    1.0f

static const char *const TNAME[3] = { "transpose_naive", "transpose_tiled", "transpose_padded" };

/* ---------------------------------------------------------------- transpose */

/* Case i: shape i / 3 drawn for this seed, through version i % 3. ctx: room for the expected output. */
static int transpose_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    int s = i / 3, v = i % 3, rows = W06_TR[s], cols = W06_TC[s];
    size_t n = (size_t)rows * cols;
    wb_rng rng = wb_rng_for_seed(jd_seed, W06_TRANSPOSE_TAG, s);
    w06_transpose_case(&rng, rows, cols, B->h[0], ref);
    char what[96];
    snprintf(what, sizeof what, "%s, %d x %d", TNAME[v], rows, cols);
    jd_case cs = { .fn = W06_FN_NAIVE + v, .in = { B->h[0] }, .in_n = { n + 1 }, .n = n, .ref = ref, .atol = 0,
                   .rtol = 0, .i64 = { 0, rows, cols }, .what = what, .out_name = "out", .fn_name = TNAME[v] };
    return jd_case_run(J, B, &cs, t);
}

static void judge_transpose(jd_ck *k)
{
    size_t maxn = 0;
    for (size_t s = 0; s < W06_N_SHAPES; s++)
        if ((size_t)W06_TR[s] * W06_TC[s] > maxn) maxn = (size_t)W06_TR[s] * W06_TC[s];
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn + 1, maxn, 3 * (int)W06_N_SHAPES, transpose_one, ref);
    free(ref);
}

/* ---------------------------------------------------------------- timed gathers */

/* The transpose and the strided copy both give y[i] = x[(i % R) * S + i / R]
 * (R in i64[6], S in i64[7]: scalars the runner's entries do not read). */
static float perm_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t R = (size_t)b->i64[6], S = (size_t)b->i64[7];
    return wb_hash_uniform_f32(seed[0], (i % R) * S + i / R, b->lo, b->hi);
}

static int perm_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    return jd_perm_check_f32(out, b->n, seed[0], b->lo, b->hi, (size_t)b->i64[6], (size_t)b->i64[7], bad, jd_stream) ==
                       cudaSuccess &&
                   cudaMemcpyAsync(h, bad, 2 * sizeof *h, cudaMemcpyDeviceToHost, jd_stream) == cudaSuccess &&
                   cudaStreamSynchronize(jd_stream) == cudaSuccess
               ? 0
               : -1;
}

static jd_bench g_bench; /* large: its sample arrays */

static void bench_setup(int fn, size_t n, size_t R, size_t S, const char *fn_name)
{
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = fn, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n;
    g_bench.lo = LO, g_bench.hi = HI, g_bench.atol = JD_BITWISE, g_bench.rtol = 0;
    g_bench.i64[6] = (long long)R, g_bench.i64[7] = (long long)S;
    g_bench.fn_name = fn_name, g_bench.out_name = "out";
    g_bench.expect = perm_expect, g_bench.full_check = perm_check;
}

/* w06.transpose-bw: transpose_padded on the test's square (its side a
 * multiple of 32), 8 bytes an element, against COPY, both by the judge's clock. */
static void judge_transpose_bw(jd_ck *k)
{
    int side = ((int)sqrt((double)(wb_bench_bytes() / 4)) / 32) * 32;
    bench_setup(W06_FN_PADDED, (size_t)side * side, (size_t)side, (size_t)side, "transpose_padded");
    g_bench.i64[1] = side, g_bench.i64[2] = side;
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "transpose_padded");
}

/* ---------------------------------------------------------------- strided */

/* The status of strided_copy(in, out, n, s) on the case's buffers: 0 and
 * *status, or -1 when the runner is lost. */
static int strided_status(jd *J, jd_case_bufs *B, size_t n, int s, int *status)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W06_FN_STRIDED, 1, 2);
    rq.arg_buf[0][0] = B->ib[0], rq.arg_buf[0][1] = B->ib[1], rq.arg_off[0][1] = JD_GUARD * 4;
    rq.i64[0] = (long long)n, rq.i64[1] = s;
    if (jd_call(J, &rq, &rp, NULL) != 0) return -1;
    *status = rp.status;
    return 0;
}

/* Case i: the test's stride i, R drawn for this seed; then the two calls
 * that must be refused. ctx: room for the expected output. */
static int strided_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    int s = W06_STRIDES_CORRECT[i];
    wb_rng rng = wb_rng_for_seed(jd_seed, W06_STRIDED_TAG, i);
    size_t R, n = w06_strided_n(&rng, i, &R);
    wb_fill_uniform_f32(&rng, B->h[0], n, -1, 1);
    w06_strided_ref(B->h[0], ref, n, R, s);
    char what[64];
    snprintf(what, sizeof what, "n=%zu, s=%d", n, s);
    jd_case cs = { .fn = W06_FN_STRIDED, .in = { B->h[0] }, .in_n = { n }, .n = n, .ref = ref, .atol = 0, .rtol = 0,
                   .i64 = { 0, s }, .what = what, .out_name = "out", .fn_name = "strided_copy" };
    int failed = t->failed, rc = jd_case_run(J, B, &cs, t), st = 0;
    if (rc != 0 || t->failed != failed) return rc;
    static const struct { size_t n; int s; const char *why; } bad[2] = {
        { 7, 2, "n %% s != 0 must return cudaErrorInvalidValue (strided_copy(in, out, 7, 2) returned %s)" },
        { 0, 0, "s = 0 must return cudaErrorInvalidValue (strided_copy(in, out, n, 0) returned %s)" },
    };
    for (int b = 0; b < 2; b++) {
        t->tests++;
        if (strided_status(J, B, bad[b].n ? bad[b].n : n, bad[b].s, &st) != 0)
            return jd_failf(t, "%s: %s", what, J->why), -1;
        if (st != (int)cudaErrorInvalidValue) jd_failf(t, bad[b].why, st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st));
    }
    return 0;
}

/* The sweep: each of W06_SWEEP on w06_sweep_n floats through the protocol
 * (one call a request, one timed request), every output checked in full. */
static void strided_sweep(jd_ck *k)
{
    size_t n = w06_sweep_n(wb_bench_bytes());
    int valid = 0;
    char first[600] = "";
    for (size_t j = 0; j < W06_N_SWEEP && !k->J->lost; j++) {
        int s = W06_SWEEP[j];
        char why[600] = "";
        double ms = NAN;
        bench_setup(W06_FN_STRIDED, n, n / (size_t)s, (size_t)s, "strided_copy");
        g_bench.max_k = 1, g_bench.i64[1] = s;
        k->t->tests++;
        if (jd_bench_run(k->J, &g_bench, 1, &ms, why, sizeof why) == 0) {
            valid++;
            printf("  strided, stride=%d: %.4f ms, %.0f GB/s by the judge's clock (8 bytes an element; shown, not judged)\n",
                   s, ms, 8.0 * (double)n / (ms * 1e-3) / 1e9);
        } else if (!first[0]) {
            snprintf(first, sizeof first, "the sweep, stride=%d: %s", s, why);
        }
    }
    if (valid != (int)W06_N_SWEEP)
        jd_failf(k->t, "%d of %d strides of the sweep had a wrong output; %s", (int)W06_N_SWEEP - valid, (int)W06_N_SWEEP,
                 first[0] ? first : k->J->why);
}

static void judge_strided(jd_ck *k)
{
    size_t maxn = 0;
    for (size_t i = 0; i < W06_N_STRIDED; i++)
        if ((size_t)W06_STRIDED_MAX_R * W06_STRIDES_CORRECT[i] > maxn) maxn = (size_t)W06_STRIDED_MAX_R * W06_STRIDES_CORRECT[i];
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn, maxn, (int)W06_N_STRIDED, strided_one, ref);
    free(ref);
    if (!k->t->failed && !k->J->lost) strided_sweep(k);
}

/* ---------------------------------------------------------------- median of 9 */

static const char *const MNAME[2] = { "localmem_median9_local", "localmem_median9_regs" };

/* Case i: size i / 2 drawn for this seed, through version i % 2. */
static int median_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    float *ref = ctx;
    int c = i / 2, v = i % 2;
    size_t n = W06_MEDIAN_N[c];
    wb_rng rng = wb_rng_for_seed(jd_seed, W06_MEDIAN_TAG, c);
    w06_median_case(&rng, n, B->h[0], ref);
    char what[64];
    snprintf(what, sizeof what, "%s, n=%zu", MNAME[v], n);
    jd_case cs = { .fn = v ? W06_FN_MEDIAN_REGS : W06_FN_MEDIAN_LOCAL, .in = { B->h[0] }, .in_n = { n + 1 }, .n = n,
                   .ref = ref, .atol = 0, .rtol = 0, .what = what, .out_name = "out", .fn_name = MNAME[v] };
    return jd_case_run(J, B, &cs, t);
}

/* localmem_median9_attrs(which) through the runner: 0 and the figures, or
 * -1 with why. */
static int median_attrs(jd *J, int which, int *local_bytes, int *regs, char *why, size_t n)
{
    jd_req rq;
    jd_rep rp;
    int r[2];
    jd_call_setup(&rq, W06_FN_MEDIAN_ATTRS, 1, 0);
    rq.i64[0] = which;
    if (jd_call(J, &rq, &rp, NULL) != 0) return snprintf(why, n, "localmem_median9_attrs: %s", J->why), -1;
    if (rp.status != 0)
        return snprintf(why, n, "localmem_median9_attrs(%d) returned %s", which,
                        rp.status < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)rp.status)), -1;
    if (rp.out_len != sizeof r) return snprintf(why, n, "localmem_median9_attrs(%d): no figures came back", which), -1;
    memcpy(r, rp.out, sizeof r);
    *local_bytes = r[0], *regs = r[1];
    return 0;
}

static void judge_localmem(jd_ck *k)
{
    size_t maxn = W06_MEDIAN_N[W06_N_MEDIAN - 1];
    float *ref = malloc(maxn * 4);
    if (!ref) return jd_failf(k->t, "buffers: out of memory");
    jd_cases(k->J, k->t, 1, maxn + 1, maxn, 2 * (int)W06_N_MEDIAN, median_one, ref);
    free(ref);
    if (k->J->lost) return;
    int lb0 = -1, r0 = -1, lb1 = -1, r1 = -1;
    char why[300];
    k->t->tests++;
    if (median_attrs(k->J, 0, &lb0, &r0, why, sizeof why) != 0 || median_attrs(k->J, 1, &lb1, &r1, why, sizeof why) != 0)
        return jd_failf(k->t, "%s", why);
    printf("  localmem_median9_local: %d bytes local memory, %d registers; localmem_median9_regs: %d bytes, %d "
           "registers (the runner's report)\n", lb0, r0, lb1, r1);
    if (lb1 != 0)
        return jd_failf(k->t, "localmem_median9_regs uses %d bytes of local memory per thread: some index into the "
                        "window is not a compile-time constant", lb1);
}

/* ---------------------------------------------------------------- constant memory */

typedef struct {
    float  *coef;    /* the host buffer both map: POLY_MAX floats */
    int     icoef;
    double *ref;
} poly_room;

/* constmem_poly_set(coef, m) through the runner, the judge's copy of the
 * coefficients then overwritten with NaN: its status, or -1 (runner lost). */
static int poly_set(jd *J, poly_room *P, const float *coef, int m, int *status)
{
    jd_req rq;
    jd_rep rp;
    memcpy(P->coef, coef, POLY_MAX * sizeof(float));
    jd_call_setup(&rq, W06_FN_POLY_SET, 1, 1);
    rq.arg_buf[0][0] = P->icoef;
    rq.i64[0] = m;
    int rc = jd_call(J, &rq, &rp, NULL);
    for (int c = 0; c < POLY_MAX; c++) P->coef[c] = NAN; /* the copy must already be made */
    if (rc != 0) return -1;
    *status = rp.status;
    return 0;
}

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* Case i: the test's m and n, coefficients and x drawn for this seed; two
 * rounds (set, evaluate; the second with the coefficients reversed, on a
 * fresh poison); then 0 and POLY_MAX + 1 coefficients refused. */
static int poly_one(jd *J, jd_case_bufs *B, int i, jd_tally *t, void *ctx)
{
    poly_room *P = ctx;
    int m = W06_POLY_M[i], st = 0, failed = t->failed;
    size_t n = W06_POLY_N[i];
    float coef[POLY_MAX];
    wb_rng rng = wb_rng_for_seed(jd_seed, W06_POLY_TAG, i);
    w06_poly_case(&rng, n, coef, B->h[0]);
    double atol = w06_poly_atol(coef, m);
    for (int round = 0; round < 2; round++) {
        char what[64];
        snprintf(what, sizeof what, "%d coefficients, n=%zu, set %d", m, n, round + 1);
        if (poly_set(J, P, coef, m, &st) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
        if (st != 0) {
            t->tests++;
            return jd_failf(t, "%s: constmem_poly_set returned %s", what, status_name(st)), 0;
        }
        w06_poly_ref(coef, m, B->h[0], P->ref, n);
        jd_case cs = { .fn = W06_FN_POLY_EVAL, .in = { B->h[0] }, .in_n = { n + 1 }, .n = n, .ref64 = P->ref,
                       .atol = atol, .rtol = W06_POLY_RTOL, .what = what, .out_name = "y", .fn_name = "constmem_poly_eval" };
        int rc = jd_case_run(J, B, &cs, t);
        if (rc != 0 || t->failed != failed) return rc;
        w06_poly_reverse(coef, m); /* second round: new coefficients, reversed */
    }
    int st0 = 0, st1 = 0;
    t->tests++;
    if (poly_set(J, P, coef, 0, &st0) != 0 || poly_set(J, P, coef, POLY_MAX + 1, &st1) != 0)
        return jd_failf(t, "constmem_poly_set: %s", J->why), -1;
    if (st0 != (int)cudaErrorInvalidValue || st1 != (int)cudaErrorInvalidValue)
        jd_failf(t, "constmem_poly_set must refuse 0 and more than POLY_MAX coefficients (it returned %s and %s)",
                 status_name(st0), status_name(st1));
    return 0;
}

static void judge_const(jd_ck *k)
{
    size_t maxn = 0;
    for (size_t i = 0; i < W06_N_POLY; i++)
        if (W06_POLY_N[i] > maxn) maxn = W06_POLY_N[i];
    poly_room P = { NULL, -1, malloc((maxn ? maxn : 1) * sizeof(double)) };
    P.icoef = jd_alloc_kind(k->J, JD_MEM_HOST, POLY_MAX * sizeof(float), (void **)&P.coef);
    if (P.icoef < 0 || !P.ref) jd_failf(k->t, "buffers: %s", P.ref ? k->J->why : "out of memory");
    else jd_cases(k->J, k->t, 1, maxn + 1, maxn, (int)W06_N_POLY, poly_one, &P);
    jd_free(k->J, P.icoef);
    free(P.ref);
}

static const jd_checkpoint CPS[] = {
    { "w06.transpose", judge_transpose, NULL, 0, 0 },
    { "w06.transpose-bw", judge_transpose_bw, NULL, 0, 8 },
    { "w06.strided", judge_strided, NULL, 0, 0 },
    { "w06.localmem", judge_localmem, NULL, 0, 0 },
    { "w06.const", judge_const, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w06", "phase1/week06", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
