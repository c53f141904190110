/* vote.h — week 08: stream compaction with warp votes. */
#ifndef VOTE_H
#define VOTE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copy every x[i] > 0 into out[0 .. k) in any order and set *count = k
 * (device unsigned; the function zeroes it first). Nothing past out[k-1] is
 * written. NaN is not > 0. Default stream; the first error. */
cudaError_t vote_compact_positive(const float *x, size_t n, float *out, unsigned int *count);

#ifdef __cplusplus
}
#endif
#endif
