/* hostmem.h — week 16: pinned (page-locked) host memory and zero-copy. */
#ifndef HOSTMEM_H
#define HOSTMEM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Page-locked host memory of `bytes` (cudaHostAlloc). mapped != 0: also
 * mapped into the device's address space (cudaHostAllocMapped), so a kernel
 * can read it through hm_device_ptr. bytes == 0: *p = NULL, cudaSuccess.
 * *p is NULL on an error. */
cudaError_t hm_alloc_pinned(void **p, size_t bytes, int mapped);

/* Given: free what hm_alloc_pinned gave (NULL: nothing to do). */
cudaError_t hm_free_pinned(void *p);

/* The device's address of mapped host memory `host`
 * (cudaHostGetDevicePointer). */
cudaError_t hm_device_ptr(void **dptr, void *host);

/* Zero-copy: y[i] = a * x[i] for i < n, where x is the device address of
 * mapped host memory (every load crosses PCIe) and y is device memory.
 * Any float alignment of x and y; nothing past y[n-1] written. Enqueued on
 * stream s; returns the launch's error. */
cudaError_t hm_zc_scale(const float *x, float *y, size_t n, float a, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
