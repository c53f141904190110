/* moments.h — week 31, exercise 1: a row's mean and variance on the CPU, three
 * ways, in float arithmetic, to see which one keeps its digits.
 *
 * All three give the population variance (divide by n, as LayerNorm does)
 * and accumulate in float, one element after another, in index order: the
 * point is to watch float arithmetic, so no double and no compensation.
 * n == 0 gives mean 0 and variance 0. They run on the host: the w31.moments
 * and w31.welford-stable checkpoints test them without a GPU. */
#ifndef MOMENTS_H
#define MOMENTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Single pass, sum and sum of squares: s = sum x, q = sum x*x, mean = s / n,
 * var = q / n - mean * mean. No clamp: the value the formula gives, even a
 * negative one (the kernels of exercise 2 clamp it at 0). */
void moments_sumsq(const float *x, size_t n, float *mean, float *var);

/* Two passes: mean = (sum x) / n, then var = (sum (x - mean)^2) / n. */
void moments_twopass(const float *x, size_t n, float *mean, float *var);

/* Welford's update, one pass: for k = 1..n, d = x - m; m += d / k;
 * M2 += d * (x - m) (the new m); var = M2 / n. */
void moments_welford(const float *x, size_t n, float *mean, float *var);

#ifdef __cplusplus
}
#endif
#endif
