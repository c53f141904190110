/* naive.cu — week 29, exercise 1: the naive softmax, op by op.
 *
 * y = exp(x) / rowsum(exp(x)), written the way a framework without a fused
 * softmax runs it: three kernels, each one pass over memory.
 *   1. exp:    y = expf(x), element-wise (reads x, writes y);
 *   2. rowsum: sums[i] = sum of row i of y (reads y), a block a row;
 *   3. scale:  y[i][j] /= sums[i] (reads y, writes y), a block a row.
 * 20 bytes an element cross DRAM where one fused kernel needs 8 (the
 * benchmark prints both). And the formula has no safeguard: expf overflows
 * to +Inf past x = 88.72, and underflows to 0 below about -103.97, so rows of
 * large logits give Inf / Inf and rows of very negative ones 0 / 0: NaN.
 * That is the point of this exercise: write it, then watch it fail. */
#include <float.h>
#include <math.h>
#include "naive.h"

#define NV_THREADS 256

//@solution
static unsigned nv_blocks(size_t work)
{
    const size_t blocks = (work + NV_THREADS - 1) / NV_THREADS; /* at most 2^20: the loop covers the rest */
    return (unsigned)(blocks < ((size_t)1 << 20) ? blocks : ((size_t)1 << 20));
}

static __global__ void nv_exp(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)NV_THREADS + threadIdx.x; i < n; i += (size_t)gridDim.x * NV_THREADS)
        y[i] = expf(x[i]);
}

/* The sum of all threads' v, in every thread. red holds 32 floats; the first
 * barrier keeps a previous call's readers ahead of this call's writers. */
static __device__ float nv_block_sum(float v, float *red)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < NV_THREADS / 32 ? red[lane] : 0.f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/* One block a row; the row loop is the same in the whole block, so every
 * thread reaches every barrier. */
static __global__ void __launch_bounds__(NV_THREADS) nv_rowsum(const float *__restrict__ y, float *__restrict__ sums,
                                                               int rows, int cols)
{
    __shared__ float red[32];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *yr = y + (size_t)row * cols;
        float s = 0.f;
        for (int j = threadIdx.x; j < cols; j += NV_THREADS) s += yr[j];
        s = nv_block_sum(s, red);
        if (threadIdx.x == 0) sums[row] = s;
    }
}

static __global__ void __launch_bounds__(NV_THREADS) nv_scale(float *__restrict__ y, const float *__restrict__ sums,
                                                              int rows, int cols)
{
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        float *yr = y + (size_t)row * cols;
        const float s = sums[row];
        for (int j = threadIdx.x; j < cols; j += NV_THREADS) yr[j] = yr[j] / s;
    }
}
//@starter
//| /* TODO: three kernels, each a pass over memory (naive.h says what each
//|  * does): an element-wise y = expf(x) over rows * cols elements (a size_t
//|  * index: rows * cols can pass 2^31); a row sum of y into sums[row], a
//|  * block of NV_THREADS threads a row (strided loop, then a warp
//|  * __shfl_xor_sync butterfly and one value per warp through shared
//|  * memory, week 07); and y[row][j] /= sums[row]. No max subtraction: that
//|  * is the point. */
//@end

cudaError_t naive_softmax(const float *x, float *y, float *sums, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const size_t count = (size_t)rows * cols;
    const unsigned row_blocks = (unsigned)(rows < (1 << 20) ? rows : (1 << 20));
    nv_exp<<<nv_blocks(count), NV_THREADS>>>(x, y, count);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    nv_rowsum<<<row_blocks, NV_THREADS>>>(y, sums, rows, cols);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    nv_scale<<<row_blocks, NV_THREADS>>>(y, sums, rows, cols);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0; launch the three kernels in
    //|  * order on the default stream (each waits for the one before) and
    //|  * return the first cudaGetLastError() that is not cudaSuccess. */
    //| (void)x, (void)y, (void)sums, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

double naive_limit(int cols)
{
    //@solution
    /* cols terms of at most FLT_MAX / cols add up to at most FLT_MAX:
     * exp(L) = FLT_MAX / cols, L = ln(FLT_MAX) - ln(cols) = 88.72 - ln(cols). */
    return log((double)FLT_MAX) - log((double)cols);
    //@starter
    //| /* TODO: the largest L with cols * exp(L) <= FLT_MAX (float.h), in
    //|  * double: 88.72 for one column, less for a long row. */
    //| (void)cols;
    //| return 0.0;
    //@end
}
