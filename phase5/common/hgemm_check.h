/* hgemm_check.h — what the HGEMM tests of phase 5 (weeks 25-28) share, as
 * gemm_check.h is for the SGEMM weeks: the tolerance, the shape tables, the
 * correctness check of one shape against a CPU reference, the sampled check
 * of a large shape, the half helpers' CPU test, and the benchmark of one
 * version against cublasGemmEx at 4096 (the ladder is hgemm_host.h's).
 *
 * Included by exactly one test file per binary (it defines static inline
 * functions). Every HGEMM has hgemm_fn's interface (hgemm_host.h): C = A B,
 * row-major, A and B half bit patterns, C float. Week 28's epilogue kernel
 * takes a bias and an activation besides: its test builds on the inputs and
 * the reference here (hgemm_case_open, hgemm_seeded_dot).
 *
 * Tolerance: products of halves are exact in float; only the float
 * accumulation errs, about sqrt(K) roundings of the running sum. A result
 * rounded through half (2^-11 relative) or a dropped product fails.
 *
 * Alignment: the interface promises any device pointers, so HGEMM_UNALIGNED
 * runs shapes whose A and B start an odd number of halves (2-byte aligned)
 * and whose C starts a few floats (4- or 8-byte aligned, never 16) past a
 * 256-byte boundary, as gemm_check.h's `off` cases do for the SGEMM weeks: a
 * float2/float4 store or a 16-byte load that trusts N alone fails here. */
#ifndef PHASE5_HGEMM_CHECK_H
#define PHASE5_HGEMM_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>

#include "wb_harness.h"
#include "gemm_support.h" /* fill_half_uniform */
#include "hgemm_host.h"   /* wb_f32_to_f16, wb_f16_to_f32 (wb_f16.h), hgemm_fn, hgemm_cublas_rm */

static inline double hgemm_atol(int K) { return 1e-6 + 0.1 * sqrt((double)K) * ldexp(1.0, -11); }
#define HGEMM_RTOL 1e-4

/* ---------------------------------------------------------------- correctness, every element */

typedef struct { int M, N, K; } hgemm_shape;

static const hgemm_shape HGEMM_SHAPES[] = {
    { 1, 1, 1 },     { 0, 5, 7 },     { 5, 0, 7 },      { 5, 7, 0 },       { 16, 8, 16 },    { 17, 33, 65 },
    { 128, 256, 32 }, { 129, 257, 33 }, { 256, 512, 96 }, { 333, 1000, 517 }, { 100, 3, 2000 }, { 64, 640, 4096 },
};
/* Shapes run on pointers off their allocation's 256-byte boundary: A and B
 * start `off` halves in, C (and week 28's bias) `off` floats in. Full tiles
 * with N a multiple of 8 (where only the pointer says the vector store is
 * wrong), N even but not a multiple of 8, N odd, and C 8-byte but not 16-byte
 * aligned (float2 stores fine, float4 and wmma stores not). */
typedef struct { int M, N, K, off; } hgemm_offset_shape;
static const hgemm_offset_shape HGEMM_UNALIGNED[] = {
    { 128, 256, 32, 1 }, { 129, 258, 40, 3 }, { 33, 65, 17, 1 }, { 256, 512, 64, 2 }, { 1, 2, 3, 1 },
};
/* The shapes checked with a NaN in A and an infinity in B. */
static const hgemm_shape HGEMM_SPECIAL[] = { { 40, 300, 50 }, { 256, 256, 64 } };
/* Too large for a full CPU reference: checked at sampled elements. */
static const hgemm_shape HGEMM_LARGE[] = { { 2047, 2049, 2051 }, { 4096, 4096, 4096 } };

/* Which non-finite inputs a case plants (after the fills, at random places). */
enum { HGEMM_FINITE = 0, HGEMM_NAN_INF = 1 /* a NaN in A, +Inf in B */, HGEMM_NAN_PM_INF = 2 /* and -Inf in B */ };

/* One case's inputs: fa, fb the values of the halves ha, hb (A is M x K, B
 * is K x N), ref = A B in double, dA, dB the device copies, each starting
 * `off` halves past the start of its allocation (baseA, baseB). */
typedef struct {
    int M, N, K, off;
    float *fa, *fb;
    uint16_t *ha, *hb, *dA, *dB, *baseA, *baseB;
    double *ref;
} hgemm_case;

/* A and B uniform in [-1, 1] from rng, then (when bias is not NULL) N bias
 * floats in [-2, 2], then the non-finite values `special` asks for; every
 * input rounded to half, the product in double on the CPU, A and B copied
 * to the device `off` halves past a 256-byte boundary (off odd: 2-byte
 * aligned only). */
static inline void hgemm_case_open(hgemm_case *c, wb_rng *rng, int M, int N, int K, float *bias, int special,
                                   int off)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    c->M = M, c->N = N, c->K = K, c->off = off > 0 ? off : 0;
    c->fa = wb_hmalloc((na + 1) * 4), c->fb = wb_hmalloc((nb + 1) * 4);
    c->ha = wb_hmalloc((na + 1) * 2), c->hb = wb_hmalloc((nb + 1) * 2);
    float *fa = c->fa, *fb = c->fb;
    wb_fill_uniform_f32(rng, fa, na, -1, 1);
    wb_fill_uniform_f32(rng, fb, nb, -1, 1);
    if (bias) wb_fill_uniform_f32(rng, bias, (size_t)N, -2, 2);
    if (special && na && nb) {
        fa[wb_rng_int(rng, 0, (int64_t)na - 1)] = NAN;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = INFINITY;
        if (special == HGEMM_NAN_PM_INF) fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = -INFINITY;
    }
    for (size_t i = 0; i < na; i++) c->ha[i] = wb_f32_to_f16(fa[i]), fa[i] = wb_f16_to_f32(c->ha[i]);
    for (size_t i = 0; i < nb; i++) c->hb[i] = wb_f32_to_f16(fb[i]), fb[i] = wb_f16_to_f32(c->hb[i]);
    double *ref = c->ref = wb_hmalloc((nc + 1) * 8);
    for (size_t i = 0; i < nc; i++) ref[i] = 0;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            double a = fa[(size_t)i * K + k];
            const float *brow = fb + (size_t)k * N;
            double *crow = ref + (size_t)i * N;
            for (int j = 0; j < N; j++) crow[j] += a * brow[j];
        }
    size_t o = (size_t)c->off;
    c->baseA = wb_dmalloc((na + o + 1) * 2), c->baseB = wb_dmalloc((nb + o + 1) * 2);
    c->dA = c->baseA + o, c->dB = c->baseB + o;
    wb_h2d(c->dA, c->ha, na * 2);
    wb_h2d(c->dB, c->hb, nb * 2);
}

static inline void hgemm_case_close(hgemm_case *c)
{
    wb_dfree(c->baseA), wb_dfree(c->baseB);
    free(c->fa), free(c->fb), free(c->ha), free(c->hb), free(c->ref);
}

/* fn on M x N x K (special: HGEMM_NAN_INF) with A and B `off` halves and C
 * `off` floats past a 256-byte boundary, C poisoned and guarded on both
 * sides (the `off` floats before it included), every element compared with
 * the CPU reference. */
static inline void hgemm_check_at(hgemm_fn fn, wb_rng *rng, int M, int N, int K, int special, int off)
{
    hgemm_case c;
    hgemm_case_open(&c, rng, M, N, K, NULL, special, off);
    size_t nc = (size_t)M * N;
    wb_dout o;
    float *dc = wb_dout_alloc(&o, "C", nc * 4, (size_t)c.off * 4);
    WB_CUDA(fn(c.dA, c.dB, dc, M, N, K));
    char what[128];
    snprintf(what, sizeof what, "M=%d N=%d K=%d%s%s", M, N, K, special ? " with NaN and Inf inputs" : "",
             c.off ? (c.off % 2 ? " (A, B, C unaligned: C 4-byte aligned)" : " (A, B, C unaligned: C 8-byte aligned)")
                   : "");
    wb_expect_dout_f32_f64(&o, c.ref, nc, hgemm_atol(K), HGEMM_RTOL, what);
    wb_dout_free(&o);
    hgemm_case_close(&c);
}

/* fn on one shape, aligned pointers (special: HGEMM_NAN_INF). */
static inline void hgemm_check_shape(hgemm_fn fn, wb_rng *rng, hgemm_shape s, int special)
{
    hgemm_check_at(fn, rng, s.M, s.N, s.K, special, 0);
}

/* fn on one of HGEMM_UNALIGNED's shapes and offsets, finite inputs. */
static inline void hgemm_check_unaligned(hgemm_fn fn, wb_rng *rng, hgemm_offset_shape s)
{
    hgemm_check_at(fn, rng, s.M, s.N, s.K, HGEMM_FINITE, s.off);
}

/* ---------------------------------------------------------------- large shapes, sampled */

/* Inputs filled on the device (fill_half_uniform) from two seeds, so that
 * any element of A B can be replayed on the host. */
typedef struct {
    uint16_t *A, *B;
    float *C;
    int M, N, K;
    unsigned long long sa, sb;
    hgemm_fn fn; /* what hgemm_seeded_work runs */
} hgemm_seeded;

static inline hgemm_seeded hgemm_seeded_open(int M, int N, int K, unsigned long long sa, unsigned long long sb)
{
    hgemm_seeded r = { wb_dmalloc((size_t)M * K * 2), wb_dmalloc((size_t)K * N * 2), wb_dmalloc((size_t)M * N * 4),
                       M, N, K, sa, sb, NULL };
    WB_CUDA(fill_half_uniform(r.A, (size_t)M * K, sa, -1, 1));
    WB_CUDA(fill_half_uniform(r.B, (size_t)K * N, sb, -1, 1));
    return r;
}

static inline void hgemm_seeded_close(hgemm_seeded *r)
{
    wb_dfree(r->A), wb_dfree(r->B), wb_dfree(r->C);
}

/* Element i of A B: one dot product in double over the replayed halves. */
static inline double hgemm_seeded_dot(const hgemm_seeded *g, size_t i)
{
    size_t r = i / (size_t)g->N, c = i % (size_t)g->N;
    double s = 0;
    for (int k = 0; k < g->K; k++)
        s += (double)wb_f16_to_f32(wb_f32_to_f16(wb_hash_uniform_f32(g->sa, r * g->K + k, -1, 1))) *
             (double)wb_f16_to_f32(wb_f32_to_f16(wb_hash_uniform_f32(g->sb, (size_t)k * g->N + c, -1, 1)));
    return s;
}

static inline double hgemm_seeded_expect(size_t i, const void *p) { return hgemm_seeded_dot(p, i); }

/* Check `samples` random elements of C (and its first and last 64). */
static inline size_t hgemm_seeded_verify(const hgemm_seeded *r, size_t samples, wb_cmp *cmp)
{
    return wb_dverify_f32("C", r->C, (size_t)r->M * r->N, hgemm_seeded_expect, r, samples, hgemm_atol(r->K),
                          HGEMM_RTOL, cmp);
}

/* fn on a large shape into a poisoned C, 4096 sampled elements checked. */
static inline void hgemm_check_large(hgemm_fn fn, hgemm_shape s, unsigned long long sa, unsigned long long sb)
{
    hgemm_seeded r = hgemm_seeded_open(s.M, s.N, s.K, sa, sb);
    wb_dpoison(r.C, (size_t)r.M * r.N * 4);
    WB_CUDA(fn(r.A, r.B, r.C, r.M, r.N, r.K));
    wb_sync();
    wb_cmp cmp;
    hgemm_seeded_verify(&r, 4096, &cmp);
    char what[64];
    snprintf(what, sizeof what, "M=%d N=%d K=%d (sampled)", r.M, r.N, r.K);
    WB_EXPECT_CMP(cmp, what);
    hgemm_seeded_close(&r);
}

/* ---------------------------------------------------------------- CPU: the half helpers */

/* wb_f32_to_f16 and wb_f16_to_f32 (wb_f16.h): rounding to nearest even,
 * overflow, subnormals, NaN, and the round trip of 100000 random halves. */
static inline void hgemm_check_half_rounding(wb_rng *rng)
{
    ck_assert_uint_eq(wb_f32_to_f16(1.0f), 0x3c00);
    ck_assert_uint_eq(wb_f32_to_f16(-2.0f), 0xc000);
    ck_assert_uint_eq(wb_f32_to_f16(65504.0f), 0x7bff);
    ck_assert_uint_eq(wb_f32_to_f16(65520.0f), 0x7c00);
    ck_assert_uint_eq(wb_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00);           /* tie: to even */
    ck_assert_uint_eq(wb_f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3c02);       /* tie: to even, up */
    ck_assert_uint_eq(wb_f32_to_f16(ldexpf(1, -24)), 0x0001);                  /* smallest subnormal */
    ck_assert_uint_eq(wb_f32_to_f16(ldexpf(1, -14) - ldexpf(1, -25)), 0x0400); /* rounds up to normal */
    ck_assert(wb_f16_to_f32(0x7e00) != wb_f16_to_f32(0x7e00));                 /* NaN */
    ck_assert(wb_f16_to_f32(0x0001) == ldexpf(1, -24));
    for (int i = 0; i < 100000; i++) { /* round trip of every half is exact */
        uint16_t h = (uint16_t)wb_rng_int(rng, 0, 0xffff);
        if (((h >> 10) & 0x1f) == 31) continue;
        if (wb_f32_to_f16(wb_f16_to_f32(h)) != h)
            ck_abort_msg("half 0x%04x does not survive the round trip through float", (unsigned)h);
    }
}

/* ---------------------------------------------------------------- benchmarks at 4096 */

/* n x n x n seeded inputs and a cuBLAS handle, for rows on the same data. */
typedef struct {
    int n;
    hgemm_seeded d;
    cublasHandle_t h;
} hgemm_bench;

static inline void hgemm_seeded_work(void *p)
{
    hgemm_seeded *r = p;
    WB_CUDA(r->fn(r->A, r->B, r->C, r->M, r->N, r->K));
}

static inline void hgemm_bench_cublas_work(void *p)
{
    hgemm_bench *b = p;
    cublasStatus_t s = hgemm_cublas_rm(b->h, b->n, b->n, b->n, b->d.A, b->d.B, b->d.C);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(s));
}

static inline double hgemm_tflops(const wb_bench_row *row) { return row->flops / (row->t.median * 1e-3) / 1e12; }

static inline void hgemm_bench_open(hgemm_bench *b, int n, unsigned long long sa, unsigned long long sb)
{
    b->n = n;
    b->d = hgemm_seeded_open(n, n, n, sa, sb);
    ck_assert_msg(cublasCreate(&b->h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
}

static inline void hgemm_bench_close(hgemm_bench *b)
{
    cublasDestroy(b->h);
    hgemm_seeded_close(&b->d);
}

/* Time fn on d into a poisoned C and check `samples` elements of the timed
 * output; row (exercise, variant, size, flops, unit, yardstick) is filled
 * in by the caller, its time and figure here. Not printed. */
static inline void hgemm_time(hgemm_seeded *d, hgemm_fn fn, wb_bench_row *row, size_t samples)
{
    d->fn = fn;
    wb_dpoison(d->C, (size_t)d->M * d->N * 4);
    wb_time(hgemm_seeded_work, d, NULL, &row->t);
    row->value = hgemm_tflops(row);
    wb_cmp cmp;
    if (hgemm_seeded_verify(d, samples, &cmp)) wb_bench_invalid(row, cmp.msg);
}

/* cublasGemmEx (FP16 in, FP32 accumulate) on b's data: prints its row and
 * returns its TFLOP/s (its output is not checked). */
static inline double hgemm_bench_cublas(hgemm_bench *b)
{
    wb_bench_row lib = { .exercise = "hgemm", .variant = "cuBLAS GemmEx", .n = (size_t)b->n,
                         .flops = 2.0 * b->n * b->n * b->n, .unit = "TFLOP/s" };
    wb_time(hgemm_bench_cublas_work, b, NULL, &lib.t);
    lib.value = hgemm_tflops(&lib);
    wb_bench_emit(&lib);
    return lib.value;
}

/* One version's row on b's data against the yardstick yard_name/yard, its
 * timed output checked on 1024 samples; print it with wb_bench_emit or
 * return wb_bench_headline(&row, h) when a speed checkpoint judges it. */
static inline wb_bench_row hgemm_bench_row(hgemm_bench *b, const char *variant, hgemm_fn fn, const char *yard_name,
                                           double yard)
{
    wb_bench_row row = { .exercise = "hgemm", .variant = variant, .n = (size_t)b->n,
                         .flops = 2.0 * b->n * b->n * b->n, .unit = "TFLOP/s", .yard_name = yard_name, .yard = yard };
    hgemm_time(&b->d, fn, &row, 1024);
    return row;
}

/* One version against cublasGemmEx on the same 4096^3 data (seeds sa, sb) in
 * the same run: the benchmark behind a speed checkpoint (WB_SPEED), ending in
 * the version's headline row (into h). */
static inline double hgemm_vs_cublas_4096(const char *variant, hgemm_fn fn, unsigned long long sa,
                                          unsigned long long sb, wb_headline *h)
{
    hgemm_bench b;
    hgemm_bench_open(&b, 4096, sa, sb);
    double yard = hgemm_bench_cublas(&b);
    wb_bench_row row = hgemm_bench_row(&b, variant, fn, "cuBLAS", yard);
    double ratio = wb_bench_headline(&row, h);
    hgemm_bench_close(&b);
    return ratio;
}

#endif
