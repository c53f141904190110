/* test_week14.c — week 14's checkpoints: cuBLAS (AXPY, DOT, row-major GEMM,
 * batched GEMM, math modes and their errors), CUB (device-wide reduce, scan
 * and radix sort; block and warp reductions with custom operators), Thrust,
 * and the ladder that times week 07's kernels against the library. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cublas_v2.h>

#include "wb_harness.h"
#include "wb_cublas.h"
#include "blas.h"
#include "cubblock.h"
#include "cubdev.h"
#include "thrustops.h"
#include "reduce.h" /* week 07 */
#include "scan.h"   /* week 07 */

/* ---------------------------------------------------------------- helpers */

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

/* A stable sort of (key, val) pairs on the CPU: LSD radix sort, 8 bits a
 * pass, into out_k / out_v. */
static void cpu_sort_pairs(const uint32_t *k, const uint32_t *v, size_t n, uint32_t *out_k, uint32_t *out_v)
{
    uint32_t *tk = wb_hmalloc(n * 4 + 4), *tv = wb_hmalloc(n * 4 + 4);
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

/* Integer values in [lo, hi] as floats: sums of them are exact in any order
 * while they stay below 2^24. */
static void fill_int(wb_rng *rng, float *v, size_t n, int lo, int hi)
{
    for (size_t i = 0; i < n; i++) v[i] = (float)wb_rng_int(rng, lo, hi);
}

/* ---------------------------------------------------------------- blas_tf32_round (CPU) */

START_TEST(tf32_cases)
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
    for (size_t i = 0; i < WB_COUNT(C); i++) {
        float got = blas_tf32_round(C[i].x);
        ck_assert_msg(f2u(got) == f2u(C[i].want), "blas_tf32_round(%a) [%s] = %a (bits %08x), expected %a (bits %08x)",
                      (double)C[i].x, C[i].what, (double)got, f2u(got), (double)C[i].want, f2u(C[i].want));
    }
    const uint32_t nans[] = { 0x7fc00000u, 0x7f800001u, 0xffc00001u, 0x7fffffffu };
    for (size_t i = 0; i < WB_COUNT(nans); i++) {
        float got = blas_tf32_round(u2f(nans[i]));
        ck_assert_msg(isnan(got), "blas_tf32_round(NaN bits %08x) = %a: a NaN must stay a NaN", nans[i], (double)got);
    }
}
END_TEST

/* Random finite floats below 2^127 (every exponent, subnormals too): the
 * result is the nearer of the two TF32 neighbours, the larger magnitude on a
 * tie. */
START_TEST(tf32_random)
{
    wb_rng rng = WB_RNG();
    size_t bad = 0;
    char first[200] = "";
    for (int k = 0; k < 1000000; k++) {
        uint32_t u = (uint32_t)wb_rng_u64(&rng);
        if (((u >> 23) & 0xff) >= 0xfe) continue; /* NaN/Inf and the top binade: in tf32_cases */
        float x = u2f(u), lo = u2f(u & ~0x1fffu), hi = u2f((u & ~0x1fffu) + 0x2000u);
        double dlo = fabs((double)x - lo), dhi = fabs((double)hi - x);
        float want = dhi <= dlo ? hi : lo;
        float got = blas_tf32_round(x);
        if (f2u(got) != f2u(want) && bad++ == 0)
            snprintf(first, sizeof first, "blas_tf32_round(%a) = %a, expected %a", (double)x, (double)got,
                     (double)want);
    }
    if (bad) ck_abort_msg("%zu of 1000000 random floats rounded wrong (seed %llu); first: %s", bad,
                          (unsigned long long)wb_base_seed(), first);
}
END_TEST

/* ---------------------------------------------------------------- AXPY and DOT */

static const int SIZES1[] = { 0, 1, 3, 31, 255, 257, 1025, 65537, 1000003, 1 << 24 };

START_TEST(blas1_sizes)
{
    wb_rng rng = WB_RNG();
    int n = SIZES1[_i];
    size_t bytes = (size_t)n * 4;
    float *hx = wb_hmalloc(bytes + 4), *hy = wb_hmalloc(bytes + 4);
    double *ref = wb_hmalloc((size_t)n * 8 + 8);
    wb_fill_uniform_f32(&rng, hx, (size_t)n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, (size_t)n, -1, 1);
    float alpha = (float)(wb_rng_unit(&rng) * 4 - 2);
    double dot = 0, dot_abs = 0;
    for (int i = 0; i < n; i++) {
        ref[i] = (double)alpha * hx[i] + hy[i];
        dot += (double)hx[i] * hy[i], dot_abs += fabs((double)hx[i] * hy[i]);
    }
    float *dx = wb_dcopy(hx, bytes), *dy0 = wb_dcopy(hy, bytes);
    wb_dout y, r;
    float *dy = wb_dout_alloc(&y, "y", bytes, 0), *dr = wb_dout_alloc(&r, "dot", 4, 0);
    if (n) wb_h2d(dy, hy, bytes);
    char what[80];
    snprintf(what, sizeof what, "n=%d, alpha=%g", n, (double)alpha);
    cublasHandle_t h = wb_cublas_handle(0);
    WB_CUBLAS(blas_axpy(h, n, alpha, dx, dy), what);
    wb_expect_dout_f32_f64(&y, ref, (size_t)n, 1e-6, 1e-6, what);
    WB_CUBLAS(blas_dot(h, n, dx, dy0, dr), what);
    float got;
    wb_expect_dout_guards(&r, &got, what);
    ck_assert_msg(wb_close(got, dot, 1e-5 * dot_abs + 1e-6, 0), "dot, %s (seed %llu): %.9g, expected %.9g", what,
                  (unsigned long long)wb_base_seed(), (double)got, dot);
    cublasPointerMode_t pm = CUBLAS_POINTER_MODE_DEVICE;
    cublasGetPointerMode(h, &pm);
    ck_assert_msg(pm == CUBLAS_POINTER_MODE_HOST,
                  "blas_dot left the handle in device pointer mode: the caller's next host scalar is read as a "
                  "device address; set the mode back");
    cublasDestroy(h);
    wb_dfree(dx), wb_dfree(dy0), wb_dout_free(&y), wb_dout_free(&r);
    free(hx), free(hy), free(ref);
}
END_TEST

/* A null handle is an error cuBLAS reports: the exercise must return it. */
START_TEST(blas1_null_handle)
{
    wb_rng rng = WB_RNG();
    float hx[64];
    wb_fill_uniform_f32(&rng, hx, 64, -1, 1);
    float *dx = wb_dcopy(hx, sizeof hx);
    wb_dout y, r;
    float *dy = wb_dout_alloc(&y, "y", sizeof hx, 0), *dr = wb_dout_alloc(&r, "dot", 4, 0);
    cublasStatus_t sa = blas_axpy(NULL, 64, 2.0f, dx, dy), sd = blas_dot(NULL, 64, dx, dx, dr);
    ck_assert_msg(sa != CUBLAS_STATUS_SUCCESS, "blas_axpy(NULL handle) returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's status");
    ck_assert_msg(sd != CUBLAS_STATUS_SUCCESS, "blas_dot(NULL handle) returned CUBLAS_STATUS_SUCCESS: pass on cuBLAS's status");
    float got[64];
    wb_expect_dout_guards(&y, got, "null handle");
    for (int i = 0; i < 64; i++) ck_assert_msg(isnan(got[i]), "blas_axpy(NULL handle) wrote y[%d]", i);
    wb_expect_dout_guards(&r, got, "null handle");
    ck_assert_msg(isnan(got[0]), "blas_dot(NULL handle) wrote the result");
    wb_dfree(dx), wb_dout_free(&y), wb_dout_free(&r);
}
END_TEST

/* ---------------------------------------------------------------- row-major GEMM */

typedef struct { int M, N, K; } shape3;

/* op(A)(i, k) and op(B)(k, j) of row-major storage with leading dimensions. */
static float opa(const float *A, int lda, int ta, int i, int k) { return ta ? A[(size_t)k * lda + i] : A[(size_t)i * lda + k]; }
static float opb(const float *B, int ldb, int tb, int k, int j) { return tb ? B[(size_t)j * ldb + k] : B[(size_t)k * ldb + j]; }

/* A host matrix rows x ld whose cols first columns are random and whose
 * padding is NaN: a call that reads the padding (a wrong ld) shows. */
static float *padded(wb_rng *rng, int rows, int cols, int ld)
{
    size_t n = (size_t)rows * ld;
    float *m = wb_hmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) m[i] = (int)(i % (size_t)ld) < cols ? (float)(wb_rng_unit(rng) * 2 - 1) : NAN;
    return m;
}

static void check_gemm(wb_rng *rng, cublasHandle_t h, int M, int N, int K, int ta, int tb)
{
    int ra = ta ? K : M, ca = ta ? M : K, rb = tb ? N : K, cb = tb ? K : N;
    int lda = (ca > 1 ? ca : 1) + (int)wb_rng_int(rng, 0, 3), ldb = (cb > 1 ? cb : 1) + (int)wb_rng_int(rng, 0, 3);
    int ldc = (N > 1 ? N : 1) + (int)wb_rng_int(rng, 0, 3);
    float alpha = (float)(wb_rng_unit(rng) * 4 - 2), beta = (ta ^ tb) ? (float)(wb_rng_unit(rng) * 2 - 1) : 0.0f;
    float *hA = padded(rng, ra, ca, lda), *hB = padded(rng, rb, cb, ldb);
    size_t nc = (size_t)M * ldc;
    float *hC = wb_hmalloc(nc * 4 + 4);
    double *ref = wb_hmalloc(nc * 8 + 8);
    /* C's padding (columns N..ldc-1) holds a sentinel that must survive the
     * call; with beta == 0 the rest of C is NaN, which must not be read. */
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
    float *dA = wb_dcopy(hA, (size_t)ra * lda * 4), *dB = wb_dcopy(hB, (size_t)rb * ldb * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", nc * 4, 0);
    if (nc) wb_h2d(dC, hC, nc * 4);
    char what[160];
    snprintf(what, sizeof what, "M=%d N=%d K=%d, %s%s, lda=%d ldb=%d ldc=%d, alpha=%g beta=%g", M, N, K,
             ta ? "A^T" : "A", tb ? " B^T" : " B", lda, ldb, ldc, (double)alpha, (double)beta);
    WB_CUBLAS(blas_gemm(h, W14_FP32, ta, tb, M, N, K, alpha, dA, lda, dB, ldb, beta, dC, ldc), what);
    wb_expect_dout_f32_f64(&C, ref, nc, 4e-6 * K + 1e-6, 1e-5, what);
    wb_dfree(dA), wb_dfree(dB), wb_dout_free(&C);
    free(hA), free(hB), free(hC), free(ref);
}

static const shape3 GEMM_SHAPES[] = { { 1, 1, 1 },   { 1, 17, 33 },    { 33, 1, 65 }, { 31, 33, 35 },
                                      { 64, 64, 64 }, { 100, 257, 129 }, { 0, 5, 7 },  { 5, 0, 7 },
                                      { 257, 31, 1000 }, { 128, 96, 1 } };

START_TEST(gemm_shapes)
{
    wb_rng rng = WB_RNG();
    cublasHandle_t h = wb_cublas_handle(0);
    for (int t = 0; t < 4; t++) check_gemm(&rng, h, GEMM_SHAPES[_i].M, GEMM_SHAPES[_i].N, GEMM_SHAPES[_i].K, t & 1, t >> 1);
    cublasDestroy(h);
}
END_TEST

/* Errors cuBLAS reports must come back: a leading dimension smaller than a
 * row, a null handle. Nothing may be written, and the math mode must be the
 * caller's again afterwards, after a success and after a failure. */
START_TEST(gemm_errors)
{
    wb_rng rng = WB_RNG();
    const int n = 64;
    float *hA = padded(&rng, n, n, n), *hB = padded(&rng, n, n, n);
    float *dA = wb_dcopy(hA, (size_t)n * n * 4), *dB = wb_dcopy(hB, (size_t)n * n * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", (size_t)n * n * 4, 0);
    cublasHandle_t h = wb_cublas_handle(0);
    cublasStatus_t s = blas_gemm(h, W14_FP32, 0, 0, n, n, n, 1.0f, dA, n - 1, dB, n, 0.0f, dC, n);
    ck_assert_msg(s == CUBLAS_STATUS_INVALID_VALUE, "lda = K - 1: blas_gemm returned %s, expected cuBLAS's CUBLAS_STATUS_INVALID_VALUE",
                  cublasGetStatusString(s));
    s = blas_gemm(h, W14_FP32, 0, 0, n, n, n, 1.0f, dA, n, dB, n, 0.0f, dC, n - 1);
    ck_assert_msg(s == CUBLAS_STATUS_INVALID_VALUE, "ldc = N - 1: blas_gemm returned %s, expected CUBLAS_STATUS_INVALID_VALUE",
                  cublasGetStatusString(s));
    s = blas_gemm(NULL, W14_FP32, 0, 0, n, n, n, 1.0f, dA, n, dB, n, 0.0f, dC, n);
    ck_assert_msg(s != CUBLAS_STATUS_SUCCESS, "a null handle: blas_gemm returned CUBLAS_STATUS_SUCCESS");
    s = blas_gemm_strided(NULL, n, n, n, dA, 0, dB, 0, dC, 0, 1);
    ck_assert_msg(s != CUBLAS_STATUS_SUCCESS, "a null handle: blas_gemm_strided returned CUBLAS_STATUS_SUCCESS");
    float *got = wb_hmalloc((size_t)n * n * 4);
    wb_expect_dout_guards(&C, got, "failed calls");
    for (int i = 0; i < n * n; i++) ck_assert_msg(isnan(got[i]), "a failed blas_gemm wrote C[%d]", i);
    /* the math mode: the caller's before, the caller's after */
    cublasMath_t m = CUBLAS_PEDANTIC_MATH;
    ck_assert(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS);
    WB_CUBLAS(blas_gemm(h, W14_TF32, 0, 0, n, n, n, 1.0f, dA, n, dB, n, 0.0f, dC, n), "TF32, 64^3");
    cublasGetMathMode(h, &m);
    ck_assert_msg(m == CUBLAS_DEFAULT_MATH, "after blas_gemm(W14_TF32) the handle's math mode is %d, it was %d: set it back",
                  (int)m, (int)CUBLAS_DEFAULT_MATH);
    ck_assert(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) == CUBLAS_STATUS_SUCCESS);
    s = blas_gemm(h, W14_TF32, 0, 0, n, n, n, 1.0f, dA, n - 1, dB, n, 0.0f, dC, n);
    cublasGetMathMode(h, &m);
    ck_assert_msg(s != CUBLAS_STATUS_SUCCESS && m == CUBLAS_PEDANTIC_MATH,
                  "after a failed blas_gemm(W14_TF32) the math mode is %d, it was %d: restore it on failure too", (int)m,
                  (int)CUBLAS_PEDANTIC_MATH);
    wb_sync();
    cublasDestroy(h);
    wb_dfree(dA), wb_dfree(dB), wb_dout_free(&C);
    free(hA), free(hB), free(got);
}
END_TEST

/* ---------------------------------------------------------------- batched GEMM */

static const struct { int M, N, K, batch; } BATCH_CASES[] = {
    { 1, 1, 1, 1 }, { 17, 33, 9, 7 }, { 64, 64, 64, 50 }, { 33, 65, 129, 3 }, { 5, 6, 7, 0 },
};

/* C_b = A_b B_{b or 0}, row-major contiguous, in double. */
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

START_TEST(batched_cases)
{
    wb_rng rng = WB_RNG();
    int M = BATCH_CASES[_i].M, N = BATCH_CASES[_i].N, K = BATCH_CASES[_i].K, batch = BATCH_CASES[_i].batch;
    size_t na = (size_t)batch * M * K, nb = (size_t)batch * K * N, nc = (size_t)batch * M * N;
    float *hA = wb_hmalloc(na * 4 + 4), *hB = wb_hmalloc(nb * 4 + 4);
    double *ref = wb_hmalloc(nc * 8 + 8);
    wb_fill_uniform_f32(&rng, hA, na, -1, 1);
    wb_fill_uniform_f32(&rng, hB, nb, -1, 1);
    float *dA = wb_dcopy(hA, na * 4), *dB = wb_dcopy(hB, nb * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", nc * 4, 0);
    const float **pa = wb_hmalloc((size_t)batch * sizeof(void *) + 8), **pb = wb_hmalloc((size_t)batch * sizeof(void *) + 8);
    float **pc = wb_hmalloc((size_t)batch * sizeof(void *) + 8);
    for (int b = 0; b < batch; b++) pa[b] = dA + (size_t)b * M * K, pb[b] = dB + (size_t)b * K * N, pc[b] = dC + (size_t)b * M * N;
    void *dpa = wb_dcopy(pa, (size_t)batch * sizeof(void *)), *dpb = wb_dcopy(pb, (size_t)batch * sizeof(void *));
    void *dpc = wb_dcopy(pc, (size_t)batch * sizeof(void *));
    cublasHandle_t h = wb_cublas_handle(0);
    ck_assert(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) == CUBLAS_STATUS_SUCCESS);
    char what[120];
    double atol = 4e-6 * K + 1e-6;
    batch_ref(hA, hB, ref, M, N, K, batch, 0);
    snprintf(what, sizeof what, "blas_gemm_batched, M=%d N=%d K=%d, batch %d", M, N, K, batch);
    WB_CUBLAS(blas_gemm_batched(h, M, N, K, (const float *const *)dpa, (const float *const *)dpb, (float *const *)dpc, batch), what);
    wb_expect_dout_f32_f64(&C, ref, nc, atol, 1e-5, what);
    wb_dout_poison(&C);
    snprintf(what, sizeof what, "blas_gemm_strided, M=%d N=%d K=%d, batch %d", M, N, K, batch);
    WB_CUBLAS(blas_gemm_strided(h, M, N, K, dA, (long long)M * K, dB, (long long)K * N, dC, (long long)M * N, batch), what);
    wb_expect_dout_f32_f64(&C, ref, nc, atol, 1e-5, what);
    wb_dout_poison(&C);
    batch_ref(hA, hB, ref, M, N, K, batch, 1);
    snprintf(what, sizeof what, "blas_gemm_strided with stride_b = 0 (one B for all), M=%d N=%d K=%d, batch %d", M, N, K, batch);
    WB_CUBLAS(blas_gemm_strided(h, M, N, K, dA, (long long)M * K, dB, 0, dC, (long long)M * N, batch), what);
    wb_expect_dout_f32_f64(&C, ref, nc, atol, 1e-5, what);
    cublasDestroy(h);
    wb_dfree(dA), wb_dfree(dB), wb_dfree(dpa), wb_dfree(dpb), wb_dfree(dpc), wb_dout_free(&C);
    free(hA), free(hB), free(ref), free((void *)pa), free((void *)pb), free(pc);
}
END_TEST

/* ---------------------------------------------------------------- math modes */

/* The error bounds this week states (README, "Math modes"), relative to
 * sum_k |a_ik| |b_kj| for each element of C:
 *   FP32 (pedantic): 4 sqrt(K) 2^-24, a probabilistic bound: rounding errors
 *     of random sign grow like sqrt(K) u (the worst case, K u, is 16x larger
 *     at K = 1024, and would not tell FP32 from TF32);
 *   TF32: 2^-9 + K 2^-23, a worst case: each input rounded to 10 mantissa
 *     bits (relative error up to 2^-10 if the hardware truncates, so 2^-9
 *     for a product), then FP32 accumulation (2^-23 a step, truncating). */
static double bound_fp32(int K) { return 4.0 * sqrt((double)K) * ldexp(1, -24); }
static double bound_tf32(int K) { return ldexp(1, -9) + K * ldexp(1, -23); }

/* The test's own TF32 rounding (to nearest, ties away; normal floats only),
 * written independently of the exercise: 11 significant bits. */
static double tf32_model(float x)
{
    if (x == 0 || !isfinite(x)) return x;
    int e;
    frexp(x, &e);
    double scale = ldexp(1, 11 - e);
    return round(x * scale) / scale;
}

static char mm_figure[300];

START_TEST(mathmodes)
{
    const int M = 512, N = 512, K = 1024;
    wb_rng rng = WB_RNG();
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *hA = wb_hmalloc(na * 4), *hB = wb_hmalloc(nb * 4), *got = wb_hmalloc(nc * 4);
    double *ref = wb_hmalloc(nc * 8), *mag = wb_hmalloc(nc * 8), *ref_t = wb_hmalloc(nc * 8);
    double *At = wb_hmalloc(na * 8), *Bt = wb_hmalloc(nb * 8);
    wb_fill_uniform_f32(&rng, hA, na, -1, 1);
    wb_fill_uniform_f32(&rng, hB, nb, -1, 1);
    for (size_t i = 0; i < na; i++) At[i] = tf32_model(hA[i]);
    for (size_t i = 0; i < nb; i++) Bt[i] = tf32_model(hB[i]);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0, m = 0, acc_t = 0;
            for (int k = 0; k < K; k++) {
                double a = hA[(size_t)i * K + k], b = hB[(size_t)k * N + j];
                acc += a * b, m += fabs(a * b), acc_t += At[(size_t)i * K + k] * Bt[(size_t)k * N + j];
            }
            ref[(size_t)i * N + j] = acc, mag[(size_t)i * N + j] = m, ref_t[(size_t)i * N + j] = acc_t;
        }
    float *dA = wb_dcopy(hA, na * 4), *dB = wb_dcopy(hB, nb * 4);
    wb_dout C;
    float *dC = wb_dout_alloc(&C, "C", nc * 4, 0);
    cublasHandle_t h = wb_cublas_handle(0);
    double err[2], err_t = 0;
    for (int mode = 0; mode < 2; mode++) {
        if (mode) wb_dout_poison(&C);
        ck_assert(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS);
        const char *name = mode == W14_TF32 ? "W14_TF32" : "W14_FP32";
        WB_CUBLAS(blas_gemm(h, mode, 0, 0, M, N, K, 1.0f, dA, K, dB, N, 0.0f, dC, N), name);
        cublasMath_t m = CUBLAS_PEDANTIC_MATH;
        cublasGetMathMode(h, &m);
        ck_assert_msg(m == CUBLAS_DEFAULT_MATH, "after blas_gemm(%s) the math mode is %d, it was CUBLAS_DEFAULT_MATH", name, (int)m);
        wb_expect_dout_guards(&C, got, name);
        err[mode] = 0;
        for (size_t i = 0; i < nc; i++) {
            double e = fabs(got[i] - ref[i]) / mag[i];
            if (!(e <= err[mode])) err[mode] = isnan(e) ? INFINITY : e; /* NaN: an element never written */
            if (mode == W14_TF32) err_t = fmax(err_t, fabs(got[i] - ref_t[i]) / mag[i]);
        }
    }
    snprintf(mm_figure, sizeof mm_figure,
             "%dx%dx%d: max |C - ref| / sum|a||b|: FP32 %.2e (bound %.1e), TF32 %.2e (bound %.1e); TF32 against "
             "a reference from inputs rounded to TF32: %.2e",
             M, N, K, err[0], bound_fp32(K), err[1], bound_tf32(K), err_t);
    printf("  %s\n", mm_figure);
    ck_assert_msg(err[0] <= bound_fp32(K), "W14_FP32: error %.3e is past the FP32 bound %.3e (is it TF32 after all?)", err[0], bound_fp32(K));
    ck_assert_msg(err[1] <= bound_tf32(K), "W14_TF32: error %.3e is past the TF32 bound %.3e", err[1], bound_tf32(K));
    wb_report(mm_figure);
    cublasDestroy(h);
    wb_dfree(dA), wb_dfree(dB), wb_dout_free(&C);
    free(hA), free(hB), free(got), free(ref), free(mag), free(ref_t), free(At), free(Bt);
}
END_TEST

/* ---------------------------------------------------------------- CUB device-wide */

static const int SIZES2[] = { 0, 1, 31, 255, 257, 1025, 4097, 65537, 1000003, (1 << 24) + 3 };

/* The query, a workspace of that size, the call. */
static void *workspace(size_t bytes) { return wb_dmalloc(bytes ? bytes : 1); }

START_TEST(cub_sizes)
{
    wb_rng rng = WB_RNG();
    int n = SIZES2[_i], end_bit = (int[]){ 32, 16, 8, 1, 24, 31, 12 }[_i % 7];
    size_t nn = (size_t)n;
    char what[96];
    /* sum and inclusive scan on integers in [-4, 4]: exact in any order */
    float *hx = wb_hmalloc(nn * 4 + 4), *hs = wb_hmalloc(nn * 4 + 4);
    fill_int(&rng, hx, nn, -4, 4);
    double acc = 0;
    for (size_t i = 0; i < nn; i++) acc += hx[i], hs[i] = (float)acc;
    float *dx = wb_dcopy(hx, nn * 4);
    wb_dout sum, y;
    float *dsum = wb_dout_alloc(&sum, "sum", 4, 0), *dy = wb_dout_alloc(&y, "y", nn * 4, 0);
    size_t q = (size_t)-1;
    snprintf(what, sizeof what, "cubdev_sum, n=%d, integer data", n);
    WB_CUDA(cubdev_sum(NULL, &q, dx, dsum, n));
    ck_assert_msg(q != (size_t)-1, "cubdev_sum(NULL, &bytes, ...) did not write the workspace size");
    void *tmp = workspace(q);
    WB_CUDA(cubdev_sum(tmp, &q, dx, dsum, n));
    float got;
    wb_expect_dout_guards(&sum, &got, what);
    ck_assert_msg(got == (float)acc, "%s (seed %llu): %.1f, expected %.1f", what, (unsigned long long)wb_base_seed(),
                  (double)got, acc);
    wb_dfree(tmp);
    q = (size_t)-1;
    WB_CUDA(cubdev_scan(NULL, &q, dx, dy, n));
    ck_assert_msg(q != (size_t)-1, "cubdev_scan(NULL, &bytes, ...) did not write the workspace size");
    tmp = workspace(q);
    WB_CUDA(cubdev_scan(tmp, &q, dx, dy, n));
    snprintf(what, sizeof what, "cubdev_scan, n=%d, integer data", n);
    wb_expect_dout_f32(&y, hs, nn, 0, 0, what);
    wb_dfree(tmp), wb_dfree(dx), wb_dout_free(&sum), wb_dout_free(&y);
    free(hx), free(hs);
    /* sort pairs: keys below 2^end_bit, random values (the pairing shows) */
    uint32_t *hk = wb_hmalloc(nn * 4 + 4), *hv = wb_hmalloc(nn * 4 + 4), *rk = wb_hmalloc(nn * 4 + 4),
             *rv = wb_hmalloc(nn * 4 + 4);
    uint32_t mask = end_bit == 32 ? 0xffffffffu : (1u << end_bit) - 1;
    for (size_t i = 0; i < nn; i++) hk[i] = (uint32_t)wb_rng_u64(&rng) & mask, hv[i] = (uint32_t)wb_rng_u64(&rng);
    cpu_sort_pairs(hk, hv, nn, rk, rv);
    unsigned *dk = wb_dcopy(hk, nn * 4), *dv = wb_dcopy(hv, nn * 4);
    wb_dout ko, vo;
    unsigned *dko = wb_dout_alloc(&ko, "keys_out", nn * 4, 0), *dvo = wb_dout_alloc(&vo, "vals_out", nn * 4, 0);
    q = (size_t)-1;
    WB_CUDA(cubdev_sort_pairs(NULL, &q, dk, dko, dv, dvo, n, end_bit));
    ck_assert_msg(q != (size_t)-1, "cubdev_sort_pairs(NULL, &bytes, ...) did not write the workspace size");
    tmp = workspace(q);
    WB_CUDA(cubdev_sort_pairs(tmp, &q, dk, dko, dv, dvo, n, end_bit));
    snprintf(what, sizeof what, "cubdev_sort_pairs, n=%d, end_bit %d", n, end_bit);
    wb_expect_dout_u32(&ko, rk, nn, what);
    wb_expect_dout_u32(&vo, rv, nn, what);
    uint32_t *back = wb_hmalloc(nn * 4 + 4);
    if (n) wb_d2h(back, dk, nn * 4);
    ck_assert_msg(n == 0 || memcmp(back, hk, nn * 4) == 0, "%s: the input keys changed", what);
    wb_dfree(tmp), wb_dfree(dk), wb_dfree(dv), wb_dout_free(&ko), wb_dout_free(&vo);
    free(hk), free(hv), free(rk), free(rv), free(back);
}
END_TEST

START_TEST(cub_float_nan_inf)
{
    wb_rng rng = WB_RNG();
    int n = (int)wb_rng_int(&rng, 100, 3000000);
    float *hx = wb_hmalloc((size_t)n * 4);
    double *ref = wb_hmalloc((size_t)n * 8);
    wb_fill_uniform_f32(&rng, hx, (size_t)n, 0, 1);
    if (_i == 1) hx[n / 3] = NAN;
    if (_i == 2) hx[n / 2] = INFINITY;
    double acc = 0;
    for (int i = 0; i < n; i++) acc += hx[i], ref[i] = acc;
    char what[80];
    snprintf(what, sizeof what, "n=%d%s", n, _i == 1 ? ", a NaN" : _i == 2 ? ", an Inf" : ", floats in [0, 1)");
    float *dx = wb_dcopy(hx, (size_t)n * 4);
    wb_dout sum, y;
    float *dsum = wb_dout_alloc(&sum, "sum", 4, 0), *dy = wb_dout_alloc(&y, "y", (size_t)n * 4, 0);
    size_t q1 = 0, q2 = 0;
    WB_CUDA(cubdev_sum(NULL, &q1, dx, dsum, n));
    WB_CUDA(cubdev_scan(NULL, &q2, dx, dy, n));
    void *tmp = workspace(q1 > q2 ? q1 : q2);
    WB_CUDA(cubdev_sum(tmp, &q1, dx, dsum, n));
    wb_expect_dout_f32_f64(&sum, &acc, 1, 1e-5 * n, 0, what);
    WB_CUDA(cubdev_scan(tmp, &q2, dx, dy, n));
    wb_expect_dout_f32_f64(&y, ref, (size_t)n, 1e-3, 2e-5, what);
    wb_dfree(tmp), wb_dfree(dx), wb_dout_free(&sum), wb_dout_free(&y);
    free(hx), free(ref);
}
END_TEST

/* A workspace smaller than the query said: CUB refuses with
 * cudaErrorInvalidValue, and the exercise must pass that on. */
START_TEST(cub_small_workspace)
{
    const int n = 1 << 20;
    float *dx = wb_dmalloc((size_t)n * 4);
    unsigned *dk = wb_dmalloc((size_t)n * 4);
    wb_dfill_uniform_f32(dx, (size_t)n, 41, 0, 1);
    wb_dfill_uniform_f32((float *)dk, (size_t)n, 42, 0, 1);
    wb_dout o;
    float *dout = wb_dout_alloc(&o, "out", (size_t)n * 8, 0);
    size_t q[3] = { 0, 0, 0 };
    WB_CUDA(cubdev_sum(NULL, &q[0], dx, dout, n));
    WB_CUDA(cubdev_scan(NULL, &q[1], dx, dout, n));
    WB_CUDA(cubdev_sort_pairs(NULL, &q[2], dk, (unsigned *)dout, dk, (unsigned *)dout + n, n, 32));
    size_t most = q[0] > q[1] ? q[0] : q[1];
    most = most > q[2] ? most : q[2];
    void *tmp = wb_dmalloc(most);
    const char *names[3] = { "cubdev_sum", "cubdev_scan", "cubdev_sort_pairs" };
    for (int f = 0; f < 3; f++) {
        ck_assert_msg(q[f] > 1, "%s: a workspace of %zu bytes for n = 2^20? (expected more than 1)", names[f], q[f]);
        size_t small = 1;
        cudaError_t e = f == 0 ? cubdev_sum(tmp, &small, dx, dout, n)
                      : f == 1 ? cubdev_scan(tmp, &small, dx, dout, n)
                               : cubdev_sort_pairs(tmp, &small, dk, (unsigned *)dout, dk, (unsigned *)dout + n, n, 32);
        ck_assert_msg(e != cudaSuccess, "%s with a 1-byte workspace (it needs %zu) returned cudaSuccess: return CUB's error",
                      names[f], q[f]);
        cudaGetLastError();
    }
    float *got = wb_hmalloc((size_t)n * 8);
    wb_expect_dout_guards(&o, got, "calls refused for a small workspace");
    size_t written = wb_count_not_byte(got, (size_t)n * 8, 0xff);
    ck_assert_msg(written == 0, "a call refused for a small workspace still wrote %zu bytes of its output", written);
    wb_dfree(dx), wb_dfree(dk), wb_dfree(tmp), wb_dout_free(&o);
    free(got);
}
END_TEST

/* ---------------------------------------------------------------- block and warp reductions */

/* The arg-max and max-abs this week specifies, on the CPU. */
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

static void check_rows(const float *hx, int rows, int cols, const char *what)
{
    size_t n = (size_t)rows * cols;
    uint32_t *ri = wb_hmalloc((size_t)rows * 4 + 4);
    float *ra = wb_hmalloc((size_t)rows * 4 + 4);
    cpu_rows(hx, rows, cols, ri, ra);
    float *dx = wb_dcopy(hx, n * 4);
    wb_dout oi, oa;
    int *di = wb_dout_alloc(&oi, "idx", (size_t)rows * 4, 0);
    float *da = wb_dout_alloc(&oa, "amax", (size_t)rows * 4, 0);
    char w[160];
    snprintf(w, sizeof w, "cubblock_row_argmax, %s", what);
    WB_CUDA(cubblock_row_argmax(dx, rows, cols, di));
    wb_expect_dout_u32(&oi, ri, (size_t)rows, w);
    snprintf(w, sizeof w, "cubblock_row_amax, %s", what);
    WB_CUDA(cubblock_row_amax(dx, rows, cols, da));
    wb_expect_dout_f32(&oa, ra, (size_t)rows, 0, 0, w);
    wb_dfree(dx), wb_dout_free(&oi), wb_dout_free(&oa);
    free(ri), free(ra);
}

static const struct { int rows, cols; } ROW_SHAPES[] = {
    { 1, 1 }, { 3, 7 }, { 5, 255 }, { 7, 256 }, { 9, 257 }, { 100, 1000 }, { 1000, 33 }, { 17, 70001 }, { 20001, 64 }, { 0, 5 },
};

START_TEST(rows_shapes)
{
    wb_rng rng = WB_RNG();
    int rows = ROW_SHAPES[_i].rows, cols = ROW_SHAPES[_i].cols;
    size_t n = (size_t)rows * cols;
    float *hx = wb_hmalloc(n * 4 + 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    /* in every third row, a copy of the row's largest value later on: a tie */
    for (int r = 0; r < rows; r += 3) {
        float *row = hx + (size_t)r * cols;
        int best = 0;
        for (int j = 1; j < cols; j++) best = row[j] > row[best] ? j : best;
        row[(size_t)wb_rng_int(&rng, best, cols - 1)] = row[best];
    }
    char what[64];
    snprintf(what, sizeof what, "%d x %d", rows, cols);
    check_rows(hx, rows, cols, what);
    free(hx);
}
END_TEST

/* Rows made to test the rules: ties, NaN, infinities, signed zeros. */
START_TEST(rows_special)
{
    wb_rng rng = WB_RNG();
    const int rows = 8, cols = 513;
    float *hx = wb_hmalloc((size_t)rows * cols * 4);
    wb_fill_uniform_f32(&rng, hx, (size_t)rows * cols, -1, 1);
    float *r0 = hx, *r1 = hx + cols, *r2 = hx + 2 * cols, *r3 = hx + 3 * cols, *r4 = hx + 4 * cols,
          *r5 = hx + 5 * cols, *r6 = hx + 6 * cols, *r7 = hx + 7 * cols;
    for (int j = 0; j < cols; j++) r0[j] = 0.5f, r1[j] = -INFINITY, r6[j] = (j & 1) ? -0.0f : 0.0f;
    r2[300] = NAN, r2[5] = NAN, r2[9] = INFINITY;
    r3[3] = INFINITY, r3[400] = -INFINITY;
    r4[cols - 1] = 2.0f;
    r5[10] = 3.0f, r5[300] = 3.0f, r5[511] = -7.0f;
    r7[256] = -INFINITY;
    check_rows(hx, rows, cols, "ties, NaN, Inf, signed zeros");
    free(hx);
}
END_TEST

START_TEST(rows_errors)
{
    float *dx = wb_dmalloc(64 * 4);
    wb_dfill_uniform_f32(dx, 64, 7, -1, 1);
    wb_dout oi, oa;
    int *di = wb_dout_alloc(&oi, "idx", 64, 0);
    float *da = wb_dout_alloc(&oa, "amax", 64, 0);
    const struct { int rows, cols; } BAD[] = { { 4, 0 }, { -1, 16 }, { 4, -3 } };
    for (size_t k = 0; k < WB_COUNT(BAD); k++) {
        cudaError_t e1 = cubblock_row_argmax(dx, BAD[k].rows, BAD[k].cols, di), e2 = cubblock_row_amax(dx, BAD[k].rows,
                                                                                                       BAD[k].cols, da);
        ck_assert_msg(e1 == cudaErrorInvalidValue && e2 == cudaErrorInvalidValue,
                      "rows=%d cols=%d: cubblock_row_argmax returned %s, cubblock_row_amax %s; expected "
                      "cudaErrorInvalidValue", BAD[k].rows, BAD[k].cols, cudaGetErrorName(e1), cudaGetErrorName(e2));
    }
    cudaGetLastError();
    unsigned char got[64];
    wb_expect_dout_guards(&oi, got, "refused shapes");
    ck_assert_msg(wb_count_not_byte(got, 64, 0xff) == 0, "cubblock_row_argmax wrote output for a refused shape");
    wb_expect_dout_guards(&oa, got, "refused shapes");
    ck_assert_msg(wb_count_not_byte(got, 64, 0xff) == 0, "cubblock_row_amax wrote output for a refused shape");
    wb_dfree(dx), wb_dout_free(&oi), wb_dout_free(&oa);
}
END_TEST

/* ---------------------------------------------------------------- Thrust */

static const size_t SIZES3[] = { 0, 1, 1000, 65537, 1000003, 1 << 24 };

START_TEST(thrust_sizes)
{
    wb_rng rng = WB_RNG();
    size_t n = SIZES3[_i];
    float *hx = wb_hmalloc(n * 4 + 4), *hy = wb_hmalloc(n * 4 + 4);
    wb_fill_uniform_f32(&rng, hx, n, -1, 1);
    wb_fill_uniform_f32(&rng, hy, n, -1, 1);
    /* The reference sum is compensated (Neumaier): a plain running sum of
     * 2^24 such terms drifts by 1.3e-12 to 1.7e-12 of the total (the bits it
     * drops are biased), past the tolerance, while the GPU's tree is within
     * 1e-15. */
    double ref = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)hx[i] - hy[i], t = d * d, s = ref + t;
        comp += fabs(ref) >= t ? (ref - s) + t : (t - s) + ref;
        ref = s;
    }
    ref += comp;
    float *dx = wb_dcopy(hx, n * 4), *dy = wb_dcopy(hy, n * 4);
    double got = NAN;
    char what[64];
    snprintf(what, sizeof what, "n=%zu", n);
    WB_CUDA(thr_sqdist(dx, dy, n, &got));
    ck_assert_msg(wb_close(got, ref, 1e-12 * ref + 1e-300, 0), "thr_sqdist, %s (seed %llu): %.17g, expected %.17g", what,
                  (unsigned long long)wb_base_seed(), got, ref);
    /* sort_by_key: keys with many repeats, values 0..n-1 (stability shows) */
    uint32_t *hk = wb_hmalloc(n * 4 + 4), *hv = wb_hmalloc(n * 4 + 4), *rk = wb_hmalloc(n * 4 + 4), *rv = wb_hmalloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) hk[i] = (uint32_t)(wb_rng_u64(&rng) % (n / 4 + 1)) * 2654435761u, hv[i] = (uint32_t)i;
    cpu_sort_pairs(hk, hv, n, rk, rv);
    wb_dout k, v;
    unsigned *dk = wb_dout_alloc(&k, "keys", n * 4, 0), *dv = wb_dout_alloc(&v, "vals", n * 4, 0);
    if (n) wb_h2d(dk, hk, n * 4), wb_h2d(dv, hv, n * 4);
    WB_CUDA(thr_sort_by_key(dk, dv, n));
    snprintf(what, sizeof what, "thr_sort_by_key, n=%zu", n);
    wb_expect_dout_u32(&k, rk, n, what);
    wb_expect_dout_u32(&v, rv, n, what);
    wb_dfree(dx), wb_dfree(dy), wb_dout_free(&k), wb_dout_free(&v);
    free(hx), free(hy), free(hk), free(hv), free(rk), free(rv);
}
END_TEST

/* With the device's memory taken, Thrust cannot allocate its workspace and
 * throws; the exercise must turn that into an error code (an exception
 * through extern "C" aborts the program), and work again once memory is
 * back. */
START_TEST(thrust_out_of_memory)
{
    const size_t n = (size_t)1 << 25;
    unsigned *dk = wb_dmalloc(n * 4), *dv = wb_dmalloc(n * 4);
    wb_dfill_uniform_f32((float *)dk, n, 51, 0, 1);
    wb_dfill_uniform_f32((float *)dv, n, 52, 0, 1);
    wb_sync();
    /* load the sort's kernels first (1M pairs take the same path as 32M): with no memory
     * left, the failure is the workspace, not loading code */
    WB_CUDA(thr_sort_by_key(dk, dv, (size_t)1 << 20));
    void *hog[1024];
    int nh = 0;
    const size_t chunks[] = { (size_t)1 << 30, (size_t)64 << 20, (size_t)4 << 20 };
    for (size_t c = 0; c < WB_COUNT(chunks); c++)
        while (nh < 1024 && cudaMalloc(&hog[nh], chunks[c]) == cudaSuccess) nh++;
    cudaGetLastError(); /* the last cudaMalloc failed on purpose */
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    cudaError_t e = thr_sort_by_key(dk, dv, n);
    for (int i = 0; i < nh; i++) cudaFree(hog[i]);
    cudaGetLastError();
    printf("  thrust_out_of_memory: %.1f MB left free; thr_sort_by_key returned %s\n", free_b / 1e6, cudaGetErrorName(e));
    ck_assert_msg(e != cudaSuccess,
                  "thr_sort_by_key with %.1f MB of device memory free (it needs about %zu MB) returned cudaSuccess",
                  free_b / 1e6, (n * 8) >> 20);
    /* memory is back: a small sort works */
    uint32_t hk[1000], hv[1000], rk[1000], rv[1000];
    wb_rng rng = WB_RNG();
    for (int i = 0; i < 1000; i++) hk[i] = (uint32_t)wb_rng_int(&rng, 0, 50), hv[i] = (uint32_t)i;
    cpu_sort_pairs(hk, hv, 1000, rk, rv);
    wb_dout k, v;
    unsigned *dk2 = wb_dout_alloc(&k, "keys", sizeof hk, 0), *dv2 = wb_dout_alloc(&v, "vals", sizeof hv, 0);
    wb_h2d(dk2, hk, sizeof hk), wb_h2d(dv2, hv, sizeof hv);
    WB_CUDA(thr_sort_by_key(dk2, dv2, 1000));
    wb_expect_dout_u32(&k, rk, 1000, "after the out-of-memory failure, n=1000");
    wb_expect_dout_u32(&v, rv, 1000, "after the out-of-memory failure, n=1000");
    wb_dfree(dk), wb_dfree(dv), wb_dout_free(&k), wb_dout_free(&v);
}
END_TEST

/* ---------------------------------------------------------------- benchmarks */

enum { SEED_A = 141, SEED_B = 142, SEED_X = 143, SEED_Y = 144 };

/* GEMM work: which = 0 cublasSgemm on the context's handle (the yardstick,
 * in whatever math mode the handle holds), 1 your blas_gemm in TF32 mode.
 * Square n: the yardstick computes row-major A B the same way (operands
 * swapped). A failed status is kept. salt: the inputs A, B now hold
 * (SEED_A + salt, SEED_B + salt); out_salt: the inputs the last call
 * computed C from (the spot check's, when it was the last timed run). */
typedef struct {
    cublasHandle_t h;
    int n, which, M, K, batch;
    const float *A, *B;
    float *C;
    cublasStatus_t status;
    unsigned long long salt, out_salt;
    double atol; /* the spot check's tolerance */
} gm_ctx;

static void keep(gm_ctx *c, cublasStatus_t s)
{
    if (s != CUBLAS_STATUS_SUCCESS && c->status == CUBLAS_STATUS_SUCCESS) c->status = s;
}

static void gm_work(void *p)
{
    gm_ctx *c = p;
    const float one = 1.0f, zero = 0.0f;
    c->out_salt = c->salt;
    if (c->which == 0) keep(c, cublasSgemm(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->n, c->n, &one, c->B, c->n, c->A, c->n, &zero, c->C, c->n));
    else keep(c, blas_gemm(c->h, W14_TF32, 0, 0, c->n, c->n, c->n, 1.0f, c->A, c->n, c->B, c->n, 0.0f, c->C, c->n));
}

/* C[i] of row-major A B (square n, or a batch of them) from the hashes. */
static double gm_expect(size_t i, const void *ctx)
{
    const gm_ctx *c = ctx;
    size_t n = (size_t)c->n, nn = n * n, b = i / nn, r = (i % nn) / n, col = i % n;
    double acc = 0;
    for (size_t k = 0; k < n; k++)
        acc += (double)wb_hash_uniform_f32(SEED_A + c->out_salt, b * nn + r * n + k, -1, 1) *
               wb_hash_uniform_f32(SEED_B + c->out_salt, b * nn + k * n + col, -1, 1);
    return acc;
}

/* The timing's spot check (wb_bench_opts): new A and B (and a poisoned C)
 * for one timed run, then that C verified. The restore (salt 0) puts the
 * first A and B back; wb_time then runs the work once more. */
static void gm_fresh(void *p, unsigned long long salt)
{
    gm_ctx *c = p;
    size_t e = (size_t)c->batch * c->n * c->n;
    c->salt = salt;
    wb_dfill_uniform_f32((float *)c->A, e, SEED_A + salt, -1, 1);
    wb_dfill_uniform_f32((float *)c->B, e, SEED_B + salt, -1, 1);
    if (salt) wb_dpoison(c->C, e * 4);
}

static int gm_check(void *p, char *why, size_t size)
{
    gm_ctx *c = p;
    wb_cmp cmp;
    if (c->status != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, size, "the call returned %s", cublasGetStatusString(c->status));
        return 1;
    }
    if (!wb_dverify_f32("C", c->C, (size_t)c->batch * c->n * c->n, gm_expect, c, 64, c->atol, 0, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

static void gm_row(gm_ctx *c, wb_bench_row *r, const wb_bench_opts *o, double atol, size_t count)
{
    c->status = CUBLAS_STATUS_SUCCESS, c->atol = atol;
    wb_dpoison(c->C, count * 4);
    wb_time(gm_work, c, o, &r->t);
    r->value = r->flops / (r->t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    if (c->status != CUBLAS_STATUS_SUCCESS) {
        char why[120];
        snprintf(why, sizeof why, "the call returned %s", cublasGetStatusString(c->status));
        wb_bench_invalid(r, why);
    } else if (wb_dverify_f32("C", c->C, count, gm_expect, c, 128, atol, 0, &cmp))
        wb_bench_invalid(r, cmp.msg);
}

/* Your GEMM in TF32 mode against cuBLAS in TF32 mode (a handle set to
 * CUBLAS_TF32_TENSOR_OP_MATH, the same call), 4096^3, on the same data;
 * cuBLAS in pedantic FP32 is printed first, a report row: what the math
 * mode buys. Your call runs on a handle in the default math mode, so the
 * TF32 must come from your blas_gemm. */
static double bench_tf32(wb_headline *h)
{
    const int n = 4096;
    size_t e = (size_t)n * n;
    gm_ctx c = { NULL, n, 0, n, n, 1, wb_dmalloc(e * 4), wb_dmalloc(e * 4), wb_dmalloc(e * 4), CUBLAS_STATUS_SUCCESS };
    wb_dfill_uniform_f32((float *)c.A, e, SEED_A, -1, 1);
    wb_dfill_uniform_f32((float *)c.B, e, SEED_B, -1, 1);
    cublasHandle_t fp32 = NULL, tf32 = NULL, mine = NULL;
    if (cublasCreate(&fp32) != CUBLAS_STATUS_SUCCESS || cublasCreate(&tf32) != CUBLAS_STATUS_SUCCESS ||
        cublasCreate(&mine) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(fp32, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(tf32, CUBLAS_TF32_TENSOR_OP_MATH) != CUBLAS_STATUS_SUCCESS)
        ck_abort_msg("cublasCreate/cublasSetMathMode failed");
    double flops = 2.0 * n * n * (double)n;
    wb_bench_opts o = { 2, 10, 1, NULL, NULL }, om = { 2, 10, 1, gm_fresh, gm_check };
    wb_bench_row p = { .exercise = "gemm", .variant = "cuBLAS SGEMM, FP32 pedantic", .n = (size_t)n, .bytes = 12.0 * e,
                       .flops = flops, .unit = "TFLOP/s" };
    c.h = fp32, c.which = 0;
    gm_row(&c, &p, &o, 2e-3, e);
    /* TF32: typical error about 1e-2 at K = 4096, a wrong product about 20 */
    wb_bench_row y = { .exercise = "gemm", .variant = "cuBLAS SGEMM, TF32 tensor ops", .n = (size_t)n, .bytes = 12.0 * e,
                       .flops = flops, .unit = "TFLOP/s" };
    c.h = tf32, c.which = 0;
    gm_row(&c, &y, &o, 0.25, e);
    p.yard_name = "cuBLAS", p.yard = y.invalid ? NAN : y.value;
    wb_bench_emit(&p);
    wb_bench_emit(&y);
    wb_bench_row r = { .exercise = "gemm", .variant = "blas_gemm, W14_TF32", .n = (size_t)n, .bytes = 12.0 * e,
                       .flops = flops, .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = y.invalid ? NAN : y.value };
    c.h = mine, c.which = 1;
    gm_row(&c, &r, &om, 0.25, e);
    cublasDestroy(fp32), cublasDestroy(tf32), cublasDestroy(mine);
    wb_dfree((void *)c.A), wb_dfree((void *)c.B), wb_dfree(c.C);
    return wb_bench_headline(&r, h);
}

/* Batched work: which = 0 a loop of cublasSgemm calls (the yardstick),
 * 1 your strided-batched call. */
static void bt_work(void *p)
{
    gm_ctx *c = p;
    const float one = 1.0f, zero = 0.0f;
    size_t nn = (size_t)c->n * c->n;
    c->out_salt = c->salt;
    if (c->which == 0)
        for (int b = 0; b < c->batch; b++)
            keep(c, cublasSgemm(c->h, CUBLAS_OP_N, CUBLAS_OP_N, c->n, c->n, c->n, &one, c->B + b * nn, c->n, c->A + b * nn,
                                c->n, &zero, c->C + b * nn, c->n));
    else keep(c, blas_gemm_strided(c->h, c->n, c->n, c->n, c->A, (long long)nn, c->B, (long long)nn, c->C, (long long)nn, c->batch));
}

static void bt_row(gm_ctx *c, wb_bench_row *r, const wb_bench_opts *o, size_t count)
{
    c->status = CUBLAS_STATUS_SUCCESS, c->atol = 1e-3;
    wb_dpoison(c->C, count * 4);
    wb_time(bt_work, c, o, &r->t);
    r->value = r->flops / (r->t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    if (c->status != CUBLAS_STATUS_SUCCESS) {
        char why[120];
        snprintf(why, sizeof why, "the call returned %s", cublasGetStatusString(c->status));
        wb_bench_invalid(r, why);
    } else if (wb_dverify_f32("C", c->C, count, gm_expect, c, 512, 1e-3, 0, &cmp))
        wb_bench_invalid(r, cmp.msg);
}

/* 4096 GEMMs of 64^3: one strided-batched call against 4096 calls. */
static double bench_strided(wb_headline *h)
{
    const int n = 64, batch = 4096;
    size_t e = (size_t)batch * n * n;
    gm_ctx c = { NULL, n, 0, n, n, batch, wb_dmalloc(e * 4), wb_dmalloc(e * 4), wb_dmalloc(e * 4), CUBLAS_STATUS_SUCCESS };
    wb_dfill_uniform_f32((float *)c.A, e, SEED_A, -1, 1);
    wb_dfill_uniform_f32((float *)c.B, e, SEED_B, -1, 1);
    if (cublasCreate(&c.h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(c.h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
        ck_abort_msg("cublasCreate/cublasSetMathMode failed");
    double flops = 2.0 * n * n * (double)n * batch;
    wb_bench_opts lo = { 1, 5, 1, NULL, NULL }, so = { 3, 20, 1, gm_fresh, gm_check };
    wb_bench_row y = { .exercise = "batched", .variant = "4096 x cublasSgemm, 64^3", .n = (size_t)batch, .bytes = 12.0 * e,
                       .flops = flops, .unit = "TFLOP/s" };
    c.which = 0;
    bt_row(&c, &y, &lo, e);
    wb_bench_emit(&y);
    wb_bench_row r = { .exercise = "batched", .variant = "blas_gemm_strided, 4096 x 64^3", .n = (size_t)batch,
                       .bytes = 12.0 * e, .flops = flops, .unit = "TFLOP/s", .yard_name = "LOOP", .yard = y.value };
    c.which = 1;
    bt_row(&c, &r, &so, e);
    cublasDestroy(c.h);
    wb_dfree((void *)c.A), wb_dfree((void *)c.B), wb_dfree(c.C);
    return wb_bench_headline(&r, h);
}

/* Sort work on fixed inputs (cubdev_sort_pairs does not modify them). hk:
 * the host copy of the keys; salt: the keys k now holds (0: hk, else
 * hk_fresh, the spot check's); out_salt: the keys the last call sorted. */
typedef struct {
    const unsigned *k, *v;
    unsigned *ko, *vo;
    int n, end_bit, thrust;
    void *tmp;
    size_t tmp_bytes;
    cudaError_t status;
    const uint32_t *hk;
    uint32_t *hk_fresh;
    unsigned long long salt, out_salt;
} so_ctx;

static void so_work(void *p)
{
    so_ctx *c = p;
    c->out_salt = c->salt;
    cudaError_t e = c->thrust ? thr_sort_by_key(c->ko, c->vo, (size_t)c->n)
                              : cubdev_sort_pairs(c->tmp, &c->tmp_bytes, c->k, c->ko, c->v, c->vo, c->n, c->end_bit);
    if (e != cudaSuccess && c->status == cudaSuccess) c->status = e;
}

/* Keys below 2^16 from a hash (salt: another set), values 0..n-1 (when hv
 * is not NULL), on the host. */
static void sort_inputs(uint32_t *hk, uint32_t *hv, size_t n, unsigned long long salt)
{
    for (size_t i = 0; i < n; i++) {
        hk[i] = (uint32_t)(wb_hash_uniform_f32(SEED_X + salt, i, 0, 1) * 65536.0f) & 0xffffu;
        if (hv) hv[i] = (uint32_t)i;
    }
}

/* The timed output is sorted, stable, and the same pairs as the input. */
static int sort_ok(const so_ctx *c, char *why, size_t whysz)
{
    const uint32_t *hk = c->out_salt ? c->hk_fresh : c->hk;
    if (c->status != cudaSuccess) {
        snprintf(why, whysz, "the call returned %s", cudaGetErrorName(c->status));
        return 0;
    }
    size_t n = (size_t)c->n;
    uint32_t *k = wb_hmalloc(n * 4), *v = wb_hmalloc(n * 4);
    wb_d2h(k, c->ko, n * 4), wb_d2h(v, c->vo, n * 4);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        if (v[i] >= n || k[i] != hk[v[i]]) snprintf(why, whysz, "pair %zu (%u, %u) is not an input pair", i, k[i], v[i]), ok = 0;
        else if (i && (k[i] < k[i - 1] || (k[i] == k[i - 1] && v[i] <= v[i - 1])))
            snprintf(why, whysz, "pairs %zu and %zu out of order (or not stable)", i - 1, i), ok = 0;
    }
    free(k), free(v);
    return ok; /* sorted, stable and every pair an input pair: a permutation */
}

/* The timing's spot check (wb_bench_opts): new keys (the values stay
 * 0..n-1) and poisoned outputs for one timed run, then that run's output
 * checked. The restore (salt 0) puts the first keys back; wb_time then runs
 * the work once more. */
static void so_fresh(void *p, unsigned long long salt)
{
    so_ctx *c = p;
    size_t n = (size_t)c->n;
    c->salt = salt;
    if (salt) sort_inputs(c->hk_fresh, NULL, n, salt);
    wb_h2d((void *)c->k, salt ? c->hk_fresh : c->hk, n * 4);
    if (salt) wb_dpoison(c->ko, n * 4), wb_dpoison(c->vo, n * 4);
}

static int so_check(void *p, char *why, size_t size) { return !sort_ok(p, why, size); }

static void so_row(so_ctx *c, wb_bench_row *r, const wb_bench_opts *o)
{
    c->status = cudaSuccess;
    wb_dpoison(c->ko, (size_t)c->n * 4), wb_dpoison(c->vo, (size_t)c->n * 4);
    wb_time(so_work, c, o, &r->t);
    r->value = c->n / (r->t.median * 1e-3) / 1e9;
    char why[160];
    if (!sort_ok(c, why, sizeof why)) wb_bench_invalid(r, why);
}

static double bench_sort(wb_headline *h)
{
    const int n = 1 << 25;
    size_t bytes = (size_t)n * 4;
    uint32_t *hk = wb_hmalloc(bytes), *hv = wb_hmalloc(bytes);
    sort_inputs(hk, hv, (size_t)n, 0);
    so_ctx c = { .k = wb_dcopy(hk, bytes), .v = wb_dcopy(hv, bytes), .ko = wb_dmalloc(bytes), .vo = wb_dmalloc(bytes),
                 .n = n, .end_bit = 32, .status = cudaSuccess, .hk = hk, .hk_fresh = wb_hmalloc(bytes) };
    size_t q32 = 0, q16 = 0;
    WB_CUDA(cubdev_sort_pairs(NULL, &q32, c.k, c.ko, c.v, c.vo, n, 32));
    WB_CUDA(cubdev_sort_pairs(NULL, &q16, c.k, c.ko, c.v, c.vo, n, 16));
    c.tmp_bytes = q32 > q16 ? q32 : q16;
    c.tmp = wb_dmalloc(c.tmp_bytes);
    wb_bench_row y = { .exercise = "sort", .variant = "dev_sort_pairs, all 32 bits", .n = (size_t)n, .bytes = 16.0 * n,
                       .unit = "Gpairs/s" };
    so_row(&c, &y, NULL);
    wb_bench_emit(&y);
    c.end_bit = 16;
    wb_bench_row r = { .exercise = "sort", .variant = "dev_sort_pairs, end_bit 16", .n = (size_t)n, .bytes = 16.0 * n,
                       .unit = "Gpairs/s", .yard_name = "ALLBITS", .yard = y.value };
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = so_fresh, o.check = so_check;
    so_row(&c, &r, &o);
    wb_dfree((void *)c.k), wb_dfree((void *)c.v), wb_dfree(c.ko), wb_dfree(c.vo), wb_dfree(c.tmp);
    free(hk), free(hv), free(c.hk_fresh);
    return wb_bench_headline(&r, h);
}

/* ---------------------------------------------------------------- the ladder: week 07 against the library */

typedef struct {
    const float *x, *x2;
    float *y;
    int n, which; /* 0 cubdev_sum, 1 week 07 v6, 2 cubdev_scan, 3 week 07 scan_fast, 4 thr_sqdist */
    void *tmp;
    size_t tmp_bytes;
    double host;
    cudaError_t status;
} ld_ctx;

static void ld_work(void *p)
{
    ld_ctx *c = p;
    cudaError_t e = cudaSuccess;
    switch (c->which) {
    case 0: e = cubdev_sum(c->tmp, &c->tmp_bytes, c->x, c->y, c->n); break;
    case 1: e = reduce_sum(6, c->x, (size_t)c->n, c->y, c->tmp); break;
    case 2: e = cubdev_scan(c->tmp, &c->tmp_bytes, c->x, c->y, c->n); break;
    case 3: e = scan_fast(c->x, c->y, (size_t)c->n, c->tmp); break;
    default: e = thr_sqdist(c->x, c->x2, (size_t)c->n, &c->host); break;
    }
    if (e != cudaSuccess && c->status == cudaSuccess) c->status = e;
}

static double ld_expect(size_t i, const void *ctx) { return ((const double *)ctx)[i]; }

static void ld_row(ld_ctx *c, int which, wb_bench_row *r, const double *want, size_t count, double atol, double rtol)
{
    c->which = which, c->status = cudaSuccess;
    wb_dpoison(c->y, count * 4);
    wb_time(ld_work, c, NULL, &r->t);
    r->value = r->bytes / (r->t.median * 1e-3) / 1e9;
    wb_cmp cmp;
    if (c->status != cudaSuccess) wb_bench_invalid(r, cudaGetErrorName(c->status));
    else if (which == 4) {
        if (!wb_close(c->host, want[0], rtol * fabs(want[0]), 0)) wb_bench_invalid(r, "thr_sqdist: wrong sum");
    } else if (wb_dverify_f32("out", c->y, count, ld_expect, want, 1 << 12, atol, rtol, &cmp))
        wb_bench_invalid(r, cmp.msg);
}

/* Week 07's reduce v6 and reduce-then-scan against CUB through this week's
 * wrappers, Thrust's sort against CUB's, and Thrust's transform_reduce
 * against a copy: the figures for the README's decision table. */
static double bench_ladder(void)
{
    size_t bytes = wb_bench_bytes(), nn = bytes / 4;
    if (nn > ((size_t)1 << 30)) nn = (size_t)1 << 30, bytes = nn * 4;
    int n = (int)nn;
    ld_ctx c = { wb_dmalloc(bytes), wb_dmalloc(bytes), wb_dmalloc(bytes), n, 0, NULL, 0, 0, cudaSuccess };
    wb_dfill_uniform_f32((float *)c.x, nn, SEED_X, 0, 1);
    wb_dfill_uniform_f32((float *)c.x2, nn, SEED_Y, 0, 1);
    size_t q_sum = 0, q_scan = 0;
    WB_CUDA(cubdev_sum(NULL, &q_sum, c.x, c.y, n));
    WB_CUDA(cubdev_scan(NULL, &q_scan, c.x, c.y, n));
    size_t most = q_sum;
    most = most > q_scan ? most : q_scan;
    most = most > reduce_tmp_bytes(nn) ? most : reduce_tmp_bytes(nn);
    most = most > scan_tmp_bytes(nn) ? most : scan_tmp_bytes(nn);
    c.tmp = wb_dmalloc(most), c.tmp_bytes = most;
    float *h = wb_hmalloc(bytes), *h2 = wb_hmalloc(bytes);
    double *prefix = wb_hmalloc(nn * 8), sq = 0;
    wb_d2h(h, c.x, bytes), wb_d2h(h2, c.x2, bytes);
    double acc = 0;
    for (size_t i = 0; i < nn; i++) {
        double d = (double)h[i] - h2[i];
        acc += h[i], prefix[i] = acc, sq += d * d;
    }
    free(h), free(h2);
    double copy = wb_yard_copy_gbps(bytes);
    wb_bench_row cs = { .exercise = "ladder", .variant = "CUB DeviceReduce::Sum (dev_sum)", .n = nn, .bytes = 4.0 * nn, .unit = "GB/s",
                        .yard_name = "COPY", .yard = copy };
    ld_row(&c, 0, &cs, &prefix[nn - 1], 1, 1e-5 * acc, 0);
    wb_bench_emit(&cs);
    wb_bench_row w6 = { .exercise = "ladder", .variant = "week 07 reduce v6", .n = nn, .bytes = 4.0 * nn, .unit = "GB/s",
                        .yard_name = "CUB", .yard = cs.value };
    ld_row(&c, 1, &w6, &prefix[nn - 1], 1, 1e-5 * acc, 0);
    wb_bench_emit(&w6);
    wb_bench_row cc = { .exercise = "ladder", .variant = "CUB InclusiveSum (dev_scan)", .n = nn, .bytes = 8.0 * nn, .unit = "GB/s",
                        .yard_name = "COPY", .yard = copy };
    ld_row(&c, 2, &cc, prefix, nn, 1e-2, 1e-4);
    wb_bench_emit(&cc);
    wb_bench_row wf = { .exercise = "ladder", .variant = "week 07 reduce-then-scan", .n = nn, .bytes = 8.0 * nn, .unit = "GB/s",
                        .yard_name = "CUB", .yard = cc.value };
    ld_row(&c, 3, &wf, prefix, nn, 1e-2, 1e-4);
    wb_bench_emit(&wf);
    wb_bench_row ts = { .exercise = "ladder", .variant = "Thrust transform_reduce (thr_sqdist)", .n = nn, .bytes = 8.0 * nn,
                        .unit = "GB/s", .yard_name = "COPY", .yard = copy };
    ld_row(&c, 4, &ts, &sq, 0, 0, 1e-9);
    wb_bench_emit(&ts);
    free(prefix);
    wb_dfree((void *)c.x), wb_dfree((void *)c.x2), wb_dfree(c.y), wb_dfree(c.tmp);

    /* sort: CUB over all 32 bits and over 16, Thrust's sort_by_key (in place: the keys are copied in first, untimed) */
    const int ns = 1 << 25;
    size_t sb = (size_t)ns * 4;
    uint32_t *hk = wb_hmalloc(sb), *hv = wb_hmalloc(sb);
    sort_inputs(hk, hv, (size_t)ns, 0);
    so_ctx s = { .k = wb_dcopy(hk, sb), .v = wb_dcopy(hv, sb), .ko = wb_dmalloc(sb), .vo = wb_dmalloc(sb), .n = ns,
                 .end_bit = 32, .status = cudaSuccess, .hk = hk };
    WB_CUDA(cubdev_sort_pairs(NULL, &s.tmp_bytes, s.k, s.ko, s.v, s.vo, ns, 32));
    s.tmp = wb_dmalloc(s.tmp_bytes);
    wb_bench_row c32 = { .exercise = "ladder", .variant = "CUB SortPairs, 32 bits", .n = (size_t)ns, .bytes = 16.0 * ns, .unit = "Gpairs/s" };
    so_row(&s, &c32, NULL);
    wb_bench_emit(&c32);
    /* Thrust sorts in place: each timed run sorts the output of the last
     * (already sorted: a radix sort does the same passes on it) */
    WB_CUDA(cudaMemcpy(s.ko, s.k, sb, cudaMemcpyDeviceToDevice));
    WB_CUDA(cudaMemcpy(s.vo, s.v, sb, cudaMemcpyDeviceToDevice));
    s.thrust = 1, s.status = cudaSuccess;
    wb_bench_row th = { .exercise = "ladder", .variant = "Thrust sort_by_key, 32 bits", .n = (size_t)ns, .bytes = 16.0 * ns,
                        .unit = "Gpairs/s", .yard_name = "CUB", .yard = c32.value };
    wb_time(so_work, &s, NULL, &th.t);
    th.value = ns / (th.t.median * 1e-3) / 1e9;
    char why[160];
    if (!sort_ok(&s, why, sizeof why)) wb_bench_invalid(&th, why);
    wb_bench_emit(&th);
    wb_dfree((void *)s.k), wb_dfree((void *)s.v), wb_dfree(s.ko), wb_dfree(s.vo), wb_dfree(s.tmp);
    free(hk), free(hv);
    return NAN;
}

static const wb_test TESTS[] = {
    { "w14.tf32", WB_T(tf32_cases), WB_CPU, 0 },
    { "w14.tf32", WB_T(tf32_random), WB_CPU, 0 },
    { "w14.blas1", WB_T(blas1_sizes), WB_GPU, WB_COUNT(SIZES1) },
    { "w14.blas1", WB_T(blas1_null_handle), WB_GPU, 0 },
    { "w14.gemm", WB_T(gemm_shapes), WB_GPU, WB_COUNT(GEMM_SHAPES) },
    { "w14.gemm", WB_T(gemm_errors), WB_GPU, 0 },
    { "w14.batched", WB_T(batched_cases), WB_GPU, WB_COUNT(BATCH_CASES) },
    { "w14.mathmodes", WB_T(mathmodes), WB_GPU, 0 },
    WB_SPEED("w14.tf32-speed", bench_tf32),
    WB_SPEED("w14.strided-speed", bench_strided),
    { "w14.cubdev", WB_T(cub_sizes), WB_GPU, WB_COUNT(SIZES2) },
    { "w14.cubdev", WB_T(cub_float_nan_inf), WB_GPU, 3 },
    { "w14.cubdev", WB_T(cub_small_workspace), WB_GPU, 0 },
    WB_SPEED("w14.sort-speed", bench_sort),
    { "w14.blockwarp", WB_T(rows_shapes), WB_GPU, WB_COUNT(ROW_SHAPES) },
    { "w14.blockwarp", WB_T(rows_special), WB_GPU, 0 },
    { "w14.blockwarp", WB_T(rows_errors), WB_GPU, 0 },
    { "w14.thrust", WB_T(thrust_sizes), WB_GPU, WB_COUNT(SIZES3) },
    { "w14.thrust", WB_T(thrust_out_of_memory), WB_GPU, 0 },
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
