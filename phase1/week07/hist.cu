/* hist.cu — week 07, exercise 3: a histogram of bytes.
 *
 * global: one atomicAdd per byte on 256 counters in L2: every warp of the
 *   GPU contends for the same few cache lines; throughput is set by the
 *   atomic units, not by memory.
 * shared: each block counts into its own __shared__ copy (atomics in the SM,
 *   far cheaper), then adds its 256 counts to global memory once. 16 bytes
 *   are loaded per thread per step (uint4).
 * warp: before each shared atomic, lanes holding the same byte find each
 *   other (__match_any_sync) and only one adds the count: fewer atomics
 *   when data is skewed (one byte value everywhere), a little more work
 *   when it is uniform. */
#include <stdint.h>
#include "hist.h"

#define HBLOCK 512

/* TODO: three kernels (see the comment at the top and the hints). */
static __global__ void hist_global_kernel(const unsigned char *x, size_t n, unsigned int *bins)
{
    (void)x, (void)n, (void)bins;
}
static __global__ void hist_shared_kernel(const unsigned char *x, size_t n, unsigned int *bins)
{
    (void)x, (void)n, (void)bins;
}
static __global__ void hist_warp_kernel(const unsigned char *x, size_t n, unsigned int *bins)
{
    (void)x, (void)n, (void)bins;
}

/* ---- given: zero the bins, launch a few blocks per SM ---- */

static cudaError_t launch(int which, const unsigned char *x, size_t n, unsigned int *bins)
{
    cudaError_t e = cudaMemsetAsync(bins, 0, HIST_BINS * sizeof(unsigned int), 0);
    if (e != cudaSuccess || n == 0) return e;
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0) sms = 80;
    }
    size_t per = which == 0 ? HBLOCK : (size_t)HBLOCK * 16, want = (n + per - 1) / per, cap = (size_t)sms * 4;
    unsigned blocks = (unsigned)(want < cap ? want : cap);
    if (which == 0) hist_global_kernel<<<blocks, HBLOCK>>>(x, n, bins);
    else if (which == 1) hist_shared_kernel<<<blocks, HBLOCK>>>(x, n, bins);
    else hist_warp_kernel<<<blocks, HBLOCK>>>(x, n, bins);
    return cudaGetLastError();
}

cudaError_t hist_global(const unsigned char *x, size_t n, unsigned int *bins) { return launch(0, x, n, bins); }
cudaError_t hist_shared(const unsigned char *x, size_t n, unsigned int *bins) { return launch(1, x, n, bins); }
cudaError_t hist_warp(const unsigned char *x, size_t n, unsigned int *bins) { return launch(2, x, n, bins); }
