/* test_week26.c — week 26's checkpoints: mma.sync HGEMM correct for every
 * shape, its speed against cuBLAS, and where the tensor cores beat an FP32
 * CUDA-core GEMM. */
#include "wb_harness.h"
#include "hgemm_mma.h"
#include "gemm_support.h" /* half_to_float */
#include "support/yard_sgemm_simt.h"
#include "hgemm_check.h"
#include "hgemm_wmma.h" /* week 25's kernel, for the ladder (week.txt: uses) */

/* ---------------------------------------------------------------- correctness (hgemm_check.h) */

START_TEST(mma_shapes)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_mma, &rng, HGEMM_SHAPES[_i], HGEMM_FINITE);
}
END_TEST

START_TEST(mma_nan_inf)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_mma, &rng, HGEMM_SPECIAL[_i], HGEMM_NAN_INF);
}
END_TEST

/* A, B and C off their 256-byte boundary (hgemm_check.h): no vector
 * store or load may assume more alignment than the pointer has. */
START_TEST(mma_unaligned)
{
    wb_rng rng = WB_RNG();
    hgemm_check_unaligned(hgemm_mma, &rng, HGEMM_UNALIGNED[_i]);
}
END_TEST

/* Large shapes, sampled, and the benchmarks: inputs filled on the device
 * from these seeds. */
enum { SEED_A = 261, SEED_B = 262 };

START_TEST(mma_large)
{
    hgemm_check_large(hgemm_mma, HGEMM_LARGE[_i], SEED_A, SEED_B);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* Your mma.sync HGEMM against cublasGemmEx (FP16 in, FP32 accumulate) on the
 * same 4096^3 data in the same run; the timed output is checked. The
 * headline row (yours against cuBLAS) is w26.mma-speed's figure. */
static double bench_hgemm(wb_headline *h)
{
    return hgemm_vs_cublas_4096("mma.sync (yours)", hgemm_mma, SEED_A, SEED_B, h);
}

/* The FP32 CUDA-core GEMM on float copies of the halves. */
typedef struct { const float *A, *B; float *C; int n; } simt_run;

static void run_simt(void *p)
{
    simt_run *r = p;
    WB_CUDA(yard_sgemm_simt(r->A, r->B, r->C, r->n, r->n, r->n));
}

/* When do tensor cores win? Your HGEMM against the given FP32 CUDA-core GEMM
 * on the same values, from small to large; the headline row (w26.tc-wins's
 * figure) is yours at 4096. */
static double bench_tc_vs_simt(wb_headline *h)
{
    static const int SIZES[] = { 128, 512, 1024, 2048, 4096 };
    double ratio = NAN;
    for (int s = 0; s < 5; s++) {
        int n = SIZES[s];
        hgemm_seeded r = hgemm_seeded_open(n, n, n, SEED_A, SEED_B);
        float *fa = wb_dmalloc((size_t)n * n * 4), *fb = wb_dmalloc((size_t)n * n * 4);
        WB_CUDA(half_to_float(r.A, fa, (size_t)n * n));
        WB_CUDA(half_to_float(r.B, fb, (size_t)n * n));
        simt_run f = { fa, fb, r.C, n };
        double flops = 2.0 * n * n * n;
        wb_bench_row simt = { .exercise = "tc-vs-simt", .variant = "FP32 CUDA cores", .n = (size_t)n,
                              .flops = flops, .unit = "TFLOP/s" };
        wb_dpoison(r.C, (size_t)n * n * 4); /* the check below must see the timed output, not stale memory */
        wb_time(run_simt, &f, NULL, &simt.t);
        simt.value = hgemm_tflops(&simt);
        wb_cmp cmp;
        if (hgemm_seeded_verify(&r, 256, &cmp)) wb_bench_invalid(&simt, cmp.msg);
        wb_bench_emit(&simt);
        wb_bench_row row = { .exercise = "tc-vs-simt", .variant = "mma.sync (yours)", .n = (size_t)n, .flops = flops,
                             .unit = "TFLOP/s", .yard_name = "SIMT", .yard = simt.value };
        hgemm_time(&r, hgemm_mma, &row, 256);
        if (n == 4096) ratio = wb_bench_headline(&row, h);
        else wb_bench_emit(&row);
        hgemm_seeded_close(&r);
        wb_dfree(fa), wb_dfree(fb);
    }
    return ratio;
}

/* ---------------------------------------------------------------- CPU: the half helpers */

START_TEST(half_rounding)
{
    wb_rng rng = WB_RNG();
    hgemm_check_half_rounding(&rng);
}
END_TEST

static const wb_test TESTS[] = {
    { "w26.mma", WB_T(half_rounding), WB_CPU, 0 },
    { "w26.mma", WB_T(mma_shapes), WB_GPU, WB_COUNT(HGEMM_SHAPES) },
    { "w26.mma", WB_T(mma_nan_inf), WB_GPU, WB_COUNT(HGEMM_SPECIAL) },
    { "w26.mma", WB_T(mma_unaligned), WB_GPU, WB_COUNT(HGEMM_UNALIGNED) },
    { "w26.mma", WB_T(mma_large), WB_GPU, WB_COUNT(HGEMM_LARGE) },
    WB_SPEED("w26.mma-speed", bench_hgemm),
    WB_SPEED("w26.tc-wins", bench_tc_vs_simt),
};

/* The ladder (hgemm_host.h); the mma.sync row at 4096 shows w26.mma-speed's
 * target. Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma (week 25)", hgemm_wmma }, { "mma.sync + ldmatrix + cp.async", hgemm_mma } };
    return hgemm_ladder(v, 2, 1);
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED ones
 * (hgemm, tc_vs_simt). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
