/* racefix.h — week 08: a shared-memory race that racecheck sees and the
 * numbers mostly hide. */
#ifndef RACEFIX_H
#define RACEFIX_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Taps on each side of the centre, the tap count, and the outputs per tile
 * (= threads per block). */
#define RACEFIX_RADIUS 3
#define RACEFIX_TAPS (2 * RACEFIX_RADIUS + 1)
#define RACEFIX_TILE 256

typedef struct {
    float w[RACEFIX_TAPS];
} racefix_taps;

/* A 1-D stencil: for i < n,
 *     y[i] = sum over k = 0 .. 2R of w[k] * x[i - R + k]   (R = RACEFIX_RADIUS),
 * with x read as 0 outside [0, n). Nothing outside y[0 .. n) is written.
 * The grid has `blocks` blocks (0: the function chooses); block b does the
 * tiles of RACEFIX_TILE outputs b, b + blocks, b + 2 blocks, ... in turn, so
 * one block may do many tiles. Default stream; returns the first error. */
cudaError_t racefix_stencil(const float *x, float *y, size_t n, racefix_taps taps, unsigned int blocks);

#ifdef __cplusplus
}
#endif
#endif
