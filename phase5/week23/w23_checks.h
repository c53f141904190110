/* w23_checks.h — what week 23's judge (instructor/judge_w23.c) takes from
 * the week: its checks are test_week23.c's, whose cases and tolerances are
 * phase5/common/gemm_check.h's (GEMM_CASES, gemm_check_nonfinite,
 * gemm_tol, gemm_vs_cublas_4096), read by the judge through
 * instructor/judge_gemm.c; the test's case tags are named here. */
#ifndef W23_CHECKS_H
#define W23_CHECKS_H

#define W23_TILE1D_SIZES     "tile1d_sizes"
#define W23_TILE1D_NONFINITE "tile1d_nonfinite"
#define W23_TILE2D_SIZES     "tile2d_sizes"
#define W23_TILE2D_NONFINITE "tile2d_nonfinite"

#endif
