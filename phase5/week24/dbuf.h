/* dbuf.h — week 24: SGEMM, vec4 with two shared-memory stages: the next tile is loaded from global memory while the current one is computed.
 * Interface as in week 21's naive.h: C = A B, row-major, any M, N, K >= 0,
 * any float alignment (the float4 path needs 16-byte aligned rows: sizes
 * that are not multiples of the tile, or unaligned pointers, take the
 * checked path of the same kernel). */
#ifndef DBUF_H
#define DBUF_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t dbuf_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
