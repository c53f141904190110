/* racefix.cu — week 08, exercise 7: find a race with racecheck, and fix it.
 *
 * A 1-D stencil through shared memory: each block stages a tile of
 * RACEFIX_TILE inputs and RACEFIX_RADIUS halo elements on each side in
 * shared memory, then each thread sums RACEFIX_TAPS of them with the weights.
 * A block does many tiles in turn (block b: tiles b, b + gridDim.x, ...), so
 * the same shared array is staged again and again.
 *
 * Tools: `make phase1/week08 sanitize` runs every sanitizer on the week;
 * the checkpoint w08.racecheck runs racecheck on this kernel alone and
 * fails on any hazard it reports, whatever the numbers say. */
#include "racefix.h"

//@solution
/* The starter had one barrier per tile, between the staging and the sums.
 * That orders the writes of a tile before the reads of it (read after
 * write), but nothing ordered the reads of one tile before the writes of the
 * next: a warp done with its sums could stage tile t + gridDim.x over
 * elements a slower warp was still reading (write after read). The second
 * barrier, at the end of the loop body, is the fix; staging into two
 * buffers in turn would do it with one barrier per tile. */
//@starter
//| /* TODO (w08.racecheck): racefix_kernel has a data race on shared memory,
//|  * and may still give the right numbers run after run. Run the checkpoint
//|  * (make phase1/week08 check) or `make phase1/week08 sanitize`: racecheck
//|  * names the two source lines whose accesses to one shared address are not
//|  * ordered by any barrier. Decide which threads make each access, and in
//|  * which tile, then order them. Keep the contract of racefix.h. */
//@end
static __global__ void racefix_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, racefix_taps taps)
{
    __shared__ float s[RACEFIX_TILE + 2 * RACEFIX_RADIUS];
    const size_t tiles = (n + RACEFIX_TILE - 1) / RACEFIX_TILE;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) { /* the same trip count for the whole block */
        const size_t base = tile * RACEFIX_TILE;
        /* stage s[j] = x[base - R + j]: the tile and its halo, 0 outside [0, n) */
        for (unsigned int j = threadIdx.x; j < RACEFIX_TILE + 2 * RACEFIX_RADIUS; j += blockDim.x) {
            const size_t g = base + j; /* the index into x, plus R */
            s[j] = g >= RACEFIX_RADIUS && g - RACEFIX_RADIUS < n ? x[g - RACEFIX_RADIUS] : 0.f;
        }
        __syncthreads(); /* the whole tile staged before any thread reads its neighbours' elements */
        const size_t i = base + threadIdx.x;
        if (i < n) {
            float acc = 0.f;
#pragma unroll
            for (int k = 0; k < RACEFIX_TAPS; k++) acc += taps.w[k] * s[threadIdx.x + k];
            y[i] = acc;
        }
        //@solution
        __syncthreads(); /* every thread done reading this tile before any stages the next one over it */
        //@end
    }
}

/* ---- given ---- */
cudaError_t racefix_stencil(const float *x, float *y, size_t n, racefix_taps taps, unsigned int blocks)
{
    if (n == 0) return cudaSuccess;
    const size_t tiles = (n + RACEFIX_TILE - 1) / RACEFIX_TILE;
    if (blocks == 0) blocks = (unsigned int)(tiles < 132 * 2 ? tiles : 132 * 2);
    racefix_kernel<<<blocks, RACEFIX_TILE>>>(x, y, n, taps);
    return cudaGetLastError();
}
