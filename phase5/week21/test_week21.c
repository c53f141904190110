/* test_week21.c — week 21's checkpoints: TFLOP/s, naive and coalesced SGEMM,
 * cuBLAS from row-major data, and coalescing's speed-up. */
#include "gemm_check.h"
#include "naive.h"
#include "coalesced.h"
#include "cublas_rm.h"

/* ---------------------------------------------------------------- TFLOP/s (CPU) */

START_TEST(tflops_formula)
{
    ck_assert_double_eq_tol(naive_gemm_tflops(4096, 4096, 4096, 2.68), 2.0 * 4096.0 * 4096 * 4096 / 2.68e-3 / 1e12,
                            1e-9);
    ck_assert_double_eq_tol(naive_gemm_tflops(1, 1, 1, 1.0), 2e-9, 1e-18);
    ck_assert_double_eq_tol(naive_gemm_tflops(17, 33, 65, 0.5), 2.0 * 17 * 33 * 65 / 0.5e-3 / 1e12, 1e-15);
    /* M*N*K = 1e13 overflows 32 and wraps 64-bit int arithmetic done too late */
    ck_assert_double_eq_tol(naive_gemm_tflops(100000, 100000, 1000, 1000.0), 20.0, 1e-9);
    ck_assert_double_eq_tol(naive_gemm_tflops(65536, 65536, 65536, 1000.0), 2.0 * 65536.0 * 65536 * 65536 / 1e12, 1e-6);
    ck_assert_msg(isnan(naive_gemm_tflops(4, 4, 4, 0.0)), "naive_gemm_tflops(.., ms = 0) must be NaN");
    ck_assert_msg(isnan(naive_gemm_tflops(4, 4, 4, -1.0)), "naive_gemm_tflops(.., ms < 0) must be NaN");
}
END_TEST

/* ---------------------------------------------------------------- correctness */

START_TEST(naive_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("naive", naive_sgemm, &rng, _i);
}
END_TEST

START_TEST(naive_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("naive", naive_sgemm, &rng, _i);
}
END_TEST

START_TEST(coalesced_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("coalesced", coalesced_sgemm, &rng, _i);
}
END_TEST

START_TEST(coalesced_nonfinite)
{
    wb_rng rng = WB_RNG();
    gemm_check_nonfinite("coalesced", coalesced_sgemm, &rng, _i);
}
END_TEST

/* The learner's cuBLAS call as a gemm_fn, on one handle per process. */
static cublasHandle_t your_handle;

static cudaError_t your_cublas(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (!your_handle && cublasCreate(&your_handle) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
    cublasStatus_t s = cublas_rm_sgemm(your_handle, M, N, K, A, B, C);
    if (s != CUBLAS_STATUS_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "cublas_rm_sgemm returned %s", cublasGetStatusString(s));
        return wb_cuda_check_(cudaErrorUnknown, what, __FILE__, __LINE__);
    }
    return cudaSuccess;
}

START_TEST(cublas_sizes)
{
    wb_rng rng = WB_RNG();
    gemm_check_case("cublas_rm_sgemm", your_cublas, &rng, _i);
}
END_TEST

/* A handle left in TF32 mode by someone else: the call must still be FP32. */
START_TEST(cublas_tf32_handle)
{
    ck_assert_int_eq(cublasCreate(&your_handle), CUBLAS_STATUS_SUCCESS);
    ck_assert_int_eq(cublasSetMathMode(your_handle, CUBLAS_TF32_TENSOR_OP_MATH), CUBLAS_STATUS_SUCCESS);
    wb_rng rng = WB_RNG();
    int M = 512, N = 384, K = 1024;
    float *hA = wb_hmalloc((size_t)M * K * 4), *hB = wb_hmalloc((size_t)K * N * 4);
    wb_fill_uniform_f32(&rng, hA, (size_t)M * K, -1, 1);
    wb_fill_uniform_f32(&rng, hB, (size_t)K * N, -1, 1);
    gemm_check_inputs("cublas_rm_sgemm on a TF32 handle", your_cublas, M, N, K, 0, 0, hA, hB);
    free(hA), free(hB);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* The NAIVE yardstick: the reference naive kernel under its own name
 * (support/yard_naive.cu; your own naive kernel in a student copy). */
cudaError_t yard_naive_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

/* Coalescing's speed-up: the coalesced kernel against the reference naive
 * one on the same buffers in the same run. Both outputs are checked first. */
static double bench_coalescing(wb_headline *h)
{
    gemm_bench g;
    gemm_bench_open(&g, 4096);
    wb_bench_row y = gemm_bench_row(&g, "naive (reference)", yard_naive_sgemm, NULL, 0);
    wb_bench_emit(&y);
    wb_bench_row r = gemm_bench_row(&g, "coalesced", coalesced_sgemm, "NAIVE", y.invalid ? NAN : y.value);
    gemm_bench_close(&g);
    return wb_bench_headline(&r, h);
}

static double bench_ladder(void)
{
    const gemm_version v[] = {
        { "naive", naive_sgemm },
        { "coalesced", coalesced_sgemm },
        { "cuBLAS (sgemm_cublas)", your_cublas },
    };
    return gemm_ladder(v, (int)WB_COUNT(v), 1);
}

static const wb_test TESTS[] = {
    { "w21.tflops", WB_T(tflops_formula), WB_CPU, 0 },
    { "w21.naive", WB_T(naive_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w21.naive", WB_T(naive_nonfinite), WB_GPU, 2 },
    { "w21.coalesced", WB_T(coalesced_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w21.coalesced", WB_T(coalesced_nonfinite), WB_GPU, 2 },
    { "w21.cublas", WB_T(cublas_sizes), WB_GPU, WB_COUNT(GEMM_CASES) },
    { "w21.cublas", WB_T(cublas_tf32_handle), WB_GPU, 0 },
    WB_SPEED("w21.coalesced-speed", bench_coalescing),
};

/* Benchmarks that serve no checkpoint; `--bench` also runs every WB_SPEED one. */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
