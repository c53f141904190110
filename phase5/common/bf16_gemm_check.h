/* bf16_gemm_check.h — what the tests of Phase 5's Hopper-track BF16 GEMMs
 * (weeks 54 and 55) share, as hgemm_check.h is for weeks 25-28: the
 * tolerance, the check of one shape against a double-precision CPU
 * reference, the sampled check of a large shape on inputs filled on the
 * device from two seeds, the contract's refusals (on real buffers, and on
 * the CPU), the yardstick's own check, and the timing rows against
 * cublasGemmEx on the same data in the same run.
 *
 * Included by exactly one test file per binary (it defines static inline
 * functions). Every GEMM here has the contract of week 54's wgmma_gemm_bf16
 * (bf16_gemm_fn): C (M x N float, ldc floats a row) = A B^T, A (M x K) and
 * B (N x K) row-major BF16 bit patterns, both K-major. A GEMM whose grid
 * can be chosen (week 55's ws_gemm_bf16_grid) comes as well as a
 * bf16_gemm_grid_fn, and the checks then run it on each shape's grid. */
#ifndef PHASE5_BF16_GEMM_CHECK_H
#define PHASE5_BF16_GEMM_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "wb_harness.h"
#include "bf16_host.h"    /* wb_f32_to_bf16, wb_bf16_to_f32, bf16_gemm_cublas_tn */

/* Tolerance. A product of two BF16 values (8-bit significands) is exact in
 * FP32, so only the FP32 accumulation errs. Take it pessimistically: one
 * rounding (up to an ulp, 2^-23 relative) per 8 products summed (the tensor
 * core adds a k8 or k16 group to the accumulator at a time), on partial sums
 * that for inputs in [-1, 1] stay below about 2 sqrt(K) (their spread is
 * sqrt(K) / 3): |err| <= K / 8 * 2^-23 * 2 sqrt(K) = K^1.5 * 2^-25
 * (0.0078 at K = 4096, 1.5e-5 at K = 64). A C rounded through BF16 (2^-9
 * relative, 0.04 on a typical element at K = 4096), a dropped k16 slice, a
 * slice read twice or a stage read before it was full fails by far. */
static inline double bf16_gemm_atol(int K) { return 1e-6 + pow((double)K, 1.5) * ldexp(1.0, -25); }
#define BF16_GEMM_RTOL 1.5e-5

/* The GEMM under test. */
typedef cudaError_t (*bf16_gemm_fn)(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc);
typedef cudaError_t (*bf16_gemm_grid_fn)(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K,
                                         size_t ldc, int grid);
typedef struct {
    const char *name; /* as the messages name it */
    bf16_gemm_fn fn;
    const char *grid_name; /* the same GEMM with the grid chosen (grid 0: its own choice), or NULL */
    bf16_gemm_grid_fn grid_fn;
} bf16_gemm_api;

/* ---------------------------------------------------------------- correctness, every element */

typedef struct {
    int M, N, K;
    int pad;     /* ldc = N + pad */
    int off;     /* C starts `off` floats past a 256-byte boundary (odd: 4-byte aligned only; 2: 8-byte) */
    int special; /* 1: a NaN in A, +Inf and -Inf in B */
    int grid;    /* CTAs, where the GEMM takes a grid (0: one per SM) */
} bf16_gemm_shape;

/* One case: A (M x K) and B (N x K) uniform in [-1, 1] rounded to BF16 (and
 * the non-finite values `special` plants), C = A B^T in double on the CPU,
 * run (through grid_fn on s.grid where the API has one) into a poisoned C
 * of M rows of ldc floats with guard bands; every element of the M x N
 * result compared, every padding float still the poison, the guards
 * untouched. */
static inline void bf16_check_gemm(const bf16_gemm_api *api, wb_rng *rng, bf16_gemm_shape s)
{
    const size_t M = (size_t)s.M, N = (size_t)s.N, K = (size_t)s.K, ldc = N + (size_t)s.pad;
    const size_t na = M * K, nb = N * K, nc = M * ldc;
    float *fa = wb_hmalloc((na + 1) * 4), *fb = wb_hmalloc((nb + 1) * 4);
    uint16_t *ha = wb_hmalloc((na + 1) * 2), *hb = wb_hmalloc((nb + 1) * 2);
    wb_fill_uniform_f32(rng, fa, na, -1, 1);
    wb_fill_uniform_f32(rng, fb, nb, -1, 1);
    if (s.special && na && nb) {
        fa[wb_rng_int(rng, 0, (int64_t)na - 1)] = NAN;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = INFINITY;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = -INFINITY;
    }
    for (size_t i = 0; i < na; i++) ha[i] = wb_f32_to_bf16(fa[i]), fa[i] = wb_bf16_to_f32(ha[i]);
    for (size_t i = 0; i < nb; i++) hb[i] = wb_f32_to_bf16(fb[i]), fb[i] = wb_bf16_to_f32(hb[i]);
    double *ref = wb_hmalloc((M * N + 1) * 8);
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            const float *a = fa + i * K, *b = fb + j * K;
            double acc = 0;
            for (size_t k = 0; k < K; k++) acc += (double)a[k] * b[k];
            ref[i * N + j] = acc;
        }
    uint16_t *dA = wb_dcopy(ha, na * 2), *dB = wb_dcopy(hb, nb * 2);
    wb_dout o;
    float *dC = wb_dout_alloc(&o, "C", nc * 4, (size_t)s.off * 4);
    const char *aligned = s.off % 2 ? " (C 4-byte aligned)"
                          : s.off % 4 ? " (C 8-byte aligned)"
                          : s.off     ? " (C 16-byte aligned, not 256)"
                                      : "";
    const char *special = s.special ? " with NaN, +Inf and -Inf inputs" : "";
    char what[200];
    cudaError_t e;
    if (api->grid_fn) {
        snprintf(what, sizeof what, "M=%d N=%d K=%d ldc=%zu, grid %d%s%s%s", s.M, s.N, s.K, ldc, s.grid,
                 s.grid ? "" : " (one CTA per SM)", aligned, special);
        e = api->grid_fn(dA, dB, dC, s.M, s.N, s.K, ldc, s.grid);
    } else {
        snprintf(what, sizeof what, "M=%d N=%d K=%d ldc=%zu%s%s", s.M, s.N, s.K, ldc, aligned, special);
        e = api->fn(dA, dB, dC, s.M, s.N, s.K, ldc);
    }
    ck_assert_msg(e == cudaSuccess, "%s: %s returned %s", what, api->grid_fn ? api->grid_name : api->name,
                  cudaGetErrorName(e));
    float *h = wb_hmalloc(nc * 4 + 4), *got = wb_hmalloc((M * N + 1) * 4);
    wb_expect_dout_guards(&o, h, what);
    for (size_t i = 0; i < M; i++) {
        memcpy(got + i * N, h + i * ldc, N * 4);
        for (size_t j = N; j < ldc; j++) {
            uint32_t bits;
            memcpy(&bits, h + i * ldc + j, 4);
            if (bits != 0xFFFFFFFFu)
                ck_abort_msg("%s: C[%zu * ldc + %zu] is row padding (column %zu >= N) and was written (0x%08x)", what,
                             i, j, j, bits);
        }
    }
    wb_cmp cmp;
    wb_compare_f32_f64("C", got, ref, M * N, bf16_gemm_atol(s.K), BF16_GEMM_RTOL, &cmp);
    WB_EXPECT_CMP(cmp, what);
    wb_dout_free(&o);
    wb_dfree(dA), wb_dfree(dB);
    free(fa), free(fb), free(ha), free(hb), free(ref), free(h), free(got);
}

/* ---------------------------------------------------------------- large shapes, sampled */

/* Inputs filled on the device from two seeds (wb_dfill_uniform_bf16), so that
 * the host can replay any element of A B^T without copying them back. */
typedef struct {
    uint16_t *A, *B;
    float *C;
    int M, N, K;
    unsigned long long sa, sb;
} bf16_seeded;

static inline bf16_seeded bf16_seeded_open(int M, int N, int K, unsigned long long sa, unsigned long long sb)
{
    bf16_seeded g = { wb_dmalloc((size_t)M * K * 2), wb_dmalloc((size_t)N * K * 2), wb_dmalloc((size_t)M * N * 4),
                      M, N, K, sa, sb };
    wb_dfill_uniform_bf16(g.A, (size_t)M * K, sa, -1, 1);
    wb_dfill_uniform_bf16(g.B, (size_t)N * K, sb, -1, 1);
    wb_dpoison(g.C, (size_t)M * N * 4);
    return g;
}

static inline void bf16_seeded_close(bf16_seeded *g) { wb_dfree(g->A), wb_dfree(g->B), wb_dfree(g->C); }

/* Element i of a filled matrix as the device holds it: the hash, rounded to BF16. */
static inline double bf16_seeded_at(unsigned long long seed, size_t i)
{
    return wb_bf16_to_f32(wb_f32_to_bf16(wb_hash_uniform_f32(seed, i, -1, 1)));
}

/* Element i of A B^T over the replayed BF16 values, in double: row r of A
 * and row c of B, both K long. */
static inline double bf16_seeded_expect(size_t i, const void *p)
{
    const bf16_seeded *g = p;
    const size_t K = (size_t)g->K, a = i / (size_t)g->N * K, b = i % (size_t)g->N * K;
    double s = 0;
    for (size_t k = 0; k < K; k++) s += bf16_seeded_at(g->sa, a + k) * bf16_seeded_at(g->sb, b + k);
    return s;
}

static inline size_t bf16_seeded_verify(const bf16_seeded *g, size_t samples, wb_cmp *cmp)
{
    return wb_dverify_f32("C", g->C, (size_t)g->M * g->N, bf16_seeded_expect, g, samples, bf16_gemm_atol(g->K),
                          BF16_GEMM_RTOL, cmp);
}

/* Wait for g's C, then check `samples` random elements of it (and its first
 * and last 64) against the replayed product; fail the test naming `who`. */
static inline void bf16_expect_seeded(const bf16_seeded *g, size_t samples, const char *who)
{
    wb_sync();
    wb_cmp cmp;
    bf16_seeded_verify(g, samples, &cmp);
    char what[160];
    snprintf(what, sizeof what, "%s, M=%d N=%d K=%d (%zu sampled elements)", who, g->M, g->N, g->K, samples);
    WB_EXPECT_CMP(cmp, what);
}

/* ---------------------------------------------------------------- the contract's refusals */

typedef struct {
    int M, N, K;
    size_t ldc;
    int a_off, b_off; /* in halves past a 256-byte boundary */
    const char *why;
    int grid; /* passed to grid_fn (a GEMM without one is called only on grid 0 cases) */
} bf16_refused_case;

/* Case c on these pointers (A and B offset as the case says): refused with
 * cudaErrorInvalidValue, by grid_fn (where the API has one) and, where the
 * case's grid is 0, by fn too. */
static inline void bf16_expect_refused(const bf16_gemm_api *api, const bf16_refused_case *c, const uint16_t *A,
                                       const uint16_t *B, float *C)
{
    cudaError_t e;
    if (api->grid_fn) {
        e = api->grid_fn(A + c->a_off, B + c->b_off, C, c->M, c->N, c->K, c->ldc, c->grid);
        ck_assert_msg(e == cudaErrorInvalidValue, "%s: %s must refuse it with cudaErrorInvalidValue, got %s", c->why,
                      api->grid_name, cudaGetErrorName(e));
        if (c->grid) return;
    }
    e = api->fn(A + c->a_off, B + c->b_off, C, c->M, c->N, c->K, c->ldc);
    ck_assert_msg(e == cudaErrorInvalidValue, "%s: %s must refuse it with cudaErrorInvalidValue, got %s", c->why,
                  api->name, cudaGetErrorName(e));
}

/* On real buffers: case c refused, and C (poisoned) untouched. */
static inline void bf16_check_refused(const bf16_gemm_api *api, const bf16_refused_case *c)
{
    uint16_t *A = wb_dmalloc(4096), *B = wb_dmalloc(4096);
    wb_dout o;
    const size_t nc = 256;
    uint32_t *poison = wb_hmalloc(nc * 4);
    memset(poison, 0xFF, nc * 4);
    bf16_expect_refused(api, c, A, B, wb_dout_alloc(&o, "C", nc * 4, 0));
    wb_expect_dout_u32(&o, poison, nc, c->why);
    free(poison);
    wb_dout_free(&o), wb_dfree(A), wb_dfree(B);
}

/* The host side of the contract, no GPU needed: the n cases refused before
 * any CUDA call (the pointers, never dereferenced, are made up), empty
 * shapes accepted without one (NULL pointers; through grid_fn, on the grid
 * in the last column, where the API has one). */
static inline void bf16_check_contract(const bf16_gemm_api *api, const bf16_refused_case *refused, size_t n)
{
    const uintptr_t P = 0x7f0000000000ull;
    for (size_t i = 0; i < n; i++)
        bf16_expect_refused(api, &refused[i], (const uint16_t *)P, (const uint16_t *)(P + 65536),
                            (float *)(P + 131072));
    const int E[][4] = { { 0, 8, 8, 0 }, { 8, 0, 8, 0 }, { 0, 0, 0, 0 }, { 0, 5, 16, 3 } };
    for (size_t i = 0; i < WB_COUNT(E); i++) {
        if (api->grid_fn) {
            cudaError_t e = api->grid_fn(NULL, NULL, NULL, E[i][0], E[i][1], E[i][2], 8, E[i][3]);
            ck_assert_msg(e == cudaSuccess,
                          "M=%d N=%d K=%d grid %d with NULL pointers: an empty C is cudaSuccess, got %s", E[i][0],
                          E[i][1], E[i][2], E[i][3], cudaGetErrorName(e));
        } else {
            cudaError_t e = api->fn(NULL, NULL, NULL, E[i][0], E[i][1], E[i][2], 8);
            ck_assert_msg(e == cudaSuccess, "M=%d N=%d K=%d with NULL pointers: an empty C is cudaSuccess, got %s",
                          E[i][0], E[i][1], E[i][2], cudaGetErrorName(e));
        }
    }
}

/* ---------------------------------------------------------------- speed against cuBLAS */

/* The yardstick itself, on a small shape against the CPU: cuBLAS's TN call
 * (bf16_host.h) must compute the same C = A B^T, or its figure measures
 * some other product. M != N, so a swapped operand or leading dimension
 * fails; 60000 samples of the 60000 elements. */
static inline void bf16_check_yardstick(unsigned long long sa, unsigned long long sb)
{
    bf16_seeded g = bf16_seeded_open(200, 300, 72, sa, sb);
    cublasHandle_t h;
    ck_assert_msg(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    cublasStatus_t st = bf16_gemm_cublas_tn(h, g.M, g.N, g.K, g.A, g.B, g.C, g.N);
    ck_assert_msg(st == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(st));
    bf16_expect_seeded(&g, 60000, "the yardstick (cublasGemmEx, TN)");
    cublasDestroy(h);
    bf16_seeded_close(&g);
}

/* n^3 inputs from seeds sa, sb (and sa + 1000 salt, sb + 1000 salt for
 * wb_time's fresh ones), a cuBLAS handle, and the GEMM a row times. */
typedef struct {
    bf16_seeded g;
    cublasHandle_t h;
    bf16_gemm_fn fn;          /* NULL: the work is cuBLAS's call */
    const char *exercise;     /* the rows' exercise */
    unsigned long long sa, sb; /* the seeds */
} bf16_speed_run;

static inline bf16_speed_run bf16_speed_open(const char *exercise, int n, unsigned long long sa, unsigned long long sb)
{
    bf16_speed_run r = { bf16_seeded_open(n, n, n, sa, sb), NULL, NULL, exercise, sa, sb };
    ck_assert_msg(cublasCreate(&r.h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    return r;
}

static inline void bf16_speed_close(bf16_speed_run *r)
{
    cublasDestroy(r->h);
    bf16_seeded_close(&r->g);
}

static inline void bf16_speed_work(void *p)
{
    bf16_speed_run *r = p;
    if (!r->fn) {
        cublasStatus_t s = bf16_gemm_cublas_tn(r->h, r->g.M, r->g.N, r->g.K, r->g.A, r->g.B, r->g.C, r->g.N);
        ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(s));
    } else {
        WB_CUDA(r->fn(r->g.A, r->g.B, r->g.C, r->g.M, r->g.N, r->g.K, (size_t)r->g.N));
    }
}

/* Fresh inputs for wb_time's spot check: new seeds, a poisoned C. */
static inline void bf16_speed_fresh(void *p, unsigned long long salt)
{
    bf16_speed_run *r = p;
    r->g.sa = r->sa + 1000 * salt, r->g.sb = r->sb + 1000 * salt;
    wb_dfill_uniform_bf16(r->g.A, (size_t)r->g.M * r->g.K, r->g.sa, -1, 1);
    wb_dfill_uniform_bf16(r->g.B, (size_t)r->g.N * r->g.K, r->g.sb, -1, 1);
    wb_dpoison(r->g.C, (size_t)r->g.M * r->g.N * 4);
}

static inline int bf16_speed_check(void *p, char *why, size_t size)
{
    bf16_speed_run *r = p;
    wb_cmp cmp;
    if (!bf16_seeded_verify(&r->g, 256, &cmp)) return 0;
    snprintf(why, size, "%s", cmp.msg);
    return 1;
}

/* One row at n^3 of fn (NULL: cuBLAS, yard_name NULL) against `yard`
 * TFLOP/s, the timed output checked on 1024 sampled elements, with
 * wb_time's spot check on fresh inputs. Not printed. */
static inline wb_bench_row bf16_speed_row(bf16_speed_run *r, bf16_gemm_fn fn, const char *variant,
                                          const char *yard_name, double yard)
{
    const double n = r->g.M;
    wb_bench_row row = { .exercise = r->exercise, .variant = variant, .n = (size_t)r->g.M,
                         .bytes = 2.0 * 2.0 * n * n + 4.0 * n * n, .flops = 2.0 * n * n * n, .unit = "TFLOP/s",
                         .yard_name = yard_name, .yard = yard };
    r->fn = fn;
    bf16_speed_fresh(r, 0);
    wb_bench_opts o = WB_BENCH_DEFAULTS;
    o.fresh = bf16_speed_fresh, o.check = bf16_speed_check;
    wb_time(bf16_speed_work, r, &o, &row.t);
    row.value = row.flops / (row.t.median * 1e-3) / 1e12;
    wb_cmp cmp;
    if (bf16_seeded_verify(&r->g, 1024, &cmp)) wb_bench_invalid(&row, cmp.msg);
    return row;
}

/* The rows of rows(n) at 1024, 2048 and 4096, the last row of each printed
 * (rows prints the others); the ratio at 4096. Off compute capability 9.0,
 * a line saying why and NaN: the kernels are sm_90a code. */
static inline double bf16_bench_sizes(const char *exercise, wb_bench_row (*rows)(int n))
{
    if (!wb_device_is_cc(9, 0)) {
        printf("%s: skipped, sm_90a code needs a compute capability 9.0 GPU (this one is %d.%d)\n", exercise,
               wb_this_device()->cc_major, wb_this_device()->cc_minor);
        return NAN;
    }
    static const int SIZES[] = { 1024, 2048, 4096 };
    double ratio = NAN;
    for (size_t i = 0; i < WB_COUNT(SIZES); i++) {
        wb_bench_row row = rows(SIZES[i]);
        wb_bench_emit(&row);
        ratio = wb_bench_ratio(&row);
    }
    return ratio;
}

#endif
