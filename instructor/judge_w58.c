/* judge_w58.c — build/instructor/judge-w58: week 58's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code:
 * the student's w4a16_decode.o and w4a16_prefill.o are linked into the
 * runner (judge_w58_runner.c), which this process starts (or is handed) and
 * asks to call w4a16_decode and w4a16_prefill on buffers it allocated
 * (judge.h). It poisons, fills and checks, and writes the results record
 * itself, outside the runner's reach. The command line, the runner's start,
 * the record, the guarded buffers, the timed-call protocol and the COPY
 * yardstick are judge_week.c's:
 *
 *   judge-w58 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * test_week58.c keeps its cases, draws and checks in its own body (no
 * shared header), so they are copied here: DECODE_SHAPES, PREFILL_SHAPES
 * (with their sampled row counts), fill_weights and fill_x (each column its
 * own amplitude 0.01 .. 1, some all positive or all negative; x uniform in
 * [-1, 1]), the given quantiser and dequantiser (support/w4_quant.h, given
 * code, included), the double reference of one row on the dequantised
 * weights and the tolerance W4_ATOL * sqrt(sum (x w)^2) + W4_RTOL |ref| +
 * 2^-24 (W4_ATOL 2^-8, W4_RTOL 2^-10, NaN never passing). Each case is
 * drawn from the class seed with the judge's own tags (wb_rng_for_seed;
 * the test draws from its tags), every input and output in a guarded
 * buffer (jd_gbuf: poisoned, JD_GBAND bytes of band each side, read back
 * with the bands checked):
 *   w58.decode   the given quantiser's bit order and round trip on the CPU
 *                (the test's quant_layout: given code, checked in the judge's
 *                process; its quant_error is a printed figure, no gate, not
 *                formed); the test's refusals (M < 0, N < 0, K < 0, K 100
 *                and 192, N 12 and 4, M 17; each of the five pointers off
 *                16-byte alignment) on the test's made-up pointers, which
 *                the runner builds (judge_w58.h, W58_MADE_UP) and the call
 *                must refuse before touching, cudaErrorInvalidValue; with a
 *                GPU, the test's 12 shapes (M 1 .. 16, K 128 .. 11008, N 8,
 *                120, 4104), every output finite (written) and every output
 *                of every row against the double reference, nothing written
 *                outside y; the test's edges: M = 0 and N = 0 write nothing
 *                (y, 3 x 120 halves, still the poison), K = 0 gives y = 0.
 *                Without a GPU the refusals and the quantiser's checks run
 *                through a runner that opens none: their FAIL stands, a PASS
 *                needs the GPU cases;
 *   w58.prefill  the same for w4a16_prefill: the refusals without M's limit,
 *                the test's 9 shapes (M 1 .. 4096), all rows compared where
 *                the test compares all, else its sampled rows (rows 0, 1,
 *                127, 128, M - 1 and random ones up to 24, 32 or 48 rows,
 *                from the judge's draw) with every other output checked
 *                finite, the edges.
 *   w58.decode-speed  the test's bench_decode: K = N = 16384 (136 MB read
 *                a call at M = 16, past the L2), M = 1 and M = 16, each
 *                through the timed-call protocol (judge_week.h): up to 64
 *                calls a request, each on its own input (one buffer: x |
 *                wq | scales | zeros, judge_w58.h's w58_timed_layout)
 *                filled on the device by the judge's kernel from the
 *                hidden seed (judge_w58_kernels.cu) and its own poisoned
 *                y. The timed inputs are not the test's (x uniform, scales
 *                in [2^-9, 2^-6]) but made so that the output is exact: x
 *                integers -3 .. 3, random words, scales 2^-8 or 2^-7,
 *                zeros 0 .. 15, so every partial sum is a multiple of
 *                2^-8 below 2^21 of them, exact in FP32 in any order, and
 *                y the exact sum rounded once to FP16 (nearest even),
 *                whatever the kernel's order (the speed of the product
 *                does not depend on the values). The judge's look right
 *                after the reply (256 4-byte words, FP16 pairs, a call)
 *                and then every element of every timed y (the judge's
 *                kernel, the exact sum in integers from the seed, never
 *                from the buffers the runner was handed) are compared bit
 *                for bit (+0 and -0 alike in the full check), stricter
 *                than the test's sampled tolerance, which a kernel that
 *                accumulates in FP32 and rounds once meets exactly;
 *                the median of 7 requests. The figure: the test's bytes
 *                (words, scales and zeros, x and y) / the median call's
 *                time, the slower of M = 1 and M = 16, against COPY
 *                through the same protocol (jd_copy_yard) of the same
 *                size as the test's copy (the 137 MB the decode moves at
 *                M = 16, 64 calls a request as the decode's: the
 *                protocol's fixed cost a request, 0.4-0.5 ms on an H200,
 *                the same share of both; against the 480 MB copy of
 *                wb_bench_bytes() it was 10 % of a decode call's time and
 *                3 % of a copy's, and the reference read 0.49 of COPY
 *                where the test reads 0.56), the larger of before the
 *                student's runner started and after; the target is
 *                week.txt's.
 *   w58.prefill-speed  the test's bench_prefill: M = 4096, K = N = 8192,
 *                through the same protocol (up to 64 calls a request, each
 *                on its own input filled as w58.decode-speed's, exact by
 *                the same argument: partial sums under 2^20 units of
 *                2^-8), the look bit for bit against the exact sums, then
 *                every element of every timed y bit for bit against
 *                cublasGemmEx (FP16 in and out, FP32 compute, the test's
 *                call) on the judge's own dense copy of the rep's layer
 *                (x and dequant(W) made from the seed again, never the
 *                runner's buffers); the median of 7 requests. The
 *                yardstick, cublasGemmEx on the dequantised weights as
 *                the test's, is timed in the judge's own process (the
 *                judge links cuBLAS: instructor code), on a layer of the
 *                test's kind (x uniform in [-1, 1], scales in [2^-9,
 *                2^-6]; jd_w58_fill_dense_test), not on the exact layer:
 *                on an H200 cuBLAS took 0.72-0.74 ms on the exact layer's
 *                small integers and 0.79-0.82 ms on the test's values in
 *                one run, while the week's kernel took 1.67-1.69 ms on
 *                either (timed on the exact inputs it is at most 1 %
 *                faster than on the test's); 20 calls between events a
 *                sample, the median of 7, before the student's calls and
 *                after, the faster kept. cuBLAS's output on the exact
 *                layer is checked at 256 words against the exact sums
 *                (the full check leans on cuBLAS being exact there: a
 *                cuBLAS that is not FAILs with a message that says it is
 *                the judge's problem). The protocol's cost (a
 *                socket round trip a request of up to 64 calls of about
 *                1.5 ms) is in the student's figure alone, under 1 %.
 *                TFLOP/s = 2 M N K / the median call's time; the target is
 *                week.txt's (0.37 of cuBLAS).
 * Every checkpoint of week 58 is judged: none is left to the linked test.
 * Run on an H200 (2026-11-29), alone: the reference PASSed all four plain; w58.prefill-speed FAILed
 * sandboxed (0.366 of cuBLAS against 0.37) while cuBLAS was timed on the exact layer, which it runs 9 %
 * faster than the test's values (a probe, same day); it is now timed on a layer of the test's kind, and
 * the reference PASSed all four plain and sandboxed (w58.decode-speed 0.568 and 0.557 of COPY against 0.50,
 * w58.prefill-speed 0.434 and 0.427 of cuBLAS against 0.37), the starter FAILed all four.
 * Without a GPU the plumbing is tested by
 * instructor/tests/judge_w58.sh (w58.decode and w58.prefill SKIP over the
 * reference's runner and FAIL over the starter's, whose calls accept bad
 * arguments; the two speed checkpoints SKIP over both). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_w58.h"
#include "judge_w58_kernels.h"
#include "judge_week.h"
#include "wb_cuda.h"
#include "wb_f16.h"
#include "wb_rand.h"
#include "support/w4_quant.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

static void gb_none(jd_gbuf *b) { b->id = -1, b->d = NULL, b->cap = 0; }

/* ---------------------------------------------------------------- test_week58.c's tolerance, layer and reference */

#define W4_ATOL 0x1p-8
#define W4_RTOL 0x1p-10

static int w4_close(double got, double ref, double nrm)
{
    return isfinite(got) && fabs(got - ref) <= W4_ATOL * nrm + W4_RTOL * fabs(ref) + 0x1p-24;
}

typedef struct {
    int M, N, K;
    uint16_t *x;  /* M x K halves */
    uint32_t *wq; /* K/8 x N */
    uint16_t *s, *z;
    float *wd;    /* dequant(W), K x N */
} w4_layer;

static void fill_weights(wb_rng *rng, float *W, int K, int N)
{
    for (int n = 0; n < N; n++) {
        double amp = pow(10.0, -2.0 + 2.0 * wb_rng_unit(rng));
        int kind = (int)wb_rng_int(rng, 0, 5);
        double off = kind == 0 ? 1.2 : kind == 1 ? -1.2 : 0.0;
        for (int k = 0; k < K; k++) W[(size_t)k * N + n] = (float)(amp * (2.0 * wb_rng_unit(rng) - 1.0 + off));
    }
}

static void fill_x(wb_rng *rng, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = wb_f32_to_f16((float)(2.0 * wb_rng_unit(rng) - 1.0));
}

static w4_layer layer_make(wb_rng *rng, int M, int N, int K)
{
    w4_layer L = { M, N, K, NULL, NULL, NULL, NULL, NULL };
    size_t kn = (size_t)K * N;
    L.x = wb_hmalloc((size_t)M * K * 2 + 16);
    fill_x(rng, L.x, (size_t)M * K);
    float *W = wb_hmalloc(kn * 4 + 16);
    fill_weights(rng, W, K, N);
    L.wq = wb_hmalloc(kn / 2 + 16);
    L.s = wb_hmalloc(kn / 64 + 16);
    L.z = wb_hmalloc(kn / 64 + 16);
    w4_quantise(W, K, N, L.wq, L.s, L.z);
    free(W);
    L.wd = wb_hmalloc(kn * 4 + 16);
    w4_dequantise(L.wq, L.s, L.z, K, N, L.wd);
    return L;
}

static void layer_free(w4_layer *L) { free(L->x), free(L->wq), free(L->s), free(L->z), free(L->wd); }

/* y[m][.] in double for one row, and each output's norm sqrt(sum (x w)^2). */
static void ref_row(const w4_layer *L, int m, double *y, double *nrm)
{
    for (int n = 0; n < L->N; n++) y[n] = 0, nrm[n] = 0;
    for (int k = 0; k < L->K; k++) {
        double xv = wb_f16_to_f32(L->x[(size_t)m * L->K + k]);
        if (xv == 0) continue;
        const float *w = L->wd + (size_t)k * L->N;
        for (int n = 0; n < L->N; n++) {
            double p = xv * w[n];
            y[n] += p, nrm[n] += p * p;
        }
    }
    for (int n = 0; n < L->N; n++) nrm[n] = sqrt(nrm[n]);
}

/* ---------------------------------------------------------------- the given quantiser (the test's quant_layout) */

static void quant_layout(jd_tally *t, const char *tag)
{
    t->tests++;
    enum { K0 = 128, N0 = 8 };
    float *W = wb_hmalloc(K0 * N0 * 4);
    uint32_t wq[K0 / 8 * N0];
    uint16_t s[N0], z[N0];
    for (int k = 0; k < K0; k++)
        for (int n = 0; n < N0; n++) W[k * N0 + n] = n == 0 ? 0.1f * (float)(k % 16) : (float)((k * 7 + n * 3) % 11) - 5.f;
    w4_quantise(W, K0, N0, wq, s, z);
    free(W);
    if (wq[0] != 0x76543210u || wq[N0] != 0xfedcba98u) {
        jd_failf(t, "the given quantiser: word (0, 0) must hold k = 0..7 from the lowest nibble up (0x76543210, got "
                 "0x%08x), word (1, 0) k = 8..15 (0xfedcba98, got 0x%08x)", wq[0], wq[N0]);
        return;
    }
    if (!(wb_f16_to_f32(z[0]) == 0.f && fabsf(wb_f16_to_f32(s[0]) - 0.1f) < 1e-4f)) {
        jd_failf(t, "the given quantiser: column 0 must have z 0, s 0.1");
        return;
    }
    wb_rng rng = wb_rng_for_seed(jd_seed, tag, 0);
    const int K = 1024, N = 264;
    float *Wf = wb_hmalloc((size_t)K * N * 4);
    fill_weights(&rng, Wf, K, N);
    uint32_t *q = wb_hmalloc((size_t)K * N / 2);
    uint16_t *ss = wb_hmalloc((size_t)K * N / 64), *zz = wb_hmalloc((size_t)K * N / 64);
    float *wd = wb_hmalloc((size_t)K * N * 4);
    w4_quantise(Wf, K, N, q, ss, zz);
    w4_dequantise(q, ss, zz, K, N, wd);
    for (int k = 0; k < K && !t->failed; k++)
        for (int n = 0; n < N; n++) {
            size_t sz = (size_t)(k / 128) * N + n;
            float sf = wb_f16_to_f32(ss[sz]), zf = wb_f16_to_f32(zz[sz]);
            if (!(sf >= 0x1p-14f && zf >= 0.f && zf <= 15.f && zf == rintf(zf))) {
                jd_failf(t, "the given quantiser: group %d column %d: s %g, z %g (z an integer 0..15, s >= 2^-14)",
                         k / 128, n, sf, zf);
                break;
            }
            if (fabsf(Wf[(size_t)k * N + n] - wd[(size_t)k * N + n]) > 0.52f * sf) {
                jd_failf(t, "the given quantiser: W[%d][%d] = %g dequantises to %g: more than half a step (s = %g) away",
                         k, n, Wf[(size_t)k * N + n], wd[(size_t)k * N + n], sf);
                break;
            }
        }
    free(Wf), free(q), free(ss), free(zz), free(wd);
}

/* ---------------------------------------------------------------- the refusals (the test's check_refusals) */

/* On the test's made-up pointers (the runner's, never dereferenced): each
 * bad shape and each pointer off 16-byte alignment returns
 * cudaErrorInvalidValue. 0, or -1 when the runner failed (t says why). */
static int refusals(jd *J, jd_tally *t, int fn, const char *name, int max_m)
{
    static const struct { int M, N, K; const char *why; } BAD[] = {
        { -1, 8, 128, "M < 0" },        { 3, -8, 128, "N < 0" },    { 3, 8, -128, "K < 0" },
        { 3, 8, 100, "K not a multiple of 128" }, { 3, 8, 192, "K not a multiple of 128" },
        { 3, 12, 128, "N not a multiple of 8" },  { 3, 4, 128, "N not a multiple of 8" },
        { 0, 8, 128, "M past the kernel's limit" },
    };
    static const char *WHICH[] = { "x", "wq", "scales", "zeros", "y" };
    static const int OFF[] = { 8, 8, 4, 8, 2 }; /* the test's x + 4, wq + 8 bytes, s + 2, z + 4, y + 1 */
    t->tests++;
    for (int i = 0; i < N_OF(BAD) + 5; i++) {
        const int b = i < N_OF(BAD) ? i : -1, p = i - N_OF(BAD);
        int M = b >= 0 ? BAD[b].M : 3, N = b >= 0 ? BAD[b].N : 8, K = b >= 0 ? BAD[b].K : 128;
        if (b == N_OF(BAD) - 1) {
            if (max_m > 1 << 20) continue; /* prefill has no limit on M */
            M = max_m + 1;
        }
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, fn, 1, 5);
        rq.i64[1] = M, rq.i64[2] = N, rq.i64[3] = K, rq.i64[4] = W58_MADE_UP;
        rq.i64[5] = b >= 0 ? 0 : OFF[p], rq.i64[6] = b >= 0 ? -1 : p;
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s (bad arguments): %s", name, J->why), -1;
        if (rp.status == cudaErrorInvalidValue) continue;
        if (b >= 0)
            jd_failf(t, "%s(M=%d, N=%d, K=%d): %s must return cudaErrorInvalidValue, got %s", name, M, N, K, BAD[b].why,
                     status_name(rp.status));
        else
            jd_failf(t, "%s: a %s that is not 16-byte aligned must be refused, got %s", name, WHICH[p],
                     status_name(rp.status));
        return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------- one case (the test's check_case) */

typedef struct { int M, N, K; } w4_shape;

/* The call of fn on the five guarded buffers (NULL where given none). */
static int w4_call(jd *J, int fn, jd_gbuf *const b[5], int M, int N, int K, int *status, jd_tally *t, const char *what)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 5);
    for (int i = 0; i < 5; i++) jd_gbuf_arg(&rq, i, b[i], 0);
    rq.i64[1] = M, rq.i64[2] = N, rq.i64[3] = K, rq.i64[4] = 0;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *status = rp.status;
    return 0;
}

/* A fresh layer of shape sh through fn: every output written (finite), the
 * test's rows (all where nrows is 0 or >= M) against the double reference,
 * nothing written outside y. 0 when the case ran (passed or failed), -1
 * when the runner or the judge's own copies failed. */
static int run_case(jd *J, jd_tally *t, int fn, const char *name, const char *tag, int i, w4_shape sh, int nrows)
{
    const int M = sh.M, N = sh.N, K = sh.K;
    const size_t kn = (size_t)K * N, ny = (size_t)M * N;
    wb_rng rng = wb_rng_for_seed(jd_seed, tag, i);
    w4_layer L = layer_make(&rng, M, N, K);
    char what[160];
    snprintf(what, sizeof what, "%s M=%d N=%d K=%d", name, M, N, K);
    jd_gbuf bx, bw, bs, bz, by;
    gb_none(&bx), gb_none(&bw), gb_none(&bs), gb_none(&bz), gb_none(&by);
    jd_gbuf *const args[5] = { &bx, &bw, &bs, &bz, &by };
    uint16_t *got = wb_hmalloc(ny * 2 + 16);
    int *rows = wb_hmalloc((size_t)(M > 0 ? M : 1) * sizeof(int));
    double *ref = wb_hmalloc((size_t)N * 8 + 8), *nrm = wb_hmalloc((size_t)N * 8 + 8);
    int rc = -1, st;
    t->tests++;
    if (jd_gbuf_alloc(J, &bx, (size_t)M * K * 2, t) || jd_gbuf_alloc(J, &bw, kn / 2, t) ||
        jd_gbuf_alloc(J, &bs, kn / 64, t) || jd_gbuf_alloc(J, &bz, kn / 64, t) || jd_gbuf_alloc(J, &by, ny * 2, t))
        goto out;
    if (jd_gbuf_put(&bx, 0, L.x, (size_t)M * K * 2) || jd_gbuf_put(&bw, 0, L.wq, kn / 2) ||
        jd_gbuf_put(&bs, 0, L.s, kn / 64) || jd_gbuf_put(&bz, 0, L.z, kn / 64) || jd_gbuf_poison(&by, 0, ny * 2)) {
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    if (w4_call(J, fn, args, M, N, K, &st, t, what) != 0) goto out;
    rc = 0;
    if (st != 0) {
        jd_failf(t, "%s: %s returned %s", what, name, status_name(st));
        goto out;
    }
    const int f = jd_gbuf_fetch(&by, 0, ny * 2, got, "y", what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    for (size_t e = 0; e < ny; e++)
        if ((got[e] & 0x7c00u) == 0x7c00u) {
            jd_failf(t, "%s: y[%zu][%zu] = 0x%04x is not finite (never written?)", what, e / N, e % N, got[e]);
            goto out;
        }
    int nr = 0;
    if (nrows <= 0 || nrows >= M) {
        for (int m = 0; m < M; m++) rows[nr++] = m;
    } else {
        const int fixed[] = { 0, 1, 127, 128, M - 1 };
        for (int q = 0; q < N_OF(fixed); q++)
            if (fixed[q] < M) rows[nr++] = fixed[q];
        while (nr < nrows) rows[nr++] = (int)wb_rng_int(&rng, 0, M - 1);
    }
    size_t bad = 0;
    char first[200] = "";
    for (int r = 0; r < nr; r++) {
        const int m = rows[r];
        ref_row(&L, m, ref, nrm);
        for (int n = 0; n < N; n++) {
            const double g = wb_f16_to_f32(got[(size_t)m * N + n]);
            if (w4_close(g, ref[n], nrm[n])) continue;
            if (!bad++)
                snprintf(first, sizeof first, "y[%d][%d] expected %.6g got %.6g (tolerance %.3g)", m, n, ref[n], g,
                         W4_ATOL * nrm[n] + W4_RTOL * fabs(ref[n]));
        }
    }
    if (bad) jd_failf(t, "%s: %zu of %zu outputs wrong; first %s", what, bad, (size_t)nr * N, first);
out:
    for (int a = 0; a < 5; a++) jd_gbuf_free(J, args[a]);
    free(got), free(rows), free(ref), free(nrm);
    layer_free(&L);
    return rc;
}

/* The test's check_edges: M == 0 and N == 0 write nothing, K == 0 gives y = 0
 * (inputs a poisoned 4096-byte buffer, y 3 x 120 halves). */
static void edges(jd *J, jd_tally *t, int fn, const char *name)
{
    jd_gbuf bd, by;
    gb_none(&bd), gb_none(&by);
    uint16_t host[3 * 120];
    static const struct { int M, N, K; const char *what; } E[] = {
        { 0, 120, 128, "M == 0 (N 120, K 128) writes nothing" },
        { 3, 0, 128, "N == 0 (M 3, K 128) writes nothing" },
        { 3, 120, 0, "K == 0 (M 3, N 120) gives y = 0" },
    };
    t->tests++;
    if (jd_gbuf_alloc(J, &bd, 4096, t) || jd_gbuf_alloc(J, &by, sizeof host, t)) goto out;
    if (jd_gbuf_poison(&bd, 0, 4096) || jd_gbuf_poison(&by, 0, sizeof host)) {
        jd_failf(t, "%s edges: the judge's own copies failed", name);
        goto out;
    }
    jd_gbuf *const args[5] = { &bd, &bd, &bd, &bd, &by };
    for (int i = 0; i < N_OF(E); i++) {
        char what[120];
        snprintf(what, sizeof what, "%s: %s", name, E[i].what);
        int st;
        if (w4_call(J, fn, args, E[i].M, E[i].N, E[i].K, &st, t, what) != 0) goto out;
        if (st != 0) {
            jd_failf(t, "%s: %s returned %s", what, name, status_name(st));
            goto out;
        }
        if (jd_gbuf_fetch(&by, 0, sizeof host, host, "y", what, t)) goto out;
        for (int e = 0; e < 3 * 120; e++) {
            const int ok = E[i].K == 0 ? (host[e] & 0x7fffu) == 0 : host[e] == 0xFFFFu;
            if (ok) continue;
            if (E[i].K == 0)
                jd_failf(t, "%s: y[%d][%d] = 0x%04x", what, e / 120, e % 120, host[e]);
            else
                jd_failf(t, "%s: y[%d] was written", what, e);
            goto out;
        }
    }
out:
    jd_gbuf_free(J, &bd), jd_gbuf_free(J, &by);
}

/* ---------------------------------------------------------------- the checkpoints */

static const w4_shape DECODE_SHAPES[] = {
    { 1, 8, 128 },     { 3, 120, 256 },   { 16, 8, 256 },     { 1, 4104, 4096 },  { 3, 4104, 11008 },
    { 16, 120, 11008 }, { 16, 4104, 4096 }, { 7, 4104, 128 },  { 9, 120, 4096 },   { 1, 120, 11008 },
    { 16, 4104, 11008 }, { 5, 8, 11008 },
};

static const struct { w4_shape sh; int rows; } PREFILL_SHAPES[] = {
    { { 1, 8, 128 }, 0 },         { { 3, 120, 256 }, 0 },      { { 16, 4104, 4096 }, 0 },
    { { 33, 120, 11008 }, 0 },    { { 33, 4104, 256 }, 0 },    { { 257, 4104, 11008 }, 24 },
    { { 4096, 8, 128 }, 0 },      { { 4096, 120, 11008 }, 48 }, { { 4096, 4104, 4096 }, 32 },
};

/* The parts judged without a GPU: the given quantiser and the refusals. */
static int decode_cpu_parts(jd *J, jd_tally *t)
{
    quant_layout(t, "w58.decode quant_layout");
    return refusals(J, t, W58_FN_DECODE, "w4a16_decode", 16);
}

static void judge_decode_cpu(jd *J, jd_tally *t) { decode_cpu_parts(J, t); }

static void judge_decode(jd_ck *k)
{
    jd *J = k->J;
    if (decode_cpu_parts(J, k->t) != 0) return;
    for (int i = 0; i < N_OF(DECODE_SHAPES) && !J->lost; i++)
        if (run_case(J, k->t, W58_FN_DECODE, "w4a16_decode", "w58.decode", i, DECODE_SHAPES[i], 0) < 0) return;
    if (!J->lost) edges(J, k->t, W58_FN_DECODE, "w4a16_decode");
}

static void judge_prefill_cpu(jd *J, jd_tally *t) { refusals(J, t, W58_FN_PREFILL, "w4a16_prefill", 1 << 30); }

static void judge_prefill(jd_ck *k)
{
    jd *J = k->J;
    if (refusals(J, k->t, W58_FN_PREFILL, "w4a16_prefill", 1 << 30) != 0) return;
    for (int i = 0; i < N_OF(PREFILL_SHAPES) && !J->lost; i++)
        if (run_case(J, k->t, W58_FN_PREFILL, "w4a16_prefill", "w58.prefill", i, PREFILL_SHAPES[i].sh,
                     PREFILL_SHAPES[i].rows) < 0)
            return;
    if (!J->lost) edges(J, k->t, W58_FN_PREFILL, "w4a16_prefill");
}

/* ---------------------------------------------------------------- w58.decode-speed */

/* The test's bench_decode: K = N = 16384, M = 1 and M = 16, the slower the figure. */
enum { DEC_K = 16384, DEC_N = 16384 };
#define TIMED     7
#define COPY_YARD 8 /* timed against COPY, of the bytes the decode moves at M = 16 (the test's copy): */
#define COPY_BYTES ((size_t)16384 * 16384 / 2 + (size_t)16384 * 16384 / 32 + 4 * (size_t)16 * 16384)

/* Bytes the decode product must move (the test's dec_bytes): words, scales and zeros, x, y. */
static double dec_bytes(int M)
{
    const double kn = (double)DEC_K * DEC_N;
    return kn / 2 + kn / 32 + 2.0 * M * DEC_K + 2.0 * M * DEC_N;
}

static void dec_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    if (jd_w58_fill((unsigned char *)in, (int)b->i64[1], (int)b->i64[2], (int)b->i64[3], seed, 0) == cudaSuccess)
        cudaStreamSynchronize(0);
}

/* The look's expected words for one rep, kept by the rep's seed and the positions themselves. */
static struct {
    unsigned long long *idx_d;
    float              *at_d, at_h[JD_SAMPLES];
    unsigned long long  seed, idx[JD_SAMPLES];
    int                 ok;
} g_at;

static void at_release(void)
{
    if (g_at.idx_d) cudaFree(g_at.idx_d);
    if (g_at.at_d) cudaFree(g_at.at_d);
    memset(&g_at, 0, sizeof g_at);
}

static float dec_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_at.ok || g_at.seed != seed[0] || memcmp(g_at.idx, b->idx_h, sizeof g_at.idx) != 0) {
        g_at.ok = 0;
        if ((!g_at.idx_d && cudaMalloc((void **)&g_at.idx_d, sizeof b->idx_h) != cudaSuccess) ||
            (!g_at.at_d && cudaMalloc((void **)&g_at.at_d, sizeof g_at.at_h) != cudaSuccess))
            return NAN; /* the look then fails: no figure from an unchecked run */
        if (cudaMemcpyAsync(g_at.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w58_at((int)b->i64[1], (int)b->i64[2], (int)b->i64[3], seed[0], g_at.idx_d, JD_SAMPLES, g_at.at_d,
                      jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_at.at_h, g_at.at_d, sizeof g_at.at_h, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN;
        g_at.seed = seed[0], g_at.ok = 1;
        memcpy(g_at.idx, b->idx_h, sizeof g_at.idx);
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return g_at.at_h[j];
    return NAN;
}

/* Every element of one rep's y against the exact output of its seed, bit
 * for bit; h[1] as an index of the output's 4-byte words, as the look's. */
static int dec_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                          unsigned long long h[2])
{
    if (jd_full_check_done(jd_w58_check((const uint16_t *)out, (int)b->i64[1], (int)b->i64[2], (int)b->i64[3], seed[0],
                                        bad, jd_stream),
                           bad, h) != 0)
        return -1;
    if (h[0]) h[1] /= 2;
    return 0;
}

static jd_bench g_bench; /* large: its sample arrays */

/* fn at M x N x K through the timed protocol (the full check full_check): 0 and *ms, or -1 with why. */
static int w58_time(jd *J, int fn, const char *fn_name, int M, int N, int K,
                    int (*full_check)(const jd_bench *, const float *, const unsigned long long *, unsigned long long *,
                                      unsigned long long[2]),
                    double *ms, char *why, size_t why_n)
{
    size_t off[5];
    w58_timed_layout((size_t)M, (size_t)N, (size_t)K, off);
    jd_bench *x = &g_bench;
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = JD_BENCH_MAX_K;
    x->n = (size_t)M * N / 2; /* the output's 4-byte words (FP16 pairs) */
    x->in_bytes = off[4];     /* x | wq | scales | zeros */
    x->fill = dec_fill;
    x->lo = -3, x->hi = 3;    /* (the fill's own: x integers -3 .. 3) */
    x->atol = JD_BITWISE;     /* the exact sum rounded once: the same bits whatever the order */
    x->i64[1] = M, x->i64[2] = N, x->i64[3] = K;
    x->expect = dec_expect, x->full_check = full_check;
    x->fn_name = fn_name, x->out_name = "y (FP16 pairs)";
    const int r = jd_bench_run(J, x, TIMED, ms, why, why_n);
    at_release();
    return r;
}

static int dec_time(jd *J, int M, double *ms, char *why, size_t why_n)
{
    return w58_time(J, W58_FN_DECODE_TIMED, "w4a16_decode", M, DEC_N, DEC_K, dec_full_check, ms, why, why_n);
}

static void judge_decode_speed(jd_ck *k)
{
    double ms[2] = { NAN, NAN }, v[2] = { NAN, NAN }, copy = NAN;
    char why[600] = "", detail[200] = "";
    static const int MS[2] = { 1, 16 };
    for (int i = 0; i < 2 && !why[0]; i++) {
        char w[560];
        if (dec_time(k->J, MS[i], &ms[i], w, sizeof w) != 0) {
            snprintf(why, sizeof why, "M = %d: %s", MS[i], w);
            break;
        }
        v[i] = dec_bytes(MS[i]) / (ms[i] * 1e-3) / 1e9;
    }
    if (!why[0]) {
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        snprintf(detail, sizeof detail, "M=1 %.0f GB/s, M=16 %.0f GB/s vs COPY %.0f GB/s (judge's clock, median of %d)",
                 v[0], v[1], copy, TIMED);
        printf("  w4a16_decode K = N = %d: M = 1 %.4f ms, M = 16 %.4f ms a call by the judge's clock, %s\n", DEC_K, ms[0],
               ms[1], detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, v[0] < v[1] ? v[0] : v[1], "GB/s", "COPY", copy, detail, why);
}

/* ---------------------------------------------------------------- w58.prefill-speed */

/* The test's bench_prefill: M = 4096, K = N = 8192. */
enum { PRE_M = 4096, PRE_N = 8192, PRE_K = 8192, PRE_CALLS = 20 };

/* The judge's cuBLAS (its own process, its own buffers): the dense layer of a seed (x | dequant(W), exact),
 * cublasGemmEx into ref, the reference of every timed output's full check; and a layer of the test's kind
 * (yard, into yout), the one its time is taken on. */
static struct {
    cublasHandle_t      h;
    unsigned char      *dense, *yard;
    uint16_t           *ref, *yout;
    unsigned long long  seed;
    int                 have;
} g_pre;

static void pre_release(void)
{
    if (g_pre.h) cublasDestroy(g_pre.h);
    if (g_pre.dense) cudaFree(g_pre.dense);
    if (g_pre.yard) cudaFree(g_pre.yard);
    if (g_pre.ref) cudaFree(g_pre.ref);
    if (g_pre.yout) cudaFree(g_pre.yout);
    memset(&g_pre, 0, sizeof g_pre);
}

/* row-major y = x Wd is column-major y^T = Wd^T x^T: Wd first, nothing transposed (the test's pre_cublas) */
static int pre_gemm(const unsigned char *dense, uint16_t *y)
{
    const float one = 1.f, zero = 0.f;
    return cublasGemmEx(g_pre.h, CUBLAS_OP_N, CUBLAS_OP_N, PRE_N, PRE_M, PRE_K, &one,
                        dense + w58_dense_at(PRE_M, PRE_K), CUDA_R_16F, PRE_N, dense, CUDA_R_16F, PRE_K,
                        &zero, y, CUDA_R_16F, PRE_N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) ==
                   CUBLAS_STATUS_SUCCESS
               ? 0
               : -1;
}

static int pre_open(void)
{
    if (g_pre.h) return 0;
    if (cublasCreate(&g_pre.h) != CUBLAS_STATUS_SUCCESS) return g_pre.h = NULL, -1;
    if (cublasSetStream(g_pre.h, jd_stream) != CUBLAS_STATUS_SUCCESS ||
        cudaMalloc((void **)&g_pre.dense, w58_dense_at(PRE_M, PRE_K) + (size_t)PRE_K * PRE_N * 2) != cudaSuccess ||
        cudaMalloc((void **)&g_pre.yard, w58_dense_at(PRE_M, PRE_K) + (size_t)PRE_K * PRE_N * 2) != cudaSuccess ||
        cudaMalloc((void **)&g_pre.ref, (size_t)PRE_M * PRE_N * 2) != cudaSuccess ||
        cudaMalloc((void **)&g_pre.yout, (size_t)PRE_M * PRE_N * 2) != cudaSuccess)
        return -1;
    return 0;
}

/* ref = cuBLAS on the dense layer of seed: 0, or -1. */
static int pre_ref(unsigned long long seed)
{
    if (g_pre.have && g_pre.seed == seed) return 0;
    g_pre.have = 0;
    if (pre_open() != 0 || jd_w58_fill_dense(g_pre.dense, PRE_M, PRE_N, PRE_K, seed, jd_stream) != cudaSuccess ||
        pre_gemm(g_pre.dense, g_pre.ref) != 0 ||
        jd_w58_fill_dense_test(g_pre.yard, PRE_M, PRE_N, PRE_K, jd_mix(seed ^ 0x7e57), jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess)
        return -1;
    g_pre.seed = seed, g_pre.have = 1;
    return 0;
}

/* Every element of one rep's y against cuBLAS's on the same layer (exact: see the header), bit for bit. */
static int pre_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                          unsigned long long h[2])
{
    (void)b;
    if (pre_ref(seed[0]) != 0) return -1;
    if (jd_full_check_done(jd_w58_same((const uint16_t *)out, g_pre.ref, (size_t)PRE_M * PRE_N, bad, jd_stream), bad, h) !=
        0)
        return -1;
    if (h[0]) h[1] /= 2;
    return 0;
}

/* cuBLAS timed in the judge's process on a layer of the test's kind (jd_w58_fill_dense_test: cuBLAS's FP16
 * GEMM ran 9 % faster on the exact layer's small integers than on the test's values on an H200, 0.72-0.74 ms
 * against 0.79-0.82, while the week's kernel ran within 1 % on both): PRE_CALLS calls a sample between
 * events, the median of TIMED samples, after one untimed call; its output on the exact layer of the seed
 * then checked at 256 words against the exact sums (jd_w58_at): a cuBLAS that is not exact here would make
 * the full check unfair.
 * ms a call, or NAN with why. */
static double pre_cublas_ms(unsigned long long seed, char *why, size_t why_n)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    double t[TIMED], ms = NAN;
    unsigned long long *idx_d = NULL, idx[JD_SAMPLES];
    float *at_d = NULL, at[JD_SAMPLES];
    uint32_t got[JD_SAMPLES];
    if (pre_ref(seed) != 0 || cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        snprintf(why, why_n, "cuBLAS's yardstick did not run (cublasGemmEx FP16, FP32 compute)");
        goto out;
    }
    for (int r = 0; r < TIMED; r++) {
        float f = 0;
        int bad = (r == 0 && pre_gemm(g_pre.yard, g_pre.yout) != 0) || cudaEventRecord(e0, jd_stream) != cudaSuccess;
        for (int c = 0; c < PRE_CALLS && !bad; c++) bad = pre_gemm(g_pre.yard, g_pre.yout) != 0;
        if (bad || cudaEventRecord(e1, jd_stream) != cudaSuccess || cudaEventSynchronize(e1) != cudaSuccess ||
            cudaEventElapsedTime(&f, e0, e1) != cudaSuccess) {
            snprintf(why, why_n, "cuBLAS's yardstick failed while timed");
            goto out;
        }
        t[r] = f / PRE_CALLS;
    }
    for (int i = 1; i < TIMED; i++) /* the median */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            const double u = t[j];
            t[j] = t[j - 1], t[j - 1] = u;
        }
    uint64_t k = jd_mix(seed ^ 0x58);
    for (int j = 0; j < JD_SAMPLES; j++) idx[j] = (k = jd_mix(k)) % ((size_t)PRE_M * PRE_N / 2);
    if (cudaMalloc((void **)&idx_d, sizeof idx) != cudaSuccess || cudaMalloc((void **)&at_d, sizeof at) != cudaSuccess ||
        cudaMemcpyAsync(idx_d, idx, sizeof idx, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
        jd_w58_at(PRE_M, PRE_N, PRE_K, seed, idx_d, JD_SAMPLES, at_d, jd_stream) != cudaSuccess ||
        cudaMemcpyAsync(at, at_d, sizeof at, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
        cudaStreamSynchronize(jd_stream) != cudaSuccess) {
        snprintf(why, why_n, "the judge's check of cuBLAS's output did not run");
        goto out;
    }
    for (int j = 0; j < JD_SAMPLES; j++) {
        if (cudaMemcpy(&got[j], (const unsigned char *)g_pre.ref + idx[j] * 4, 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
            snprintf(why, why_n, "the judge's check of cuBLAS's output did not run");
            goto out;
        }
        uint32_t want;
        memcpy(&want, &at[j], 4);
        if (got[j] != want) {
            snprintf(why, why_n, "the judge's yardstick: cuBLAS's output is not the exact sum at y word %llu (0x%08x, "
                     "exact 0x%08x): the full check would be unfair; a judge problem, not the submission's",
                     idx[j], got[j], want);
            goto out;
        }
    }
    ms = t[TIMED / 2];
out:
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (idx_d) cudaFree(idx_d);
    if (at_d) cudaFree(at_d);
    return ms;
}

static void judge_prefill_speed(jd_ck *k)
{
    const double flops = 2.0 * PRE_M * PRE_N * PRE_K;
    double ms = NAN, value = NAN, lib = NAN, lib_ms;
    char why[600] = "", detail[200] = "";
    const unsigned long long yseed = jd_mix(jd_seed ^ 0x5802ull);
    lib_ms = pre_cublas_ms(yseed, why, sizeof why); /* before the student's calls */
    if (!why[0] && w58_time(k->J, W58_FN_PREFILL_TIMED, "w4a16_prefill", PRE_M, PRE_N, PRE_K, pre_full_check, &ms, why,
                            sizeof why) == 0) {
        g_pre.have = 0;
        const double after = pre_cublas_ms(yseed, why, sizeof why); /* and after: the faster kept */
        if (!why[0]) {
            lib_ms = after < lib_ms ? after : lib_ms;
            value = flops / (ms * 1e-3) / 1e12, lib = flops / (lib_ms * 1e-3) / 1e12;
            snprintf(detail, sizeof detail, "%.0f TFLOP/s vs cuBLAS %.0f TFLOP/s (judge's clock, median of %d)", value,
                     lib, TIMED);
            printf("  w4a16_prefill M = %d, N = K = %d: %.4f ms a call by the judge's clock, cuBLAS %.4f ms, %s\n",
                   PRE_M, PRE_N, ms, lib_ms, detail);
        }
    }
    pre_release();
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", "cuBLAS", lib, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w58.decode", judge_decode, judge_decode_cpu, 0, 0, NULL },
    { "w58.prefill", judge_prefill, judge_prefill_cpu, 0, 0, NULL },
    { "w58.decode-speed", judge_decode_speed, NULL, 0, COPY_YARD, NULL, COPY_BYTES, 0 },
    { "w58.prefill-speed", judge_prefill_speed, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w58", "phase6/week58", CPS, N_OF(CPS));
}
