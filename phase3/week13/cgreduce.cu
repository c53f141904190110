/* cgreduce.cu — week 13, exercise 6: the week's reductions with
 * cooperative groups, and integer warp reductions in one instruction.
 *
 * Cooperative groups name the threads that work together as objects:
 * cg::this_thread_block() is the block, cg::tiled_partition<T>(block) cuts
 * it into tiles of T consecutive threads (T a power of two up to 32, known
 * at compile time), and cg::reduce(tile, v, op) folds the tile's values
 * with op; every thread of the tile gets the result. For a float the
 * library writes the shuffle butterfly of exercise 1 for you (log2 T
 * SHFL.BFLY); block.sync() is __syncthreads(). A tile reduces as a whole:
 * in the last, partial tile the threads past n must still take part, with
 * the identity of op.
 *
 * On sm_80 and later, __reduce_add_sync, __reduce_min_sync and
 * __reduce_max_sync reduce a 32-bit integer over the lanes of a mask in one
 * instruction (REDUX), result in every lane: no shuffles. There is no float
 * version on these GPUs. Their mask works as a shuffle's: the lanes it
 * names, and only those, must reach the call. */
#include <math.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "cgreduce.h"
#include "support/sum_grid.h"

namespace cg = cooperative_groups;

/* TODO (see the comment at the top and the hints):
 * cg_tile_kernel<TILE, OP>: one thread per element; tile =
 *   cg::tiled_partition<TILE>(cg::this_thread_block()); every thread of the
 *   tile calls cg::reduce(tile, v, cg::plus<float>()) (CGR_SUM) or
 *   cg::greater<float>() (CGR_MAX), threads past n with the identity;
 *   tile.thread_rank() 0 writes out[i / TILE].
 * cg_sum_kernel: br_sum's kernel with cg: sum a grid-stride share of x in
 *   registers, cg::reduce over tiled_partition<32>, the warps' partials in
 *   __shared__ memory, block.sync(), warp 0 reduces them and atomicAdds.
 * redux_kernel<OP>: one thread per element, the mask of the valid lanes
 *   from a ballot taken before any lane leaves, then __reduce_add_sync,
 *   __reduce_max_sync or __reduce_min_sync; lane 0 writes out[i / 32]. */
template <unsigned TILE, int OP>
static __global__ void cg_tile_kernel(const float *x, size_t n, float *out)
{
    (void)x, (void)n, (void)out;
}

static __global__ void cg_sum_kernel(const float *x, size_t n, float *out)
{
    (void)x, (void)n, (void)out;
}

template <int OP>
static __global__ void redux_kernel(const uint32_t *x, size_t n, uint32_t *out)
{
    (void)x, (void)n, (void)out;
}

/* ---- given: the launchers ---- */
cudaError_t cgr_tile_reduce(int op, unsigned tile, const float *x, size_t n, float *out)
{
    if ((op != CGR_SUM && op != CGR_MAX) || (tile != 32 && tile != 8)) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    const unsigned blocks = (unsigned)((n + CGR_THREADS - 1) / CGR_THREADS);
    if (tile == 32 && op == CGR_SUM) cg_tile_kernel<32, CGR_SUM><<<blocks, CGR_THREADS>>>(x, n, out);
    else if (tile == 32) cg_tile_kernel<32, CGR_MAX><<<blocks, CGR_THREADS>>>(x, n, out);
    else if (op == CGR_SUM) cg_tile_kernel<8, CGR_SUM><<<blocks, CGR_THREADS>>>(x, n, out);
    else cg_tile_kernel<8, CGR_MAX><<<blocks, CGR_THREADS>>>(x, n, out);
    return cudaGetLastError();
}

cudaError_t cgr_sum(const float *x, size_t n, float *out)
{
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    unsigned blocks = 0;
    if ((e = sum_grid(n, CGR_SUM_THREADS, &blocks)) != cudaSuccess) return e;
    cg_sum_kernel<<<blocks, CGR_SUM_THREADS>>>(x, n, out);
    return cudaGetLastError();
}

cudaError_t cgr_warp_u32(int op, const uint32_t *x, size_t n, uint32_t *out)
{
    if (op != CGR_SUM && op != CGR_MAX && op != CGR_MIN) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    const unsigned blocks = (unsigned)((n + CGR_THREADS - 1) / CGR_THREADS);
    if (op == CGR_SUM) redux_kernel<CGR_SUM><<<blocks, CGR_THREADS>>>(x, n, out);
    else if (op == CGR_MAX) redux_kernel<CGR_MAX><<<blocks, CGR_THREADS>>>(x, n, out);
    else redux_kernel<CGR_MIN><<<blocks, CGR_THREADS>>>(x, n, out);
    return cudaGetLastError();
}
