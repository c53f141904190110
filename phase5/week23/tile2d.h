/* tile2d.h — week 23: SGEMM with 2D register tiles (each thread computes an
 * 8 x 8 block of C). Interface as in week 21's naive.h. */
#ifndef TILE2D_H
#define TILE2D_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t tile2d_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
