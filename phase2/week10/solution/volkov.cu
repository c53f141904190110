/* volkov.cu — week 10, exercise 2: fewer threads, more work in each.
 *
 * One FMA chain per thread (support/yard_fullocc.cu) gives each warp one FMA
 * ready at a time, then nothing until it finishes (about 4 cycles); a
 * scheduler that can issue one warp-FMA a clock therefore needs about 4
 * ready warps every clock, and in practice many more resident. That is what
 * 100 % occupancy buys it: other warps to switch to.
 *
 * The same parallelism can come from inside a thread: k independent chains,
 * their FMAs interleaved, give k FMAs ready per warp. 2 warps a scheduler
 * (one block of 256 per SM, 12.5 % occupancy) with 8 chains each have 16
 * independent FMAs, as many as 16 warps with one chain each at 100 %.
 *
 * Your part: the kernel body (load k elements, run the k chains step by step
 * together, store k elements, for every tile of this block) and the launch
 * (the instance of the template for k, on exactly the grid you are given). */
#include "volkov.h"

/* One instance per k. Thread t of block b starts at tile b: elements
 * b*K*T + t + u*T for u < K (T = blockDim.x), each guarded against n; the
 * next tile is gridDim.x tiles further on. */
template <int K>
static __global__ void volkov_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, int steps, float a,
                                     float b)
{
    //@solution
    const size_t tile = (size_t)K * blockDim.x, step_tiles = (size_t)gridDim.x * tile;
    for (size_t first = (size_t)blockIdx.x * tile + threadIdx.x; first < n; first += step_tiles) {
        float v[K]; /* indexed by constants only (every loop over it unrolled): registers */
#pragma unroll
        for (int u = 0; u < K; u++) {
            size_t e = first + (size_t)u * blockDim.x;
            v[u] = e < n ? x[e] : 0.0f;
        }
        /* the K chains advance together: K independent FFMAs per step */
#pragma unroll 16
        for (int r = 0; r < steps; r++) {
#pragma unroll
            for (int u = 0; u < K; u++) v[u] = fmaf(v[u], a, b);
        }
#pragma unroll
        for (int u = 0; u < K; u++) {
            size_t e = first + (size_t)u * blockDim.x;
            if (e < n) y[e] = v[u];
        }
    }
    //@starter
    //| /* TODO: for every tile of this block (grid-stride over tiles of K *
    //|  * blockDim.x elements): load this thread's K elements into float v[K]
    //|  * (guard each against n), then `steps` times advance all K chains with
    //|  * fmaf(v[u], a, b) (#pragma unroll on the loop over u, so v stays in
    //|  * registers), then store the K results (guarded). */
    //@end
}

cudaError_t volkov_chains(int k, const float *x, float *y, size_t n, int steps, float a, float b, int threads, int blocks)
{
    //@solution
    if (k != 1 && k != 2 && k != 4 && k != 8) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    switch (k) {
    case 1: volkov_kernel<1><<<blocks, threads>>>(x, y, n, steps, a, b); break;
    case 2: volkov_kernel<2><<<blocks, threads>>>(x, y, n, steps, a, b); break;
    case 4: volkov_kernel<4><<<blocks, threads>>>(x, y, n, steps, a, b); break;
    default: volkov_kernel<8><<<blocks, threads>>>(x, y, n, steps, a, b); break;
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: reject any k but 1, 2, 4, 8 (cudaErrorInvalidValue); launch
    //|  * nothing when n == 0; else launch volkov_kernel<k> on exactly
    //|  * `blocks` blocks of `threads` threads and return cudaGetLastError(). */
    //| (void)k, (void)x, (void)y, (void)n, (void)steps, (void)a, (void)b, (void)threads, (void)blocks;
    //| return cudaSuccess;
    //@end
}

/* ---------------------------------------------------------------- given */

static const void *volkov_kernel_for(int k)
{
    switch (k) {
    case 1: return (const void *)volkov_kernel<1>;
    case 2: return (const void *)volkov_kernel<2>;
    case 4: return (const void *)volkov_kernel<4>;
    case 8: return (const void *)volkov_kernel<8>;
    default: return NULL;
    }
}

cudaError_t volkov_attr(int k, struct cudaFuncAttributes *attr)
{
    const void *f = volkov_kernel_for(k);
    return f ? cudaFuncGetAttributes(attr, f) : cudaErrorInvalidValue;
}

cudaError_t volkov_max_active(int k, int threads, int *blocks_per_sm)
{
    const void *f = volkov_kernel_for(k);
    return f ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, f, threads, 0) : cudaErrorInvalidValue;
}
