/* sum_grid.h — week 13, given: the grid of a grid-stride sum (br_sum,
 * cgr_sum). Enough blocks to fill every SM twice, fewer when n is small (at
 * least 16 elements a thread). The SM count is the device's own, asked each
 * call (an attribute read, no synchronisation); a failed query is returned,
 * never replaced by a guess. */
#ifndef WEEK13_SUM_GRID_H
#define WEEK13_SUM_GRID_H
#include <stddef.h>
#include <cuda_runtime.h>

static inline cudaError_t sum_grid(size_t n, unsigned threads, unsigned *blocks)
{
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    const size_t want = (n + 16 * (size_t)threads - 1) / (16 * (size_t)threads), cap = 2 * (size_t)(sms > 0 ? sms : 1);
    *blocks = (unsigned)(want < cap ? want : cap);
    return cudaSuccess;
}
#endif
