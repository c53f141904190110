/* copy.h — week 03: a copy kernel, the bandwidth ceiling. */
#ifndef COPY_H
#define COPY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = x[i] for i < n, by a kernel (not cudaMemcpy). x and y are device
 * pointers with any float alignment, not overlapping; nothing past y[n-1] may
 * be written. Launches on the default stream; returns the launch's error. */
cudaError_t copy_f32(const float *x, float *y, size_t n);

#ifdef __cplusplus
}
#endif
#endif
