/* w21_checks.h — what week 21's judge (instructor/judge_w21.c) takes from
 * the week: its checks are test_week21.c's, whose cases and tolerances are
 * phase5/common/gemm_check.h's (GEMM_CASES, gemm_check_nonfinite,
 * gemm_tol), read by the judge through instructor/judge_gemm.c; named
 * here: the test's case tags, the TF32 handle's case, and tflops_formula's
 * cases (the same figures and tolerances as the test's assertions). */
#ifndef W21_CHECKS_H
#define W21_CHECKS_H

#include <math.h>

#define W21_NAIVE_SIZES         "naive_sizes"
#define W21_NAIVE_NONFINITE     "naive_nonfinite"
#define W21_COALESCED_SIZES     "coalesced_sizes"
#define W21_COALESCED_NONFINITE "coalesced_nonfinite"
#define W21_CUBLAS_SIZES        "cublas_sizes"
#define W21_CUBLAS_TF32         "cublas_tf32_handle"
/* cublas_tf32_handle: a handle left in TF32 mode, M x N x K */
enum { W21_TF32_M = 512, W21_TF32_N = 384, W21_TF32_K = 1024 };

/* naive_gemm_tflops(M, N, K, ms) must be within tol of want (check's
 * ck_assert_double_eq_tol: |want - got| < tol), or NaN where want is NaN. */
typedef struct {
    int    M, N, K;
    double ms, want, tol;
} w21_tflops_case;

static const w21_tflops_case W21_TFLOPS[] = {
    { 4096, 4096, 4096, 2.68, 2.0 * 4096.0 * 4096 * 4096 / 2.68e-3 / 1e12, 1e-9 },
    { 1, 1, 1, 1.0, 2e-9, 1e-18 },
    { 17, 33, 65, 0.5, 2.0 * 17 * 33 * 65 / 0.5e-3 / 1e12, 1e-15 },
    /* M*N*K = 1e13 overflows 32 and wraps 64-bit int arithmetic done too late */
    { 100000, 100000, 1000, 1000.0, 20.0, 1e-9 },
    { 65536, 65536, 65536, 1000.0, 2.0 * 65536.0 * 65536 * 65536 / 1e12, 1e-6 },
    { 4, 4, 4, 0.0, NAN, 0 },
    { 4, 4, 4, -1.0, NAN, 0 },
};
#define W21_N_TFLOPS (sizeof W21_TFLOPS / sizeof W21_TFLOPS[0])

/* Whether got is what case c wants: 1 or 0. */
static inline int w21_tflops_ok(const w21_tflops_case *c, double got)
{
    if (isnan(c->want)) return isnan(got);
    return fabsl((long double)c->want - (long double)got) < (long double)c->tol;
}

#endif
