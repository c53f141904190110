/* thrustops.h — week 14: Thrust behind a C interface.
 *
 * Thrust reports errors by throwing C++ exceptions; these functions catch
 * them all and return a cudaError_t instead (cudaErrorMemoryAllocation when
 * memory ran out), so C callers see an error code, never an exception.
 * Device pointers; both calls are synchronous (they return when done). */
#ifndef W14_THRUSTOPS_H
#define W14_THRUSTOPS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out (host double) = sum over i < n of (x[i] - y[i])^2, each term and
 * the sum in double; 0 when n == 0. */
cudaError_t thr_sqdist(const float *x, const float *y, size_t n, double *out);

/* Sort the n pairs (keys[i], vals[i]) by key in place, stable. */
cudaError_t thr_sort_by_key(unsigned *keys, unsigned *vals, size_t n);

#ifdef __cplusplus
}
#endif
#endif
