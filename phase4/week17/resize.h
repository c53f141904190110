/* resize.h — week 17: bilinear resize of a float image.
 *
 * in is iw x ih, out is ow x oh, both row-major with pitch = width. Pixel
 * centres are aligned (the half-pixel rule of OpenCV's INTER_LINEAR and of
 * NPP): for output column x the source coordinate is
 *   sx = (x + 0.5) * iw / ow - 0.5, clamped to [0, iw - 1];
 *   x0 = floor(sx), x1 = min(x0 + 1, iw - 1), fx = sx - x0;
 * the same in y (sy, y0, y1, fy), and
 *   out(x, y) = (1 - fy) * ((1 - fx) * in(x0, y0) + fx * in(x1, y0))
 *             +      fy  * ((1 - fx) * in(x0, y1) + fx * in(x1, y1)).
 * Any sizes >= 1 (up or down, each axis on its own); an output of width or
 * height 0 is nothing to do; an input of width or height 0 with a non-empty
 * output is cudaErrorInvalidValue. Device pointers, no overlap, nothing
 * outside out[0 .. ow * oh) written. Default stream; the first error. */
#ifndef RESIZE_H
#define RESIZE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t resize_bilinear(const float *in, int iw, int ih, float *out, int ow, int oh);

#ifdef __cplusplus
}
#endif
#endif
