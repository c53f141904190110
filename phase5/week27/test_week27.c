/* test_week27.c — week 27's checkpoints: the restructured kernel correct and
 * as fast as the learner's week-26 kernel, CUTLASS 2.x as a library
 * correct, and CUTLASS 3's Hopper GEMM correct and near cuBLAS. */
#include "wb_harness.h"
#include "hgemm_tiled.h"
#include "cutlass_gemm.h"
#include "cutlass3_gemm.h"
#include "hgemm_check.h"
#include "hgemm_wmma.h" /* weeks 25 and 26's kernels (week.txt: uses): the ladder, and */
#include "hgemm_mma.h"  /* week 26's kernel is the yardstick of w27.tiled-speed */

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

/* ---------------------------------------------------------------- CUTLASS 3 (sm90) */

/* cutlass3_hgemm's contract (cutlass3_gemm.h): M any, N and K multiples of 8
 * (TMA's 16-byte rows), any pointers. Its kernel is sm_90a code: on another
 * GPU these tests skip, saying so. */
static const hgemm_shape CUT3_SHAPES[] = {
    { 1, 8, 8 },       { 0, 8, 8 },      { 5, 0, 8 },       { 5, 8, 0 },        { 17, 40, 64 },
    { 128, 256, 64 },  { 129, 264, 72 }, { 255, 136, 24 },  { 333, 1000, 520 }, { 100, 8, 2000 },
    { 64, 640, 4096 }, { 3, 16, 8 },
};
/* A and B `off` halves, C `off` floats past a 256-byte boundary (never
 * 16-byte aligned): the scratch-copy path. */
static const hgemm_offset_shape CUT3_UNALIGNED[] = {
    { 128, 256, 32, 1 }, { 129, 264, 40, 3 }, { 33, 64, 16, 1 }, { 256, 512, 64, 2 }, { 1, 8, 8, 1 },
};
static const hgemm_shape CUT3_SPECIAL[] = { { 40, 296, 56 }, { 256, 256, 64 } };
static const hgemm_shape CUT3_LARGE[] = { { 2047, 2048, 2056 }, { 4096, 4096, 4096 } };
/* Shapes TMA cannot describe (N or K not a multiple of 8) and negative sizes. */
static const hgemm_shape CUT3_REFUSED[] = {
    { 5, 12, 8 }, { 5, 8, 12 }, { 5, 7, 9 }, { 1, 1, 1 }, { 0, 5, 8 }, { 4, 8, 3 }, { -1, 8, 8 }, { 8, -8, 8 },
    { 8, 8, -8 },
};

static int on_sm90(void) { return wb_device_is_cc(9, 0); }
/* SKIP, saying why, on any GPU but compute capability 9.0 (wb_harness.h). */
#define CUT3_SKIP_UNLESS_SM90() wb_need_sm90a("cutlass3_hgemm (wgmma, TMA)")

/* The host side of the contract, no GPU needed: shapes TMA cannot take are
 * refused before any CUDA call, and empty problems are accepted without one
 * (the pointers are never looked at). */
START_TEST(cutlass3_contract)
{
    for (size_t i = 0; i < WB_COUNT(CUT3_REFUSED); i++) {
        hgemm_shape s = CUT3_REFUSED[i];
        cudaError_t e = cutlass3_hgemm(NULL, NULL, NULL, s.M, s.N, s.K);
        ck_assert_msg(e == cudaErrorInvalidValue,
                      "M=%d N=%d K=%d must be refused with cudaErrorInvalidValue (N and K multiples of 8, no "
                      "negative size), got %s",
                      s.M, s.N, s.K, cudaGetErrorName(e));
    }
    const hgemm_shape empty[] = { { 0, 8, 8 }, { 0, 16, 0 }, { 7, 0, 8 }, { 0, 0, 0 } };
    for (size_t i = 0; i < WB_COUNT(empty); i++) {
        cudaError_t e = cutlass3_hgemm(NULL, NULL, NULL, empty[i].M, empty[i].N, empty[i].K);
        ck_assert_msg(e == cudaSuccess,
                      "M=%d N=%d K=%d is a shape the contract accepts (an empty C: cudaSuccess, nothing done), "
                      "got %s: shape_ok() must ask Gemm::can_implement()",
                      empty[i].M, empty[i].N, empty[i].K, cudaGetErrorName(e));
    }
}
END_TEST

/* A refused shape on real buffers: the error, and C (poisoned) untouched. */
START_TEST(cutlass3_refused)
{
    CUT3_SKIP_UNLESS_SM90();
    hgemm_shape s = CUT3_REFUSED[_i];
    int M = s.M > 0 ? s.M : 8, N = s.N > 0 ? s.N : 8, K = s.K > 0 ? s.K : 8;
    uint16_t *A = wb_dmalloc((size_t)M * K * 2), *B = wb_dmalloc((size_t)K * N * 2);
    wb_dout o;
    float *dc = wb_dout_alloc(&o, "C", (size_t)M * N * 4, 0);
    cudaError_t e = cutlass3_hgemm(A, B, dc, s.M, s.N, s.K);
    ck_assert_msg(e == cudaErrorInvalidValue, "M=%d N=%d K=%d must be refused with cudaErrorInvalidValue, got %s",
                  s.M, s.N, s.K, cudaGetErrorName(e));
    unsigned char *h = wb_hmalloc((size_t)M * N * 4);
    char what[96];
    snprintf(what, sizeof what, "refused M=%d N=%d K=%d", s.M, s.N, s.K);
    wb_expect_dout_guards(&o, h, what);
    for (size_t i = 0; i < (size_t)M * N * 4; i++)
        ck_assert_msg(h[i] == 0xFF, "%s: C was written (byte %zu) although the call was refused", what, i);
    free(h);
    wb_dout_free(&o);
    wb_dfree(A), wb_dfree(B);
}
END_TEST

START_TEST(cutlass3_shapes)
{
    CUT3_SKIP_UNLESS_SM90();
    wb_rng rng = WB_RNG();
    hgemm_check_shape(cutlass3_hgemm, &rng, CUT3_SHAPES[_i], HGEMM_FINITE);
}
END_TEST

START_TEST(cutlass3_nan_inf)
{
    CUT3_SKIP_UNLESS_SM90();
    wb_rng rng = WB_RNG();
    hgemm_check_shape(cutlass3_hgemm, &rng, CUT3_SPECIAL[_i], HGEMM_NAN_PM_INF);
}
END_TEST

/* TMA takes 16-byte aligned base addresses only, and nothing in CUTLASS's
 * can_implement() looks at the pointers: cutlass3_hgemm must. */
START_TEST(cutlass3_unaligned)
{
    CUT3_SKIP_UNLESS_SM90();
    wb_rng rng = WB_RNG();
    hgemm_check_unaligned(cutlass3_hgemm, &rng, CUT3_UNALIGNED[_i]);
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

START_TEST(cutlass3_large)
{
    CUT3_SKIP_UNLESS_SM90();
    hgemm_check_large(cutlass3_hgemm, CUT3_LARGE[_i], SEED_A, SEED_B);
}
END_TEST

/* ---------------------------------------------------------------- speed */

/* 4096^3: cuBLAS, the week-26 kernel (hgemm_mma: week 26's reference in the
 * workbook, the learner's own week-26 file in a student copy), yours
 * restructured (against week 26:
 * the headline row, w27.tiled-speed's figure), CUTLASS (against cuBLAS), all
 * on the same data in the same run; every timed output is checked. */
static double bench_hgemm(wb_headline *h)
{
    hgemm_bench b;
    hgemm_bench_open(&b, 4096, SEED_A, SEED_B);
    double yard = hgemm_bench_cublas(&b);
    wb_bench_row w26 = hgemm_bench_row(&b, "week-26 kernel (hgemm_mma)", hgemm_mma, "cuBLAS", yard);
    wb_bench_emit(&w26);
    wb_bench_row row = hgemm_bench_row(&b, "tile/mainloop/epilogue (yours)", hgemm_tiled, "W26", w26.value);
    double ratio = wb_bench_headline(&row, h);
    wb_bench_row cut = hgemm_bench_row(&b, "CUTLASS device::Gemm (yours)", cutlass_hgemm, "cuBLAS", yard);
    wb_bench_emit(&cut);
    hgemm_bench_close(&b);
    return ratio;
}

/* 4096^3: cuBLAS, CUTLASS 3's sm90 GEMM against it (the headline row), and
 * the 2.x GEMM printed beside it; same data, same run, every timed output
 * checked (hgemm_bench_row). */
static wb_bench_row bench_cutlass3_rows(void)
{
    hgemm_bench b;
    hgemm_bench_open(&b, 4096, SEED_A, SEED_B);
    double yard = hgemm_bench_cublas(&b);
    wb_bench_row two = hgemm_bench_row(&b, "CUTLASS 2.x device::Gemm (yours)", cutlass_hgemm, "cuBLAS", yard);
    wb_bench_emit(&two);
    wb_bench_row row = hgemm_bench_row(&b, "CUTLASS 3 sm90 collective (yours)", cutlass3_hgemm, "cuBLAS", yard);
    hgemm_bench_close(&b);
    return row;
}

/* A test, not a WB_SPEED line: on a GPU other than compute capability 9.0
 * it must skip, and only a test can. */
START_TEST(cutlass3_speed)
{
    CUT3_SKIP_UNLESS_SM90();
    wb_bench_row row = bench_cutlass3_rows();
    wb_expect_target_row("w27.cutlass3-speed", &row);
}
END_TEST

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
    { "w27.cutlass3", WB_T(cutlass3_contract), WB_CPU, 0 },
    { "w27.cutlass3", WB_T(cutlass3_refused), WB_GPU, WB_COUNT(CUT3_REFUSED) },
    { "w27.cutlass3", WB_T(cutlass3_shapes), WB_GPU, WB_COUNT(CUT3_SHAPES) },
    { "w27.cutlass3", WB_T(cutlass3_nan_inf), WB_GPU, WB_COUNT(CUT3_SPECIAL) },
    { "w27.cutlass3", WB_T(cutlass3_unaligned), WB_GPU, WB_COUNT(CUT3_UNALIGNED) },
    { "w27.cutlass3", WB_T(cutlass3_large), WB_GPU, WB_COUNT(CUT3_LARGE) },
    { "w27.cutlass3-speed", WB_T(cutlass3_speed), WB_GPU, 0 },
};

/* The ladder (hgemm_host.h). Serves no checkpoint: `--bench ladder` runs it. */
static double bench_ladder(void)
{
    const hgemm_version v[] = { { "wmma (week 25)", hgemm_wmma }, { "mma.sync (week 26)", hgemm_mma },
                                { "restructured (yours)", hgemm_tiled },
                                { "CUTLASS device::Gemm (yours)", cutlass_hgemm } };
    return hgemm_ladder(v, 4, -1);
}

/* w27.cutlass3-speed's rows, printed only (the test judges them). */
static double bench_cutlass3(void)
{
    if (!on_sm90()) {
        printf("cutlass3: skipped, needs a compute capability 9.0 GPU (this one is %d.%d)\n",
               wb_this_device()->cc_major, wb_this_device()->cc_minor);
        return NAN;
    }
    wb_bench_row row = bench_cutlass3_rows();
    wb_bench_emit(&row);
    return row.yard > 0 ? row.value / row.yard : NAN;
}

/* Benchmarks that serve no checkpoint; `--bench` also runs the WB_SPEED one (hgemm). */
static const wb_benchmark BENCHES[] = {
    { "ladder", bench_ladder },
    { "cutlass3", bench_cutlass3 },
};

int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
