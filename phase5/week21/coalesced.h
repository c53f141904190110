/* coalesced.h — week 21: the naive SGEMM with the global-memory accesses of a
 * warp made contiguous. Interface as in naive.h. */
#ifndef COALESCED_H
#define COALESCED_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t coalesced_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
