/* sweep.h — week 09: a kernel whose arithmetic intensity is a parameter. */
#ifndef SWEEP_H
#define SWEEP_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For every i < n: v = x[i], then k times v = fmaf(v, a, b), then y[i] = v.
 * 2k flops and 8 bytes (one load, one store) per element: intensity k / 4
 * flop/byte. x and y are device pointers from cudaMalloc (16-byte aligned);
 * nothing past y[n-1] may be written; k >= 0. Launches on the default stream
 * without waiting; returns the launch's error. */
cudaError_t sweep_fma(const float *x, float *y, size_t n, int k, float a, float b);

#ifdef __cplusplus
}
#endif
#endif
