/* norm.cu — week 15, exercises 3 and 6: transform + reduce in one pass, and a
 * fusion that does not pay.
 *
 * norm_l2: the given chain squares x into a temporary t (read 4 bytes, write
 * 4) and then sums t (read 4): 12 bytes an element. Squaring the value as it
 * is loaded, inside the reduction, leaves 4: the reduction of week 07 with a
 * transform in its load. Two kernels still: block partial sums into tmp, then
 * one block adds them and takes the square root; x is read once.
 *
 * normalize_fused: y = x / ||x|| needs the whole sum before the first y can
 * be written. One kernel can do it only with a grid-wide barrier between the
 * two passes (a cooperative launch: every block resident at once, the grid
 * sized by the occupancy calculator), and the second pass must read x again:
 * 400 MB do not stay on chip across the barrier. So the fused kernel moves
 * the same 12 bytes an element as the two-kernel version and saves only one
 * launch; the benchmark shows it. */
#include <stdint.h>
#include <cooperative_groups.h>
#include "norm.h"

namespace cg = cooperative_groups;

#define NORM_THREADS 256

/* ---- given: the scratch buffer's size ---- */
size_t norm_tmp_bytes(void) { return (NORM_MAX_BLOCKS + 1) * sizeof(float); }

//@solution
/* The block's total, in every thread (same order everywhere: deterministic).
 * red is one __shared__ array of NORM_THREADS / 32 floats per call site. */
static __device__ __forceinline__ float block_total(float v, float *red)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    float sum = 0.f;
#pragma unroll
    for (int w = 0; w < NORM_THREADS / 32; w++) sum += red[w];
    return sum;
}

/* This thread's share of sum x^2: float4 loads when x is 16-byte aligned,
 * then the scalar rest (the tail, or everything when x is not aligned). */
static __device__ __forceinline__ float squares_of_share(const float *__restrict__ x, size_t n, size_t me, size_t threads)
{
    const size_t n4 = (((uintptr_t)x & 15) == 0) ? n / 4 : 0;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float a0 = 0.f, a1 = 0.f;
#pragma unroll 4
    for (size_t i = me; i < n4; i += threads) {
        const float4 v = x4[i];
        a0 = fmaf(v.x, v.x, a0), a1 = fmaf(v.y, v.y, a1);
        a0 = fmaf(v.z, v.z, a0), a1 = fmaf(v.w, v.w, a1);
    }
    for (size_t i = 4 * n4 + me; i < n; i += threads) a0 = fmaf(x[i], x[i], a0);
    return a0 + a1;
}

static __global__ void __launch_bounds__(NORM_THREADS) l2norm_partials(const float *__restrict__ x, size_t n, float *partials)
{
    __shared__ float red[NORM_THREADS / 32];
    const size_t me = (size_t)blockIdx.x * NORM_THREADS + threadIdx.x, threads = (size_t)gridDim.x * NORM_THREADS;
    const float part = block_total(squares_of_share(x, n, me, threads), red);
    if (threadIdx.x == 0) partials[blockIdx.x] = part;
}

static __global__ void __launch_bounds__(NORM_THREADS) l2norm_finish(const float *partials, unsigned count, float *out)
{
    __shared__ float red[NORM_THREADS / 32];
    float acc = 0.f;
    for (unsigned b = threadIdx.x; b < count; b += NORM_THREADS) acc += partials[b];
    const float total = block_total(acc, red);
    if (threadIdx.x == 0) *out = sqrtf(total);
}

static __global__ void __launch_bounds__(NORM_THREADS)
normalize_coop(const float *__restrict__ x, float *__restrict__ y, size_t n, float *partials)
{
    __shared__ float red_a[NORM_THREADS / 32], red_b[NORM_THREADS / 32];
    cg::grid_group grid = cg::this_grid();
    const size_t me = (size_t)blockIdx.x * NORM_THREADS + threadIdx.x, threads = (size_t)gridDim.x * NORM_THREADS;
    const float part = block_total(squares_of_share(x, n, me, threads), red_a);
    if (threadIdx.x == 0) partials[blockIdx.x] = part;
    grid.sync(); /* every partial written and visible */
    float acc = 0.f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += NORM_THREADS) acc += __ldcg(partials + b);
    const float inv = 1.0f / sqrtf(block_total(acc, red_b)); /* the same value in every block */
    const size_t n4 = ((((uintptr_t)x | (uintptr_t)y) & 15) == 0) ? n / 4 : 0;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    for (size_t i = me; i < n4; i += threads) {
        const float4 v = x4[i];
        y4[i] = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
    }
    for (size_t i = 4 * n4 + me; i < n; i += threads) y[i] = x[i] * inv;
}

/* Blocks of NORM_THREADS that fit on the device at once for `kernel`, at
 * most NORM_MAX_BLOCKS, and no more than n needs (one float4 a thread). The
 * device's figure is asked once per kernel and device (slot 0: norm_l2, 1:
 * normalize) and kept: the occupancy calculator runs on the host, and there
 * is no need to pay for it on every call. */
static cudaError_t resident_blocks(const void *kernel, int slot, size_t n, unsigned *blocks)
{
    static int known_dev[2] = { -1, -1 };
    static size_t known_cap[2];
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (known_dev[slot] != dev) {
        int sms = 0, per_sm = 0;
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, NORM_THREADS, 0);
        if (e != cudaSuccess) return e;
        size_t cap = (size_t)sms * (size_t)(per_sm > 0 ? per_sm : 1);
        known_cap[slot] = cap > NORM_MAX_BLOCKS ? NORM_MAX_BLOCKS : cap;
        known_dev[slot] = dev;
    }
    const size_t need = (n + 4 * NORM_THREADS - 1) / (4 * NORM_THREADS);
    *blocks = (unsigned)(need < known_cap[slot] ? (need > 0 ? need : 1) : known_cap[slot]);
    return cudaSuccess;
}
//@starter
//| /* TODO (norm_l2): a kernel in which every thread adds the squares of its
//|  * share of x (grid-stride, float4 when x is 16-byte aligned, scalar for
//|  * the rest), the block adds its threads' sums (warp shuffles, then one
//|  * value per warp through shared memory) and writes one partial to tmp;
//|  * then a one-block kernel adds the partials and writes sqrtf of the total.
//|  * TODO (normalize_fused): one kernel doing the same partials, then
//|  * cooperative_groups::this_grid().sync(), then every block adds all the
//|  * partials itself (__ldcg: straight from L2) and writes y = x * (1 / norm).
//|  * Size its grid with cudaOccupancyMaxActiveBlocksPerMultiprocessor times
//|  * the SM count (at most NORM_MAX_BLOCKS): all blocks must be resident. */
//@end

cudaError_t norm_l2(const float *x, size_t n, float *out, void *tmp)
{
    //@solution
    float *partials = (float *)tmp;
    unsigned blocks = 0;
    if (n > 0) {
        cudaError_t e = resident_blocks((const void *)l2norm_partials, 0, n, &blocks);
        if (e != cudaSuccess) return e;
        l2norm_partials<<<blocks, NORM_THREADS>>>(x, n, partials);
        e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    l2norm_finish<<<1, NORM_THREADS>>>(partials, blocks, out); /* n == 0: no partials, the norm is 0 */
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch the two kernels described above; n == 0 must still
    //|  * launch the second, which writes 0 to *out. */
    //| (void)x, (void)n, (void)out, (void)tmp;
    //| return cudaSuccess;
    //@end
}

cudaError_t normalize_fused(const float *x, float *y, size_t n, void *tmp)
{
    //@solution
    if (n == 0) return cudaSuccess;
    unsigned blocks = 0;
    cudaError_t e = resident_blocks((const void *)normalize_coop, 1, n, &blocks);
    if (e != cudaSuccess) return e;
    float *partials = (float *)tmp;
    void *args[] = { (void *)&x, (void *)&y, (void *)&n, (void *)&partials };
    return cudaLaunchCooperativeKernel((const void *)normalize_coop, dim3(blocks), dim3(NORM_THREADS), args, 0, 0);
    //@starter
    //| /* TODO: nothing for n == 0; otherwise cudaLaunchCooperativeKernel with
    //|  * args[] = { &x, &y, &n, &partials } and a grid that fits at once. */
    //| (void)x, (void)y, (void)n, (void)tmp;
    //| return cudaSuccess;
    //@end
}
