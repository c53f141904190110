/* norm.h — week 15: transform + reduce in one pass (the L2 norm), and a
 * fusion that does not pay (normalising by it). */
#ifndef NORM_H
#define NORM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Given: bytes of the scratch buffer `tmp` every function below takes (room
 * for NORM_MAX_BLOCKS partial sums, and one float after them). */
#define NORM_MAX_BLOCKS 4096
size_t norm_tmp_bytes(void);

/* *out = sqrt(sum of x[i]^2) over n floats (n == 0 gives 0), reading x once:
 * the square is done on the loaded value, never stored. Sums in float (a
 * square that overflows gives Inf: no scaling, unlike BLAS snrm2); NaN gives
 * NaN. x and out are device pointers (x of any float alignment), tmp a device
 * buffer of norm_tmp_bytes(). Default stream, no wait; the launch's error. */
cudaError_t norm_l2(const float *x, size_t n, float *out, void *tmp);

/* Given (support/yard_unfused.cu): the unfused chain: t = x^2 (n floats written),
 * then the sum of t, then the square root. */
cudaError_t yard_l2norm_unfused(const float *x, float *t, size_t n, float *out, void *tmp);

/* y[i] = x[i] / ||x||, as ONE cooperative kernel: partial sums of squares,
 * a grid-wide barrier (cooperative_groups::this_grid().sync()), every block
 * finishes the sum from the partials, then the scale pass. n == 0 does
 * nothing. A zero vector gives NaN (0/0). Default stream; the launch's error. */
cudaError_t normalize_fused(const float *x, float *y, size_t n, void *tmp);

/* Given (support/yard_unfused.cu): your norm_l2 into *norm, then a second kernel
 * y = x / *norm. */
cudaError_t yard_normalize_unfused(const float *x, float *y, size_t n, float *norm, void *tmp);

#ifdef __cplusplus
}
#endif
#endif
