/* w24_checks.h — what week 24's judge (instructor/judge_w24.c) takes from
 * the week: its checks are test_week24.c's, whose cases and tolerances are
 * phase5/common/gemm_check.h's (GEMM_CASES, gemm_check_nonfinite,
 * gemm_tol, gemm_vs_cublas_4096), read by the judge through
 * instructor/judge_gemm.c, and warptile_large's size, named here with the
 * test's case tags. */
#ifndef W24_CHECKS_H
#define W24_CHECKS_H

#define W24_VEC4_SIZES         "vec4_sizes"
#define W24_VEC4_NONFINITE     "vec4_nonfinite"
#define W24_DBUF_SIZES         "dbuf_sizes"
#define W24_DBUF_NONFINITE     "dbuf_nonfinite"
#define W24_WARPTILE_SIZES     "warptile_sizes"
#define W24_WARPTILE_NONFINITE "warptile_nonfinite"
#define W24_WARPTILE_LARGE     "warptile_large"
/* warptile_large: a full-tile size large enough for many blocks per SM */
enum { W24_LARGE_M = 2048, W24_LARGE_N = 1536, W24_LARGE_K = 1024 };

#endif
