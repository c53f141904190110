/* conv2d.h — week 17: 2D convolution of a float image with a K x K filter.
 *
 * Images are row-major, width x height floats, row pitch = width:
 * pixel (x, y) is p[y * width + x]. Borders are CLAMPED: a tap that falls
 * outside the image reads the nearest edge pixel,
 *   in(x, y) := in(min(max(x, 0), width - 1), min(max(y, 0), height - 1)).
 * With r = K / 2 (K odd, 1..CONV_MAX_K) and w row-major K x K:
 *   out(x, y) = sum over i, j in 0..K-1 of w[i * K + j] * in(x + j - r, y + i - r)
 * (a correlation, as image libraries define it: the filter is not flipped).
 * Every tap is applied, zero weights too, so a NaN or Inf in a window
 * reaches its output. Width or height 0: nothing to do. Device pointers,
 * in and out do not overlap; nothing outside out[0 .. width * height) is
 * written. Default stream; return the first error (cudaErrorInvalidValue
 * for a K that is even, < 1 or > CONV_MAX_K). */
#ifndef CONV2D_H
#define CONV2D_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CONV_MAX_K 15

/* v1: one thread per output pixel, the weights read from global memory
 * (d_weights, a device array of k * k floats), the image straight from
 * global memory. */
cudaError_t conv2d_naive(const float *in, float *out, int width, int height, const float *d_weights, int k);

/* v2: the weights in __constant__ memory (conv2d_set_weights copies k * k
 * floats from the HOST array h_weights there and remembers k), and each
 * block stages its output tile plus an r-pixel halo in shared memory.
 * conv2d_tiled before any conv2d_set_weights returns cudaErrorInvalidValue. */
cudaError_t conv2d_set_weights(const float *h_weights, int k);
cudaError_t conv2d_tiled(const float *in, float *out, int width, int height);

#ifdef __cplusplus
}
#endif
#endif
