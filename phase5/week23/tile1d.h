/* tile1d.h — week 23: SGEMM with 1D register tiles (each thread computes 8
 * elements of one column of C). Interface as in week 21's naive.h. */
#ifndef TILE1D_H
#define TILE1D_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t tile1d_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
