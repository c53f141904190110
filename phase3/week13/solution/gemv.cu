/* gemv.cu — week 13, exercise 5: y = A x, one warp per row.
 *
 * A warp owns a row: lane l reads elements l, l + 32, l + 64, ... (with
 * float4, elements 4l..4l+3, then 128 further on), so each load instruction
 * of the warp reads 512 contiguous bytes, and multiplies them by the same
 * elements of x (4 KB of x for 1024 columns: it stays in L1 and L2). The 32
 * partial dot products are then summed by a shuffle reduction and lane 0
 * writes y[row]. No shared memory and no barrier: the warp is the unit.
 *
 * A GEMV reads the matrix once (2 flops per 4-byte element): it is bound by
 * memory, and its yardstick is a copy. Warps loop over rows (row += all
 * warps of the grid), so any number of rows fits any grid; the loop bound is
 * the same for every lane of a warp, so the full-mask shuffles are safe. */
#include <stdint.h>
#include "gemv.h"

#define THREADS (GV_WARPS * 32)

//@solution
static __device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

static __device__ __forceinline__ float dot4(float4 a, float4 b, float acc)
{
    return fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, fmaf(a.x, b.x, acc))));
}

/* A and x 16-byte aligned, cols a multiple of 4. */
static __global__ void gemv_vec4(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                                 size_t rows, size_t cols)
{
    size_t warp = ((size_t)blockIdx.x * THREADS + threadIdx.x) / 32, nwarps = (size_t)gridDim.x * GV_WARPS;
    unsigned lane = threadIdx.x & 31;
    size_t c4 = cols / 4;
    const float4 *x4 = (const float4 *)x;
    for (size_t r = warp; r < rows; r += nwarps) {
        const float4 *a4 = (const float4 *)(A + r * cols);
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        size_t k = lane;
        for (; k + 96 < c4; k += 128) { /* four independent 16-byte loads per lane in flight */
            float4 a = a4[k], b = a4[k + 32], c = a4[k + 64], d = a4[k + 96];
            s0 = dot4(a, x4[k], s0);
            s1 = dot4(b, x4[k + 32], s1);
            s2 = dot4(c, x4[k + 64], s2);
            s3 = dot4(d, x4[k + 96], s3);
        }
        for (; k < c4; k += 32) s0 = dot4(a4[k], x4[k], s0);
        float s = warp_sum((s0 + s1) + (s2 + s3));
        if (lane == 0) y[r] = s;
    }
}

/* Any alignment, any cols. */
static __global__ void gemv_scalar(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                                   size_t rows, size_t cols)
{
    size_t warp = ((size_t)blockIdx.x * THREADS + threadIdx.x) / 32, nwarps = (size_t)gridDim.x * GV_WARPS;
    unsigned lane = threadIdx.x & 31;
    for (size_t r = warp; r < rows; r += nwarps) {
        const float *a = A + r * cols;
        float s0 = 0.0f, s1 = 0.0f;
        size_t k = lane;
        for (; k + 32 < cols; k += 64) {
            s0 = fmaf(a[k], x[k], s0);
            s1 = fmaf(a[k + 32], x[k + 32], s1);
        }
        if (k < cols) s0 = fmaf(a[k], x[k], s0);
        float s = warp_sum(s0 + s1);
        if (lane == 0) y[r] = s;
    }
}
//@starter
//| /* TODO: gemv_vec4 and gemv_scalar, one warp per row: warp w of the grid
//|  * (w = global thread index / 32) does rows w, w + nwarps, ... (nwarps =
//|  * gridDim.x * GV_WARPS). Each lane accumulates A[r][k] * x[k] for its own k
//|  * (lane, lane + 32, ...; in gemv_vec4 as float4: k4 = lane, lane + 32, ...
//|  * over cols / 4, several loads in flight), then a warp sum by
//|  * __shfl_xor_sync or __shfl_down_sync; lane 0 writes y[r]. Every lane of the
//|  * warp must reach the shuffles: loop over rows the same way in all lanes. */
//| static __global__ void gemv_vec4(const float *A, const float *x, float *y, size_t rows, size_t cols)
//| {
//|     (void)A, (void)x, (void)y, (void)rows, (void)cols;
//| }
//|
//| static __global__ void gemv_scalar(const float *A, const float *x, float *y, size_t rows, size_t cols)
//| {
//|     (void)A, (void)x, (void)y, (void)rows, (void)cols;
//| }
//@end

/* ---- given: the launcher ---- */
cudaError_t gv_gemv(const float *A, const float *x, float *y, size_t rows, size_t cols)
{
    if (rows == 0) return cudaSuccess;
    size_t blocks = (rows + GV_WARPS - 1) / GV_WARPS;
    if (blocks > ((size_t)1 << 22)) blocks = (size_t)1 << 22; /* the row loop covers the rest */
    int vec = (((uintptr_t)A | (uintptr_t)x) & 15) == 0 && cols % 4 == 0;
    if (vec) gemv_vec4<<<(unsigned)blocks, THREADS>>>(A, x, y, rows, cols);
    else gemv_scalar<<<(unsigned)blocks, THREADS>>>(A, x, y, rows, cols);
    return cudaGetLastError();
}
