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

//@solution
/* One thread per element; tile g of TILE threads reduces group g. */
template <unsigned TILE, int OP>
static __global__ void __launch_bounds__(CGR_THREADS) cg_tile_kernel(const float *__restrict__ x, size_t n,
                                                                     float *__restrict__ out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    const size_t i = (size_t)blockIdx.x * CGR_THREADS + block.thread_rank();
    /* the whole tile reduces: past n, the identity of op */
    float v = i < n ? x[i] : (OP == CGR_SUM ? 0.0f : -INFINITY);
    if constexpr (OP == CGR_SUM) v = cg::reduce(tile, v, cg::plus<float>());
    else v = cg::reduce(tile, v, cg::greater<float>());
    if (tile.thread_rank() == 0 && i < n) out[i / TILE] = v;
}

/* br_sum with cooperative groups: grid-stride sums in registers, a warp
 * reduction per tiled_partition<32>, the partials through shared memory,
 * and warp 0 folds them. */
static __global__ void __launch_bounds__(CGR_SUM_THREADS) cg_sum_kernel(const float *__restrict__ x, size_t n,
                                                                        float *__restrict__ out)
{
    __shared__ float partial[CGR_SUM_THREADS / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const size_t nt = (size_t)gridDim.x * CGR_SUM_THREADS;
    size_t i = (size_t)blockIdx.x * CGR_SUM_THREADS + block.thread_rank();
    float a0 = 0.0f, a1 = 0.0f;
    for (; i + nt < n; i += 2 * nt) { /* two loads in flight */
        a0 += x[i];
        a1 += x[i + nt];
    }
    if (i < n) a0 += x[i];
    float s = cg::reduce(warp, a0 + a1, cg::plus<float>());
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        s = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
        s = cg::reduce(warp, s, cg::plus<float>());
        if (warp.thread_rank() == 0) atomicAdd(out, s);
    }
}

/* Integer reductions of each group of 32 by REDUX, over the valid lanes. */
template <int OP>
static __global__ void __launch_bounds__(CGR_THREADS) redux_kernel(const uint32_t *__restrict__ x, size_t n,
                                                                   uint32_t *__restrict__ out)
{
    const size_t i = (size_t)blockIdx.x * CGR_THREADS + threadIdx.x;
    const unsigned mask = __ballot_sync(0xffffffffu, i < n); /* while every lane is still here */
    if (i >= n) return;
    const uint32_t v = x[i];
    uint32_t r;
    if constexpr (OP == CGR_SUM) r = __reduce_add_sync(mask, v);
    else if constexpr (OP == CGR_MAX) r = __reduce_max_sync(mask, v);
    else r = __reduce_min_sync(mask, v);
    if ((threadIdx.x & 31) == 0) out[i / 32] = r;
}
//@starter
//| /* TODO (see the comment at the top and the hints):
//|  * cg_tile_kernel<TILE, OP>: one thread per element; tile =
//|  *   cg::tiled_partition<TILE>(cg::this_thread_block()); every thread of the
//|  *   tile calls cg::reduce(tile, v, cg::plus<float>()) (CGR_SUM) or
//|  *   cg::greater<float>() (CGR_MAX), threads past n with the identity;
//|  *   tile.thread_rank() 0 writes out[i / TILE].
//|  * cg_sum_kernel: br_sum's kernel with cg: sum a grid-stride share of x in
//|  *   registers, cg::reduce over tiled_partition<32>, the warps' partials in
//|  *   __shared__ memory, block.sync(), warp 0 reduces them and atomicAdds.
//|  * redux_kernel<OP>: one thread per element, the mask of the valid lanes
//|  *   from a ballot taken before any lane leaves, then __reduce_add_sync,
//|  *   __reduce_max_sync or __reduce_min_sync; lane 0 writes out[i / 32]. */
//| template <unsigned TILE, int OP>
//| static __global__ void cg_tile_kernel(const float *x, size_t n, float *out)
//| {
//|     (void)x, (void)n, (void)out;
//| }
//|
//| static __global__ void cg_sum_kernel(const float *x, size_t n, float *out)
//| {
//|     (void)x, (void)n, (void)out;
//| }
//|
//| template <int OP>
//| static __global__ void redux_kernel(const uint32_t *x, size_t n, uint32_t *out)
//| {
//|     (void)x, (void)n, (void)out;
//| }
//@end

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
