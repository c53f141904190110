/* test_week27.c — week 27's checkpoints: the restructured kernel correct and
 * as fast as week 26's (given, in support/), and CUTLASS as a library correct. */
#include "wb_test.h"
#include "hgemm_tiled.h"
#include "cutlass_gemm.h"
#include "hgemm_check.h"
#include "hgemm_wmma.h" /* weeks 25 and 26's kernels, for the ladder (week.txt: uses) */
#include "hgemm_mma.h"

/* support/w26_mma.cu: the week-26 mma.sync HGEMM at its first setting (same
 * contract as hgemm_tiled), the yardstick the restructured kernel must keep up with. */
cudaError_t hgemm_w26(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);

/* ---------------------------------------------------------------- correctness (hgemm_check.h) */

START_TEST(tiled_shapes)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_tiled, &rng, HGEMM_SHAPES[_i], HGEMM_FINITE);
}
END_TEST

START_TEST(tiled_nan_inf)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(hgemm_tiled, &rng, HGEMM_SPECIAL[_i], HGEMM_NAN_INF);
}
END_TEST

/* A, B and C off their 256-byte boundary (hgemm_check.h): no vector
 * store or load may assume more alignment than the pointer has. */
START_TEST(tiled_unaligned)
{
    wb_rng rng = WB_RNG();
    hgemm_check_unaligned(hgemm_tiled, &rng, HGEMM_UNALIGNED[_i]);
}
END_TEST

START_TEST(cutlass_shapes)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(cutlass_hgemm, &rng, HGEMM_SHAPES[_i], HGEMM_FINITE);
}
END_TEST

START_TEST(cutlass_nan_inf)
{
    wb_rng rng = WB_RNG();
    hgemm_check_shape(cutlass_hgemm, &rng, HGEMM_SPECIAL[_i], HGEMM_NAN_INF);
}
END_TEST

/* The same for CUTLASS: its 128-bit accesses need 16-byte aligned A, B and C,
 * and can_implement does not catch a misaligned pointer (it tests the byte
 * address against the alignment in elements: 8 bytes for half, 4 for float),
 * so cutlass_hgemm must check the pointers itself and take another way. */
START_TEST(cutlass_unaligned)
{
    wb_rng rng = WB_RNG();
    hgemm_check_unaligned(cutlass_hgemm, &rng, HGEMM_UNALIGNED[_i]);
}
END_TEST

/* Large shapes, sampled, and the benchmark: inputs filled on the device
 * from these seeds. */
enum { SEED_A = 271, SEED_B = 272 };

START_TEST(tiled_large)
{
    hgemm_check_large(hgemm_tiled, HGEMM_LARGE[_i], SEED_A, SEED_B);
}
END_TEST

START_TEST(cutlass_large)
{
    hgemm_check_large(cutlass_hgemm, HGEMM_LARGE[_i], SEED_A, SEED_B);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* 4096^3: cuBLAS, the week-26 kernel, yours restructured (against week 26:
 * the headline row, w27.tiled-speed's figure), CUTLASS (against cuBLAS), all
 * on the same data in the same run; every timed output is checked. */
static double bench_hgemm(void)
{
    hgemm_bench b;
    hgemm_bench_open(&b, 4096, SEED_A, SEED_B);
    double yard = hgemm_bench_cublas(&b);
    wb_bench_row w26 = hgemm_bench_row(&b, "week-26 kernel (given)", hgemm_w26, "cuBLAS", yard);
    wb_bench_emit(&w26);
    wb_bench_row row = hgemm_bench_row(&b, "tile/mainloop/epilogue (yours)", hgemm_tiled, "W26", w26.value);
    double ratio = wb_bench_headline(&row);
    wb_bench_row cut = hgemm_bench_row(&b, "CUTLASS device::Gemm (yours)", cutlass_hgemm, "cuBLAS", yard);
    wb_bench_emit(&cut);
    hgemm_bench_close(&b);
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
    { "w27.tiled", WB_T(half_rounding), WB_CPU, 0 },
    { "w27.tiled", WB_T(tiled_shapes), WB_GPU, WB_COUNT(HGEMM_SHAPES) },
    { "w27.tiled", WB_T(tiled_nan_inf), WB_GPU, WB_COUNT(HGEMM_SPECIAL) },
    { "w27.tiled", WB_T(tiled_unaligned), WB_GPU, WB_COUNT(HGEMM_UNALIGNED) },
    { "w27.tiled", WB_T(tiled_large), WB_GPU, WB_COUNT(HGEMM_LARGE) },
    WB_SPEED("w27.tiled-speed", bench_hgemm),
    { "w27.cutlass", WB_T(cutlass_shapes), WB_GPU, WB_COUNT(HGEMM_SHAPES) },
    { "w27.cutlass", WB_T(cutlass_nan_inf), WB_GPU, WB_COUNT(HGEMM_SPECIAL) },
    { "w27.cutlass", WB_T(cutlass_unaligned), WB_GPU, WB_COUNT(HGEMM_UNALIGNED) },
    { "w27.cutlass", WB_T(cutlass_large), WB_GPU, WB_COUNT(HGEMM_LARGE) },
};

/* The ladder (hgemm_host.h). Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma (week 25)", hgemm_wmma }, { "mma.sync (week 26)", hgemm_mma },
                                { "restructured (yours)", hgemm_tiled },
                                { "CUTLASS device::Gemm (yours)", cutlass_hgemm } };
    return hgemm_ladder(v, 4, -1);
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (hgemm). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
