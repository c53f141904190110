/* warptile.h — week 24: SGEMM, dbuf with warp tiling: each warp owns a 32 x 64 tile of C, each thread four 4 x 4 sub-tiles, no shared-memory bank conflicts.
 * Interface as in week 21's naive.h: C = A B, row-major, any M, N, K >= 0,
 * any float alignment (the float4 path needs 16-byte aligned rows: sizes
 * that are not multiples of the tile, or unaligned pointers, take the
 * checked path of the same kernel). */
#ifndef WARPTILE_H
#define WARPTILE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t warptile_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
