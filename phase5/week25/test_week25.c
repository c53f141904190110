/* test_week25.c — week 25's checkpoints: WMMA HGEMM correct for every shape,
 * and its speed against cuBLAS on the same data. */
#include "wb_harness.h"
#include "hgemm_wmma.h"
#include "hgemm_check.h"

/* ---------------------------------------------------------------- correctness (hgemm_check.h) */

START_TEST(wmma_shapes)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_wmma, &rng, HGEMM_SHAPES[_i], HGEMM_FINITE);
}
END_TEST

START_TEST(wmma_nan_inf)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_wmma, &rng, HGEMM_SPECIAL[_i], HGEMM_NAN_INF);
}
END_TEST

/* A, B and C off their 256-byte boundary (hgemm_check.h): no vector
 * store or load may assume more alignment than the pointer has. */
START_TEST(wmma_unaligned)
{
    wb_rng rng = WB_RNG();
    hgemm_check_unaligned(hgemm_wmma, &rng, HGEMM_UNALIGNED[_i]);
}
END_TEST

/* Large shapes, sampled: inputs filled on the device from these seeds. */
enum { SEED_A = 251, SEED_B = 252 };

START_TEST(wmma_large)
{
    hgemm_check_large(hgemm_wmma, HGEMM_LARGE[_i], SEED_A, SEED_B);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* Your WMMA HGEMM against cublasGemmEx (FP16 in, FP32 accumulate) on the
 * same 4096^3 data in the same run; the timed output is checked. The
 * headline row (yours against cuBLAS) is w25.wmma-speed's figure. */
static double bench_hgemm(wb_headline *h)
{
    return hgemm_vs_cublas_4096("wmma (yours)", hgemm_wmma, SEED_A, SEED_B, h);
}

/* ---------------------------------------------------------------- CPU: the half helpers */

START_TEST(half_rounding)
{
    wb_rng rng = WB_RNG();
    hgemm_check_half_rounding(&rng);
}
END_TEST

static const wb_test TESTS[] = {
    { "w25.wmma", WB_T(half_rounding), WB_CPU, 0 },
    { "w25.wmma", WB_T(wmma_shapes), WB_GPU, WB_COUNT(HGEMM_SHAPES) },
    { "w25.wmma", WB_T(wmma_nan_inf), WB_GPU, WB_COUNT(HGEMM_SPECIAL) },
    { "w25.wmma", WB_T(wmma_unaligned), WB_GPU, WB_COUNT(HGEMM_UNALIGNED) },
    { "w25.wmma", WB_T(wmma_large), WB_GPU, WB_COUNT(HGEMM_LARGE) },
    WB_SPEED("w25.wmma-speed", bench_hgemm),
};

/* The ladder (hgemm_host.h); the WMMA row at 4096 shows w25.wmma-speed's
 * target. Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma", hgemm_wmma } };
    return hgemm_ladder(v, 1, 0);
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (hgemm). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
