/* pool.h — week 16: stream-ordered allocation from a memory pool. */
#ifndef POOL_H
#define POOL_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Create a memory pool of device memory on `device` (cudaMemPoolCreate)
 * whose release threshold is set so that freed memory stays reserved in the
 * pool (UINT64_MAX: never give it back at a synchronisation). *pool is the
 * new pool, or NULL on an error; returns the first error. */
cudaError_t pool_create(int device, cudaMemPool_t *pool);

/* Allocate `bytes` (> 0) from `pool`, ordered on stream s
 * (cudaMallocFromPoolAsync): the memory may be used by work enqueued on s
 * after this call. */
cudaError_t pool_alloc(cudaMemPool_t pool, void **p, size_t bytes, cudaStream_t s);

/* Give p back to its pool, ordered on stream s (cudaFreeAsync): work
 * enqueued on s before this call may still use it. */
cudaError_t pool_free(void *p, cudaStream_t s);

/* Given: destroy a pool (NULL: nothing to do). Free and synchronise first. */
cudaError_t pool_destroy(cudaMemPool_t pool);

#ifdef __cplusplus
}
#endif
#endif
