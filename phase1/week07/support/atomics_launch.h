/* atomics_launch.h — week 07, given: how atomics.cu and its yardsticks
 * (support/yard_atomics_naive.cu) zero their outputs and size their grids, so
 * that yours and the naive kernels launch the same way. CUDA C++ only. */
#ifndef ATOMICS_LAUNCH_H
#define ATOMICS_LAUNCH_H

#include <limits.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

/* A few blocks per SM (grid-stride loops do the rest), at least one. */
static inline unsigned atomics_blocks_for(size_t n, unsigned block)
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0) sms = 80;
    }
    size_t want = (n + block - 1) / block, cap = (size_t)sms * 8;
    return (unsigned)(want < cap ? want : cap);
}

/* *count = 0, then kernel(x, n, thresh, out, count) over n elements. */
template <class Kernel>
static cudaError_t atomics_launch_compact(Kernel kernel, unsigned block, const unsigned int *x, size_t n,
                                          unsigned int thresh, unsigned int *out, unsigned int *count)
{
    if (n > UINT_MAX) return cudaErrorInvalidValue;
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof(unsigned int), 0);
    if (e != cudaSuccess || n == 0) return e;
    kernel<<<atomics_blocks_for(n, block), block>>>(x, n, thresh, out, count);
    return cudaGetLastError();
}

/* counts[0, nkeys) = 0, then kernel(keys, n, nkeys, counts) over n keys. */
template <class Kernel>
static cudaError_t atomics_launch_keycount(Kernel kernel, unsigned block, const unsigned int *keys, size_t n,
                                           unsigned int nkeys, unsigned int *counts)
{
    if (n > UINT_MAX) return cudaErrorInvalidValue;
    if (nkeys == 0) return cudaSuccess;
    cudaError_t e = cudaMemsetAsync(counts, 0, (size_t)nkeys * sizeof(unsigned int), 0);
    if (e != cudaSuccess || n == 0) return e;
    kernel<<<atomics_blocks_for(n, block), block>>>(keys, n, nkeys, counts);
    return cudaGetLastError();
}

#endif
