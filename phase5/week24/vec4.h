/* vec4.h — week 24: SGEMM, float4 global loads and stores, the A tile stored transposed in shared memory (float4 shared loads for both operands).
 * Interface as in week 21's naive.h: C = A B, row-major, any M, N, K >= 0,
 * any float alignment (the float4 path needs 16-byte aligned rows: sizes
 * that are not multiples of the tile, or unaligned pointers, take the
 * checked path of the same kernel). */
#ifndef VEC4_H
#define VEC4_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t vec4_sgemm(int M, int N, int K, const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
