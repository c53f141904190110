/* hgemm_tiled.h — week 27: the tensor-core GEMM split into tile, mainloop and epilogue. */
#ifndef HGEMM_TILED_H
#define HGEMM_TILED_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A * B, row-major: A is M x K, B is K x N, C is M x N. A and B hold
 * IEEE half-precision values (their bit patterns, as uint16_t, because C has
 * no half type); C is float and the products are accumulated in float.
 * Device pointers; any M, N, K >= 0 (K == 0 gives C = 0). Nothing outside
 * C[0 .. M*N) is written. Launches on the default stream without waiting and
 * returns the first error (cudaSuccess if none). */
cudaError_t hgemm_tiled(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
