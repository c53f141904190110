/* ilp.h — week 12: instruction- and memory-level parallelism. */
#ifndef ILP_H
#define ILP_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = a * x[i] for i < n. Each thread has `ilp` (1, 2, 4 or 8) float4
 * loads in flight before it stores. blocks_per_sm 0: as many blocks of 256
 * as the work needs; k > 0: exactly k blocks of 256 per SM, grid-stride.
 * x and y come from cudaMalloc (16-byte aligned); nothing past y[n-1] is
 * written. Returns the launch's error (cudaErrorInvalidValue for another ilp). */
cudaError_t ilp_scale(const float *x, float *y, size_t n, float a, int ilp, int blocks_per_sm);

#ifdef __cplusplus
}
#endif
#endif
