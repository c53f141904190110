/* warpscan.h — week 13: inclusive and exclusive prefix sums inside each
 * warp, by shuffles. */
#ifndef WARPSCAN_H
#define WARPSCAN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A scan of each group of 32 consecutive elements (a warp's worth; the last
 * group may be partial), g = 32 * (i / 32) the group's first index:
 *   inclusive != 0:  y[i] = x[g] + x[g+1] + ... + x[i]
 *   inclusive == 0:  y[i] = x[g] + ... + x[i-1], and y[g] = 0
 * NaN and Inf propagate as in a sequential sum. x and y are device pointers
 * of n floats; nothing past y[n-1] is written. Asynchronous (default
 * stream); returns the launch's error. */
cudaError_t warpscan_prefix_sum(const float *x, size_t n, float *y, int inclusive);

#ifdef __cplusplus
}
#endif
#endif
