/* pipeline.h — week 17: blur -> Sobel -> equalise on an 8-bit grey image.
 *
 * in and out are width x height bytes, row-major, pitch = width; borders
 * CLAMPED as in conv2d.h. The pipeline is defined so that its result is
 * exact, whatever the order of the sums:
 *   1. blur: the binomial filter b = [1 4 6 4 1] / 16 along rows, then along
 *      columns (a 5 x 5 Gaussian-like blur), in float:
 *        t(x, y) = sum over k in -2..2 of b[k + 2] * in(x + k, y)
 *        s(x, y) = sum over k in -2..2 of b[k + 2] * t(x, y + k)
 *      (every value is a multiple of 1/256 below 256: exact in float);
 *   2. edges: Sobel of s (sobel.h's gx, gy), with the L1 magnitude,
 *        e(x, y) = min(255, (int)((|gx| + |gy|) / 4))       (an 8-bit image);
 *   3. equalise e by equalize.h's rule: out = lut[e].
 * work is a device buffer of pipeline_workspace_bytes(width, height) bytes the
 * pipeline may use for its intermediates. Width or height 0: nothing to do.
 * Nothing outside out[0 .. width * height) is written. Default stream,
 * asynchronous (no synchronisation inside); the first error. */
#ifndef PIPELINE_H
#define PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t pipeline_workspace_bytes(int width, int height);
cudaError_t pipeline_apply(const uint8_t *in, uint8_t *out, int width, int height, void *work);

#ifdef __cplusplus
}
#endif
#endif
