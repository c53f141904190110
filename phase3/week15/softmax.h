/* softmax.h — week 15: a first softmax, row-wise and numerically stable. */
#ifndef SOFTMAX_H
#define SOFTMAX_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x and y are rows x cols, row-major and contiguous, device pointers of any
 * float alignment. For every row i, with m = max_j x[i][j]:
 *     y[i][j] = exp(x[i][j] - m) / sum_k exp(x[i][k] - m)
 * Subtracting m keeps every exp <= 1: rows of values near 1e30 work. -Inf
 * entries give 0. A row holding a NaN or a +Inf, or of -Inf only, gives NaN
 * in every element (the formula's own answer: Inf - Inf and 0/0 are NaN).
 * Yours: one kernel reading each row from DRAM once (a block or a warp a
 * row). rows or cols <= 0 does nothing. Default stream; the launch's error. */
cudaError_t softmax_fused(const float *x, float *y, int rows, int cols);

/* Given (support/yard_unfused.cu): three kernels, max, sum of exp, normalise,
 * through rowmax and rowsum (rows floats each). */
cudaError_t yard_softmax_unfused(const float *x, float *rowmax, float *rowsum, float *y, int rows, int cols);

#ifdef __cplusplus
}
#endif
#endif
