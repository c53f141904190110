/* test_week23.c — week 23's checkpoints: 1D and 2D register tiles, and the
 * 2D kernel's speed against cuBLAS. */
#include "gemm_check.h"
#include "naive.h"
#include "coalesced.h"
#include "tiled.h"
#include "tile1d.h"
#include "tile2d.h"

START_TEST(tile1d_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("1D tiles", tile1d_sgemm, &rng, _i);
}
END_TEST

START_TEST(tile1d_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("1D tiles", tile1d_sgemm, &rng, _i);
}
END_TEST

START_TEST(tile2d_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("2D tiles", tile2d_sgemm, &rng, _i);
}
END_TEST

START_TEST(tile2d_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("2D tiles", tile2d_sgemm, &rng, _i);
}
END_TEST

static double bench_tile2d(wb_headline *h) { return gemm_vs_cublas_4096("2D register tiles", tile2d_sgemm, h); }

static double bench_ladder(void)
{
    const gemm_version v[] = {
        { "naive", naive_sgemm },       { "coalesced", coalesced_sgemm },    { "tiled (smem)", tiled_sgemm },
        { "1D register tiles", tile1d_sgemm }, { "2D register tiles", tile2d_sgemm },
    };
    return gemm_ladder(v, (int)WB_COUNT(v), 4);
}

static const wb_test TESTS[] = {
    { "w23.tile1d", WB_T(tile1d_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w23.tile1d", WB_T(tile1d_nonfinite), WB_GPU, 2 },
    { "w23.tile2d", WB_T(tile2d_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w23.tile2d", WB_T(tile2d_nonfinite), WB_GPU, 2 },
    WB_SPEED("w23.tile2d-speed", bench_tile2d),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
