/* equalize.h — week 17: histogram equalisation of an 8-bit grey image.
 *
 * Three steps, each its own call so each can be checked:
 *   hist[v] = number of pixels equal to v, v = 0..255;
 *   cdf[v]  = hist[0] + ... + hist[v];  N = cdf[255];
 *   cdf_min = hist[m] for the smallest m with hist[m] > 0 (0 when N = 0);
 *   lut[v]  = v                                       when N == cdf_min (one grey level, or none: nothing to stretch)
 *           = 0                                       when cdf[v] <= cdf_min
 *           = floor((cdf[v] - cdf_min) * 255 / (N - cdf_min) + 1/2)   otherwise
 *             (exact, in 64-bit integers: ((cdf[v] - cdf_min) * 510 + d) / (2 d), d = N - cdf_min);
 *   out[i]  = lut[in[i]].
 * Device pointers; default stream; return the first error. */
#ifndef EQUALIZE_H
#define EQUALIZE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EQ_BINS 256

/* hist: 256 unsigned ints, OVERWRITTEN (the call zeroes them itself, then
 * counts). n < 2^32; in may start at any byte address. */
cudaError_t eq_histogram(const uint8_t *in, size_t n, unsigned *hist);
/* lut: 256 bytes from the 256 counts, by the rule above. */
cudaError_t eq_lut(const unsigned *hist, uint8_t *lut);
/* out[i] = lut[in[i]] for i < n (in and out may be the same array). */
cudaError_t eq_apply(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *lut);

#ifdef __cplusplus
}
#endif
#endif
