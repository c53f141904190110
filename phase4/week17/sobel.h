/* sobel.h — week 17: Sobel gradient magnitude of a float image.
 *
 * Same layout and CLAMPED borders as conv2d.h (p(x, y) reads the nearest
 * edge pixel outside the image). With the two 3 x 3 Sobel filters,
 *   gx = p(x+1, y-1) + 2 p(x+1, y) + p(x+1, y+1) - p(x-1, y-1) - 2 p(x-1, y) - p(x-1, y+1)
 *   gy = p(x-1, y+1) + 2 p(x, y+1) + p(x+1, y+1) - p(x-1, y-1) - 2 p(x, y-1) - p(x+1, y-1)
 *   out(x, y) = sqrt(gx * gx + gy * gy).
 * Width or height 0: nothing to do. Device pointers, no overlap, nothing
 * outside out[0 .. width * height) written. Default stream; the first error. */
#ifndef SOBEL_H
#define SOBEL_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t sobel(const float *in, float *out, int width, int height);

#ifdef __cplusplus
}
#endif
#endif
