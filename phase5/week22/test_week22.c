/* test_week22.c — week 22's checkpoints: the tiled SGEMM at three tile
 * sizes, its occupancy, and its speed against cuBLAS. */
#include "gemm_check.h"
#include "naive.h"
#include "coalesced.h"
#include "tiled.h"

static cudaError_t tiled8(int M, int N, int K, const float *A, const float *B, float *C)
{
    return tiled_sgemm_t(8, M, N, K, A, B, C);
}
static cudaError_t tiled16(int M, int N, int K, const float *A, const float *B, float *C)
{
    return tiled_sgemm_t(16, M, N, K, A, B, C);
}
static cudaError_t tiled32(int M, int N, int K, const float *A, const float *B, float *C)
{
    return tiled_sgemm_t(32, M, N, K, A, B, C);
}
static const int TILES[3] = { 8, 16, 32 };
static const gemm_fn TILED[3] = { tiled8, tiled16, tiled32 };

/* Every case at every tile size (loop index = case * 3 + tile). */
START_TEST(tiled_sizes)
{
    wb_rng rng = WB_RNG();
    char name[32];
    snprintf(name, sizeof name, "tiled T=%d", TILES[_i % 3]);
    gemm_check_case(name, TILED[_i % 3], &rng, _i / 3);
}
END_TEST

START_TEST(tiled_nonfinite)
{
    wb_rng rng = WB_RNG();
    char name[32];
    snprintf(name, sizeof name, "tiled T=%d", TILES[_i % 3]);
    gemm_check_nonfinite(name, TILED[_i % 3], &rng, _i / 3);
}
END_TEST

START_TEST(tiled_default)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("tiled_sgemm", tiled_sgemm, &rng, _i ? 11 : 15); /* 127x129x255, 1000x1001x999 */
}
END_TEST

/* Blocks per SM: at least one, never more threads than an SM holds, and 0 for
 * a tile size that does not exist. */
START_TEST(tiled_occupancy)
{
    int max_threads = 0;
    WB_CUDA(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    for (int t = 0; t < 3; t++) {
        int b = tiled_sgemm_blocks_per_sm(TILES[t]);
        ck_assert_msg(b >= 1 && b * TILES[t] * TILES[t] <= max_threads,
                      "tiled_sgemm_blocks_per_sm(%d) = %d: expected 1..%d", TILES[t], b,
                      max_threads / (TILES[t] * TILES[t]));
        printf("  T=%2d: %d threads/block, %2d blocks/SM, %d of %d threads\n", TILES[t], TILES[t] * TILES[t], b,
               b * TILES[t] * TILES[t], max_threads);
    }
    ck_assert_int_eq(tiled_sgemm_blocks_per_sm(12), 0);
    ck_assert_int_eq(tiled_sgemm_t(12, 4, 4, 4, NULL, NULL, NULL), cudaErrorInvalidValue);
}
END_TEST

/* ---------------------------------------------------------------- speed */

static double bench_tiled(wb_headline *h) { return gemm_vs_cublas_4096("tiled", tiled_sgemm, h); }

/* Tile size against occupancy at 4096: which T is fastest, and why. */
static double bench_sweep(void)
{
    gemm_bench g;
    gemm_bench_open(&g, 4096);
    double yard = gemm_bench_cublas(&g);
    double best = NAN;
    for (int t = 0; t < 3; t++) {
        char v[48];
        int b = tiled_sgemm_blocks_per_sm(TILES[t]);
        snprintf(v, sizeof v, "tiled T=%d, %d blk=%d warps/SM", TILES[t], b, b * TILES[t] * TILES[t] / 32);
        wb_bench_row r = gemm_bench_row(&g, v, TILED[t], "cuBLAS", yard);
        wb_bench_emit(&r);
        double q = wb_bench_ratio(&r);
        if (!(best >= q)) best = q;
    }
    gemm_bench_close(&g);
    return best;
}

static double bench_ladder(void)
{
    const gemm_version v[] = {
        { "naive", naive_sgemm },
        { "coalesced", coalesced_sgemm },
        { "tiled", tiled_sgemm },
    };
    return gemm_ladder(v, (int)WB_COUNT(v), 2);
}

static const wb_test TESTS[] = {
    { "w22.tiled", WB_T(tiled_sizes), WB_GPU, WB_COUNT(GEMM_CASES) * 3 },
    { "w22.tiled", WB_T(tiled_nonfinite), WB_GPU, 6 },
    { "w22.tiled", WB_T(tiled_default), WB_GPU, 2 },
    { "w22.tiled", WB_T(tiled_occupancy), WB_GPU, 0 },
    WB_SPEED("w22.tiled-speed", bench_tiled),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "sweep", bench_sweep },
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
