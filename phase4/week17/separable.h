/* separable.h — week 17: a separable filter as two 1D passes.
 *
 * A 2D filter that is the outer product of a 1D filter with itself,
 * W[i][j] = w[i] * w[j] (a Gaussian, a box, a binomial), is a row pass then
 * a column pass: 2(2r + 1) taps a pixel instead of (2r + 1)^2. Same image
 * layout and CLAMPED borders as conv2d.h. With w the 2r + 1 weights
 * (r = 0..SEP_MAX_R):
 *   rows: out(x, y) = sum over k in -r..r of w[k + r] * in(x + k, y)
 *   cols: out(x, y) = sum over k in -r..r of w[k + r] * in(x, y + k)
 * sep_cols(sep_rows(in)) equals conv2d with the outer product, up to
 * rounding. Every tap is applied (NaN and Inf propagate). Width or height 0:
 * nothing to do. Device pointers, in and out do not overlap; nothing outside
 * out[0 .. width * height) is written. Default stream; the first error. */
#ifndef SEPARABLE_H
#define SEPARABLE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEP_MAX_R 16

/* Copy the 2r + 1 weights from the HOST array h_w into __constant__ memory
 * and remember r. cudaErrorInvalidValue for r < 0 or r > SEP_MAX_R; the
 * passes before any sep_set_weights return cudaErrorInvalidValue. */
cudaError_t sep_set_weights(const float *h_w, int radius);
cudaError_t sep_rows(const float *in, float *out, int width, int height);
cudaError_t sep_cols(const float *in, float *out, int width, int height);

#ifdef __cplusplus
}
#endif
#endif
