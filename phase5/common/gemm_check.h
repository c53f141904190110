/* gemm_check.h — what the SGEMM tests of phase 5 (weeks 21-24) share: the
 * CPU reference, the correctness cases (a test loops over
 * WB_COUNT(GEMM_CASES)), and the benchmarks against the cuBLAS yardstick
 * (yard_sgemm.h): one version at 4096 for a speed checkpoint, the ladder.
 *
 * Included by exactly one test file per binary (it defines static inline
 * functions). Every SGEMM has naive.h's interface: C = A B, row-major.
 *
 * Tolerance: a float dot product of length K has a rounding error that grows
 * like sqrt(K) * eps times the size of the partial sums, which themselves grow
 * like sqrt(K) for inputs in [-1, 1]. An element passes at
 *   |got - ref| <= tol + tol * |ref|,   tol = 2 * sqrt(K) * eps_fp32 * sqrt(K),
 * about 30 standard deviations of FP32 rounding, yet 5-30 times tighter than
 * what TF32 tensor-core math gets wrong: a TF32 GEMM fails. The reference is
 * computed in double; NaN never passes where a finite value is expected. */
#ifndef PHASE5_GEMM_CHECK_H
#define PHASE5_GEMM_CHECK_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wb_harness.h"
#include "yard_sgemm.h"

typedef cudaError_t (*gemm_fn)(int M, int N, int K, const float *A, const float *B, float *C);

static inline double gemm_tol(int K) { return 2.0 * (K > 1 ? K : 1) * FLT_EPSILON; }

/* ---------------------------------------------------------------- correctness cases */

/* off > 0: A, B and C start `off` floats past a 256-byte boundary (no float4
 * alignment); sampled: too big for a full CPU reference, checked at random
 * elements (plus the first and last 64) in double. */
typedef struct { int M, N, K, off, sampled; } gemm_case;

static const gemm_case GEMM_CASES[] = {
    { 0, 5, 7, 0, 0 },      { 5, 0, 7, 0, 0 },        { 3, 4, 0, 0, 0 },       { 1, 1, 1, 0, 0 },
    { 2, 3, 5, 0, 0 },      { 17, 33, 65, 0, 0 },     { 31, 1, 129, 0, 0 },    { 1, 97, 33, 0, 0 },
    { 64, 64, 64, 0, 0 },   { 128, 128, 8, 0, 0 },    { 128, 128, 128, 1, 0 }, { 127, 129, 255, 0, 0 },
    { 256, 384, 100, 0, 0 }, { 129, 257, 1031, 0, 0 }, { 256, 256, 256, 3, 0 }, { 1000, 1001, 999, 0, 0 },
    { 1024, 1024, 1024, 0, 1 }, { 2049, 3001, 1999, 0, 1 },
};

/* ref = A B in double, i-k-j order (streams rows of B). */
static inline void gemm_ref_f64(int M, int N, int K, const float *A, const float *B, double *ref)
{
    for (int i = 0; i < M; i++) {
        double *r = ref + (size_t)i * N;
        for (int j = 0; j < N; j++) r[j] = 0.0;
        for (int k = 0; k < K; k++) {
            double a = A[(size_t)i * K + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++) r[j] += a * (double)b[j];
        }
    }
}

typedef struct { const float *A, *B; int N, K; } gemm_host;

/* One element of A B in double, for sampled checks. */
static inline double gemm_expect(size_t i, const void *ctx)
{
    const gemm_host *g = ctx;
    size_t row = i / (size_t)g->N, col = i % (size_t)g->N;
    double s = 0.0;
    for (int k = 0; k < g->K; k++) s += (double)g->A[row * g->K + k] * (double)g->B[(size_t)k * g->N + col];
    return s;
}

/* Run fn on the given inputs (A, B and C `off` floats past a 256-byte
 * boundary) into a poisoned C with guard bands (wb_dout), then check every
 * element (or, sampled, 4096 random ones plus the first and last 64) and
 * that nothing was written outside C. */
static inline void gemm_check_inputs(const char *name, gemm_fn fn, int M, int N, int K, int off, int sampled,
                                     const float *hA, const float *hB)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N, o = off > 0 ? (size_t)off : 0;
    float *dA = wb_dmalloc((na + o + 1) * 4), *dB = wb_dmalloc((nb + o + 1) * 4);
    if (na) wb_h2d(dA + o, hA, na * 4);
    if (nb) wb_h2d(dB + o, hB, nb * 4);
    wb_dout c;
    float *C = wb_dout_alloc(&c, "C", nc * 4, o * 4);
    WB_CUDA(fn(M, N, K, dA + o, dB + o, C));
    char what[160];
    snprintf(what, sizeof what, "%s M=%d N=%d K=%d%s%s", name, M, N, K, off > 0 ? " (unaligned pointers)" : "",
             sampled ? " (sampled)" : "");
    double tol = gemm_tol(K);
    if (sampled) {
        float *hC = wb_hmalloc(nc * 4);
        wb_expect_dout_guards(&c, hC, what);
        free(hC);
        gemm_host g = { hA, hB, N, K };
        wb_cmp cmp;
        wb_dverify_f32("C", C, nc, gemm_expect, &g, 4096, tol, tol, &cmp);
        WB_EXPECT_CMP(cmp, what);
    } else {
        double *ref = wb_hmalloc((nc + 1) * sizeof(double));
        gemm_ref_f64(M, N, K, hA, hB, ref);
        wb_expect_dout_f32_f64(&c, ref, nc, tol, tol, what);
        free(ref);
    }
    wb_dfree(dA), wb_dfree(dB), wb_dout_free(&c);
}

/* Case i of GEMM_CASES with inputs uniform in [-1, 1]. */
static inline void gemm_check_case(const char *name, gemm_fn fn, wb_rng *rng, int i)
{
    gemm_case c = GEMM_CASES[i];
    size_t na = (size_t)c.M * c.K, nb = (size_t)c.K * c.N;
    float *hA = wb_hmalloc((na + 1) * 4), *hB = wb_hmalloc((nb + 1) * 4);
    wb_fill_uniform_f32(rng, hA, na, -1, 1);
    wb_fill_uniform_f32(rng, hB, nb, -1, 1);
    gemm_check_inputs(name, fn, c.M, c.N, c.K, c.off, c.sampled, hA, hB);
    free(hA), free(hB);
}

/* NaN and Inf propagate as IEEE says: a NaN in A(r, p) makes row r of C NaN;
 * an Inf in B(q, c) makes column c +-Inf (NaN where it meets the NaN row).
 * Case 0: a size that is a multiple of every tile; case 1: one that is not. */
static inline void gemm_check_nonfinite(const char *name, gemm_fn fn, wb_rng *rng, int i)
{
    int M = i ? 131 : 128, N = i ? 133 : 128, K = i ? 135 : 128;
    float *hA = wb_hmalloc((size_t)M * K * 4), *hB = wb_hmalloc((size_t)K * N * 4);
    wb_fill_uniform_f32(rng, hA, (size_t)M * K, -1, 1);
    wb_fill_uniform_f32(rng, hB, (size_t)K * N, -1, 1);
    int r = (int)wb_rng_int(rng, 0, M - 1), p = (int)wb_rng_int(rng, 0, K - 1);
    int q = (int)wb_rng_int(rng, 0, K - 1), c = (int)wb_rng_int(rng, 0, N - 1);
    hA[(size_t)r * K + p] = NAN;
    hB[(size_t)q * N + c] = INFINITY;
    for (int row = 0; row < M; row++) /* no exact zero meets the Inf: 0 * Inf would be NaN */
        if (hA[(size_t)row * K + q] == 0.0f) hA[(size_t)row * K + q] = 0.5f;
    gemm_check_inputs(name, fn, M, N, K, 0, 0, hA, hB);
    free(hA), free(hB);
}

/* ---------------------------------------------------------------- benchmarks */

typedef struct { const char *name; gemm_fn fn; } gemm_version;

typedef struct {
    int n;
    float *A, *B, *C; /* device, n x n */
    float *hA, *hB;   /* host copies, for checking samples */
    gemm_fn fn;
} gemm_bench;

enum { GEMM_SEED_A = 2101, GEMM_SEED_B = 2102 };

static inline void gemm_bench_work(void *p)
{
    gemm_bench *g = p;
    WB_CUDA(g->fn(g->n, g->n, g->n, g->A, g->B, g->C));
}

static inline void gemm_bench_open(gemm_bench *g, int n)
{
    size_t nn = (size_t)n * n;
    g->n = n;
    g->A = wb_dmalloc(nn * 4), g->B = wb_dmalloc(nn * 4), g->C = wb_dmalloc(nn * 4);
    wb_dfill_uniform_f32(g->A, nn, GEMM_SEED_A, -1, 1);
    wb_dfill_uniform_f32(g->B, nn, GEMM_SEED_B, -1, 1);
    g->hA = wb_hmalloc(nn * 4), g->hB = wb_hmalloc(nn * 4);
    wb_d2h(g->hA, g->A, nn * 4);
    wb_d2h(g->hB, g->B, nn * 4);
}

static inline void gemm_bench_close(gemm_bench *g)
{
    wb_dfree(g->A), wb_dfree(g->B), wb_dfree(g->C);
    free(g->hA), free(g->hB);
}

/* Time fn on g's n x n x n problem (fewer samples when one call takes more
 * than 50 ms) and check 1024 sampled elements of the timed output against
 * row-major A B (B A with swapped set: the yardstick's product), giving the
 * row (TFLOP/s; yardstick yard_name/yard when given) without printing it. */
static inline wb_bench_row gemm_bench_measure(gemm_bench *g, const char *variant, gemm_fn fn, const char *yard_name,
                                              double yard, int swapped)
{
    g->fn = fn;
    wb_dpoison(g->C, (size_t)g->n * g->n * 4);
    wb_bench_row r = { .exercise = "sgemm", .variant = variant, .n = (size_t)g->n,
                       .bytes = 3.0 * 4.0 * g->n * g->n, .flops = 2.0 * g->n * (double)g->n * g->n,
                       .unit = "TFLOP/s", .yard_name = yard_name, .yard = yard };
    /* The probe runs fn once untimed first: a first call pays for cuBLAS's
     * handle and lazy module loading, which would make any fn look slow. */
    wb_bench_opts probe = { 1, 1, 0 }, slow = { 1, 5, 1 };
    wb_time(gemm_bench_work, g, &probe, &r.t);
    wb_time(gemm_bench_work, g, r.t.median > 50.0 ? &slow : NULL, &r.t);
    r.value = r.flops / (r.t.median * 1e-3) / 1e12;
    gemm_host h = { swapped ? g->hB : g->hA, swapped ? g->hA : g->hB, g->n, g->n };
    wb_cmp cmp;
    double tol = gemm_tol(g->n);
    if (wb_dverify_f32("C", g->C, (size_t)g->n * g->n, gemm_expect, &h, 1024, tol, tol, &cmp))
        wb_bench_invalid(&r, cmp.msg);
    return r;
}

/* One version's row: print it with wb_bench_emit, or return
 * wb_bench_headline(&row, h) when a speed checkpoint judges it. */
static inline wb_bench_row gemm_bench_row(gemm_bench *g, const char *variant, gemm_fn fn, const char *yard_name,
                                          double yard)
{
    return gemm_bench_measure(g, variant, fn, yard_name, yard, 0);
}

/* The yardstick on g's buffers: yard_sgemm_cublas (yard_sgemm.h), whose
 * output is row-major B A for these square sizes and is checked as such.
 * Prints its row; returns its TFLOP/s, NaN if its output was wrong. */
static inline double gemm_bench_cublas(gemm_bench *g)
{
    wb_bench_row y = gemm_bench_measure(g, "cuBLAS FP32 (pedantic)", yard_sgemm_cublas, NULL, 0, 1);
    wb_bench_emit(&y);
    return y.invalid ? NAN : y.value;
}

/* The ladder: at 1024, 2048 and 4096, cuBLAS (pedantic FP32) then every
 * version as TFLOP/s and as a fraction of cuBLAS in the same run. Returns
 * the ratio of version `headline` at 4096 (NaN if wrong). */
static inline double gemm_ladder(const gemm_version *v, int nv, int headline)
{
    static const int SIZES[] = { 1024, 2048, 4096 };
    double ratio = NAN;
    for (size_t s = 0; s < WB_COUNT(SIZES); s++) {
        gemm_bench g;
        gemm_bench_open(&g, SIZES[s]);
        double yard = gemm_bench_cublas(&g);
        for (int i = 0; i < nv; i++) {
            wb_bench_row r = gemm_bench_row(&g, v[i].name, v[i].fn, "cuBLAS", yard);
            wb_bench_emit(&r);
            if (i == headline && SIZES[s] == 4096) ratio = wb_bench_ratio(&r);
        }
        gemm_bench_close(&g);
    }
    return ratio;
}

/* One version against cuBLAS at 4096 only: the benchmark behind a speed
 * checkpoint (WB_SPEED), ending in the version's headline row (into h). */
static inline double gemm_vs_cublas_4096(const char *variant, gemm_fn fn, wb_headline *h)
{
    gemm_bench g;
    gemm_bench_open(&g, 4096);
    double yard = gemm_bench_cublas(&g);
    wb_bench_row r = gemm_bench_row(&g, variant, fn, "cuBLAS", yard);
    gemm_bench_close(&g);
    return wb_bench_headline(&r, h);
}

#endif
