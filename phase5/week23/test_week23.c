/* test_week23.c — week 23's checkpoints: 1D and 2D register tiles, and the
 * 2D kernel's speed against cuBLAS. */
#include "../week21/gemm_check.h"
#include "../week21/naive.h"
#include "../week21/coalesced.h"
#include "../week21/support/yard.h"
#include "../week22/tiled.h"
#include "tile1d.h"
#include "tile2d.h"

START_TEST(tile1d_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("1D tiles", sgemm_1d, &rng, _i);
}
END_TEST

START_TEST(tile1d_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("1D tiles", sgemm_1d, &rng, _i);
}
END_TEST

START_TEST(tile2d_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("2D tiles", sgemm_2d, &rng, _i);
}
END_TEST

START_TEST(tile2d_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("2D tiles", sgemm_2d, &rng, _i);
}
END_TEST

static double bench_tile2d(void)
{
    return gemm_vs_cublas_4096("2D register tiles", sgemm_2d, yard_sgemm_cublas, "w23.tile2d-speed");
}

static double bench_ladder(void)
{
    const gemm_version v[] = {
        { "naive", sgemm_naive },       { "coalesced", sgemm_coalesced },    { "tiled (smem)", sgemm_tiled },
        { "1D register tiles", sgemm_1d }, { "2D register tiles", sgemm_2d },
    };
    return gemm_ladder(v, 5, yard_sgemm_cublas, 4, "w23.tile2d-speed");
}

START_TEST(tile2d_speed)
{
    wb_expect_target("w23.tile2d-speed", bench_tile2d(), NULL);
}
END_TEST

static const wb_test TESTS[] = {
    { "w23.tile1d", WB_T(tile1d_sizes), WB_GPU, GEMM_N_CASES },
    { "w23.tile1d", WB_T(tile1d_nonfinite), WB_GPU, 2 },
    { "w23.tile2d", WB_T(tile2d_sizes), WB_GPU, GEMM_N_CASES },
    { "w23.tile2d", WB_T(tile2d_nonfinite), WB_GPU, 2 },
    { "w23.tile2d-speed", WB_T(tile2d_speed), WB_GPU, 0 },
};

static const wb_benchmark BENCHES[] = {
    { "tile2d", bench_tile2d },
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
