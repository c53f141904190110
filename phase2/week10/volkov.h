/* volkov.h — week 10: fewer threads, more independent work in each
 * (V. Volkov, "Better performance at lower occupancy", GTC 2010). */
#ifndef VOLKOV_H
#define VOLKOV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For every i < n: v = x[i]; `steps` times v = fmaf(v, a, b); y[i] = v
 * (steps <= 0: y[i] = x[i]). Each element is one dependent chain: an FMA
 * cannot start before the previous one of its chain has finished.
 *
 * Each thread runs k independent chains at once (k = 1, 2, 4 or 8, the
 * kernel's template parameter K): a block of T threads takes a tile of k*T
 * consecutive elements, thread t the elements t, t + T, ..., t + (k-1)T of
 * it, and tiles go round the grid (grid-stride), so any grid covers any n.
 * The launch is exactly `blocks` blocks of `threads` threads: the caller
 * chooses the occupancy. Device pointers, y not overlapping x.
 * Returns cudaErrorInvalidValue for any other k (nothing launched),
 * cudaSuccess for n == 0 (nothing launched), else the launch's error. */
cudaError_t volkov_chains(int k, const float *x, float *y, size_t n, int steps, float a, float b, int threads,
                          int blocks);

/* Given (in volkov.cu, outside the exercise): the attributes (registers,
 * local bytes) of the kernel for k, and how many blocks of `threads` of it
 * fit on one SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
cudaError_t volkov_attr(int k, struct cudaFuncAttributes *attr);
cudaError_t volkov_max_active(int k, int threads, int *blocks_per_sm);

/* Given (support/yard_fullocc.cu): the yardstick, one chain per thread, the same
 * element for element result, launched on exactly `blocks` blocks of
 * `threads` threads (the benchmark fills every SM: 100 % occupancy). */
cudaError_t yard_fullocc_chains(const float *x, float *y, size_t n, int steps, float a, float b, int threads,
                                int blocks);
cudaError_t yard_fullocc_attr(struct cudaFuncAttributes *attr);
cudaError_t yard_fullocc_max_active(int threads, int *blocks_per_sm);

#ifdef __cplusplus
}
#endif
#endif
