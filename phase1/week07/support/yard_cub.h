/* yard_cub.h — week 07, given: CUB on the same data, the yardsticks, and the
 * benchmarks' random inputs (support/yard_cub.cu). Each CUB pair: workspace
 * bytes, then the call (default stream, asynchronous). Allocate the
 * workspace outside any timed region. */
#ifndef W07_YARD_CUB_H
#define W07_YARD_CUB_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t      yard_cub_sum_bytes(size_t n);
cudaError_t yard_cub_sum(void *tmp, size_t tmp_bytes, const float *x, float *out, size_t n);
size_t      yard_cub_scan_bytes(size_t n);
cudaError_t yard_cub_scan(void *tmp, size_t tmp_bytes, const float *x, float *y, size_t n);
size_t      yard_cub_hist_bytes(size_t n);
cudaError_t yard_cub_hist(void *tmp, size_t tmp_bytes, const unsigned char *x, unsigned int *bins, size_t n);

/* Random bytes on the device for the histogram benchmark: a hash of (seed,
 * i), all 256 values when skew == 0, only the values 0..3 when skew != 0. */
cudaError_t w07_fill_bytes(unsigned char *d, size_t n, unsigned long long seed, int skew);

/* Random 32-bit words on the device for the atomics benchmarks: a hash of
 * (seed, i), taken modulo `mod` when mod != 0 (keys 0 .. mod-1). */
cudaError_t w07_fill_u32(unsigned int *d, size_t n, unsigned long long seed, unsigned int mod);

#ifdef __cplusplus
}
#endif
#endif
