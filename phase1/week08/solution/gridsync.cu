/* gridsync.cu — week 08, exercise 2: a grid-wide barrier.
 *
 * __syncthreads() stops at the block. cooperative_groups::this_grid().sync()
 * waits for every thread of every block, which is only possible when all
 * blocks are resident at once: launch with cudaLaunchCooperativeKernel and
 * size the grid from the occupancy calculator, never from n. Without the
 * barrier the second phase would read partial sums other blocks have not
 * written yet; the alternative is two kernel launches. */
#include <cooperative_groups.h>
#include "gridsync.h"

namespace cg = cooperative_groups;

#define GS_BLOCK 256
#define GS_MAX_BLOCKS 4096

//@solution
static __global__ void center_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, float *partials)
{
    __shared__ float warps[GS_BLOCK / 32];
    cg::grid_group grid = cg::this_grid();
    size_t stride = (size_t)gridDim.x * GS_BLOCK;
    float acc = 0.f;
    for (size_t i = (size_t)blockIdx.x * GS_BLOCK + threadIdx.x; i < n; i += stride) acc += x[i];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < GS_BLOCK / 32; w++) s += warps[w];
        partials[blockIdx.x] = s;
    }
    grid.sync();
    __shared__ float mean;
    if (threadIdx.x == 0) {
        double s = 0.0; /* every block adds the partials in the same order */
        for (unsigned b = 0; b < gridDim.x; b++) s += partials[b];
        mean = (float)(s / (double)n);
    }
    __syncthreads();
    for (size_t i = (size_t)blockIdx.x * GS_BLOCK + threadIdx.x; i < n; i += stride) y[i] = x[i] - mean;
}
//@starter
//| /* TODO: one kernel, two phases: partial sums to partials[blockIdx.x],
//|  * cooperative_groups::this_grid().sync(), then y = x - mean. */
//| static __global__ void center_kernel(const float *x, float *y, size_t n, float *partials)
//| {
//|     (void)x, (void)y, (void)n, (void)partials;
//| }
//@end

/* ---- given: a cooperative launch of as many blocks as fit at once ---- */
size_t gridsync_center_tmp_bytes(void) { return GS_MAX_BLOCKS * sizeof(float); }

cudaError_t gridsync_center_mean(const float *x, float *y, size_t n, void *tmp)
{
    if (n == 0) return cudaSuccess;
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, center_kernel, GS_BLOCK, 0);
    if (e != cudaSuccess) return e;
    size_t want = (n + GS_BLOCK - 1) / GS_BLOCK, cap = (size_t)sms * (per_sm > 0 ? per_sm : 1);
    if (cap > GS_MAX_BLOCKS) cap = GS_MAX_BLOCKS;
    unsigned blocks = (unsigned)(want < cap ? want : cap);
    float *partials = (float *)tmp;
    void *args[] = { (void *)&x, (void *)&y, (void *)&n, (void *)&partials };
    return cudaLaunchCooperativeKernel((const void *)center_kernel, dim3(blocks), dim3(GS_BLOCK), args, 0, 0);
}
