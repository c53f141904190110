/* stable.h — week 29: softmax with the row's maximum subtracted. */
#ifndef STABLE_H
#define STABLE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For every row i of x (rows x cols, row-major, contiguous, device pointers
 * of any float alignment), with m = max_j x[i][j]:
 *     y[i][j] = exp(x[i][j] - m) / sum_k exp(x[i][k] - m)
 * Every exp(x - m) is in (0, 1] and the largest is exactly 1, so the sum is
 * in [1, cols]: no overflow, and no 0/0, whatever the logits (+-1e4 or
 * +-1e30). Masked entries are -Inf and give exactly 0. A row with a NaN or a
 * +Inf, or of -Inf only, gives NaN in every element: the formula's own
 * answer (Inf - Inf, exp(NaN)), as torch.softmax gives it.
 * One kernel, a block of SM_THREADS threads a row, three sweeps of the row:
 * the max, the sum, the output. rows or cols <= 0 does nothing. Default
 * stream; returns the launch's error. */
cudaError_t stable_softmax(const float *x, float *y, int rows, int cols);

#define SM_THREADS 256

#ifdef __cplusplus
}
#endif
#endif
