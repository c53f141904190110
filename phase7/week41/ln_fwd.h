/* ln_fwd.h — week 41: the fused LayerNorm forward behind the autograd Function.
 *
 * x is rows x cols, row-major, contiguous; each row is normalised on its own
 * (the last dimension of a torch tensor, flattened to rows):
 *
 *   mean = (1/cols) sum_j x[j]
 *   var  = (1/cols) sum_j (x[j] - mean)^2          (population variance, as torch)
 *   rstd = 1 / sqrt(var + eps)
 *   y[j] = (x[j] - mean) * rstd * weight[j] + bias[j]
 *
 * mean[row] and rstd[row] are written too: they are what the backward pass
 * needs besides x and weight (week 42), 8 bytes a row instead of a second
 * reduction.
 *
 * Contract: x, weight, bias, y, mean, rstd are device pointers of any float
 * alignment (16-byte aligned ones with cols % 4 == 0 are the fast case); y
 * has rows * cols floats, mean and rstd rows floats each, weight and bias
 * cols floats each. rows == 0 does nothing and returns cudaSuccess; rows < 0,
 * cols <= 0 (with rows > 0) or eps < 0 (or NaN) return cudaErrorInvalidValue
 * and write nothing. Any cols >= 1 works (a row of one element gives
 * y = bias and rstd = 1/sqrt(eps)). A row holding a NaN or an Inf gives NaN
 * in all of its y and in its rstd. Nothing outside the outputs is written.
 * Launches on the default stream (torch's current stream unless you change
 * it) without waiting and returns the launch's error. */
#ifndef LN_FWD_H
#define LN_FWD_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t ln_fwd(const float *x, const float *weight, const float *bias, float *y, float *mean, float *rstd,
                   int rows, int cols, float eps);

#ifdef __cplusplus
}
#endif
#endif
