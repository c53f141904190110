/* saxpy.h — week 07: y = a x + y. */
#ifndef SAXPY_H
#define SAXPY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = a * x[i] + y[i] for i < n; device pointers of any float alignment;
 * nothing past y[n-1] is written. Default stream; returns the launch's error. */
cudaError_t saxpy(size_t n, float a, const float *x, float *y);

#ifdef __cplusplus
}
#endif
#endif
