/* test_week25.c — week 25's checkpoints: WMMA HGEMM correct for every shape,
 * and its speed against cuBLAS on the same data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "wb_test.h"
#include "hgemm_wmma.h"
#include "gemm_support.h"
#include "hgemm_host.h"

/* Products of halves are exact in float; only the float accumulation errs,
 * about sqrt(K) roundings of the running sum. A result rounded through half
 * (2^-11 relative) or a dropped product fails. */
static double gemm_atol(int K) { return 1e-6 + 0.1 * sqrt((double)K) * ldexp(1.0, -11); }
#define GEMM_RTOL 1e-4

/* ---------------------------------------------------------------- correctness */

typedef struct { int M, N, K; } shape;
static const shape SHAPES[] = {
    { 1, 1, 1 },     { 0, 5, 7 },     { 5, 0, 7 },      { 5, 7, 0 },       { 16, 8, 16 },    { 17, 33, 65 },
    { 128, 256, 32 }, { 129, 257, 33 }, { 256, 512, 96 }, { 333, 1000, 517 }, { 100, 3, 2000 }, { 64, 640, 4096 },
};
static const shape SPECIAL[] = { { 40, 300, 50 }, { 256, 256, 64 } };

/* Random halves in [-1, 1] (special: a NaN in A and an infinity in B), the
 * product in double on the CPU, the device result compared everywhere, C
 * guarded on both sides. */
static void check_gemm(wb_rng *rng, int M, int N, int K, int special)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *fa = wb_hmalloc((na + 1) * 4), *fb = wb_hmalloc((nb + 1) * 4);
    uint16_t *ha = wb_hmalloc((na + 1) * 2), *hb = wb_hmalloc((nb + 1) * 2);
    wb_fill_uniform_f32(rng, fa, na, -1, 1);
    wb_fill_uniform_f32(rng, fb, nb, -1, 1);
    if (special && na && nb) {
        fa[wb_rng_int(rng, 0, (int64_t)na - 1)] = NAN;
        fb[wb_rng_int(rng, 0, (int64_t)nb - 1)] = INFINITY;
    }
    for (size_t i = 0; i < na; i++) ha[i] = f32_to_f16(fa[i]), fa[i] = f16_to_f32(ha[i]);
    for (size_t i = 0; i < nb; i++) hb[i] = f32_to_f16(fb[i]), fb[i] = f16_to_f32(hb[i]);
    double *ref = wb_hmalloc((nc + 1) * 8);
    for (size_t i = 0; i < nc; i++) ref[i] = 0;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            double a = fa[(size_t)i * K + k];
            const float *brow = fb + (size_t)k * N;
            double *crow = ref + (size_t)i * N;
            for (int j = 0; j < N; j++) crow[j] += a * brow[j];
        }
    uint16_t *da = wb_dcopy(ha, (na + 1) * 2), *db = wb_dcopy(hb, (nb + 1) * 2);
    wb_dout c;
    float *dc = wb_dout_alloc(&c, "C", nc * 4, 0);
    WB_CUDA(hgemm_wmma(da, db, dc, M, N, K));
    char what[96];
    snprintf(what, sizeof what, "M=%d N=%d K=%d%s", M, N, K, special ? " with NaN and Inf inputs" : "");
    wb_expect_dout_f32_f64(&c, ref, nc, gemm_atol(K), GEMM_RTOL, what);
    wb_dfree(da), wb_dfree(db), wb_dout_free(&c);
    free(fa), free(fb), free(ha), free(hb), free(ref);
}

START_TEST(wmma_shapes)
{
    wb_rng rng = WB_RNG();
    check_gemm(&rng, SHAPES[_i].M, SHAPES[_i].N, SHAPES[_i].K, 0);
}
END_TEST

START_TEST(wmma_nan_inf)
{
    wb_rng rng = WB_RNG();
    check_gemm(&rng, SPECIAL[_i].M, SPECIAL[_i].N, SPECIAL[_i].K, 1);
}
END_TEST

/* ---------------------------------------------------------------- large shapes, sampled */

enum { SEED_A = 251, SEED_B = 252 };
typedef struct { int M, N, K; unsigned long long sa, sb; } gemm_ctx;

/* Element i of C: one dot product in double over the replayed halves. */
static double gemm_expect(size_t i, const void *p)
{
    const gemm_ctx *g = p;
    size_t r = i / (size_t)g->N, c = i % (size_t)g->N;
    double s = 0;
    for (int k = 0; k < g->K; k++)
        s += (double)f16_to_f32(f32_to_f16(wb_hash_uniform_f32(g->sa, r * g->K + k, -1, 1))) *
             (double)f16_to_f32(f32_to_f16(wb_hash_uniform_f32(g->sb, (size_t)k * g->N + c, -1, 1)));
    return s;
}

typedef struct { const uint16_t *A, *B; float *C; int M, N, K; cublasHandle_t h; } run_ctx;

static void run_mine(void *p)
{
    run_ctx *r = p;
    WB_CUDA(hgemm_wmma(r->A, r->B, r->C, r->M, r->N, r->K));
}

static void run_cublas(void *p)
{
    run_ctx *r = p;
    cublasStatus_t s = hgemm_cublas_rm(r->h, r->M, r->N, r->K, r->A, r->B, r->C);
    ck_assert_msg(s == CUBLAS_STATUS_SUCCESS, "cublasGemmEx failed: %s", cublasGetStatusString(s));
}

/* Device-filled inputs for an M x N x K problem. */
static run_ctx make_inputs(int M, int N, int K)
{
    run_ctx r = { wb_dmalloc((size_t)M * K * 2), wb_dmalloc((size_t)K * N * 2), wb_dmalloc((size_t)M * N * 4),
                  M, N, K, NULL };
    WB_CUDA(fill_half_uniform((uint16_t *)r.A, (size_t)M * K, SEED_A, -1, 1));
    WB_CUDA(fill_half_uniform((uint16_t *)r.B, (size_t)K * N, SEED_B, -1, 1));
    return r;
}

static void free_inputs(run_ctx *r)
{
    wb_dfree((void *)r->A), wb_dfree((void *)r->B), wb_dfree(r->C);
}

static size_t verify_c(run_ctx *r, size_t samples, wb_cmp *cmp)
{
    gemm_ctx g = { r->M, r->N, r->K, SEED_A, SEED_B };
    return wb_dverify_f32("C", r->C, (size_t)r->M * r->N, gemm_expect, &g, samples, gemm_atol(r->K), GEMM_RTOL, cmp);
}

static const shape LARGE[] = { { 2047, 2049, 2051 }, { 4096, 4096, 4096 } };

START_TEST(wmma_large)
{
    run_ctx r = make_inputs(LARGE[_i].M, LARGE[_i].N, LARGE[_i].K);
    wb_dpoison(r.C, (size_t)r.M * r.N * 4);
    WB_CUDA(hgemm_wmma(r.A, r.B, r.C, r.M, r.N, r.K));
    wb_sync();
    wb_cmp cmp;
    verify_c(&r, 4096, &cmp);
    char what[64];
    snprintf(what, sizeof what, "M=%d N=%d K=%d (sampled)", r.M, r.N, r.K);
    WB_EXPECT_CMP(cmp, what);
    free_inputs(&r);
}
END_TEST

/* ---------------------------------------------------------------- speed */

static double tflops(const wb_bench_row *row) { return row->flops / (row->t.median * 1e-3) / 1e12; }

/* Your WMMA HGEMM against cublasGemmEx (FP16 in, FP32 accumulate) on the
 * same 4096^3 data in the same run; the timed output is checked. The
 * headline row (yours against cuBLAS) is w25.wmma-speed's figure. */
static double bench_hgemm(void)
{
    int n = 4096;
    run_ctx r = make_inputs(n, n, n);
    cublasHandle_t h;
    ck_assert_msg(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    r.h = h;
    double flops = 2.0 * n * n * n;
    wb_bench_row lib = { .exercise = "hgemm", .variant = "cuBLAS GemmEx", .n = (size_t)n, .flops = flops,
                         .unit = "TFLOP/s" };
    wb_time(run_cublas, &r, NULL, &lib.t);
    lib.value = tflops(&lib);
    wb_bench_emit(&lib);
    wb_bench_row row = { .exercise = "hgemm", .variant = "wmma (yours)", .n = (size_t)n, .flops = flops,
                         .unit = "TFLOP/s", .yard_name = "cuBLAS", .yard = lib.value };
    wb_dpoison(r.C, (size_t)n * n * 4);
    wb_time(run_mine, &r, NULL, &row.t);
    row.value = tflops(&row);
    wb_cmp cmp;
    if (verify_c(&r, 1024, &cmp)) wb_bench_invalid(&row, cmp.msg);
    double ratio = wb_bench_headline(&row);
    cublasDestroy(h);
    free_inputs(&r);
    return ratio;
}

/* ---------------------------------------------------------------- CPU: the half helpers */

START_TEST(half_rounding)
{
    ck_assert_uint_eq(f32_to_f16(1.0f), 0x3c00);
    ck_assert_uint_eq(f32_to_f16(-2.0f), 0xc000);
    ck_assert_uint_eq(f32_to_f16(65504.0f), 0x7bff);
    ck_assert_uint_eq(f32_to_f16(65520.0f), 0x7c00);
    ck_assert_uint_eq(f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00);                     /* tie: to even */
    ck_assert_uint_eq(f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3c02);                 /* tie: to even, up */
    ck_assert_uint_eq(f32_to_f16(ldexpf(1, -24)), 0x0001);                            /* smallest subnormal */
    ck_assert_uint_eq(f32_to_f16(ldexpf(1, -14) - ldexpf(1, -25)), 0x0400);           /* rounds up to normal */
    ck_assert(f16_to_f32(0x7e00) != f16_to_f32(0x7e00));                              /* NaN */
    ck_assert(f16_to_f32(0x0001) == ldexpf(1, -24));
    wb_rng rng = WB_RNG();
    for (int i = 0; i < 100000; i++) { /* round trip of every half is exact */
        uint16_t h = (uint16_t)wb_rng_int(&rng, 0, 0xffff);
        if (((h >> 10) & 0x1f) == 31) continue;
        if (f32_to_f16(f16_to_f32(h)) != h) ck_abort_msg("half 0x%04x does not survive the round trip through float", (unsigned)h);
    }
}
END_TEST

static const wb_test TESTS[] = {
    { "w25.wmma", WB_T(half_rounding), WB_CPU, 0 },
    { "w25.wmma", WB_T(wmma_shapes), WB_GPU, WB_COUNT(SHAPES) },
    { "w25.wmma", WB_T(wmma_nan_inf), WB_GPU, WB_COUNT(SPECIAL) },
    { "w25.wmma", WB_T(wmma_large), WB_GPU, WB_COUNT(LARGE) },
    WB_SPEED("w25.wmma-speed", bench_hgemm),
};

/* The ladder (hgemm_host.h); the WMMA row at 4096 shows w25.wmma-speed's
 * target. Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma", hgemm_wmma } };
    return hgemm_ladder(v, 1, 0, "w25.wmma-speed");
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (hgemm). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
