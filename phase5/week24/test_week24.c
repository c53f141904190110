/* test_week24.c — week 24's checkpoints: float4 with a transposed A tile,
 * double buffering, warp tiling, and the warp-tiled kernel's speed against
 * cuBLAS. */
#include "gemm_check.h"
#include "naive.h"
#include "coalesced.h"
#include "tiled.h"
#include "tile1d.h"
#include "tile2d.h"
#include "vec4.h"
#include "dbuf.h"
#include "warptile.h"

START_TEST(vec4_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("vec4", vec4_sgemm, &rng, _i);
}
END_TEST

START_TEST(vec4_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("vec4", vec4_sgemm, &rng, _i);
}
END_TEST

START_TEST(dbuf_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("dbuf", dbuf_sgemm, &rng, _i);
}
END_TEST

START_TEST(dbuf_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("dbuf", dbuf_sgemm, &rng, _i);
}
END_TEST

START_TEST(warptile_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("warptile", warptile_sgemm, &rng, _i);
}
END_TEST

START_TEST(warptile_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("warptile", warptile_sgemm, &rng, _i);
}
END_TEST

/* A full-tile size large enough for many blocks per SM, checked by sample. */
START_TEST(warptile_large)
{
    wb_rng rng = WB_RNG();
    int M = 2048, N = 1536, K = 1024;
    float *hA = wb_hmalloc((size_t)M * K * 4), *hB = wb_hmalloc((size_t)K * N * 4);
    wb_fill_uniform_f32(&rng, hA, (size_t)M * K, -1, 1);
    wb_fill_uniform_f32(&rng, hB, (size_t)K * N, -1, 1);
    gemm_check_inputs("warptile", warptile_sgemm, M, N, K, 0, 1, hA, hB);
    free(hA), free(hB);
}
END_TEST

static double bench_warptile(wb_headline *h) { return gemm_vs_cublas_4096("warp tiles", warptile_sgemm, h); }

static double bench_ladder(void)
{
    const gemm_version v[] = {
        { "naive", naive_sgemm },
        { "coalesced", coalesced_sgemm },
        { "tiled (smem)", tiled_sgemm },
        { "1D register tiles", tile1d_sgemm },
        { "2D register tiles", tile2d_sgemm },
        { "float4 + transposed A", vec4_sgemm },
        { "double-buffered", dbuf_sgemm },
        { "warp tiles", warptile_sgemm },
    };
    return gemm_ladder(v, (int)WB_COUNT(v), 7);
}

static const wb_test TESTS[] = {
    { "w24.vec4", WB_T(vec4_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w24.vec4", WB_T(vec4_nonfinite), WB_GPU, 2 },
    { "w24.dbuf", WB_T(dbuf_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w24.dbuf", WB_T(dbuf_nonfinite), WB_GPU, 2 },
    { "w24.warptile", WB_T(warptile_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w24.warptile", WB_T(warptile_nonfinite), WB_GPU, 2 },
    { "w24.warptile", WB_T(warptile_large), WB_GPU, 0 },
    WB_SPEED("w24.warptile-speed", bench_warptile),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
