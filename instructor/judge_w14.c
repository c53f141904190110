/* judge_w14.c — build/instructor/judge-w14: week 14's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's blas.o, cubdev.o, cubblock.o and thrustops.o are linked into
 * the runner (judge_w14_runner.c, with cuBLAS, as the test program links
 * them), which this process starts (or is handed) and asks to call them on
 * buffers it allocated (judge.h). It poisons, fills and checks, and writes
 * the results record itself, outside the runner's reach. The command line,
 * the runner's start and the record are judge_week.c's:
 *
 *   judge-w14 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week14.c's, copied here (the test has no shared case
 * header; it is not changed): the same sizes, shapes, edge cases and
 * tolerances, each case drawn from wb_rng_for_seed with the test's tag (its
 * function's name) for the hidden seed. Every output sits in a guarded byte
 * buffer (jd_gbuf: 256 bytes of 0xff on each side, a write outside it
 * fails), poisoned (0xff, NaN) before the call, and an element still the
 * poison where NaN is due counts as not written.
 *
 * A cuBLAS handle cannot cross processes: the runner makes its own (once)
 * and, before each call, sets its stream (the default), its pointer mode
 * (host) and its math mode (the test's: CUBLAS_DEFAULT_MATH, or pedantic
 * for the batched cases, or what the case names), and passes a null handle
 * where the case asks for one. The pointer-array operands of
 * blas_gemm_batched are built by the runner in its own device memory from
 * its mappings of the judge's contiguous A, B and C (the judge's device
 * addresses mean nothing in the runner's process).
 *
 *   w14.tf32      blas_tf32_round, a host function called by the runner on
 *                 a host buffer (with no GPU, by a runner that opens none:
 *                 PASS and FAIL stand): the test's 17 cases bit for bit,
 *                 its 4 NaNs kept NaN, and its 1,000,000 random floats (all
 *                 exponents below the top binade) against the nearer TF32
 *                 neighbour, ties to the larger magnitude.
 *   w14.blas1     blas_axpy and blas_dot at the test's 10 sizes (0 .. 2^24):
 *                 y within 1e-6 + 1e-6 |ref| of the double AXPY, the dot
 *                 within 1e-5 sum |x y| + 1e-6, written into device memory;
 *                 a null handle: both return a failure and write nothing.
 *   w14.gemm      blas_gemm (W14_FP32) on the test's 10 shapes x the four
 *                 transposes, random padded leading dimensions (padding
 *                 NaN in A and B, a sentinel 7 in C's that must survive;
 *                 beta 0 with C NaN for N N and T T), within 4e-6 K + 1e-6
 *                 + 1e-5 |ref| of the double product; lda = K - 1 and
 *                 ldc = N - 1 return CUBLAS_STATUS_INVALID_VALUE, a null
 *                 handle (blas_gemm, blas_gemm_strided) a failure, C never
 *                 written by any of them.
 *   w14.batched   the test's 5 cases (batch 0 .. 50): blas_gemm_batched,
 *                 blas_gemm_strided and blas_gemm_strided with stride_b = 0,
 *                 within 4e-6 K + 1e-6 + 1e-5 |ref|.
 *   w14.mathmodes 512 x 512 x 1024, W14_FP32 within 4 sqrt(K) 2^-24 and
 *                 W14_TF32 within 2^-9 + K 2^-23 of the double product,
 *                 relative to sum |a| |b| (the test's bounds; its third
 *                 figure, TF32 against inputs rounded to TF32, is printed
 *                 by the test only, and not formed here).
 *   w14.cubdev    cubdev_sum, cubdev_scan (integers in [-4, 4]: exact) and
 *                 cubdev_sort_pairs (keys below 2^end_bit, end_bit by the
 *                 test's rota; exact, stable, the input keys unchanged) at
 *                 the test's 10 sizes (0 .. 2^24 + 3), each query's answer
 *                 written; the 3 float cases (uniform, a NaN, an Inf) of
 *                 the sum (1e-5 n) and the scan (1e-3 + 2e-5 |ref|); a
 *                 1-byte workspace refused by all three (queries of more
 *                 than 1 byte at n = 2^20), nothing written.
 *   w14.blockwarp cubblock_row_argmax and cubblock_row_amax on the test's
 *                 10 shapes (ties planted in every third row) and its 8
 *                 special rows (ties, NaN, infinities, signed zeros), both
 *                 exact; the 3 bad shapes refused with
 *                 cudaErrorInvalidValue, nothing written.
 *   w14.thrust    thr_sqdist at the test's 6 sizes (0 .. 2^24) within
 *                 1e-12 |ref| of a compensated double sum; thr_sort_by_key
 *                 (keys with repeats, values 0..n-1: stable) exact; with the
 *                 device's memory taken, a sort of 2^25 pairs returns an
 *                 error (not an exception: one through extern "C" kills the
 *                 runner, and the checkpoint fails), and a sort of 1000
 *                 pairs works after.
 * What the runner reports from inside the student's process is judged by
 * reasoning, as the week's test judges it: the handle's pointer mode after
 * blas_axpy and blas_dot, and its math mode after blas_gemm (W14_TF32 on a
 * handle in CUBLAS_DEFAULT_MATH, and a failing call on one in
 * CUBLAS_PEDANTIC_MATH), are read by the runner off its handle and sent in
 * the reply; the out-of-memory case's memory is taken by the runner. A
 * runner that lies can only claim what a correct function does anyway
 * (restore two modes; return an error when memory is gone), and everything
 * the judge can see (outputs, guard bands, statuses) it checks itself.
 *
 * The speed checkpoints: the timed-call protocol (judge_week.h): K calls a
 * request, each on its own inputs in [-1, 1) fresh from the hidden seed and
 * its own poisoned output, the judge's look right after the reply, every
 * element of every timed output checked after the timing against the
 * judge's double reference; the median of the requests; TFLOP/s against the
 * yardstick timed the same way on the same inputs:
 *   w14.tf32-speed    blas_gemm(W14_TF32) at 4096^3 on the runner's handle
 *                     in CUBLAS_DEFAULT_MATH (the TF32 must come from
 *                     blas_gemm, as in the test), judge_gemm.c's set-up
 *                     (every C against cublasDgemm) within the test's TF32
 *                     tolerance 0.25, 5 requests; against cublasSgemm on a
 *                     handle in CUBLAS_TF32_TENSOR_OP_MATH (the test's
 *                     yardstick). The test's pedantic FP32 row is a report,
 *                     not formed here.
 *   w14.strided-speed blas_gemm_strided of 4096 products of 64^3 (pedantic
 *                     handle), every C against the judge's own
 *                     cublasDgemmStridedBatched of the inputs filled again
 *                     in double, within the test's 1e-3, 7 requests;
 *                     against a loop of 4096 cublasSgemm calls (the test's
 *                     yardstick), pedantic.
 * Both yardsticks are instructor code, timed by the judge through its own
 * yard runner (judge_w14_yard_runner.c: cuBLAS alone, no student object,
 * beside the judge; jd_yard_bench) before the student's runner starts and
 * after its timing, the faster kept (a runner can only slow the judge's
 * GPU). The target for this GPU from week.txt.
 *
 * w14.sort-speed (SortPairs of 32M keys below 2^16 with end_bit 16 against
 * the same sort over all 32 bits; until 2026-11-29 left to the linked
 * test). Its yardstick is not the student's own 32-bit sort, as the test's
 * is (a runner could slow that one on purpose), but CUB's own
 * cub::DeviceRadixSort::SortPairs over all 32 bits (judge_w14_kernels.cu)
 * in the yard runner, on the same inputs (the same set-up and seeds),
 * before the student's runner starts and after its timing, the faster
 * kept. The reference's 32-bit call is that very SortPairs on the same
 * data, so for it ALLBITS is the test's yardstick and 1.25 keeps its
 * meaning (the H100's 1.69 in the week's README, 23 % over 1.25 + 10 %).
 * The student's cubdev_sort_pairs(end_bit 16) is timed through the timed
 * protocol: 2^25 pairs a call, 64 calls a request (as memory allows), the
 * median of 7; each call on its own keys (wb_hash_bits(seed, i) >> 48, the
 * test's keys for that seed) and values (a permutation of 0..n-1 by a
 * hidden odd multiplier and mask) fresh from the hidden seed and its own
 * poisoned output (keys_out, then vals_out, in one buffer); the look right
 * after the reply reads 256 hidden words of both against the judge's own
 * CUB sort of the same inputs (made before the request); after the timing
 * every pair of every timed output is checked by the judge's kernel:
 * each value names an input position p, the key is key(p), and (key, p)
 * rises strictly pair to pair: sorted by the whole key, stable, and a
 * permutation of the input. Run on an H200 (2026-11-29), alone, plain and
 * sandboxed: the reference PASSed all ten (w14.tf32-speed 1.003 and 1.000
 * of cuBLAS in TF32 mode against 0.90, w14.strided-speed 439 and 397 times
 * the loop against 10), the starter FAILed all ten; with w14.sort-speed,
 * plain and sandboxed (2026-11-29, an H200), the reference PASSed all
 * eleven (w14.sort-speed 1.638 and 1.63 of CUB's all-bits sort: 0.534 ms a
 * call against 0.874; the linked test's own figure on the H100 1.69), the
 * starter FAILed all eleven; through the grader (JUDGE=1, with weeks 18 and
 * 58) the reference full marks in every cell, calibrated at +11 %
 * (tf32-speed), +4954 % (strided-speed) and +29 % (sort-speed). Without a
 * GPU every listed checkpoint but w14.tf32 is SKIP
 * (instructor/tests/judge_w14.sh).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "judge.h"
#include "judge_cublas.h"
#include "judge_gemm.h"
#include "judge_kernels.h"
#include "judge_w14.h"
#include "judge_w14_kernels.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) fprintf(stderr, "judge-w14: out of host memory\n"), exit(2);
    return p;
}

/* ---------------------------------------------------------------- calls and checks */

/* fn on buffer arguments (a gbuf's array, or NULL), the scalars given: 0
 * with the reply in *rp, or -1 (the runner is lost: t says so). */
static int call(jd *J, int fn, int nargs, jd_gbuf *const *b, const long long *i64, const double *f64, jd_rep *rp,
                const char *what, jd_tally *t)
{
    jd_req rq;
    jd_call_setup(&rq, fn, 1, nargs);
    for (int a = 0; a < nargs; a++) jd_gbuf_arg(&rq, a, b[a], 0);
    memcpy(rq.i64, i64, sizeof rq.i64);
    if (f64) memcpy(rq.f64, f64, sizeof rq.f64);
    if (jd_call(J, &rq, rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    return 0;
}

/* The reply's status in words: a cuBLAS function's (judge_cublas.h) or a CUDA one's. */
static const char *st_words(const jd_rep *rp, int cublas, char *buf, size_t n)
{
    if (cublas) return jd_cublas_status(rp->status, buf, n);
    return rp->status < 0 ? rp->text : cudaGetErrorName((cudaError_t)rp->status);
}

/* 1 when the call succeeded, else 0 with the failure told. */
static int ok(const jd_rep *rp, int cublas, const char *fn, const char *what, jd_tally *t)
{
    char b[200];
    if (rp->status == 0) return 1;
    jd_failf(t, "%s: %s returned %s", what, fn, st_words(rp, cublas, b, sizeof b));
    return 0;
}

/* A guarded buffer of `bytes` (at least 4), or -1 (t says why). */
static int gb(jd *J, jd_gbuf *b, size_t bytes, jd_tally *t)
{
    b->id = -1;
    return jd_gbuf_alloc(J, b, bytes ? bytes : 4, t);
}

/* An input: the guard poisoned, the bytes put. 0 or -1 (t says so). */
static int put_in(jd_gbuf *b, const void *h, size_t bytes, jd_tally *t)
{
    if (jd_gbuf_poison(b, 0, bytes) != 0 || jd_gbuf_put(b, 0, h, bytes) != 0)
        return jd_failf(t, "the judge's own copies failed"), -1;
    return 0;
}

static int poison(jd_gbuf *b, size_t bytes, jd_tally *t)
{
    if (jd_gbuf_poison(b, 0, bytes) != 0) return jd_failf(t, "the judge's own copies failed"), -1;
    return 0;
}

/* got against a double reference (wb_close's rules), an element still the
 * poison where NaN is due counted as not written. 0 when all is right. */
static int cmp_f64(const float *got, const double *ref, size_t n, double atol, double rtol, const char *name,
                   const char *what, jd_tally *t)
{
    size_t unwritten = 0;
    for (size_t i = 0; i < n; i++) unwritten += isnan(ref[i]) && f2u(got[i]) == 0xffffffffu;
    wb_cmp c;
    if (wb_compare_f32_f64(name, got, ref, n, atol, rtol, &c)) return jd_failf(t, "%s: %s", what, c.msg), 1;
    if (unwritten)
        return jd_failf(t, "%s: %zu elements of %s where NaN is due still hold the poison (never written)", what,
                        unwritten, name),
               1;
    return 0;
}

static int cmp_f32(const float *got, const float *ref, size_t n, const char *name, const char *what, jd_tally *t)
{
    double *r = xmalloc(n * 8 + 8);
    for (size_t i = 0; i < n; i++) r[i] = ref[i];
    int bad = cmp_f64(got, r, n, 0, 0, name, what, t);
    free(r);
    return bad;
}

static int cmp_u32(const uint32_t *got, const uint32_t *ref, size_t n, const char *name, const char *what, jd_tally *t)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i])
            return jd_failf(t, "%s: %s[%zu] expected %u got %u%s", what, name, i, ref[i], got[i],
                            got[i] == 0xffffffffu ? " (the poison: perhaps never written)" : ""),
                   1;
    return 0;
}

/* Fetch n floats (or words) of b into host, the guard checked: 0, 1 (t
 * has the failure) or -1. */
static int fetch(jd_gbuf *b, size_t bytes, void *host, const char *name, const char *what, jd_tally *t)
{
    return jd_gbuf_fetch(b, 0, bytes, host, name, what, t);
}

/* The test's stable CPU sort of (key, val) pairs (LSD radix, 8 bits a pass). */
static void cpu_sort_pairs(const uint32_t *k, const uint32_t *v, size_t n, uint32_t *out_k, uint32_t *out_v)
{
    uint32_t *tk = xmalloc(n * 4 + 4), *tv = xmalloc(n * 4 + 4);
    memcpy(out_k, k, n * 4), memcpy(out_v, v, n * 4);
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = { 0 };
        for (size_t i = 0; i < n; i++) count[((out_k[i] >> shift) & 255) + 1]++;
        for (int b = 0; b < 256; b++) count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++) {
            size_t at = count[(out_k[i] >> shift) & 255]++;
            tk[at] = out_k[i], tv[at] = out_v[i];
        }
        memcpy(out_k, tk, n * 4), memcpy(out_v, tv, n * 4);
    }
    free(tk), free(tv);
}

/* The modes the runner read off its handle after the call (judge_w14.h). */
static void modes_after(const jd_rep *rp, int *pm, int *mm)
{
    int m[2] = { -1, -1 };
    if (rp->out_len >= sizeof m) memcpy(m, rp->out, sizeof m);
    *pm = m[0], *mm = m[1];
}

/* ---------------------------------------------------------------- w14.tf32 (CPU) */

static void judge_tf32(jd *J, jd_tally *t)
{
    const float one = 1.0f, u10 = ldexpf(1, -10), u11 = ldexpf(1, -11), u12 = ldexpf(1, -12), u23 = ldexpf(1, -23);
    const struct { float x, want; const char *what; } C[] = {
        { one, one, "1" },
        { one + u10, one + u10, "1 + 2^-10 (exact in TF32)" },
        { one + u11, one + u10, "1 + 2^-11 (a tie: away from zero)" },
        { -(one + u11), -(one + u10), "-(1 + 2^-11) (a tie: away from zero)" },
        { one + u11 - u23, one, "1 + 2^-11 - 2^-23 (below the tie)" },
        { one + 3 * u12, one + u10, "1 + 3 * 2^-12" },
        { one + u12, one, "1 + 2^-12" },
        { u2f(0x3ffff000u), 2.0f, "the largest float below 2 with the tie bit (carries into the exponent)" },
        { 0.0f, 0.0f, "+0" },
        { -0.0f, -0.0f, "-0" },
        { FLT_MAX, INFINITY, "FLT_MAX (past the largest TF32)" },
        { -FLT_MAX, -INFINITY, "-FLT_MAX" },
        { INFINITY, INFINITY, "+Inf" },
        { -INFINITY, -INFINITY, "-Inf" },
        { u2f(0x00001000u), u2f(0x00002000u), "a subnormal tie" },
        { u2f(0x00000fffu), 0.0f, "a subnormal below the tie" },
        { u2f(0x007ff000u), u2f(0x00800000u), "the largest subnormal tie (becomes the smallest normal)" },
    };
    const uint32_t nans[] = { 0x7fc00000u, 0x7f800001u, 0xffc00001u, 0x7fffffffu };
    const size_t nc = COUNT(C), nn = COUNT(nans), nr = 1000000, cap = nc + nn + nr;
    float *hx = NULL, *hy = NULL;
    int ix = jd_alloc_kind(J, JD_MEM_HOST, cap * 4, (void **)&hx);
    int iy = ix < 0 ? -1 : jd_alloc_kind(J, JD_MEM_HOST, cap * 4, (void **)&hy);
    if (ix < 0 || iy < 0) {
        jd_failf(t, "buffers: %s", J->why);
        if (ix >= 0) jd_free(J, ix);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < nc; i++) hx[n++] = C[i].x;
    for (size_t i = 0; i < nn; i++) hx[n++] = u2f(nans[i]);
    wb_rng rng = wb_rng_for_seed(jd_seed, "tf32_random_fn", 0);
    for (size_t k = 0; k < nr; k++) {
        uint32_t u = (uint32_t)wb_rng_u64(&rng);
        if (((u >> 23) & 0xff) >= 0xfe) continue; /* NaN/Inf and the top binade: in the cases */
        hx[n++] = u2f(u);
    }
    memset(hy, 0xff, n * 4);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W14_FN_TF32, 1, 2);
    rq.arg_buf[0][0] = ix, rq.arg_buf[0][1] = iy;
    rq.i64[1] = (long long)n;
    t->tests += 2;
    if (jd_call(J, &rq, &rp, NULL) != 0) jd_failf(t, "blas_tf32_round: %s", J->why);
    else if (rp.status != 0) jd_failf(t, "blas_tf32_round: the runner failed: %s", rp.text);
    else {
        for (size_t i = 0; i < nc; i++)
            if (f2u(hy[i]) != f2u(C[i].want)) {
                jd_failf(t, "blas_tf32_round(%a) [%s] = %a (bits %08x), expected %a (bits %08x)", (double)C[i].x,
                         C[i].what, (double)hy[i], f2u(hy[i]), (double)C[i].want, f2u(C[i].want));
                break;
            }
        for (size_t i = 0; i < nn; i++)
            if (!isnan(hy[nc + i])) {
                jd_failf(t, "blas_tf32_round(NaN bits %08x) = %a: a NaN must stay a NaN", nans[i], (double)hy[nc + i]);
                break;
            }
        size_t bad = 0;
        char first[200] = "";
        for (size_t i = nc + nn; i < n; i++) {
            uint32_t u = f2u(hx[i]);
            float x = hx[i], lo = u2f(u & ~0x1fffu), hi = u2f((u & ~0x1fffu) + 0x2000u);
            double dlo = fabs((double)x - lo), dhi = fabs((double)hi - x);
            float want = dhi <= dlo ? hi : lo;
            if (f2u(hy[i]) != f2u(want) && bad++ == 0)
                snprintf(first, sizeof first, "blas_tf32_round(%a) = %a, expected %a", (double)x, (double)hy[i],
                         (double)want);
        }
        if (bad) jd_failf(t, "%zu of %zu random floats rounded wrong; first: %s", bad, n - nc - nn, first);
    }
    jd_free(J, ix), jd_free(J, iy);
}

static void judge_tf32_gpu(jd_ck *k) { judge_tf32(k->J, k->t); }

/* ---------------------------------------------------------------- w14.blas1 */

static const int SIZES1[] = { 0, 1, 3, 31, 255, 257, 1025, 65537, 1000003, 1 << 24 };

/* The test's blas1_sizes case i. 0, or -1 (lost). */
static int blas1_case(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "blas1_sizes_fn", i);
    int n = SIZES1[i];
    size_t bytes = (size_t)n * 4;
    float *hx = xmalloc(bytes + 4), *hy = xmalloc(bytes + 4), *got = xmalloc(bytes + 4);
    double *ref = xmalloc((size_t)n * 8 + 8);
    wb_fill_uniform_f32(&rng, hx, (size_t)n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, (size_t)n, -1, 1);
    float alpha = (float)(wb_rng_unit(&rng) * 4 - 2);
    double dot = 0, dot_abs = 0;
    for (int k = 0; k < n; k++) {
        ref[k] = (double)alpha * hx[k] + hy[k];
        dot += (double)hx[k] * hy[k], dot_abs += fabs((double)hx[k] * hy[k]);
    }
    char what[80];
    snprintf(what, sizeof what, "n=%d, alpha=%g", n, (double)alpha);
    jd_gbuf x, y, y0, r;
    int rc = 0;
    x.id = y.id = y0.id = r.id = -1;
    if (gb(J, &x, bytes, t) || gb(J, &y, bytes, t) || gb(J, &y0, bytes, t) || gb(J, &r, 4, t) ||
        put_in(&x, hx, bytes, t) || put_in(&y, hy, bytes, t) || put_in(&y0, hy, bytes, t) || poison(&r, 4, t)) {
        rc = -1;
        goto out;
    }
    jd_rep rp;
    int pm, mm;
    t->tests++;
    jd_gbuf *ba[2] = { n ? &x : NULL, &y };
    long long i64[8] = { 0, n, 0 };
    double f64[4] = { alpha };
    if (call(J, W14_FN_AXPY, 2, ba, i64, f64, &rp, what, t)) { rc = -1; goto out; }
    modes_after(&rp, &pm, &mm);
    if (ok(&rp, 1, "blas_axpy", what, t)) {
        int f = fetch(&y, bytes, got, "y", what, t);
        if (f < 0) { rc = -1; goto out; }
        if (!f) cmp_f64(got, ref, (size_t)n, 1e-6, 1e-6, "y", what, t);
        if (pm != CUBLAS_POINTER_MODE_HOST)
            jd_failf(t, "%s: blas_axpy left the handle in pointer mode %d, it was host (%d)", what, pm,
                     (int)CUBLAS_POINTER_MODE_HOST);
    }
    t->tests++;
    jd_gbuf *bd[3] = { n ? &x : NULL, n ? &y0 : NULL, &r };
    if (call(J, W14_FN_DOT, 3, bd, i64, NULL, &rp, what, t)) { rc = -1; goto out; }
    modes_after(&rp, &pm, &mm);
    if (ok(&rp, 1, "blas_dot", what, t)) {
        float g;
        int f = fetch(&r, 4, &g, "the dot's result", what, t);
        if (f < 0) { rc = -1; goto out; }
        if (!f && !wb_close(g, dot, 1e-5 * dot_abs + 1e-6, 0))
            jd_failf(t, "dot, %s: %.9g, expected %.9g", what, (double)g, dot);
        if (pm != CUBLAS_POINTER_MODE_HOST)
            jd_failf(t, "blas_dot left the handle in device pointer mode: the caller's next host scalar is read as a "
                        "device address; set the mode back");
    }
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &y), jd_gbuf_free(J, &y0), jd_gbuf_free(J, &r);
    free(hx), free(hy), free(got), free(ref);
    return rc;
}

/* A null handle: both calls fail and write nothing. */
static void blas1_null(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "blas1_null_handle_fn", 0);
    float hx[64], got[64];
    wb_fill_uniform_f32(&rng, hx, 64, -1, 1);
    jd_gbuf x, y, r;
    x.id = y.id = r.id = -1;
    const char *what = "null handle";
    if (!gb(J, &x, sizeof hx, t) && !gb(J, &y, sizeof hx, t) && !gb(J, &r, 4, t) && !put_in(&x, hx, sizeof hx, t) &&
        !poison(&y, sizeof hx, t) && !poison(&r, 4, t)) {
        jd_rep rp;
        t->tests++;
        jd_gbuf *ba[2] = { &x, &y }, *bd[3] = { &x, &x, &r };
        long long i64[8] = { 0, 64, W14_NULL_HANDLE };
        double f64[4] = { 2.0 };
        if (call(J, W14_FN_AXPY, 2, ba, i64, f64, &rp, what, t)) goto out;
        if (rp.status == 0) jd_failf(t, "blas_axpy(NULL handle) returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's status");
        else if (rp.status < 0) jd_failf(t, "blas_axpy(NULL handle): the runner failed: %s", rp.text);
        if (call(J, W14_FN_DOT, 3, bd, i64, NULL, &rp, what, t)) goto out;
        if (rp.status == 0) jd_failf(t, "blas_dot(NULL handle) returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's status");
        else if (rp.status < 0) jd_failf(t, "blas_dot(NULL handle): the runner failed: %s", rp.text);
        if (fetch(&y, sizeof got, got, "y", what, t) == 0)
            for (int i = 0; i < 64; i++)
                if (!isnan(got[i])) {
                    jd_failf(t, "blas_axpy(NULL handle) wrote y[%d]", i);
                    break;
                }
        if (fetch(&r, 4, got, "the dot's result", what, t) == 0 && !isnan(got[0]))
            jd_failf(t, "blas_dot(NULL handle) wrote the result");
    }
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &y), jd_gbuf_free(J, &r);
}

static void judge_blas1(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(SIZES1) && !k->J->lost; i++)
        if (blas1_case(k->J, i, k->t) < 0) return;
    if (!k->J->lost) blas1_null(k->J, k->t);
}

/* ---------------------------------------------------------------- w14.gemm */

static float opa(const float *A, int lda, int ta, int i, int k) { return ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]; }
static float opb(const float *B, int ldb, int tb, int k, int j) { return tb ? B[(size_t)j * ldb + k] : B[(size_t)k * ldb + j]; }

/* The test's padded(): rows x ld, the first cols columns random, the padding NaN. */
static float *padded(wb_rng *rng, int rows, int cols, int ld)
{
    size_t n = (size_t)rows * ld;
    float *m = xmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) m[i] = (int)(i % (size_t)ld) < cols ? (float)(wb_rng_unit(rng) * 2 - 1) : NAN;
    return m;
}

/* blas_gemm on the runner's handle in math mode `before`; flags W14_*. */
static int gemm_call(jd *J, jd_gbuf *A, jd_gbuf *B, jd_gbuf *C, int M, int N, int K, int lda, int ldb, int ldc,
                     float alpha, float beta, long long flags, int before, jd_rep *rp, const char *what, jd_tally *t)
{
    jd_gbuf *b[3] = { A, B, C };
    long long i64[8] = { 0, M, N, K, lda, ldb, ldc, flags | (long long)before << 8 };
    double f64[4] = { alpha, beta };
    return call(J, W14_FN_GEMM, 3, b, i64, f64, rp, what, t);
}

/* The test's check_gemm. 0, or -1 (lost). */
static int gemm_case(jd *J, wb_rng *rng, int M, int N, int K, int ta, int tb, jd_tally *t)
{
    int ra = ta ? K : M, ca = ta ? M : K, rb = tb ? N : K, cb = tb ? K : N;
    int lda = (ca > 1 ? ca : 1) + (int)wb_rng_int(rng, 0, 3), ldb = (cb > 1 ? cb : 1) + (int)wb_rng_int(rng, 0, 3);
    int ldc = (N > 1 ? N : 1) + (int)wb_rng_int(rng, 0, 3);
    float alpha = (float)(wb_rng_unit(rng) * 4 - 2), beta = (ta ^ tb) ? (float)(wb_rng_unit(rng) * 2 - 1) : 0.0f;
    float *hA = padded(rng, ra, ca, lda), *hB = padded(rng, rb, cb, ldb);
    size_t nc = (size_t)M * ldc, na = (size_t)ra * lda, nb = (size_t)rb * ldb;
    float *hC = xmalloc(nc * 4 + 4), *got = xmalloc(nc * 4 + 4);
    double *ref = xmalloc(nc * 8 + 8);
    const float pad = 7.0f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < ldc; j++) {
            size_t at = (size_t)i * ldc + j;
            if (j >= N) { hC[at] = pad, ref[at] = pad; continue; }
            hC[at] = beta != 0.0f ? (float)(wb_rng_unit(rng) * 2 - 1) : NAN;
            double acc = 0;
            for (int k = 0; k < K; k++) acc += (double)opa(hA, lda, ta, i, k) * opb(hB, ldb, tb, k, j);
            ref[at] = alpha * acc + (beta != 0.0f ? (double)beta * hC[at] : 0.0);
        }
    char what[160];
    snprintf(what, sizeof what, "M=%d N=%d K=%d, %s%s, lda=%d ldb=%d ldc=%d, alpha=%g beta=%g", M, N, K,
             ta ? "A^T" : "A", tb ? " B^T" : " B", lda, ldb, ldc, (double)alpha, (double)beta);
    jd_gbuf A, B, C;
    A.id = B.id = C.id = -1;
    int rc = 0;
    if (gb(J, &A, na * 4, t) || gb(J, &B, nb * 4, t) || gb(J, &C, nc * 4, t) || put_in(&A, hA, na * 4, t) ||
        put_in(&B, hB, nb * 4, t) || put_in(&C, hC, nc * 4, t)) {
        rc = -1;
        goto out;
    }
    jd_rep rp;
    t->tests++;
    if (gemm_call(J, na ? &A : NULL, nb ? &B : NULL, &C, M, N, K, lda, ldb, ldc, alpha, beta,
                  (ta ? W14_TA : 0) | (tb ? W14_TB : 0), CUBLAS_DEFAULT_MATH, &rp, what, t)) {
        rc = -1;
        goto out;
    }
    if (ok(&rp, 1, "blas_gemm", what, t)) {
        int f = fetch(&C, nc * 4, got, "C", what, t);
        if (f < 0) rc = -1;
        else if (!f) cmp_f64(got, ref, nc, 4e-6 * K + 1e-6, 1e-5, "C", what, t);
    }
out:
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(hA), free(hB), free(hC), free(got), free(ref);
    return rc;
}

typedef struct { int M, N, K; } shape3;
static const shape3 GEMM_SHAPES[] = { { 1, 1, 1 },   { 1, 17, 33 },    { 33, 1, 65 }, { 31, 33, 35 },
                                      { 64, 64, 64 }, { 100, 257, 129 }, { 0, 5, 7 },  { 5, 0, 7 },
                                      { 257, 31, 1000 }, { 128, 96, 1 } };

/* The test's gemm_errors: refusals, nothing written, the math mode restored. */
static void gemm_errors(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "gemm_errors_fn", 0);
    const int n = 64;
    size_t bytes = (size_t)n * n * 4;
    float *hA = padded(&rng, n, n, n), *hB = padded(&rng, n, n, n), *got = xmalloc(bytes);
    jd_gbuf A, B, C;
    A.id = B.id = C.id = -1;
    jd_rep rp;
    char b[200];
    if (gb(J, &A, bytes, t) || gb(J, &B, bytes, t) || gb(J, &C, bytes, t) || put_in(&A, hA, bytes, t) ||
        put_in(&B, hB, bytes, t) || poison(&C, bytes, t))
        goto out;
    t->tests++;
    if (gemm_call(J, &A, &B, &C, n, n, n, n - 1, n, n, 1, 0, 0, CUBLAS_DEFAULT_MATH, &rp, "lda = K - 1", t)) goto out;
    if (rp.status != CUBLAS_STATUS_INVALID_VALUE)
        jd_failf(t, "lda = K - 1: blas_gemm returned %s, expected cuBLAS's CUBLAS_STATUS_INVALID_VALUE",
                 st_words(&rp, 1, b, sizeof b));
    if (gemm_call(J, &A, &B, &C, n, n, n, n, n, n - 1, 1, 0, 0, CUBLAS_DEFAULT_MATH, &rp, "ldc = N - 1", t)) goto out;
    if (rp.status != CUBLAS_STATUS_INVALID_VALUE)
        jd_failf(t, "ldc = N - 1: blas_gemm returned %s, expected CUBLAS_STATUS_INVALID_VALUE", st_words(&rp, 1, b, sizeof b));
    if (gemm_call(J, &A, &B, &C, n, n, n, n, n, n, 1, 0, W14_NULL_HANDLE, 0, &rp, "a null handle", t)) goto out;
    if (rp.status == 0) jd_failf(t, "a null handle: blas_gemm returned CUBLAS_STATUS_SUCCESS");
    else if (rp.status < 0) jd_failf(t, "a null handle: blas_gemm: the runner failed: %s", rp.text);
    {
        jd_gbuf *bs[3] = { &A, &B, &C };
        long long i64[8] = { 0, n, n, n, 1, 0, 0, 0 };
        double f64[4] = { 1.0 };
        if (call(J, W14_FN_STRIDED, 3, bs, i64, f64, &rp, "a null handle", t)) goto out;
        if (rp.status == 0) jd_failf(t, "a null handle: blas_gemm_strided returned CUBLAS_STATUS_SUCCESS");
        else if (rp.status < 0) jd_failf(t, "a null handle: blas_gemm_strided: the runner failed: %s", rp.text);
    }
    {
        int f = fetch(&C, bytes, got, "C", "failed calls", t);
        if (f < 0) goto out;
        if (!f)
            for (int i = 0; i < n * n; i++)
                if (!isnan(got[i])) {
                    jd_failf(t, "a failed blas_gemm wrote C[%d]", i);
                    break;
                }
    }
    /* the math mode: the caller's before, the caller's after */
    t->tests++;
    int pm, mm;
    if (gemm_call(J, &A, &B, &C, n, n, n, n, n, n, 1, 0, W14_MODE_TF32, CUBLAS_DEFAULT_MATH, &rp, "TF32, 64^3", t)) goto out;
    modes_after(&rp, &pm, &mm);
    if (ok(&rp, 1, "blas_gemm", "TF32, 64^3", t) && mm != CUBLAS_DEFAULT_MATH)
        jd_failf(t, "after blas_gemm(W14_TF32) the handle's math mode is %d, it was %d: set it back", mm,
                 (int)CUBLAS_DEFAULT_MATH);
    if (gemm_call(J, &A, &B, &C, n, n, n, n - 1, n, n, 1, 0, W14_MODE_TF32, CUBLAS_PEDANTIC_MATH, &rp,
                  "TF32, lda = K - 1", t))
        goto out;
    modes_after(&rp, &pm, &mm);
    if (rp.status == 0 || rp.status < 0 || mm != CUBLAS_PEDANTIC_MATH)
        jd_failf(t, "after a failed blas_gemm(W14_TF32) the math mode is %d, it was %d: restore it on failure too "
                    "(the call returned %s)", mm, (int)CUBLAS_PEDANTIC_MATH, st_words(&rp, 1, b, sizeof b));
out:
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(hA), free(hB), free(got);
}

static void judge_gemm(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(GEMM_SHAPES); i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "gemm_shapes_fn", i);
        for (int tt = 0; tt < 4; tt++)
            if (gemm_case(k->J, &rng, GEMM_SHAPES[i].M, GEMM_SHAPES[i].N, GEMM_SHAPES[i].K, tt & 1, tt >> 1, k->t) < 0)
                return;
    }
    if (!k->J->lost) gemm_errors(k->J, k->t);
}

/* ---------------------------------------------------------------- w14.batched */

static const struct { int M, N, K, batch; } BATCH_CASES[] = {
    { 1, 1, 1, 1 }, { 17, 33, 9, 7 }, { 64, 64, 64, 50 }, { 33, 65, 129, 3 }, { 5, 6, 7, 0 },
};

static void batch_ref(const float *A, const float *B, double *ref, int M, int N, int K, int batch, int b_shared)
{
    for (int b = 0; b < batch; b++) {
        const float *a = A + (size_t)b * M * K, *bb = B + (b_shared ? 0 : (size_t)b * K * N);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double acc = 0;
                for (int k = 0; k < K; k++) acc += (double)a[(size_t)i * K + k] * bb[(size_t)k * N + j];
                ref[(size_t)b * M * N + (size_t)i * N + j] = acc;
            }
    }
}

static int batched_case(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "batched_cases_fn", i);
    int M = BATCH_CASES[i].M, N = BATCH_CASES[i].N, K = BATCH_CASES[i].K, batch = BATCH_CASES[i].batch;
    size_t na = (size_t)batch * M * K, nb = (size_t)batch * K * N, nc = (size_t)batch * M * N;
    float *hA = xmalloc(na * 4 + 4), *hB = xmalloc(nb * 4 + 4), *got = xmalloc(nc * 4 + 4);
    double *ref = xmalloc(nc * 8 + 8);
    wb_fill_uniform_f32(&rng, hA, na, -1, 1);
    wb_fill_uniform_f32(&rng, hB, nb, -1, 1);
    double atol = 4e-6 * K + 1e-6;
    jd_gbuf A, B, C;
    A.id = B.id = C.id = -1;
    int rc = 0;
    if (gb(J, &A, na * 4, t) || gb(J, &B, nb * 4, t) || gb(J, &C, nc * 4, t) || put_in(&A, hA, na * 4, t) ||
        put_in(&B, hB, nb * 4, t)) {
        rc = -1;
        goto out;
    }
    for (int run = 0; run < 3; run++) {
        char what[160];
        const char *fn = run ? "blas_gemm_strided" : "blas_gemm_batched";
        snprintf(what, sizeof what, "%s%s, M=%d N=%d K=%d, batch %d", fn,
                 run == 2 ? " with stride_b = 0 (one B for all)" : "", M, N, K, batch);
        if (run < 2) batch_ref(hA, hB, ref, M, N, K, batch, 0);
        else batch_ref(hA, hB, ref, M, N, K, batch, 1);
        if (poison(&C, nc * 4, t)) { rc = -1; goto out; }
        jd_gbuf *b[3] = { na ? &A : NULL, nb ? &B : NULL, &C };
        long long i64[8] = { 0, M, N, K, batch, (long long)M * K, run == 2 ? 0 : (long long)K * N, (long long)M * N };
        jd_rep rp;
        t->tests++;
        if (call(J, run ? W14_FN_STRIDED : W14_FN_BATCHED, 3, b, i64, NULL, &rp, what, t)) { rc = -1; goto out; }
        if (!ok(&rp, 1, fn, what, t)) continue;
        int f = fetch(&C, nc * 4, got, "C", what, t);
        if (f < 0) { rc = -1; goto out; }
        if (!f) cmp_f64(got, ref, nc, atol, 1e-5, "C", what, t);
    }
out:
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(hA), free(hB), free(got), free(ref);
    return rc;
}

static void judge_batched(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(BATCH_CASES) && !k->J->lost; i++)
        if (batched_case(k->J, i, k->t) < 0) return;
}

/* ---------------------------------------------------------------- w14.mathmodes */

static double bound_fp32(int K) { return 4.0 * sqrt((double)K) * ldexp(1, -24); }
static double bound_tf32(int K) { return ldexp(1, -9) + K * ldexp(1, -23); }

static void judge_mathmodes(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    const int M = 512, N = 512, K = 1024;
    wb_rng rng = wb_rng_for_seed(jd_seed, "mathmodes_fn", 0);
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *hA = xmalloc(na * 4), *hB = xmalloc(nb * 4), *got = xmalloc(nc * 4);
    double *ref = xmalloc(nc * 8), *mag = xmalloc(nc * 8);
    wb_fill_uniform_f32(&rng, hA, na, -1, 1);
    wb_fill_uniform_f32(&rng, hB, nb, -1, 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0, m = 0;
            for (int kk = 0; kk < K; kk++) {
                double a = hA[(size_t)i * K + kk], b = hB[(size_t)kk * N + j];
                acc += a * b, m += fabs(a * b);
            }
            ref[(size_t)i * N + j] = acc, mag[(size_t)i * N + j] = m;
        }
    jd_gbuf A, B, C;
    A.id = B.id = C.id = -1;
    double err[2] = { INFINITY, INFINITY };
    int ran = 0;
    if (gb(J, &A, na * 4, t) || gb(J, &B, nb * 4, t) || gb(J, &C, nc * 4, t) || put_in(&A, hA, na * 4, t) ||
        put_in(&B, hB, nb * 4, t))
        goto out;
    t->tests++;
    for (int mode = 0; mode < 2; mode++) {
        const char *name = mode == W14_TF32 ? "W14_TF32" : "W14_FP32";
        jd_rep rp;
        int pm, mm;
        if (poison(&C, nc * 4, t)) goto out;
        if (gemm_call(J, &A, &B, &C, M, N, K, K, N, N, 1, 0, mode ? W14_MODE_TF32 : 0, CUBLAS_DEFAULT_MATH, &rp, name, t))
            goto out;
        if (!ok(&rp, 1, "blas_gemm", name, t)) continue;
        modes_after(&rp, &pm, &mm);
        if (mm != CUBLAS_DEFAULT_MATH)
            jd_failf(t, "after blas_gemm(%s) the math mode is %d, it was CUBLAS_DEFAULT_MATH", name, mm);
        if (fetch(&C, nc * 4, got, "C", name, t)) continue;
        err[mode] = 0;
        for (size_t i = 0; i < nc; i++) {
            double e = fabs(got[i] - ref[i]) / mag[i];
            if (!(e <= err[mode])) err[mode] = isnan(e) ? INFINITY : e; /* NaN: an element never written */
        }
        ran++;
    }
    printf("  %dx%dx%d: max |C - ref| / sum|a||b|: FP32 %.2e (bound %.1e), TF32 %.2e (bound %.1e)\n", M, N, K, err[0],
           bound_fp32(K), err[1], bound_tf32(K));
    if (ran == 2) {
        if (!(err[0] <= bound_fp32(K)))
            jd_failf(t, "W14_FP32: error %.3e is past the FP32 bound %.3e (is it TF32 after all?)", err[0], bound_fp32(K));
        if (!(err[1] <= bound_tf32(K))) jd_failf(t, "W14_TF32: error %.3e is past the TF32 bound %.3e", err[1], bound_tf32(K));
    }
out:
    jd_gbuf_free(J, &A), jd_gbuf_free(J, &B), jd_gbuf_free(J, &C);
    free(hA), free(hB), free(got), free(ref), free(mag);
}

/* ---------------------------------------------------------------- w14.cubdev */

static const int SIZES2[] = { 0, 1, 31, 255, 257, 1025, 4097, 65537, 1000003, (1 << 24) + 3 };

/* A CUB call (query then call, W14_WS_*): 0 with the reply, or -1 (lost).
 * *asked: the query's answer (all ones: not written). */
static int cub_call(jd *J, int fn, int nargs, jd_gbuf *const *b, int n, int end_bit, int ws, jd_rep *rp,
                    unsigned long long *asked, const char *what, jd_tally *t)
{
    long long i64[8] = { 0, n, end_bit, ws };
    if (call(J, fn, nargs, b, i64, NULL, rp, what, t)) return -1;
    *asked = ~0ull;
    if (rp->out_len >= sizeof *asked) memcpy(asked, rp->out, sizeof *asked);
    return 0;
}

/* The query answered and the call succeeded: 1, else 0 with the failure told. */
static int cub_ok(const jd_rep *rp, unsigned long long asked, const char *fn, const char *what, jd_tally *t)
{
    if (!ok(rp, 0, fn, what, t)) return 0;
    if (asked == ~0ull) return jd_failf(t, "%s(NULL, &bytes, ...) did not write the workspace size", fn), 0;
    return 1;
}

static int cub_sizes_case(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "cub_sizes_fn", i);
    int n = SIZES2[i], end_bit = (int[]){ 32, 16, 8, 1, 24, 31, 12 }[i % 7];
    size_t nn = (size_t)n, bytes = nn * 4;
    float *hx = xmalloc(bytes + 4), *hs = xmalloc(bytes + 4), *got = xmalloc(bytes + 4);
    for (size_t k = 0; k < nn; k++) hx[k] = (float)wb_rng_int(&rng, -4, 4);
    double acc = 0;
    for (size_t k = 0; k < nn; k++) acc += hx[k], hs[k] = (float)acc;
    uint32_t *hk = xmalloc(bytes + 4), *hv = xmalloc(bytes + 4), *rk = xmalloc(bytes + 4), *rv = xmalloc(bytes + 4);
    uint32_t mask = end_bit == 32 ? 0xffffffffu : (1u << end_bit) - 1;
    for (size_t k = 0; k < nn; k++) hk[k] = (uint32_t)wb_rng_u64(&rng) & mask, hv[k] = (uint32_t)wb_rng_u64(&rng);
    cpu_sort_pairs(hk, hv, nn, rk, rv);
    jd_gbuf x, s, y, ki, ko, vi, vo;
    x.id = s.id = y.id = ki.id = ko.id = vi.id = vo.id = -1;
    int rc = -1;
    jd_rep rp;
    unsigned long long q;
    char what[96];
    if (gb(J, &x, bytes, t) || gb(J, &s, 4, t) || gb(J, &y, bytes, t) || gb(J, &ki, bytes, t) || gb(J, &ko, bytes, t) ||
        gb(J, &vi, bytes, t) || gb(J, &vo, bytes, t) || put_in(&x, hx, bytes, t) || poison(&s, 4, t) ||
        poison(&y, bytes, t) || put_in(&ki, hk, bytes, t) || put_in(&vi, hv, bytes, t) || poison(&ko, bytes, t) ||
        poison(&vo, bytes, t))
        goto out;
    /* the sum */
    snprintf(what, sizeof what, "cubdev_sum, n=%d, integer data", n);
    t->tests++;
    jd_gbuf *bs[2] = { n ? &x : NULL, &s };
    if (cub_call(J, W14_FN_CUB_SUM, 2, bs, n, 0, W14_WS_QUERY, &rp, &q, what, t)) goto out;
    if (cub_ok(&rp, q, "cubdev_sum", what, t)) {
        float g;
        int f = fetch(&s, 4, &g, "sum", what, t);
        if (f < 0) goto out;
        if (!f && g != (float)acc) jd_failf(t, "%s: %.1f, expected %.1f", what, (double)g, acc);
    }
    /* the scan */
    snprintf(what, sizeof what, "cubdev_scan, n=%d, integer data", n);
    t->tests++;
    jd_gbuf *bc[2] = { n ? &x : NULL, &y };
    if (cub_call(J, W14_FN_CUB_SCAN, 2, bc, n, 0, W14_WS_QUERY, &rp, &q, what, t)) goto out;
    if (cub_ok(&rp, q, "cubdev_scan", what, t)) {
        int f = fetch(&y, bytes, got, "y", what, t);
        if (f < 0) goto out;
        if (!f) cmp_f32(got, hs, nn, "y", what, t);
    }
    /* the sort */
    snprintf(what, sizeof what, "cubdev_sort_pairs, n=%d, end_bit %d", n, end_bit);
    t->tests++;
    jd_gbuf *bo[4] = { n ? &ki : NULL, &ko, n ? &vi : NULL, &vo };
    if (cub_call(J, W14_FN_CUB_SORT, 4, bo, n, end_bit, W14_WS_QUERY, &rp, &q, what, t)) goto out;
    if (cub_ok(&rp, q, "cubdev_sort_pairs", what, t)) {
        uint32_t *g = (uint32_t *)got;
        int f = fetch(&ko, bytes, g, "keys_out", what, t);
        if (f < 0) goto out;
        if (!f && !cmp_u32(g, rk, nn, "keys_out", what, t)) {
            if ((f = fetch(&vo, bytes, g, "vals_out", what, t)) < 0) goto out;
            if (!f) cmp_u32(g, rv, nn, "vals_out", what, t);
        }
        if ((f = fetch(&ki, bytes, g, "keys_in", what, t)) < 0) goto out;
        if (!f && n && memcmp(g, hk, bytes) != 0) jd_failf(t, "%s: the input keys changed", what);
    }
    rc = 0;
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &s), jd_gbuf_free(J, &y), jd_gbuf_free(J, &ki), jd_gbuf_free(J, &ko);
    jd_gbuf_free(J, &vi), jd_gbuf_free(J, &vo);
    free(hx), free(hs), free(got), free(hk), free(hv), free(rk), free(rv);
    return rc;
}

static int cub_float_case(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "cub_float_nan_inf_fn", i);
    int n = (int)wb_rng_int(&rng, 100, 3000000);
    size_t bytes = (size_t)n * 4;
    float *hx = xmalloc(bytes), *got = xmalloc(bytes);
    double *ref = xmalloc((size_t)n * 8);
    wb_fill_uniform_f32(&rng, hx, (size_t)n, 0, 1);
    if (i == 1) hx[n / 3] = NAN;
    if (i == 2) hx[n / 2] = INFINITY;
    double acc = 0;
    for (int k = 0; k < n; k++) acc += hx[k], ref[k] = acc;
    char what[80];
    snprintf(what, sizeof what, "n=%d%s", n, i == 1 ? ", a NaN" : i == 2 ? ", an Inf" : ", floats in [0, 1)");
    jd_gbuf x, s, y;
    x.id = s.id = y.id = -1;
    int rc = -1;
    jd_rep rp;
    unsigned long long q;
    if (gb(J, &x, bytes, t) || gb(J, &s, 4, t) || gb(J, &y, bytes, t) || put_in(&x, hx, bytes, t) || poison(&s, 4, t) ||
        poison(&y, bytes, t))
        goto out;
    t->tests++;
    jd_gbuf *bs[2] = { &x, &s }, *bc[2] = { &x, &y };
    if (cub_call(J, W14_FN_CUB_SUM, 2, bs, n, 0, W14_WS_QUERY, &rp, &q, what, t)) goto out;
    if (cub_ok(&rp, q, "cubdev_sum", what, t)) {
        int f = fetch(&s, 4, got, "sum", what, t);
        if (f < 0) goto out;
        if (!f) cmp_f64(got, &acc, 1, 1e-5 * n, 0, "sum", what, t);
    }
    if (cub_call(J, W14_FN_CUB_SCAN, 2, bc, n, 0, W14_WS_QUERY, &rp, &q, what, t)) goto out;
    if (cub_ok(&rp, q, "cubdev_scan", what, t)) {
        int f = fetch(&y, bytes, got, "y", what, t);
        if (f < 0) goto out;
        if (!f) cmp_f64(got, ref, (size_t)n, 1e-3, 2e-5, "y", what, t);
    }
    rc = 0;
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &s), jd_gbuf_free(J, &y);
    free(hx), free(got), free(ref);
    return rc;
}

/* A 1-byte workspace: refused by all three, nothing written. */
static void cub_small(jd *J, jd_tally *t)
{
    const int n = 1 << 20;
    size_t bytes = (size_t)n * 4;
    wb_rng rng = wb_rng_for_seed(jd_seed, "cub_small_workspace_fn", 0);
    float *hx = xmalloc(bytes);
    uint32_t *hk = xmalloc(bytes);
    unsigned char *got = xmalloc(2 * bytes);
    wb_fill_uniform_f32(&rng, hx, (size_t)n, 0, 1);
    for (int i = 0; i < n; i++) hk[i] = (uint32_t)wb_rng_u64(&rng);
    jd_gbuf x, k, o;
    x.id = k.id = o.id = -1;
    if (gb(J, &x, bytes, t) || gb(J, &k, bytes, t) || gb(J, &o, 2 * bytes, t) || put_in(&x, hx, bytes, t) ||
        put_in(&k, hk, bytes, t) || poison(&o, 2 * bytes, t))
        goto out;
    const char *names[3] = { "cubdev_sum", "cubdev_scan", "cubdev_sort_pairs" };
    const int fns[3] = { W14_FN_CUB_SUM, W14_FN_CUB_SCAN, W14_FN_CUB_SORT };
    t->tests++;
    for (int f = 0; f < 3; f++) {
        jd_rep rp;
        unsigned long long q;
        char what[80];
        snprintf(what, sizeof what, "%s with a 1-byte workspace, n=2^20", names[f]);
        jd_gbuf *b[4] = { f < 2 ? &x : &k, &o, &k, &o };
        jd_req rq;
        jd_call_setup(&rq, fns[f], 1, f < 2 ? 2 : 4);
        for (int a = 0; a < rq.nargs; a++) jd_gbuf_arg(&rq, a, b[a], 0);
        if (f == 2) rq.arg_off[0][3] += bytes; /* vals_out: the second half of the output */
        rq.i64[1] = n, rq.i64[2] = 32, rq.i64[3] = W14_WS_SMALL;
        if (jd_call(J, &rq, &rp, NULL) != 0) { jd_failf(t, "%s: %s", what, J->why); goto out; }
        q = ~0ull;
        if (rp.out_len >= sizeof q) memcpy(&q, rp.out, sizeof q);
        if (rp.status < 0) jd_failf(t, "%s: the runner failed: %s", what, rp.text);
        else if (q == ~0ull) jd_failf(t, "%s(NULL, &bytes, ...) did not write the workspace size", names[f]);
        else if (q <= 1) jd_failf(t, "%s: a workspace of %llu bytes for n = 2^20? (expected more than 1)", names[f], q);
        else if (rp.status == 0)
            jd_failf(t, "%s with a 1-byte workspace (it needs %llu) returned cudaSuccess: return CUB's error", names[f], q);
    }
    if (fetch(&o, 2 * bytes, got, "out", "calls refused for a small workspace", t) == 0) {
        size_t written = wb_count_not_byte(got, 2 * bytes, 0xff);
        if (written) jd_failf(t, "a call refused for a small workspace still wrote %zu bytes of its output", written);
    }
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &k), jd_gbuf_free(J, &o);
    free(hx), free(hk), free(got);
}

static void judge_cubdev(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(SIZES2) && !k->J->lost; i++)
        if (cub_sizes_case(k->J, i, k->t) < 0) return;
    for (int i = 0; i < 3 && !k->J->lost; i++)
        if (cub_float_case(k->J, i, k->t) < 0) return;
    if (!k->J->lost) cub_small(k->J, k->t);
}

/* ---------------------------------------------------------------- w14.blockwarp */

static void cpu_rows(const float *x, int rows, int cols, uint32_t *idx, float *amax)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        int best = 0;
        float m = 0;
        for (int j = 0; j < cols; j++) {
            float v = xr[j], b = xr[best];
            if (!isnan(b) && (isnan(v) || v > b)) best = j;
            float a = fabsf(v);
            if (isnan(a) || a > m || isnan(m)) m = isnan(m) ? m : a;
        }
        idx[r] = (uint32_t)best, amax[r] = m;
    }
}

static int check_rows(jd *J, const float *hx, int rows, int cols, const char *shape, jd_tally *t)
{
    size_t n = (size_t)rows * cols, rb = (size_t)rows * 4;
    uint32_t *ri = xmalloc(rb + 4), *gi = xmalloc(rb + 4);
    float *ra = xmalloc(rb + 4), *ga = xmalloc(rb + 4);
    cpu_rows(hx, rows, cols, ri, ra);
    jd_gbuf x, oi, oa;
    x.id = oi.id = oa.id = -1;
    int rc = -1;
    char w[160];
    jd_rep rp;
    if (gb(J, &x, n * 4, t) || gb(J, &oi, rb, t) || gb(J, &oa, rb, t) || put_in(&x, hx, n * 4, t) || poison(&oi, rb, t) ||
        poison(&oa, rb, t))
        goto out;
    long long i64[8] = { 0, rows, cols };
    snprintf(w, sizeof w, "cubblock_row_argmax, %s", shape);
    t->tests++;
    jd_gbuf *bi[2] = { n ? &x : NULL, &oi }, *ba[2] = { n ? &x : NULL, &oa };
    if (call(J, W14_FN_ARGMAX, 2, bi, i64, NULL, &rp, w, t)) goto out;
    if (ok(&rp, 0, "cubblock_row_argmax", w, t)) {
        int f = fetch(&oi, rb, gi, "idx", w, t);
        if (f < 0) goto out;
        if (!f) cmp_u32(gi, ri, (size_t)rows, "idx", w, t);
    }
    snprintf(w, sizeof w, "cubblock_row_amax, %s", shape);
    t->tests++;
    if (call(J, W14_FN_AMAX, 2, ba, i64, NULL, &rp, w, t)) goto out;
    if (ok(&rp, 0, "cubblock_row_amax", w, t)) {
        int f = fetch(&oa, rb, ga, "amax", w, t);
        if (f < 0) goto out;
        if (!f) cmp_f32(ga, ra, (size_t)rows, "amax", w, t);
    }
    rc = 0;
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &oi), jd_gbuf_free(J, &oa);
    free(ri), free(gi), free(ra), free(ga);
    return rc;
}

static const struct { int rows, cols; } ROW_SHAPES[] = {
    { 1, 1 }, { 3, 7 }, { 5, 255 }, { 7, 256 }, { 9, 257 }, { 100, 1000 }, { 1000, 33 }, { 17, 70001 }, { 20001, 64 }, { 0, 5 },
};

static int rows_shape(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "rows_shapes_fn", i);
    int rows = ROW_SHAPES[i].rows, cols = ROW_SHAPES[i].cols;
    size_t n = (size_t)rows * cols;
    float *hx = xmalloc(n * 4 + 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    for (int r = 0; r < rows; r += 3) {
        float *row = hx + (size_t)r * cols;
        int best = 0;
        for (int j = 1; j < cols; j++) best = row[j] > row[best] ? j : best;
        row[(size_t)wb_rng_int(&rng, best, cols - 1)] = row[best];
    }
    char what[64];
    snprintf(what, sizeof what, "%d x %d", rows, cols);
    int rc = check_rows(J, hx, rows, cols, what, t);
    free(hx);
    return rc;
}

static int rows_special(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "rows_special_fn", 0);
    const int rows = 8, cols = 513;
    float *hx = xmalloc((size_t)rows * cols * 4);
    wb_fill_uniform_f32(&rng, hx, (size_t)rows * cols, -1, 1);
    float *r0 = hx, *r1 = hx + cols, *r2 = hx + 2 * cols, *r3 = hx + 3 * cols, *r4 = hx + 4 * cols,
          *r5 = hx + 5 * cols, *r6 = hx + 6 * cols, *r7 = hx + 7 * cols;
    for (int j = 0; j < cols; j++) r0[j] = 0.5f, r1[j] = -INFINITY, r6[j] = (j & 1) ? -0.0f : 0.0f;
    r2[300] = NAN, r2[5] = NAN, r2[9] = INFINITY;
    r3[3] = INFINITY, r3[400] = -INFINITY;
    r4[cols - 1] = 2.0f;
    r5[10] = 3.0f, r5[300] = 3.0f, r5[511] = -7.0f;
    r7[256] = -INFINITY;
    int rc = check_rows(J, hx, rows, cols, "ties, NaN, Inf, signed zeros", t);
    free(hx);
    return rc;
}

static void rows_errors(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "rows_errors_fn", 0);
    float hx[64];
    unsigned char got[64];
    wb_fill_uniform_f32(&rng, hx, 64, -1, 1);
    jd_gbuf x, oi, oa;
    x.id = oi.id = oa.id = -1;
    if (gb(J, &x, sizeof hx, t) || gb(J, &oi, 64, t) || gb(J, &oa, 64, t) || put_in(&x, hx, sizeof hx, t) ||
        poison(&oi, 64, t) || poison(&oa, 64, t))
        goto out;
    const struct { int rows, cols; } BAD[] = { { 4, 0 }, { -1, 16 }, { 4, -3 } };
    t->tests++;
    for (size_t k = 0; k < COUNT(BAD); k++) {
        jd_rep r1, r2;
        char what[64];
        snprintf(what, sizeof what, "rows=%d cols=%d", BAD[k].rows, BAD[k].cols);
        long long i64[8] = { 0, BAD[k].rows, BAD[k].cols };
        jd_gbuf *bi[2] = { &x, &oi }, *ba[2] = { &x, &oa };
        if (call(J, W14_FN_ARGMAX, 2, bi, i64, NULL, &r1, what, t) || call(J, W14_FN_AMAX, 2, ba, i64, NULL, &r2, what, t))
            goto out;
        if (r1.status != cudaErrorInvalidValue || r2.status != cudaErrorInvalidValue) {
            char b1[200], b2[200];
            jd_failf(t, "%s: cubblock_row_argmax returned %s, cubblock_row_amax %s; expected cudaErrorInvalidValue", what,
                     st_words(&r1, 0, b1, sizeof b1), st_words(&r2, 0, b2, sizeof b2));
        }
    }
    if (fetch(&oi, 64, got, "idx", "refused shapes", t) == 0 && wb_count_not_byte(got, 64, 0xff))
        jd_failf(t, "cubblock_row_argmax wrote output for a refused shape");
    if (fetch(&oa, 64, got, "amax", "refused shapes", t) == 0 && wb_count_not_byte(got, 64, 0xff))
        jd_failf(t, "cubblock_row_amax wrote output for a refused shape");
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &oi), jd_gbuf_free(J, &oa);
}

static void judge_blockwarp(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(ROW_SHAPES) && !k->J->lost; i++)
        if (rows_shape(k->J, i, k->t) < 0) return;
    if (!k->J->lost && rows_special(k->J, k->t) < 0) return;
    if (!k->J->lost) rows_errors(k->J, k->t);
}

/* ---------------------------------------------------------------- w14.thrust */

static const size_t SIZES3[] = { 0, 1, 1000, 65537, 1000003, 1 << 24 };

/* thr_sort_by_key of n pairs (keys, vals) in place, both checked against
 * the CPU's stable sort. 0, or -1 (lost, or the judge's copies failed). */
static int sort_check(jd *J, const uint32_t *hk, const uint32_t *hv, size_t n, const char *what, jd_tally *t)
{
    size_t bytes = n * 4;
    uint32_t *rk = xmalloc(bytes + 4), *rv = xmalloc(bytes + 4), *g = xmalloc(bytes + 4);
    cpu_sort_pairs(hk, hv, n, rk, rv);
    jd_gbuf k, v;
    k.id = v.id = -1;
    int rc = -1;
    jd_rep rp;
    if (gb(J, &k, bytes, t) || gb(J, &v, bytes, t) || put_in(&k, hk, bytes, t) || put_in(&v, hv, bytes, t)) goto out;
    t->tests++;
    jd_gbuf *b[2] = { &k, &v };
    long long i64[8] = { 0, (long long)n };
    if (call(J, W14_FN_SORT_BY_KEY, 2, b, i64, NULL, &rp, what, t)) goto out;
    if (ok(&rp, 0, "thr_sort_by_key", what, t)) {
        int f = fetch(&k, bytes, g, "keys", what, t);
        if (f < 0) goto out;
        if (!f && !cmp_u32(g, rk, n, "keys", what, t)) {
            if ((f = fetch(&v, bytes, g, "vals", what, t)) < 0) goto out;
            if (!f) cmp_u32(g, rv, n, "vals", what, t);
        }
    }
    rc = 0;
out:
    jd_gbuf_free(J, &k), jd_gbuf_free(J, &v);
    free(rk), free(rv), free(g);
    return rc;
}

static int thrust_case(jd *J, int i, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "thrust_sizes_fn", i);
    size_t n = SIZES3[i], bytes = n * 4;
    float *hx = xmalloc(bytes + 4), *hy = xmalloc(bytes + 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, n, -1, 1);
    double ref = 0, comp = 0; /* compensated (Neumaier), as the test's */
    for (size_t k = 0; k < n; k++) {
        double d = (double)hx[k] - hy[k], tt = d * d, s = ref + tt;
        comp += fabs(ref) >= tt ? (ref - s) + tt : (tt - s) + ref;
        ref = s;
    }
    ref += comp;
    uint32_t *hk = xmalloc(bytes + 4), *hv = xmalloc(bytes + 4);
    for (size_t k = 0; k < n; k++) hk[k] = (uint32_t)(wb_rng_u64(&rng) % (n / 4 + 1)) * 2654435761u, hv[k] = (uint32_t)k;
    jd_gbuf x, y;
    x.id = y.id = -1;
    int rc = -1;
    char what[64];
    snprintf(what, sizeof what, "thr_sqdist, n=%zu", n);
    if (gb(J, &x, bytes, t) || gb(J, &y, bytes, t) || put_in(&x, hx, bytes, t) || put_in(&y, hy, bytes, t)) goto out;
    jd_rep rp;
    t->tests++;
    jd_gbuf *b[2] = { n ? &x : NULL, n ? &y : NULL };
    long long i64[8] = { 0, (long long)n };
    if (call(J, W14_FN_SQDIST, 2, b, i64, NULL, &rp, what, t)) goto out;
    if (ok(&rp, 0, "thr_sqdist", what, t)) {
        double got = NAN;
        if (rp.out_len >= sizeof got) memcpy(&got, rp.out, sizeof got);
        if (!wb_close(got, ref, 1e-12 * ref + 1e-300, 0)) jd_failf(t, "%s: %.17g, expected %.17g", what, got, ref);
    }
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &y);
    snprintf(what, sizeof what, "thr_sort_by_key, n=%zu", n);
    rc = sort_check(J, hk, hv, n, what, t);
out:
    jd_gbuf_free(J, &x), jd_gbuf_free(J, &y);
    free(hx), free(hy), free(hk), free(hv);
    return rc;
}

/* The device's memory taken (by the runner, in its process): the sort
 * returns an error, and works again once memory is back. */
static void thrust_oom(jd *J, jd_tally *t)
{
    size_t n = (size_t)W14_OOM_N, bytes = n * 4;
    uint32_t *h = xmalloc(bytes);
    wb_rng rng = wb_rng_for_seed(jd_seed, "thrust_out_of_memory_fn", 0);
    for (size_t i = 0; i < n; i++) h[i] = (uint32_t)wb_rng_u64(&rng);
    jd_gbuf k, v;
    k.id = v.id = -1;
    const char *what = "thr_sort_by_key with the device's memory taken";
    if (gb(J, &k, bytes, t) || gb(J, &v, bytes, t) || put_in(&k, h, bytes, t) || put_in(&v, h, bytes, t)) goto out;
    jd_rep rp;
    t->tests++;
    jd_gbuf *b[2] = { &k, &v };
    long long i64[8] = { 0 };
    if (call(J, W14_FN_THRUST_OOM, 2, b, i64, NULL, &rp, what, t)) goto out;
    if (!ok(&rp, 0, "thr_sort_by_key (1M pairs, before memory was taken)", what, t)) goto out;
    int big = 0;
    unsigned long long free_b = 0;
    if (rp.out_len >= 16) memcpy(&big, rp.out, sizeof big), memcpy(&free_b, rp.out + 8, sizeof free_b);
    else big = 0;
    printf("  thrust_out_of_memory: %.1f MB left free; thr_sort_by_key returned %s\n", free_b / 1e6,
           cudaGetErrorName((cudaError_t)big));
    if (big == 0)
        jd_failf(t, "thr_sort_by_key with %.1f MB of device memory free (it needs about %zu MB) returned cudaSuccess",
                 free_b / 1e6, (n * 8) >> 20);
    jd_gbuf_free(J, &k), jd_gbuf_free(J, &v);
    /* memory is back: a small sort works */
    uint32_t hk[1000], hv[1000];
    for (int i = 0; i < 1000; i++) hk[i] = (uint32_t)wb_rng_int(&rng, 0, 50), hv[i] = (uint32_t)i;
    sort_check(J, hk, hv, 1000, "after the out-of-memory failure, n=1000", t);
out:
    jd_gbuf_free(J, &k), jd_gbuf_free(J, &v);
    free(h);
}

static void judge_thrust(jd_ck *k)
{
    for (int i = 0; i < (int)COUNT(SIZES3) && !k->J->lost; i++)
        if (thrust_case(k->J, i, k->t) < 0) return;
    if (!k->J->lost) thrust_oom(k->J, k->t);
}

/* ---------------------------------------------------------------- the speed checkpoints */

#define TIMED_TF32    5 /* requests timed, the median kept: judge_gemm.c's for a call of 4096^3 */
#define TIMED_STRIDED 7
#define TF32_ATOL     0.25 /* the test's spot check in TF32 mode (typical error 1e-2 at K = 4096, a wrong product 20) */
#define STRIDED_ATOL  1e-3 /* the test's spot check of the strided runs */

/* w14.tf32-speed: judge_gemm.c's 4096^3 set-up (inputs in [-1, 1) from
 * each call's hidden seed, the look's elements in double, every element of
 * every timed C against cublasDgemm), within the test's TF32 tolerance. */
static void tf32_setup(jd_bench *x, int fn, const char *fn_name)
{
    jg_bench_setup(x, fn, fn_name, JD_BENCH_MAX_K);
    x->atol = TF32_ATOL, x->rtol = 0;
}

/* w14.strided-speed: element i of a rep's C (batch of n x n products) in
 * double from the inputs' seeds (the look's). */
static float strided_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    size_t n = (size_t)b->i64[1], nn = n * n, base = i / nn * nn, row = i % nn / n, col = i % n;
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += (double)wb_hash_uniform_f32(seed[0], base + row * n + k, b->lo, b->hi) *
             (double)wb_hash_uniform_f32(seed[1], base + k * n + col, b->lo, b->hi);
    return (float)s;
}

/* The judge's own reference of a timed strided output: A and B filled
 * again in double from their seeds, cublasDgemmStridedBatched on them (a
 * handle of the judge's on jd_stream), every element compared. */
static cublasHandle_t g_dh;
static double *g_da, *g_db, *g_dc;

static int strided_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                         unsigned long long h[2])
{
    int n = (int)b->i64[1], batch = (int)b->i64[2];
    size_t all = b->n;
    long long nn = (long long)n * n;
    if (!g_dh) {
        if (cudaMalloc((void **)&g_da, all * 8) != cudaSuccess || cudaMalloc((void **)&g_db, all * 8) != cudaSuccess ||
            cudaMalloc((void **)&g_dc, all * 8) != cudaSuccess || cublasCreate(&g_dh) != CUBLAS_STATUS_SUCCESS ||
            cublasSetStream(g_dh, jd_stream) != CUBLAS_STATUS_SUCCESS)
            return g_dh = NULL, -1;
    }
    const double one = 1, zero = 0;
    if (jd_hash_fill_f64(g_da, all, seed[0], b->lo, b->hi, jd_stream) != cudaSuccess ||
        jd_hash_fill_f64(g_db, all, seed[1], b->lo, b->hi, jd_stream) != cudaSuccess ||
        cublasDgemmStridedBatched(g_dh, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, g_db, n, nn, g_da, n, nn, &zero, g_dc, n,
                                  nn, batch) != CUBLAS_STATUS_SUCCESS)
        return -1;
    return jd_full_check_done(jd_prefix_check_f32(out, g_dc, all, b->atol, b->rtol, bad, jd_stream), bad, h);
}

static void strided_setup(jd_bench *x, int fn, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 2, x->max_k = JD_BENCH_MAX_K;
    x->n = (size_t)W14_BATCH_COUNT * W14_BATCH_N * W14_BATCH_N;
    x->lo = -1, x->hi = 1, x->atol = STRIDED_ATOL, x->rtol = 0;
    x->i64[1] = W14_BATCH_N, x->i64[2] = W14_BATCH_COUNT;
    x->fn_name = fn_name, x->out_name = "C";
    x->expect = strided_expect, x->full_check = strided_check;
}

/* The two timed checkpoints and their yardsticks (the yard runner's). */
static const struct {
    int         fn, yard_fn, timed;
    const char *fn_name, *yard_fn_name, *yard, *yard_words, *shape;
    void (*setup)(jd_bench *x, int fn, const char *fn_name);
    double flops;
} SPEED[] = {
    { W14_FN_GEMM_TF32, W14_YARD_TF32, TIMED_TF32, "blas_gemm (W14_TF32)", "cublasSgemm (TF32 tensor ops)", "cuBLAS",
      "cuBLAS in TF32 mode", "4096^3", tf32_setup, 2.0 * 4096 * 4096 * 4096 },
    { W14_FN_STRIDED_TIMED, W14_YARD_LOOP, TIMED_STRIDED, "blas_gemm_strided", "a loop of cublasSgemm", "LOOP",
      "a loop of 4096 cublasSgemm calls", "4096 x 64^3", strided_setup,
      2.0 * W14_BATCH_N * W14_BATCH_N * W14_BATCH_N * W14_BATCH_COUNT },
};

static jd_bench g_yard; /* large: its sample arrays */
static double   g_before_ms[2] = { NAN, NAN }; /* each yardstick before the student's runner started */
static char     g_before_why[2][600];

static void yard_before(int y)
{
    SPEED[y].setup(&g_yard, SPEED[y].yard_fn, SPEED[y].yard_fn_name);
    if (jd_yard_bench(W14_YARD_RUNNER, &g_yard, SPEED[y].timed, &g_before_ms[y], g_before_why[y],
                      sizeof g_before_why[y]) != 0)
        g_before_ms[y] = NAN;
}

static void before_tf32(void) { yard_before(0); }
static void before_strided(void) { yard_before(1); }

static void speed(jd_ck *k, int y)
{
    static jd_bench x; /* large: its sample arrays */
    double ms = NAN, value = NAN, yard = NAN;
    char why[600] = "", ywhy[600] = "", detail[240] = "";
    SPEED[y].setup(&x, SPEED[y].fn, SPEED[y].fn_name);
    if (jd_bench_run(k->J, &x, SPEED[y].timed, &ms, why, sizeof why) == 0) {
        double after = NAN;
        SPEED[y].setup(&g_yard, SPEED[y].yard_fn, SPEED[y].yard_fn_name);
        double yms = jd_yard_faster(W14_YARD_RUNNER, &g_yard, SPEED[y].timed, g_before_ms[y], g_before_why[y], &after,
                                    ywhy, sizeof ywhy);
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "no figure for %s: %s", SPEED[y].yard_words, ywhy);
        } else {
            value = SPEED[y].flops / (ms * 1e-3) / 1e12, yard = SPEED[y].flops / (yms * 1e-3) / 1e12;
            snprintf(detail, sizeof detail, "%.3g TFLOP/s vs %s %.3g at %s (judge's clock, %d calls a request, median of %d)",
                     value, SPEED[y].yard_words, yard, SPEED[y].shape, x.k, SPEED[y].timed);
            printf("  %s: %.3f ms a call by the judge's clock (%.3f by the runner's own); %s %.3f (before the runner "
                   "%.3f, after %.3f): %.3f of it\n",
                   SPEED[y].fn_name, ms, x.runner_ms, SPEED[y].yard_words, yms, g_before_ms[y], after, value / yard);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", SPEED[y].yard, yard, detail, why);
}

static void judge_tf32_speed(jd_ck *k) { speed(k, 0); }
static void judge_strided_speed(jd_ck *k) { speed(k, 1); }

/* ---------------------------------------------------------------- w14.sort-speed */

#define TIMED_SORT   7  /* requests timed, the median kept */
#define SORT_ALLBITS 32 /* the yardstick's end_bit, and the judge's reference's */
#define SORT_END_BIT 16 /* the student's, as the test's */

/* The judge's reference of the look: the rep's inputs made again from
 * their seeds in buffers of the judge's, CUB's SortPairs over all 32 bits
 * (stable: the one right answer), the look's positions gathered. Made once
 * for each rep's seeds and look, freed after each timed run (not held
 * while another runner works). */
static struct {
    unsigned           *ki, *vi, *ko, *vo, *got_d, got_h[JD_SAMPLES];
    void               *tmp;
    size_t              tmp_bytes, n;
    unsigned long long *idx_d, seed[2];
    uint64_t            pick;
    int                 ok;
} g_sr;

static void sort_ref_free(void)
{
    cudaFree(g_sr.ki), cudaFree(g_sr.vi), cudaFree(g_sr.ko), cudaFree(g_sr.vo), cudaFree(g_sr.got_d);
    cudaFree(g_sr.tmp), cudaFree(g_sr.idx_d);
    memset(&g_sr, 0, sizeof g_sr);
}

static int sort_ref_alloc(size_t n)
{
    if (g_sr.ki && g_sr.n == n) return 0;
    sort_ref_free();
    size_t b = n * 4;
    if (cudaMalloc((void **)&g_sr.ki, b) != cudaSuccess || cudaMalloc((void **)&g_sr.vi, b) != cudaSuccess ||
        cudaMalloc((void **)&g_sr.ko, b) != cudaSuccess || cudaMalloc((void **)&g_sr.vo, b) != cudaSuccess ||
        cudaMalloc((void **)&g_sr.got_d, sizeof g_sr.got_h) != cudaSuccess ||
        cudaMalloc((void **)&g_sr.idx_d, JD_SAMPLES * sizeof *g_sr.idx_d) != cudaSuccess ||
        jd_w14_cub_sort_pairs(NULL, &g_sr.tmp_bytes, g_sr.ki, g_sr.ko, g_sr.vi, g_sr.vo, (int)n, SORT_ALLBITS,
                              jd_stream) != cudaSuccess ||
        cudaMalloc(&g_sr.tmp, g_sr.tmp_bytes ? g_sr.tmp_bytes : 1) != cudaSuccess) {
        sort_ref_free();
        return -1;
    }
    g_sr.n = n;
    return 0;
}

/* Input 0 the keys (below 2^16, the test's), input 1 the values (a hidden
 * permutation of 0..n-1: the check finds each pair's input position). */
static void sort_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    int vals = 0;
    for (int r = 0; r < b->k; r++) vals |= in == (void *)b->in[r][1];
    if (vals) (void)jd_w14_sort_vals(in, b->n, seed, 0); /* a failure: the look finds it */
    else (void)jd_w14_sort_keys(in, b->n, seed, 0);
}

/* Word i of a rep's output (keys_out, then vals_out), from the judge's
 * reference of the rep's seeds; NaN (the look fails: no figure from an
 * unchecked run) when the reference could not be made. */
static float sort_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_sr.ok || g_sr.seed[0] != seed[0] || g_sr.seed[1] != seed[1] || g_sr.pick != b->pick) {
        g_sr.ok = 0;
        if (sort_ref_alloc(b->n) != 0 || jd_w14_sort_keys(g_sr.ki, b->n, seed[0], jd_stream) != cudaSuccess ||
            jd_w14_sort_vals(g_sr.vi, b->n, seed[1], jd_stream) != cudaSuccess ||
            jd_w14_cub_sort_pairs(g_sr.tmp, &g_sr.tmp_bytes, g_sr.ki, g_sr.ko, g_sr.vi, g_sr.vo, (int)b->n, SORT_ALLBITS,
                                  jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_sr.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w14_gather_pairs(g_sr.ko, g_sr.vo, b->n, g_sr.idx_d, JD_SAMPLES, g_sr.got_d, jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_sr.got_h, g_sr.got_d, sizeof g_sr.got_h, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN;
        g_sr.seed[0] = seed[0], g_sr.seed[1] = seed[1], g_sr.pick = b->pick, g_sr.ok = 1;
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return u2f(g_sr.got_h[j]);
    return NAN;
}

/* Every pair of a timed output: sorted by the whole key, stable, and a
 * permutation of the input pairs (judge_w14_kernels.h). */
static int sort_full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const unsigned *ko = (const unsigned *)out;
    return jd_full_check_done(jd_w14_sort_check(ko, ko + b->n, b->n, seed[0], seed[1], bad, jd_stream), bad, h);
}

/* fn on W14_SORT_N pairs over bits [0, end_bit): the student's
 * cubdev_sort_pairs (end_bit 16) or the yard runner's CUB (32); the same
 * set-up, so the same seeds and the same inputs. */
static void sort_setup(jd_bench *x, int fn, int end_bit, const char *fn_name)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 2, x->max_k = JD_BENCH_MAX_K;
    x->n = (size_t)W14_SORT_N, x->out_n = 2 * (size_t)W14_SORT_N, x->fill = sort_fill;
    x->atol = JD_BITWISE, x->rtol = 0;
    x->i64[2] = end_bit;
    x->fn_name = fn_name, x->out_name = "keys_out|vals_out";
    x->expect = sort_expect, x->full_check = sort_full_check;
}

#define SORT_YARD_NAME "cub::DeviceRadixSort::SortPairs over all 32 bits"

static double g_sort_before = NAN; /* the yardstick before the student's runner started */
static char   g_sort_before_why[600];

static void before_sort(void)
{
    sort_setup(&g_yard, W14_YARD_SORT, SORT_ALLBITS, SORT_YARD_NAME);
    if (jd_yard_bench(W14_YARD_RUNNER, &g_yard, TIMED_SORT, &g_sort_before, g_sort_before_why,
                      sizeof g_sort_before_why) != 0)
        g_sort_before = NAN;
    sort_ref_free();
}

static void judge_sort_speed(jd_ck *k)
{
    static jd_bench x; /* large: its sample arrays */
    double ms = NAN, value = NAN, yard = NAN;
    char why[600] = "", ywhy[600] = "", detail[240] = "";
    sort_setup(&x, W14_FN_SORT_TIMED, SORT_END_BIT, "cubdev_sort_pairs (end_bit 16)");
    int rc = jd_bench_run(k->J, &x, TIMED_SORT, &ms, why, sizeof why);
    sort_ref_free();
    if (rc == 0) {
        double after = NAN;
        sort_setup(&g_yard, W14_YARD_SORT, SORT_ALLBITS, SORT_YARD_NAME);
        double yms = jd_yard_faster(W14_YARD_RUNNER, &g_yard, TIMED_SORT, g_sort_before, g_sort_before_why, &after,
                                    ywhy, sizeof ywhy);
        sort_ref_free();
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "no figure for %s: %s", SORT_YARD_NAME, ywhy);
        } else {
            value = (double)W14_SORT_N / (ms * 1e-3) / 1e9, yard = (double)W14_SORT_N / (yms * 1e-3) / 1e9;
            snprintf(detail, sizeof detail,
                     "%.3g Gpairs/s vs CUB's all-bits SortPairs %.3g at 2^25 pairs, keys below 2^16 (judge's clock, %d "
                     "calls a request, median of %d)",
                     value, yard, x.k, TIMED_SORT);
            printf("  cubdev_sort_pairs (end_bit 16): %.3f ms a call by the judge's clock (%.3f by the runner's own); "
                   "%s %.3f (before the runner %.3f, after %.3f): %.3f of it\n",
                   ms, x.runner_ms, SORT_YARD_NAME, yms, g_sort_before, after, value / yard);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "Gpairs/s", "ALLBITS", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w14.tf32", judge_tf32_gpu, judge_tf32, 1, 0 },
    { "w14.blas1", judge_blas1, NULL, 0, 0 },
    { "w14.gemm", judge_gemm, NULL, 0, 0 },
    { "w14.batched", judge_batched, NULL, 0, 0 },
    { "w14.mathmodes", judge_mathmodes, NULL, 0, 0 },
    { "w14.tf32-speed", judge_tf32_speed, NULL, 0, 0, before_tf32 },
    { "w14.strided-speed", judge_strided_speed, NULL, 0, 0, before_strided },
    { "w14.cubdev", judge_cubdev, NULL, 0, 0 },
    { "w14.sort-speed", judge_sort_speed, NULL, 0, 0, before_sort },
    { "w14.blockwarp", judge_blockwarp, NULL, 0, 0 },
    { "w14.thrust", judge_thrust, NULL, 0, 0 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w14", "phase3/week14", CPS, (int)COUNT(CPS));
}
