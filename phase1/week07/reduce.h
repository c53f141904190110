/* reduce.h — week 07: the sum of an array, six versions. */
#ifndef REDUCE_H
#define REDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REDUCE_VERSIONS 6

/* Bytes of device workspace reduce_sum needs for n elements (given). */
size_t reduce_tmp_bytes(size_t n);

/* *out (one device float) = x[0] + ... + x[n-1]; 0 when n == 0. `version`
 * is 1..6 (see reduce.cu): 1 interleaved, 2 sequential addressing, 3 first
 * add during load, 4 unrolled last warp, 5 warp shuffles, 6 multi-block with
 * atomics. tmp: reduce_tmp_bytes(n) bytes of device memory. Asynchronous
 * (default stream); returns the first error, cudaErrorInvalidValue for a bad
 * version. */
cudaError_t reduce_sum(int version, const float *x, size_t n, float *out, void *tmp);

#ifdef __cplusplus
}
#endif
#endif
