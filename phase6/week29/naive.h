/* naive.h — week 29: softmax as a framework writes it op by op, and where it
 * breaks. */
#ifndef NAIVE_H
#define NAIVE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The textbook formula, no safeguard: for every row i of x (rows x cols,
 * row-major, contiguous, device pointers of any float alignment)
 *     y[i][j] = exp(x[i][j]) / sum_k exp(x[i][k])
 * as three kernels, one pass over memory each:
 *     1. y = exp(x), element-wise;
 *     2. sums[i] = sum of row i of y (sums: rows floats of device workspace);
 *     3. y[i][j] = y[i][j] / sums[i].
 * Correct while every exp(x) and every row's sum stay finite and the sum is
 * not 0; wrong (NaN) past that, which w29.overflow shows. rows or cols <= 0
 * does nothing. Default stream; returns the first launch error. */
cudaError_t naive_softmax(const float *x, float *y, float *sums, int rows, int cols);

/* A CPU function: the largest logit L such that a row of `cols` logits, none
 * above L, cannot overflow the naive softmax's FP32 sum: every exp(x) is at
 * most FLT_MAX / cols, so their sum is at most FLT_MAX. (cols >= 1) */
double naive_limit(int cols);

#ifdef __cplusplus
}
#endif
#endif
