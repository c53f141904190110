/* yard_triad.h — week 52's given kernel (support, not an exercise): the STREAM
 * triad a = b + s c, and the same with a slowdown planted in it.
 *
 * `planted` is the fraction of the vector that is computed a second time
 * after the first pass: 0 is the plain triad; 0.25 moves 25 % more bytes
 * for the same result, so its GB/s (counted on the plain triad's bytes)
 * drops to 1 / 1.25 = 0.8 of the plain one's: a 20 % slowdown, the size a
 * regression suite must catch. The result is the same either way. */
#ifndef W52_YARD_TRIAD_H
#define W52_YARD_TRIAD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue on the default stream; n may be 0. Pointers 16-byte aligned. */
cudaError_t yard_triad(float *a, const float *b, const float *c, float s, size_t n, double planted);

#ifdef __cplusplus
}
#endif
#endif
