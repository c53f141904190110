/* yard_mempool.cu — week 16, given: the yardstick MEMPOOL (yard_mempool.h),
 * the driver's stream-ordered allocator with its memory kept. */
#include <cuda_runtime.h>
#include "yard_mempool.h"

extern "C" cudaError_t yard_mempool_open(int device, yard_mempool *y)
{
    y->pool = NULL;
    y->threshold = 0;
    cudaMemPool_t pool = NULL;
    cudaError_t e = cudaDeviceGetMemPool(&pool, device);
    if (e == cudaSuccess) e = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &y->threshold);
    uint64_t keep = UINT64_MAX;
    if (e == cudaSuccess) e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    if (e == cudaSuccess) y->pool = pool;
    return e;
}

extern "C" cudaError_t yard_mempool_alloc(void **p, size_t bytes, cudaStream_t s)
{
    return cudaMallocAsync(p, bytes, s);
}

extern "C" cudaError_t yard_mempool_free(void *p, cudaStream_t s) { return cudaFreeAsync(p, s); }

extern "C" cudaError_t yard_mempool_close(yard_mempool *y)
{
    if (!y->pool) return cudaSuccess;
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaMemPoolSetAttribute(y->pool, cudaMemPoolAttrReleaseThreshold, &y->threshold);
    if (e == cudaSuccess) e = cudaMemPoolTrimTo(y->pool, (size_t)y->threshold);
    y->pool = NULL;
    return e;
}
