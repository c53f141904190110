/* app.h — week 20, exercise 2: an end-to-end program on libwbk.
 *
 * Feature scaling, the first step of most machine-learning pipelines: a
 * table of `rows` samples by `cols` features (row-major floats) becomes a
 * table whose every column has mean 0 and standard deviation 1, and the
 * means and deviations are reported. It uses nothing but the library's
 * public API (wbk.h): the transpose makes each feature a contiguous row,
 * the standardisation runs on each, and a second transpose brings the table
 * back. */
#ifndef APP_H
#define APP_H

#include <stdio.h>
#include "wbk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[r * cols + j] = (data[r * cols + j] - means[j]) / stds[j], with
 * means[j] and stds[j] the mean and population standard deviation of column
 * j, computed by wbk_standardize (and its rule for a constant column).
 * 1 <= rows, cols <= WBK_MAX_DIM, rows * cols <= WBK_MAX_N; data and out
 * rows * cols floats, not overlapping; means and stds cols doubles. Returns
 * the first failing call's status (wbk_last_error() says which), or
 * WBK_ERR_INVALID_ARG for rows or cols < 1 or a NULL pointer. */
wbk_status app_standardize_columns(wbk_ctx *ctx, const float *data, int rows, int cols, float *out, double *means,
                                   double *stds);

/* The program, as a function (week 04's pattern): app_main(argc, argv, out)
 * of `wbk-app ROWS COLS [SEED]`. It makes a table whose feature j is uniform
 * on [j - 1 - j/2, j + 1 + j/2) (drawn with wb_rng from SEED, default 1),
 * scales it with app_standardize_columns on a context over every GPU, checks
 * the result against a double-precision CPU reference and prints
 *   devices: 1 (one GPU: no split)      or "devices: D (each call splits ...)"
 *   feature J: mean=M std=S             for the first 4 features
 *   scaled ROWSxCOLS max_err=E ok       (or FAILED)
 * Exit codes: 0 ok, 1 FAILED or a library error ("error: ..."), 2 bad
 * arguments ("error: ..." and the usage line, no GPU touched). */
int app_main(int argc, char **argv, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
