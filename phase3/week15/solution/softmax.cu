/* softmax.cu — week 15, exercise 4: a first softmax, fused.
 *
 * Row-wise and numerically stable: m = max of the row, then exp(x - m) (every
 * term in (0, 1], no overflow even for rows near 1e30), their sum, and the
 * quotient. The given chain (support/yard_unfused.cu) is three kernels: the row
 * max reads x, the sum of exponentials reads x again, the normalisation reads
 * x a third time and writes y: 16 bytes an element. Fused, each row is read
 * from DRAM once and written once: 8 bytes.
 *
 * One warp a row: the reductions are warp shuffles (no shared memory, no
 * __syncthreads), and 32 to 64 rows per SM are in flight at once (32 for the
 * 1024-column kernel: 51 registers a thread with nvcc 13, room for 4 blocks),
 * plenty of bytes to hide DRAM latency. When a row fits in registers
 * (cols <= 1024, a multiple of 4, both pointers 16-byte aligned) each lane
 * keeps its V float4 in registers between the three steps: the row crosses
 * DRAM exactly once.
 * Otherwise the warp sweeps the row three times; the second and third sweeps
 * find it in L1 or L2 (a few KB a warp), so DRAM still sees it once. */
#include <math.h>
#include <stdint.h>
#include "softmax.h"

#define SMX_THREADS 256 /* 8 warps, one row each */
#define SMX_WARPS (SMX_THREADS / 32)

//@solution
static __device__ __forceinline__ float warp_max_all(float v)
{
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}
static __device__ __forceinline__ float warp_sum_all(float v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}
static __device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }

/* The row in registers: lane l holds float4s l, l + 32, ..., l + 32 (V-1);
 * those past the row are -Inf (max ignores them, exp makes them 0) and are
 * never stored. The row index is the same in the whole warp, so every lane
 * takes every shuffle. */
template <int V>
static __global__ void __launch_bounds__(SMX_THREADS) softmax_regs(const float *__restrict__ x, float *__restrict__ y, int rows, int cols)
{
    const int lane = threadIdx.x & 31, cols4 = cols / 4;
    const int warps = gridDim.x * SMX_WARPS;
    for (int row = blockIdx.x * SMX_WARPS + (threadIdx.x >> 5); row < rows; row += warps) {
        const float4 *xr = reinterpret_cast<const float4 *>(x + (size_t)row * cols);
        float4 *yr = reinterpret_cast<float4 *>(y + (size_t)row * cols);
        float4 v[V];
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = lane + 32 * k;
            v[k] = c < cols4 ? xr[c] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
            m = fmaxf(m, max4(v[k]));
        }
        m = warp_max_all(m);
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < V; k++) {
            v[k].x = __expf(v[k].x - m), v[k].y = __expf(v[k].y - m);
            v[k].z = __expf(v[k].z - m), v[k].w = __expf(v[k].w - m);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
        const float inv = 1.0f / warp_sum_all(s);
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = lane + 32 * k;
            if (c < cols4) yr[c] = make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv);
        }
    }
}

/* Any cols, any alignment: three sweeps of the row by the warp, the second
 * and third from cache. */
static __global__ void __launch_bounds__(SMX_THREADS) softmax_sweeps(const float *__restrict__ x, float *__restrict__ y, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int warps = gridDim.x * SMX_WARPS;
    for (int row = blockIdx.x * SMX_WARPS + (threadIdx.x >> 5); row < rows; row += warps) {
        const float *xr = x + (size_t)row * cols;
        float *yr = y + (size_t)row * cols;
        float m = -INFINITY;
#pragma unroll 4
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
        m = warp_max_all(m);
        float s = 0.f;
#pragma unroll 4
        for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
        const float inv = 1.0f / warp_sum_all(s);
#pragma unroll 4
        for (int c = lane; c < cols; c += 32) yr[c] = __expf(xr[c] - m) * inv;
    }
}
//@starter
//| /* TODO: one warp a row (8 rows a block of SMX_THREADS): m = the row's max
//|  * (fmaxf, then a __shfl_xor_sync butterfly so every lane has it), then
//|  * s = sum of __expf(x - m) (the same butterfly with +), then
//|  * y = __expf(x - m) * (1 / s). Start m at -INFINITY. For speed keep the row
//|  * in registers when it fits (float4s, cols % 4 == 0, aligned pointers,
//|  * cols <= 1024): then DRAM sees it once. */
//@end

cudaError_t softmax_fused(const float *x, float *y, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const unsigned blocks = (unsigned)(((size_t)rows + SMX_WARPS - 1) / SMX_WARPS);
    const int vec = cols % 4 == 0 && (((uintptr_t)x | (uintptr_t)y) & 15) == 0;
    const int cols4 = cols / 4;
    if (vec && cols4 <= 32) softmax_regs<1><<<blocks, SMX_THREADS>>>(x, y, rows, cols);
    else if (vec && cols4 <= 64) softmax_regs<2><<<blocks, SMX_THREADS>>>(x, y, rows, cols);
    else if (vec && cols4 <= 128) softmax_regs<4><<<blocks, SMX_THREADS>>>(x, y, rows, cols);
    else if (vec && cols4 <= 256) softmax_regs<8><<<blocks, SMX_THREADS>>>(x, y, rows, cols);
    else softmax_sweeps<<<blocks, SMX_THREADS>>>(x, y, rows, cols);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0; ceil(rows / 8) blocks of
    //|  * SMX_THREADS; return cudaGetLastError(). */
    //| (void)x, (void)y, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}
