/* layernorm.h — week 31, exercise 2: LayerNorm forward, three ways.
 *
 * x is rows x cols, row-major, contiguous; each row is normalised on its own:
 *
 *   mean = (1/cols) sum_j x[j]
 *   var  = (1/cols) sum_j (x[j] - mean)^2          (population variance)
 *   rstd = 1 / sqrt(var + eps)
 *   y[j] = (x[j] - mean) * rstd * gamma[j] + beta[j]
 *
 * mean[row] and rstd[row] are written too: the backward pass (week 32) needs
 * them. The three functions differ only in how they get mean and var, all
 * in float:
 *   layernorm_twopass — the mean first, then the sum of squared deviations;
 *   layernorm_welford — one pass of Welford updates, partial results merged
 *                       (Chan's formula) across threads;
 *   layernorm_sumsq   — one pass of sum and sum of squares,
 *                       var = E[x^2] - mean^2, clamped at 0 when negative
 *                       (NaN stays NaN): fast, and wrong when |mean| >> std.
 *
 * Contract (all three): x, gamma, beta, y, mean, rstd are device pointers of
 * any float alignment (16-byte aligned ones with cols % 4 == 0 are the fast
 * case); y has rows * cols floats, mean and rstd rows floats each, gamma and
 * beta cols floats each. rows == 0 does nothing and returns cudaSuccess;
 * rows < 0, cols <= 0 (with rows > 0) or eps < 0 return cudaErrorInvalidValue
 * and write nothing. Any cols >= 1 works (rows of one element give y = beta
 * and rstd = 1/sqrt(eps)). A row holding a NaN or an Inf gives NaN for all
 * of its y and its rstd (its mean is NaN or +-Inf). Nothing outside the
 * outputs is written. Launches on the default stream without waiting and
 * returns the launch's error. */
#ifndef LAYERNORM_H
#define LAYERNORM_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t layernorm_twopass(const float *x, const float *gamma, const float *beta, float *y, float *mean,
                              float *rstd, int rows, int cols, float eps);
cudaError_t layernorm_welford(const float *x, const float *gamma, const float *beta, float *y, float *mean,
                              float *rstd, int rows, int cols, float eps);
cudaError_t layernorm_sumsq(const float *x, const float *gamma, const float *beta, float *y, float *mean,
                            float *rstd, int rows, int cols, float eps);

#ifdef __cplusplus
}
#endif
#endif
