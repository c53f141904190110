/* w22_checks.h — what week 22's judge (instructor/judge_w22.c) takes from
 * the week: its checks are test_week22.c's, whose cases and tolerances are
 * phase5/common/gemm_check.h's (GEMM_CASES, gemm_check_nonfinite,
 * gemm_tol, gemm_vs_cublas_4096), read by the judge through
 * instructor/judge_gemm.c; named here: the test's case tags, its tile sizes,
 * the two cases tiled_default runs through tiled_sgemm, and the tile size
 * that does not exist. */
#ifndef W22_CHECKS_H
#define W22_CHECKS_H

#define W22_TILED_SIZES     "tiled_sizes"
#define W22_TILED_NONFINITE "tiled_nonfinite"
#define W22_TILED_DEFAULT   "tiled_default"

static const int W22_TILES[3] = { 8, 16, 32 };
/* GEMM_CASES[11] and [15]: 127 x 129 x 255 and 1000 x 1001 x 999 */
static const int W22_DEFAULT_CASES[2] = { 11, 15 };
enum { W22_BAD_TILE = 12 };

#endif
