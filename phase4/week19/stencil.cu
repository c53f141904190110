/* stencil.cu — week 19, exercise 4: a 3-D 7-point Jacobi stencil, three ways.
 *
 * One interior cell: 6 additions and 2 multiplies (8 flops) for 4 bytes read
 * and 4 written, if every input is read from DRAM once: 1 flop a byte, far
 * below any GPU's ridge point. All three versions are memory-bound, and the
 * question is how close each comes to moving the grid once each way.
 *
 * naive:  one thread a cell, seven loads from global memory. The six
 *    neighbours mostly hit in L1 or L2 (other threads' loads brought them
 *    in), but every one is an instruction and a trip through the caches.
 * tiled:  a block of ST_BX x ST_BY threads stages its x-y tile of plane z in
 *    shared memory, plus a one-cell halo that the tile's edge threads load;
 *    the four x-y neighbours then come from shared memory, z - 1 and z + 1
 *    still from global memory (they are other blocks' tiles).
 * stream: a block owns an x-y tile and a run of up to ST_ZRUN planes; each
 *    thread walks z with in[z-1], in[z], in[z+1] of its own column in
 *    registers, and the block shares plane z (tile and halo) through shared
 *    memory. Each input value is loaded once by its own thread, the halo
 *    once a plane; the loads are asynchronous copies into a ring of shared
 *    planes, issued ST_DEPTH planes ahead, so each thread keeps several in
 *    flight while it computes. */
#include <stddef.h>

#include <cuda_pipeline.h>

#include "stencil.h"

#define ST_BX 32    /* tile width: one warp, one 128-byte row segment */
#define ST_BY 8     /* tile height: 256 threads a block */
#define ST_ZRUN 64  /* at most this many planes a streaming block walks */
#define ST_DEPTH 4  /* planes in flight ahead of the streaming kernel */
#define ST_STAGES (ST_DEPTH + 2)

/* TODO: three kernels, each computing the header's update (interior
 * cells) or copying the cell (boundary cells). Write the update once as a
 * __device__ __forceinline__ function and call it from all three.
 *  - naive: blocks of ST_BX x ST_BY threads, one thread a cell of plane
 *    z = blockIdx.z (loop z += gridDim.z), all seven loads from in[].
 *  - tiled: the same blocks; __shared__ float s[ST_BY + 2][ST_BX + 2]:
 *    each thread stores its cell at s[ty + 1][tx + 1], the threads on the
 *    tile's edges also the cell beyond them (the halo), __syncthreads(),
 *    then x and y neighbours from s, z - 1 and z + 1 from in[];
 *    __syncthreads() again before the next plane.
 *  - stream: a block owns tile (blockIdx.x, blockIdx.y) for a run of
 *    planes; each thread keeps prev, cur, next of its column in
 *    registers and walks z: store cur (and a halo cell) into the shared
 *    plane, __syncthreads(), compute, shift prev <- cur <- next, load the
 *    next one. Then, for speed, keep ST_DEPTH planes in flight: copy them
 *    into a ring of ST_STAGES shared planes with __pipeline_memcpy_async
 *    (cuda_pipeline.h) rather than loading them into registers.
 * README.md, "The stencil" and what follows it, walks through each one. */

/* 1 when the sizes are valid and there is work, 0 when there is none; an
 * error in *e when they are invalid. */
static int st_work(int nx, int ny, int nz, cudaError_t *e)
{
    *e = cudaSuccess;
    if (nx < 0 || ny < 0 || nz < 0 || ny > STENCIL_MAX_NY) {
        *e = cudaErrorInvalidValue;
        return 0;
    }
    return nx > 0 && ny > 0 && nz > 0;
}

cudaError_t stencil_naive(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    /* TODO: blocks of (ST_BX, ST_BY), a grid of ceil(nx / ST_BX) x
     * ceil(ny / ST_BY) x min(nz, 65535); return cudaGetLastError(). */
    (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    (void)st_work;
    return cudaSuccess;
}

cudaError_t stencil_tiled(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    /* TODO: the same grid as stencil_naive (the kernel assumes blockDim is
     * exactly (ST_BX, ST_BY)). */
    (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    return cudaSuccess;
}

cudaError_t stencil_stream(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    /* TODO: split z into runs of at most ST_ZRUN planes, one block per
     * (x tile, y tile, run). */
    (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    return cudaSuccess;
}
