/* rmsnorm.h — week 31, exercise 3: RMSNorm forward.
 *
 * x is rows x cols, row-major, contiguous; for each row
 *
 *   rstd = 1 / sqrt((1/cols) sum_j x[j]^2 + eps)
 *   y[j] = x[j] * rstd * gamma[j]          (in that order: (x * rstd) * gamma)
 *
 * No mean is subtracted and there is no beta: one reduction a row, one
 * fewer parameter stream. rstd[row] is written too (the backward pass needs
 * it). The sum of squares is in float.
 *
 * Contract: device pointers of any float alignment; y has rows * cols floats,
 * rstd rows floats, gamma cols floats. rows == 0 does nothing and returns
 * cudaSuccess; rows < 0, cols <= 0 (with rows > 0) or eps < 0 return
 * cudaErrorInvalidValue and write nothing. A row with a NaN gives NaN for all
 * of its y and its rstd; a row with an Inf (and no NaN) gives rstd 0, y 0 for
 * its finite elements and NaN for its infinite ones (Inf * 0), as the formula
 * says. Nothing outside the outputs is written. Default stream, no wait; the
 * launch's error. */
#ifndef RMSNORM_H
#define RMSNORM_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t rmsnorm(const float *x, const float *gamma, float *y, float *rstd, int rows, int cols, float eps);

#ifdef __cplusplus
}
#endif
#endif
