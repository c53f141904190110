/* tiled.h — week 22: SGEMM with shared-memory tiles. Interface as in week
 * 21's naive.h: C = A B, row-major, device pointers, any M, N, K >= 0. */
#ifndef TILED_H
#define TILED_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tiles of T x T (T = 8, 16 or 32; cudaErrorInvalidValue otherwise). */
cudaError_t tiled_sgemm_t(int T, int M, int N, int K, const float *A, const float *B, float *C);
/* The tile size you find fastest on your GPU. */
cudaError_t tiled_sgemm(int M, int N, int K, const float *A, const float *B, float *C);
/* Blocks of the T x T kernel that fit on one SM at once (0 for a bad T). */
int tiled_sgemm_blocks_per_sm(int T);

#ifdef __cplusplus
}
#endif
#endif
