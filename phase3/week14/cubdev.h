/* cubdev.h — week 14: CUB's device-wide algorithms, called from C.
 *
 * Each function follows CUB's own workspace pattern. With tmp == NULL it
 * only writes the number of workspace bytes it needs into *tmp_bytes and
 * returns cudaSuccess. With tmp != NULL (a device buffer of *tmp_bytes
 * bytes) it does the work, asynchronously on the default stream. It returns
 * CUB's error, never cudaSuccess when something went wrong: a workspace
 * smaller than the query said, a bad launch. n >= 0 elements. */
#ifndef W14_CUBDEV_H
#define W14_CUBDEV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out (one device float) = x[0] + ... + x[n-1]; 0 when n == 0. */
cudaError_t cubdev_sum(void *tmp, size_t *tmp_bytes, const float *x, float *out, int n);

/* y[i] = x[0] + ... + x[i] (inclusive); x and y do not overlap. */
cudaError_t cubdev_scan(void *tmp, size_t *tmp_bytes, const float *x, float *y, int n);

/* keys_out, vals_out = the n pairs sorted by key, stable (equal keys keep
 * their input order). Every key is below 2^end_bit, 1 <= end_bit <= 32: only
 * bits [0, end_bit) are sorted. Inputs are not modified; no overlap. */
cudaError_t cubdev_sort_pairs(void *tmp, size_t *tmp_bytes, const unsigned *keys_in, unsigned *keys_out,
                              const unsigned *vals_in, unsigned *vals_out, int n, int end_bit);

#ifdef __cplusplus
}
#endif
#endif
