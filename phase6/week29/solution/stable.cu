/* stable.cu — week 29, exercise 2: softmax with the maximum subtracted.
 *
 * exp(x - m) / sum exp(x - m) is the same number as exp(x) / sum exp(x) (the
 * factor exp(-m) cancels), but every term is now in (0, 1], the largest is
 * exactly 1, and the sum is in [1, cols]: nothing overflows and the
 * denominator is never 0, whatever the logits.
 *
 * One kernel, a block of SM_THREADS a row, three sweeps of the row: the max,
 * the sum of exponentials, the output. The second and third sweeps read the
 * row again, but a few microseconds after the first, and a block's row
 * (4 bytes x cols) is small: they are served from L1 or L2, so DRAM sees x
 * about once. Week 30 reads it once by design (the online softmax, the row in
 * registers). Scalar loads: any alignment, any cols. */
#include <math.h>
#include "stable.h"

//@solution
static __device__ __forceinline__ float warp_max(float v)
{
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}
static __device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/* Block-wide max and sum, the result in every thread. red holds a value per
 * warp; the first barrier keeps the previous reduction's readers ahead of
 * this one's writers (the two reductions share red). */
static __device__ float block_max(float v, float *red)
{
    v = warp_max(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    return warp_max(lane < SM_THREADS / 32 ? red[lane] : -INFINITY);
}
static __device__ float block_sum(float v, float *red)
{
    v = warp_sum(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    return warp_sum(lane < SM_THREADS / 32 ? red[lane] : 0.f);
}

/* The row loop is the same in the whole block: every thread reaches every
 * barrier. fmaxf skips a NaN, which its exp then puts into the sum; a +Inf
 * makes m = Inf and Inf - Inf = NaN; a row of -Inf only makes m = -Inf and
 * -Inf - (-Inf) = NaN: the NaN rows the header promises, with no branch. */
static __global__ void __launch_bounds__(SM_THREADS) softmax_stable_kernel(const float *__restrict__ x,
                                                                          float *__restrict__ y, int rows, int cols)
{
    __shared__ float red[32];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *xr = x + (size_t)row * cols;
        float *yr = y + (size_t)row * cols;
        float m = -INFINITY;
        for (int j = threadIdx.x; j < cols; j += SM_THREADS) m = fmaxf(m, xr[j]);
        m = block_max(m, red);
        float s = 0.f;
        for (int j = threadIdx.x; j < cols; j += SM_THREADS) s += expf(xr[j] - m);
        s = block_sum(s, red);
        const float inv = 1.0f / s;
        for (int j = threadIdx.x; j < cols; j += SM_THREADS) yr[j] = expf(xr[j] - m) * inv;
    }
}
//@starter
//| /* TODO: one block of SM_THREADS threads a row (loop row = blockIdx.x;
//|  * row < rows; row += gridDim.x, the same in the whole block). Three
//|  * strided sweeps of the row: m = the row's max (fmaxf, start at
//|  * -INFINITY), then s = sum of expf(x - m), then y = expf(x - m) / s. Each
//|  * of m and s is a block reduction: a __shfl_xor_sync butterfly in the
//|  * warp, one value per warp in __shared__ float red[32], __syncthreads(),
//|  * then a butterfly over those. The two reductions share red: put a
//|  * __syncthreads() before writing it again. Index rows with size_t. */
//@end

cudaError_t stable_softmax(const float *x, float *y, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const unsigned blocks = (unsigned)(rows < (1 << 20) ? rows : (1 << 20));
    softmax_stable_kernel<<<blocks, SM_THREADS>>>(x, y, rows, cols);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0; a block a row (at most 2^20
    //|  * blocks, the kernel loops past them); return cudaGetLastError(). */
    //| (void)x, (void)y, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}
