/* judge_w34.c — build/instructor/judge-w34: week 34's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 34 entry has the commands). It links
 * no student code: the student's softmax.o, pv.o and attention.o (with week
 * 33's qkt.o and mask.o, as the week's test program links them, and cuBLAS)
 * are linked into the runner (judge_w34_runner.c), which this process
 * starts (or is handed) and asks to call them on buffers it allocated
 * (judge.h). It poisons, fills, times and checks, and writes the results
 * record itself, outside the runner's reach. The command line, the runner's
 * start, the record, the guarded buffers, the timed-call protocol and the
 * COPY yardstick are judge_week.c's:
 *
 *   judge-w34 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week34.c's, shared through phase6/week34/w34_checks.h
 * (the shapes, each case drawn as the test draws it for the seed:
 * wb_rng_for_seed with the test's tag; the double references and the
 * tolerances, the bad sizes, the timed rows' length and range). pv_output and
 * attention take a cuBLAS handle, which cannot cross processes: the runner
 * makes one for each call in pedantic FP32 (the test's
 * wb_cublas_handle(1)), on the default stream, and destroys it after. Every
 * output is a guarded buffer (jd_gbuf: a poisoned band each side), read
 * back whole, nothing written outside it:
 *   w34.traffic      attention_naive_bytes (both mask choices),
 *                    attention_fused_bytes and attention_flops on the test's
 *                    6 shapes against the test's own count within 1e-12
 *                    relative. Host functions: the runner calls them and
 *                    sends the three doubles back; judged with or without a
 *                    GPU (the runner then opens none). The table the test
 *                    prints (L 512 to 16384) is printed here too; it is a
 *                    report of the same functions;
 *   w34.softmax      softmax_scores on the test's 16 shapes (L 1 to 65536,
 *                    rows 0, L 0, 6000 x 64), the test's six row kinds
 *                    (U(-5, 5), logits of +-1e4, half masked, all masked,
 *                    causal, a NaN), out of place (P 4 bytes off on odd
 *                    shapes) and in place, every element against the double
 *                    reference at the test's tolerance (masked entries and
 *                    fully masked rows exactly 0, NaN rows NaN); then L = -4
 *                    returning cudaErrorInvalidValue, P untouched (every
 *                    byte still the poison: stricter than the test, which
 *                    takes any NaN). The test also calls cudaGetLastError
 *                    after it; here the runner synchronises after every call
 *                    that returned success and a late error becomes that
 *                    call's status;
 *   w34.softmax-bw   softmax_scores out of place on rows of 2048 scores,
 *                    wb_bench_bytes() / 8192 rows, through the timed
 *                    protocol (judge_week.h): K calls a request (as many as
 *                    half the free memory holds, at most 64), each on its
 *                    own S and P, fresh scores U(-8, 8) from the hidden seed
 *                    before every request (the test's range), P poisoned,
 *                    the judge's look after the reply and every element of
 *                    every P checked in full by the judge's kernel
 *                    (judge_w34_kernels.cu: the test's softmax_ref tolerance
 *                    on every element, where the test's timed check reads 8
 *                    rows); the median of 7 requests. The figure is GB/s of
 *                    8 bytes an element (S read, P written), against COPY of
 *                    the same array through the same protocol (jd_copy_yard,
 *                    the test's wb_yard_copy_gbps(n * 4)), the target for
 *                    this GPU from week.txt;
 *   w34.pv           pv_output on the test's 10 shapes, P of weights in
 *                    [0, 2 / L) with an eighth of them 0, V in [-1, 1], every
 *                    element within 1e-7 + 2 L 2^-24 sum |p v|, O guarded;
 *                    then the 4 bad sizes returning
 *                    CUBLAS_STATUS_INVALID_VALUE and a null handle an error,
 *                    O untouched byte for byte;
 *   w34.attention    attention on the 10 shapes with the four mask choices
 *                    (batch 0's kv_len 0 where B > 1), Q and K in +-1 and +-4
 *                    by turns, V in [-1, 1]: a query that sees no key gets a
 *                    row of exact zeros, every other element within the
 *                    test's bound of the double reference; O and the work
 *                    buffer (B H L^2 floats, its contents the student's)
 *                    poisoned before each call and guarded: nothing written
 *                    outside either (the test gives the work buffer a float
 *                    more and no guard: attention.h says B H L^2 floats).
 * One checkpoint is left to the linked test (the grader runs it there and
 * says so): w34.report, a report with no target (attention and the two
 * GEMMs timed at B 4, H 16, L 1024 to 4096, D 64 and 128), whose verdict is
 * that the timed outputs are right. Its correctness is w34.attention's,
 * judged here; a timed run through the protocol would need Q, K, V and a
 * work buffer of 4.3 GB a call, and each look's expected value an L x D
 * attention row in double (a full check, 5.5e11 double flops a call), so
 * the linked test's sampled check stands, and what a program with the
 * student's code linked could fake there is a report's PASS.
 *
 * The starter's softmax_scores returns cudaSuccess and writes nothing; its
 * pv_output and attention return CUBLAS_STATUS_NOT_SUPPORTED; its three
 * host functions return 0. So w34.traffic fails at its first shape (32
 * bytes due, 0 returned), with a GPU or without; w34.softmax at its first
 * (P[0] still the poison where 1 is due); w34.softmax-bw at the warm-up
 * request's look (the poison); w34.pv and w34.attention at their first
 * shape (the status).
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS (5 of 5; w34.softmax-bw 0.97 of COPY against 0.87), the starter FAIL (5). Without a GPU, instructor/tests/judge_w34.sh:
 * w34.traffic PASS over the reference's runner and FAIL over the starter's,
 * every other checkpoint SKIP, never PASS. */
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
#include "judge_cublas.h"
#include "judge_kernels.h"
#include "judge_w34.h"
#include "judge_w34_kernels.h"
#include "judge_week.h"
#include "w34_checks.h"
#include "wb_bench.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define N_OF(a) W34_COUNT(a)
#define TIMED   7

static const char *cuda_status(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

static int is_poison(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return u == 0xffffffffu;
}

/* The test's expect_tol (w34_tol_bad), and where NaN is due the poison
 * not taken for it (never written): 0, or 1 with t failed at the first wrong
 * element. */
static int expect_tol(const float *got, const double *ref, const double *tol, size_t n, const char *name,
                      const char *what, jd_tally *t)
{
    size_t first = 0, bad = w34_tol_bad(got, ref, tol, n, &first);
    for (size_t k = 0; k < n && !bad; k++)
        if (isnan(ref[k]) && is_poison(got[k])) bad = 1, first = k;
    if (!bad) return 0;
    jd_failf(t, "%s: %zu of %zu wrong; %s[%zu] expected %.9g (tolerance %.3g), got %.9g%s", what, bad, n, name, first,
             ref[first], tol[first], (double)got[first],
             is_poison(got[first]) ? " (never written: still the poison)" : "");
    return 1;
}

/* Every byte of b's first `bytes` still the poison, and its band: 0, 1 (t
 * failed), or -1 (the judge's copy failed). host: room for bytes. */
static int untouched(jd_gbuf *b, size_t bytes, void *host, const char *name, const char *what, const char *writer,
                     jd_tally *t)
{
    int f = jd_gbuf_fetch(b, 0, bytes, host, name, what, t);
    if (f) return f;
    const unsigned char *u = host;
    for (size_t i = 0; i < bytes; i++)
        if (u[i] != 0xff)
            return jd_failf(t, "%s: %s wrote %s (byte %zu changed); it must write nothing", what, writer, name, i), 1;
    return 0;
}

/* ---------------------------------------------------------------- w34.traffic (host functions) */

/* The runner's three doubles for (B, H, L, D, causal): 0, or -1 with t failed. */
static int model_call(jd *J, int B, int H, int L, int D, int causal, double v[3], jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W34_FN_MODEL, 1, 0);
    rq.i64[1] = B, rq.i64[2] = H, rq.i64[3] = L, rq.i64[4] = D, rq.i64[5] = causal;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "attention_naive_bytes: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != 3 * sizeof(double))
        return jd_failf(t, "attention_naive_bytes: the runner could not call it (%s)", rp.text), -1;
    memcpy(v, rp.out, 3 * sizeof(double));
    return 0;
}

static void judge_traffic(jd *J, jd_tally *t)
{
    const w34_shape4 *C = W34_TRAFFIC;
    double v[3];
    for (size_t k = 0; k < N_OF(W34_TRAFFIC) && !J->lost; k++) {
        t->tests++;
        for (int causal = 0; causal < 2; causal++) {
            if (model_call(J, C[k].B, C[k].H, C[k].L, C[k].D, causal, v, t) != 0) return;
            double want = 4 * w34_model_floats(C[k].B, C[k].H, C[k].L, C[k].D, causal);
            if (!wb_close(v[0], want, 0, 1e-12)) {
                jd_failf(t, "attention_naive_bytes(B=%d, H=%d, L=%d, D=%d, causal=%d) = %.17g, expected %.17g", C[k].B,
                         C[k].H, C[k].L, C[k].D, causal, v[0], want);
                return;
            }
        }
        double fused = 16.0 * C[k].B * C[k].H * (double)C[k].L * C[k].D;
        double flops = 4.0 * C[k].B * C[k].H * (double)C[k].L * C[k].L * C[k].D;
        if (!wb_close(v[1], fused, 0, 1e-12)) {
            jd_failf(t, "attention_fused_bytes(B=%d, H=%d, L=%d, D=%d) = %.17g, expected %.17g (Q, K, V read, O "
                     "written)", C[k].B, C[k].H, C[k].L, C[k].D, v[1], fused);
            return;
        }
        if (!wb_close(v[2], flops, 0, 1e-12)) {
            jd_failf(t, "attention_flops(B=%d, H=%d, L=%d, D=%d) = %.17g, expected %.17g (two GEMMs, 2 L^2 D each "
                     "a head)", C[k].B, C[k].H, C[k].L, C[k].D, v[2], flops);
            return;
        }
    }
    if (t->failed || J->lost) return;
    printf("  naive attention, B 4, H 16, D 64, FP32, not causal (the runner's figures):\n");
    printf("  %6s %12s %12s %10s %14s %16s\n", "L", "naive GB", "fused GB", "ratio", "S share %", "flops per byte");
    for (int L = 512; L <= 16384; L *= 2) {
        if (model_call(J, 4, 16, L, 64, 0, v, t) != 0) return;
        printf("  %6d %12.2f %12.3f %10.1f %14.1f %16.1f\n", L, v[0] / 1e9, v[1] / 1e9, v[0] / v[1],
               100 * (v[0] - v[1]) / v[0], v[2] / v[0]);
    }
}

static void judge_traffic_gpu(jd_ck *k) { judge_traffic(k->J, k->t); }

/* ---------------------------------------------------------------- w34.softmax */

/* softmax_scores on the S and P in their buffers (P at lead bytes; in
 * place: S is P): 0 with *st, or -1 with t failed. */
static int softmax_call(jd *J, jd_gbuf *S, jd_gbuf *P, size_t lead, int in_place, size_t rows, int L, const char *what,
                        int *st, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W34_FN_SOFTMAX, 1, 2);
    if (in_place) jd_gbuf_arg(&rq, 0, P, lead);
    else jd_gbuf_arg(&rq, 0, rows * (size_t)(L > 0 ? L : 0) != 0 ? S : NULL, 0); /* no floats: NULL, as wb_dcopy of 0 */
    jd_gbuf_arg(&rq, 1, P, lead);
    rq.i64[1] = (long long)rows, rq.i64[2] = L;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

static void judge_softmax(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t cap = 64;
    for (size_t i = 0; i < N_OF(W34_SM_SHAPES); i++)
        if (W34_SM_SHAPES[i].rows * (size_t)W34_SM_SHAPES[i].L > cap) cap = W34_SM_SHAPES[i].rows * (size_t)W34_SM_SHAPES[i].L;
    jd_gbuf S = { -1, NULL, 0 }, P = { -1, NULL, 0 };
    float *hS = malloc(cap * 4), *got = malloc(cap * 4);
    double *ref = malloc(cap * 8), *tol = malloc(cap * 8);
    if (!hS || !got || !ref || !tol) {
        jd_failf(t, "buffers: out of memory");
        goto out;
    }
    if (jd_gbuf_alloc(J, &S, cap * 4, t) != 0 || jd_gbuf_alloc(J, &P, cap * 4 + 4, t) != 0) goto out;
    for (int i = 0; i < (int)N_OF(W34_SM_SHAPES) && !J->lost; i++) {
        const size_t rows = W34_SM_SHAPES[i].rows, n = rows * (size_t)W34_SM_SHAPES[i].L, lead = 4 * (size_t)(i & 1);
        const int L = W34_SM_SHAPES[i].L;
        wb_rng rng = wb_rng_for_seed(jd_seed, W34_SOFTMAX_TAG, i);
        w34_fill_softmax_rows(&rng, hS, rows, L);
        w34_softmax_ref(hS, ref, tol, rows, L);
        for (int in_place = 0; in_place < 2; in_place++) {
            char what[160];
            if (in_place) snprintf(what, sizeof what, "softmax_scores, %zu rows of L=%d, in place (P == S)", rows, L);
            else
                snprintf(what, sizeof what, "softmax_scores, %zu rows of L=%d (row kinds by r %% 6: U(-5,5), +-1e4, half "
                         "-inf, all -inf, causal, a NaN), out of place%s", rows, L, lead ? ", P 4 bytes off" : "");
            t->tests++;
            if (jd_gbuf_poison(&P, lead, n * 4) != 0 || (in_place ? jd_gbuf_put(&P, lead, hS, n * 4)
                                                                  : jd_gbuf_put(&S, 0, hS, n * 4)) != 0) {
                jd_failf(t, "%s: the judge's own copies failed", what);
                goto out;
            }
            int st;
            if (softmax_call(J, &S, &P, lead, in_place, rows, L, what, &st, t) != 0) goto out;
            if (st != 0) {
                jd_failf(t, "%s returned %s", what, cuda_status(st));
                goto out;
            }
            int f = jd_gbuf_fetch(&P, lead, n * 4, got, "P", what, t);
            if (f < 0 || f || expect_tol(got, ref, tol, n, "P", what, t)) goto out;
        }
    }
    if (J->lost) goto out;
    /* softmax_errors: L = -4 refused, P untouched */
    t->tests++;
    if (jd_gbuf_poison(&P, 0, 64) != 0) {
        jd_failf(t, "softmax_scores with L = -4: the judge's own copies failed");
        goto out;
    }
    int st;
    if (softmax_call(J, &P, &P, 0, 1, 4, -4, "softmax_scores with L = -4", &st, t) != 0) goto out;
    if (st != (int)cudaErrorInvalidValue) {
        jd_failf(t, "softmax_scores with L = -4 returned %s, expected cudaErrorInvalidValue", cuda_status(st));
        goto out;
    }
    untouched(&P, 64, got, "P", "softmax_scores with L = -4", "a refused call", t);
out:
    jd_gbuf_free(J, &S), jd_gbuf_free(J, &P);
    free(hS), free(got), free(ref), free(tol);
}

/* ---------------------------------------------------------------- w34.softmax-bw */

#define SM_BENCH_L W34_SM_BENCH_L
static jd_bench g_bench; /* large: its sample arrays */
static double  *g_xd;    /* the scores as doubles, for the full check */

/* P[i]: the softmax of row i / L of the scores from seed[0], in double:
 * the row's max and sum of exp(x - max) in one pass over its scores (the
 * sum rescaled when the max grows). */
static float sm_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const size_t L = (size_t)b->i64[2], row0 = i - i % L;
    double m = -INFINITY, sum = 0;
    for (size_t j = row0; j < row0 + L; j++) {
        const double x = wb_hash_uniform_f32(seed[0], j, b->lo, b->hi);
        if (x > m) sum = sum * exp(m - x) + 1, m = x;
        else sum += exp(x - m);
    }
    return (float)(exp(wb_hash_uniform_f32(seed[0], i, b->lo, b->hi) - m) / sum);
}

static int sm_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                    unsigned long long h[2])
{
    cudaError_t e = jd_hash_fill_f64(g_xd, b->n, seed[0], b->lo, b->hi, jd_stream);
    if (e == cudaSuccess) e = jd_w34_softmax_check_f32(out, g_xd, (size_t)b->i64[1], (int)b->i64[2], bad, jd_stream);
    return jd_full_check_done(e, bad, h);
}

static void judge_softmax_bw(jd_ck *k)
{
    const size_t rows = wb_bench_bytes() / (4 * (size_t)SM_BENCH_L), n = rows * SM_BENCH_L;
    g_xd = NULL;
    if (cudaMalloc((void **)&g_xd, n * sizeof(double)) != cudaSuccess) {
        g_xd = NULL;
        jd_speed_result(k->R, k->t, k->c, k->gpu, NAN, "GB/s", "COPY", NAN, "",
                        "the judge's own buffer for the full check: cudaMalloc failed");
        return;
    }
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W34_FN_SOFTMAX, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K, g_bench.n = n;
    g_bench.lo = W34_SM_BENCH_LO, g_bench.hi = W34_SM_BENCH_HI;
    /* the look: the test's tolerance at its largest (|x - max| < 16), and the expected value's rounding to float */
    g_bench.atol = 1e-12, g_bench.rtol = W34_U * (16 + 2 * 16 + SM_BENCH_L + 2);
    g_bench.i64[1] = (long long)rows, g_bench.i64[2] = SM_BENCH_L;
    g_bench.fn_name = "softmax_scores", g_bench.out_name = "P";
    g_bench.expect = sm_expect, g_bench.full_check = sm_check;
    jd_bw_checkpoint(k, &g_bench, TIMED, 8.0, "softmax_scores, rows of 2048, out of place");
    cudaFree(g_xd);
    g_xd = NULL;
}

/* ---------------------------------------------------------------- w34.pv and w34.attention */

/* The largest B H L^2 and B H L D of the shapes. */
static void shape_caps(size_t *np, size_t *nv)
{
    *np = *nv = 64;
    for (size_t i = 0; i < N_OF(W34_SHAPES); i++) {
        size_t h = (size_t)W34_SHAPES[i].B * W34_SHAPES[i].H, L = (size_t)W34_SHAPES[i].L;
        if (h * L * L > *np) *np = h * L * L;
        if (h * L * W34_SHAPES[i].D > *nv) *nv = h * L * W34_SHAPES[i].D;
    }
}

/* pv_output or attention: the cuBLAS status in *st, or -1 with t failed.
 * args: the call's buffers (NULL: a NULL argument), leads 0. */
static int blas_call(jd *J, int fn, jd_gbuf *const *args, int nargs, w34_shape4 s, int null_handle, int causal,
                     const char *what, int *st, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, nargs);
    for (int a = 0; a < nargs; a++) jd_gbuf_arg(&rq, a, args[a], 0);
    rq.i64[1] = s.B, rq.i64[2] = s.H, rq.i64[3] = s.L, rq.i64[4] = s.D, rq.i64[5] = null_handle, rq.i64[6] = causal;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *st = rp.status;
    return 0;
}

static void judge_pv(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t npc, nvc;
    shape_caps(&npc, &nvc);
    jd_gbuf P = { -1, NULL, 0 }, V = { -1, NULL, 0 }, O = { -1, NULL, 0 };
    float *hP = malloc(npc * 4), *hV = malloc(nvc * 4), *got = malloc(nvc * 4);
    double *ref = malloc(nvc * 8), *tol = malloc(nvc * 8);
    char sb[120];
    if (!hP || !hV || !got || !ref || !tol) {
        jd_failf(t, "buffers: out of memory");
        goto out;
    }
    if (jd_gbuf_alloc(J, &P, npc * 4, t) != 0 || jd_gbuf_alloc(J, &V, nvc * 4, t) != 0 ||
        jd_gbuf_alloc(J, &O, nvc * 4, t) != 0)
        goto out;
    for (int i = 0; i < (int)N_OF(W34_SHAPES) && !J->lost; i++) {
        const w34_shape4 s = W34_SHAPES[i];
        const size_t heads = (size_t)s.B * s.H, L = (size_t)s.L, D = (size_t)s.D, np = heads * L * L, nv = heads * L * D;
        wb_rng rng = wb_rng_for_seed(jd_seed, W34_PV_TAG, i);
        w34_pv_case(&rng, s, hP, hV, ref, tol);
        char what[120];
        snprintf(what, sizeof what, "pv_output B=%d H=%d L=%d D=%d (P of weights in [0, 2/L), an eighth 0; V in [-1, 1])",
                 s.B, s.H, s.L, s.D);
        t->tests++;
        if (jd_gbuf_put(&P, 0, hP, np * 4) != 0 || jd_gbuf_put(&V, 0, hV, nv * 4) != 0 ||
            jd_gbuf_poison(&O, 0, nv * 4) != 0) {
            jd_failf(t, "%s: the judge's own copies failed", what);
            goto out;
        }
        jd_gbuf *args[3] = { np ? &P : NULL, nv ? &V : NULL, &O };
        int st;
        if (blas_call(J, W34_FN_PV, args, 3, s, 0, 0, what, &st, t) != 0) goto out;
        if (st != 0) {
            jd_failf(t, "%s: pv_output returned %s", what, jd_cublas_status(st, sb, sizeof sb));
            goto out;
        }
        int f = jd_gbuf_fetch(&O, 0, nv * 4, got, "O", what, t);
        if (f || expect_tol(got, ref, tol, nv, "O", what, t)) goto out;
    }
    if (J->lost) goto out;
    /* pv_errors: P and V poisoned (NaN), O untouched by every failed call */
    enum { L = W34_ERR_L, D = W34_ERR_D };
    t->tests++;
    if (jd_gbuf_poison(&P, 0, L * L * 4) != 0 || jd_gbuf_poison(&V, 0, L * D * 4) != 0 ||
        jd_gbuf_poison(&O, 0, L * D * 4) != 0) {
        jd_failf(t, "pv_output's bad sizes: the judge's own copies failed");
        goto out;
    }
    const w34_bad4 *bad = W34_PV_BAD;
    jd_gbuf *args[3] = { &P, &V, &O };
    for (size_t c = 0; c < N_OF(W34_PV_BAD); c++) {
        char what[80];
        snprintf(what, sizeof what, "pv_output with %s", bad[c].what);
        const w34_shape4 s = { bad[c].B, bad[c].H, bad[c].L, bad[c].D };
        int st;
        if (blas_call(J, W34_FN_PV, args, 3, s, 0, 0, what, &st, t) != 0) goto out;
        if (st != (int)CUBLAS_STATUS_INVALID_VALUE) {
            jd_failf(t, "%s returned %s, expected CUBLAS_STATUS_INVALID_VALUE", what, jd_cublas_status(st, sb, sizeof sb));
            goto out;
        }
    }
    int st;
    if (blas_call(J, W34_FN_PV, args, 3, (w34_shape4){ 1, 1, L, D }, 1, 0, "pv_output with a null handle", &st, t) != 0)
        goto out;
    if (st == 0) {
        jd_failf(t, "pv_output with a null handle returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's error");
        goto out;
    }
    if (st < 0) {
        jd_failf(t, "pv_output with a null handle: %s", jd_cublas_status(st, sb, sizeof sb));
        goto out;
    }
    untouched(&O, L * D * 4, got, "O", "failed pv_output calls (bad sizes, a null handle)", "a failed call", t);
out:
    jd_gbuf_free(J, &P), jd_gbuf_free(J, &V), jd_gbuf_free(J, &O);
    free(hP), free(hV), free(got), free(ref), free(tol);
}

static void judge_attention(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    size_t nwc, nc;
    shape_caps(&nwc, &nc);
    jd_gbuf Q = { -1, NULL, 0 }, K = { -1, NULL, 0 }, V = { -1, NULL, 0 }, O = { -1, NULL, 0 }, W = { -1, NULL, 0 },
            KV = { -1, NULL, 0 };
    float *hQ = malloc(nc * 4), *hK = malloc(nc * 4), *hV = malloc(nc * 4), *got = malloc(nc * 4);
    double *ref = malloc(nc * 8), *tol = malloc(nc * 8), *s = malloc(1024 * 8), *p = malloc(1024 * 8);
    char *dead = malloc(nc), sb[120];
    void *wband = malloc(nwc * 4);
    int kv[64];
    if (!hQ || !hK || !hV || !got || !ref || !tol || !s || !p || !dead || !wband) {
        jd_failf(t, "buffers: out of memory");
        goto out;
    }
    if (jd_gbuf_alloc(J, &Q, nc * 4, t) != 0 || jd_gbuf_alloc(J, &K, nc * 4, t) != 0 ||
        jd_gbuf_alloc(J, &V, nc * 4, t) != 0 || jd_gbuf_alloc(J, &O, nc * 4, t) != 0 ||
        jd_gbuf_alloc(J, &W, nwc * 4, t) != 0 || jd_gbuf_alloc(J, &KV, sizeof kv, t) != 0)
        goto out;
    for (int i = 0; i < (int)N_OF(W34_SHAPES) && !J->lost; i++) {
        const w34_shape4 sh = W34_SHAPES[i];
        const size_t heads = (size_t)sh.B * sh.H, L = (size_t)sh.L, D = (size_t)sh.D, n = heads * L * D;
        const size_t nw = heads * L * L;
        wb_rng rng = wb_rng_for_seed(jd_seed, W34_ATTENTION_TAG, i);
        const float r = w34_attention_inputs(&rng, i, sh, hQ, hK, hV, kv);
        if (jd_gbuf_put(&Q, 0, hQ, n * 4) != 0 || jd_gbuf_put(&K, 0, hK, n * 4) != 0 || jd_gbuf_put(&V, 0, hV, n * 4) != 0 ||
            (sh.B > 0 && jd_gbuf_put(&KV, 0, kv, (size_t)sh.B * 4) != 0)) {
            jd_failf(t, "attention B=%d H=%d L=%d D=%d: the judge's own copies failed", sh.B, sh.H, sh.L, sh.D);
            goto out;
        }
        for (int combo = 0; combo < 4; combo++) {
            const int causal = combo & 1, padded = combo >> 1;
            w34_attention_ref(hQ, hK, hV, sh, causal, padded ? kv : NULL, ref, tol, dead, s, p);
            char what[200];
            snprintf(what, sizeof what, "attention B=%d H=%d L=%d D=%d, inputs +-%g, %s%s", sh.B, sh.H, sh.L, sh.D,
                     (double)r, causal ? "causal" : "not causal",
                     padded ? ", padded (batch 0 has no valid key)" : ", no padding");
            t->tests++;
            if (jd_gbuf_poison(&O, 0, n * 4) != 0 || jd_gbuf_poison(&W, 0, nw * 4) != 0) {
                jd_failf(t, "%s: the judge's own copies failed", what);
                goto out;
            }
            jd_gbuf *args[6] = { n ? &Q : NULL, n ? &K : NULL, n ? &V : NULL, &O, &W, padded && sh.B > 0 ? &KV : NULL };
            int st;
            if (blas_call(J, W34_FN_ATT, args, 6, sh, 0, causal, what, &st, t) != 0) goto out;
            if (st != 0) {
                jd_failf(t, "%s: attention returned %s", what, jd_cublas_status(st, sb, sizeof sb));
                goto out;
            }
            int f = jd_gbuf_fetch(&O, 0, n * 4, got, "O", what, t);
            if (f == 0) f = jd_gbuf_fetch(&W, 0, nw * 4, wband, "work", what, t);
            if (f) goto out;
            for (size_t row = 0; row < heads * L; row++)
                if (dead[row])
                    for (size_t d = 0; d < D; d++)
                        if (got[row * D + d] != 0.0f) {
                            jd_failf(t, "%s: query %zu of head %zu sees no key (all masked), so its output row must be "
                                     "zeros; O[..][%zu] = %.9g%s", what, row % L, row / L, d, (double)got[row * D + d],
                                     is_poison(got[row * D + d]) ? " (never written: still the poison)" : "");
                            goto out;
                        }
            if (expect_tol(got, ref, tol, n, "O", what, t)) goto out;
        }
    }
out:
    jd_gbuf_free(J, &Q), jd_gbuf_free(J, &K), jd_gbuf_free(J, &V), jd_gbuf_free(J, &O), jd_gbuf_free(J, &W);
    jd_gbuf_free(J, &KV);
    free(hQ), free(hK), free(hV), free(got), free(ref), free(tol), free(s), free(p), free(dead), free(wband);
}

/* COPY of the timed array (wb_bench_bytes(), read and written: 8 bytes a
 * float of wb_bench_bytes() / 4) for w34.softmax-bw, as the test's
 * wb_yard_copy_gbps(n * 4). w34.report is not listed: the linked test forms it. */
static const jd_checkpoint CPS[] = {
    { "w34.traffic", judge_traffic_gpu, judge_traffic, 1, 0, NULL },
    { "w34.softmax", judge_softmax, NULL, 0, 0, NULL },
    { "w34.softmax-bw", judge_softmax_bw, NULL, 0, 8, NULL },
    { "w34.pv", judge_pv, NULL, 0, 0, NULL },
    { "w34.attention", judge_attention, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w34", "phase6/week34", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
