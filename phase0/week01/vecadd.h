/* vecadd.h — week 01: c = a + b on the device. */
#ifndef VECADD_H
#define VECADD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* c[i] = a[i] + b[i] for i < n. a, b, c are device pointers (any float
 * alignment); nothing past c[n-1] may be written. Launches on the default
 * stream without waiting; returns the launch's error (cudaSuccess if none). */
cudaError_t vecadd(const float *a, const float *b, float *c, size_t n);

#ifdef __cplusplus
}
#endif
#endif
