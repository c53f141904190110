/* cgreduce.h — week 13: the week's warp and block reductions written with
 * cooperative groups (thread_block, tiled_partition, cg::reduce), and
 * integer warp reductions by the REDUX instruction (__reduce_*_sync). */
#ifndef CGREDUCE_H
#define CGREDUCE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CGR_SUM = 0, CGR_MAX = 1, CGR_MIN = 2 };

/* The groups of n elements in groups of t: ceil(n / t). */
#define CGR_GROUPS(n, t) (((n) + (t) - 1) / (t))

/* Threads a block: the tile and integer reductions 256, cgr_sum 1024. */
#define CGR_THREADS 256
#define CGR_SUM_THREADS 1024

/* out[g] = op(x[tile g], ..., x[min(tile (g + 1), n) - 1]) for g <
 * CGR_GROUPS(n, tile), op CGR_SUM or CGR_MAX, tile 32 or 8: one thread per
 * element, the group one thread_block_tile<tile> of
 * cg::tiled_partition<tile>(cg::this_thread_block()), reduced by cg::reduce
 * with cg::plus<float> or cg::greater<float>. A tile reduces as a whole, so
 * in the last, partial group the threads past n take part with the
 * identity (0 for the sum, -Inf for the max). cg::greater does not promise
 * to propagate NaN (README); Inf is handled. Asynchronous (default stream);
 * returns the launch's error, cudaErrorInvalidValue for another op or tile. */
cudaError_t cgr_tile_reduce(int op, unsigned tile, const float *x, size_t n, float *out);

/* *out (one device float) = x[0] + ... + x[n-1], 0 when n == 0, in one pass
 * as br_sum does, written with cooperative groups: a grid-stride sum in
 * registers, cg::reduce over each warp's tiled_partition<32>, the partials
 * through shared memory and block.sync(), one atomicAdd a block (*out is
 * zeroed first, here). x may start at any float. Asynchronous; the first
 * error. */
cudaError_t cgr_sum(const float *x, size_t n, float *out);

/* out[g] for each group g of 32 unsigned ints (the last may be partial):
 * CGR_SUM the sum modulo 2^32, CGR_MAX the largest, CGR_MIN the smallest,
 * by __reduce_add_sync, __reduce_max_sync and __reduce_min_sync (one REDUX
 * instruction on sm_80 and later) over the mask of the valid lanes.
 * Asynchronous; returns the launch's error, cudaErrorInvalidValue for a bad
 * op. */
cudaError_t cgr_warp_u32(int op, const uint32_t *x, size_t n, uint32_t *out);

#ifdef __cplusplus
}
#endif
#endif
