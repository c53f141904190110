/* nbody.cu — week 19, exercise 1: all-pairs gravity, naive then tiled.
 *
 * One interaction (body i feels body j) is
 *     d = x_j - x_i                      3 FADD
 *     s2 = d.d + eps2                    3 FFMA
 *     inv = rsqrtf(s2)                   1 MUFU.RSQ (approximate, 2 ulp)
 *     w = m_j * inv * inv * inv          3 FMUL
 *     a += d * w                         3 FFMA
 * 12 instructions on the FP32 pipe and one on the special-function unit;
 * the customary count is 20 flops (GPU Gems 3, ch. 31: the rsqrt counted as
 * a square root and a division). Every body j is used by all n threads, so
 * the data is tiny (16 bytes per body) and the work is n^2: compute-bound.
 *
 * naive: each thread reads body j from global memory (all lanes of a warp
 *    read the same address: one broadcast through L1).
 * tiled: a block of NB_TILE threads loads NB_TILE bodies into shared memory
 *    (one float4 per thread, coalesced), syncs, and every thread runs over
 *    the tile from shared memory (again a broadcast: one LDS.128 per
 *    interaction per warp), syncs, next tile. The inner loop is unrolled so
 *    the loop counter and branch take few issue slots. The last tile is
 *    padded with massless bodies (their term is exactly 0), and threads past
 *    n still load and sync but write nothing. */
#include "nbody.h"

#define NB_TILE 256

/* TODO: a __device__ function for one interaction (the header's formula:
 * d = x_j - x_i, s2 = d.d + eps2, inv = rsqrtf(s2), w = m_j inv^3, a += w d),
 * then two kernels:
 *  - naive: thread i = blockIdx.x * blockDim.x + threadIdx.x loops over all
 *    j reading pos[j] (cast pos to const float4 *), and writes its 3 floats;
 *  - tiled: __shared__ float4 tile[NB_TILE]; each thread loads one body of
 *    the tile (a massless one past n), __syncthreads(), everyone loops over
 *    the tile, __syncthreads() again before the next load. Threads with
 *    i >= n take part in loading and syncing but write nothing.
* README.md, "What one interaction costs", says what the loop should compile to. */

cudaError_t nbody_accel_naive(const float *pos, float *acc, int n, float eps2)
{
    /* TODO: nothing to launch for n == 0; otherwise ceil(n / 256) blocks of
     * 256 threads, then return cudaGetLastError(). */
    (void)pos, (void)acc, (void)n, (void)eps2;
    return cudaSuccess;
}

cudaError_t nbody_accel_tiled(const float *pos, float *acc, int n, float eps2)
{
    /* TODO: ceil(n / NB_TILE) blocks of exactly NB_TILE threads (the kernel's
     * tile loop assumes blockDim.x == NB_TILE); nothing for n == 0. */
    (void)pos, (void)acc, (void)n, (void)eps2;
    return cudaSuccess;
}
