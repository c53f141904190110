/* cubyard.h — week 07, given: CUB on the same data, the yardsticks
 * (support/cubyard.cu). Each pair: workspace bytes, then the call (default
 * stream, asynchronous). Allocate the workspace outside any timed region. */
#ifndef CUBYARD_H
#define CUBYARD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t      w07_cub_sum_bytes(size_t n);
cudaError_t w07_cub_sum(void *tmp, size_t tmp_bytes, const float *x, float *out, size_t n);
size_t      w07_cub_scan_bytes(size_t n);
cudaError_t w07_cub_scan(void *tmp, size_t tmp_bytes, const float *x, float *y, size_t n);
size_t      w07_cub_hist_bytes(size_t n);
cudaError_t w07_cub_hist(void *tmp, size_t tmp_bytes, const unsigned char *x, unsigned int *bins, size_t n);

/* Random bytes on the device for the histogram benchmark: a hash of (seed,
 * i), all 256 values when skew == 0, only the values 0..3 when skew != 0. */
cudaError_t w07_fill_bytes(unsigned char *d, size_t n, unsigned long long seed, int skew);

#ifdef __cplusplus
}
#endif
#endif
