/* managed.h — week 16: unified (managed) memory, prefetching and advice. */
#ifndef MANAGED_H
#define MANAGED_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The `where` of managed_prefetch that names the host's memory. */
#define MANAGED_HOST (-1)

/* The three kinds of advice (cudaMemAdvise). */
typedef enum {
    MANAGED_PREFERRED_LOCATION = 0, /* the pages' home is `device` (cudaMemAdviseSetPreferredLocation) */
    MANAGED_READ_MOSTLY = 1,        /* read far more than written: a reader gets a copy (cudaMemAdviseSetReadMostly) */
    MANAGED_ACCESSED_BY = 2,        /* `device` keeps a mapping wherever the pages are (cudaMemAdviseSetAccessedBy) */
} managed_advice;

/* `bytes` of managed memory (cudaMallocManaged, attached globally: any
 * stream of any device may use it). bytes == 0: *p = NULL, cudaSuccess.
 * *p is NULL on an error. */
cudaError_t managed_alloc(void **p, size_t bytes);

/* Given: free what managed_alloc gave (NULL: nothing to do). */
cudaError_t managed_free(void *p);

/* Migrate the pages of [p, p + bytes) to `where`, a device ordinal or
 * MANAGED_HOST, ordered on stream s (cudaMemPrefetchAsync); returns at once.
 * bytes == 0: nothing to do. */
cudaError_t managed_prefetch(const void *p, size_t bytes, int where, cudaStream_t s);

/* set != 0: give `advice` for [p, p + bytes), about `device` where the
 * advice names one (preferred location, accessed by); set == 0: take it back
 * (the cudaMemAdviseUnset... of the same advice). bytes == 0: nothing to do;
 * an advice that is not one of the three: cudaErrorInvalidValue. */
cudaError_t managed_advise(const void *p, size_t bytes, managed_advice advice, int device, int set);

/* x[i] = a * x[i] + b for i < n, in place, on device or managed memory; any
 * float alignment of x, nothing outside x[0..n-1] touched. Enqueued on
 * stream s; returns the launch's error. */
cudaError_t managed_scale(float *x, size_t n, float a, float b, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
