/* yard_realloc.cu — week 16, given: the yardstick REALLOC (yard_realloc.h). */
#include <cuda_runtime.h>
#include "yard_realloc.h"

extern "C" cudaError_t yard_realloc_grow(yard_realloc *y, size_t bytes)
{
    if (bytes <= y->bytes) return cudaErrorInvalidValue;
    void *q = NULL;
    cudaError_t e = cudaMalloc(&q, bytes);
    if (e != cudaSuccess) return e;
    if (y->bytes) e = cudaMemcpyAsync(q, y->p, y->bytes, cudaMemcpyDeviceToDevice, 0);
    if (e != cudaSuccess) {
        cudaFree(q);
        return e;
    }
    if (y->p) e = cudaFree(y->p);
    y->p = q;
    y->bytes = bytes;
    return e;
}

extern "C" cudaError_t yard_realloc_free(yard_realloc *y)
{
    cudaError_t e = y->p ? cudaFree(y->p) : cudaSuccess;
    y->p = NULL;
    y->bytes = 0;
    return e;
}
