/* copy.cu — week 03, exercise 1: a copy kernel, to find the bandwidth ceiling.
 *
 * A copy does no arithmetic at all: its speed is the memory system's. The
 * yardstick is cudaMemcpy device to device on the same bytes, measured in
 * the same run; a kernel that matches it shows the ceiling every memory-bound
 * kernel of this workbook is compared with.
 *
 * Version 1: one thread per float, a bounds check (week 01's pattern).
 * Version 2: float4 loads and stores when both pointers are 16-byte aligned,
 * COPY_UNROLL float4s per thread (all loads, then all stores) on a grid that
 * covers the array, the scalar kernel for the tail and for misaligned
 * pointers.
 *
 * How many float4s a thread should carry was measured, not assumed (H100,
 * 400 MiB, each against cudaMemcpy in the same run, 2026-11-26): 1: 0.999-
 * 1.000 of COPY, 2: 0.995-0.996, 4: 0.987-0.988, 8: 0.981; with 4, a grid
 * of 8 or 32 blocks an SM looping over the array: 0.951 and 0.961. At full
 * occupancy one float4 a thread already keeps 2048 x 16 B = 32 KB in flight
 * on every SM; more a thread did not help here. */
#include <stdint.h>
#include "copy.h"

//@solution
#define COPY_THREADS 256
#define COPY_UNROLL 1

static __global__ void copy_scalar(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = x[i];
}

/* Each block copies COPY_THREADS * COPY_UNROLL float4s per step; thread t
 * takes elements t, t + 256, t + 512, ... of the step: every load of a warp
 * is 512 contiguous bytes. */
static __global__ void copy_vec4(const float4 *__restrict__ x, float4 *__restrict__ y, size_t n4)
{
    const size_t per_block = (size_t)COPY_THREADS * COPY_UNROLL;
    for (size_t base = (size_t)blockIdx.x * per_block; base < n4; base += (size_t)gridDim.x * per_block) {
        size_t i0 = base + threadIdx.x;
        float4 v[COPY_UNROLL];
        if (base + per_block <= n4) {
#pragma unroll
            for (int k = 0; k < COPY_UNROLL; k++) v[k] = x[i0 + (size_t)k * COPY_THREADS];
#pragma unroll
            for (int k = 0; k < COPY_UNROLL; k++) y[i0 + (size_t)k * COPY_THREADS] = v[k];
        } else {
#pragma unroll
            for (int k = 0; k < COPY_UNROLL; k++)
                if (i0 + (size_t)k * COPY_THREADS < n4) y[i0 + (size_t)k * COPY_THREADS] = x[i0 + (size_t)k * COPY_THREADS];
        }
    }
}

static unsigned blocks_for(size_t work, size_t per_block)
{
    size_t b = (work + per_block - 1) / per_block;
    return (unsigned)(b < ((size_t)1 << 30) ? b : ((size_t)1 << 30));
}
//@starter
//| /* TODO: write the copy kernel(s). Start with one thread per float and a
//|  * bounds check; then move 16 bytes per load with float4 when both pointers
//|  * are 16-byte aligned, and a scalar tail. Then measure: one float4 a
//|  * thread, or several (all loads first, then all stores)? */
//@end

cudaError_t copy_f32(const float *x, float *y, size_t n)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t done = 0;
    if (((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0 && n >= 4) {
        size_t n4 = n / 4;
        copy_vec4<<<blocks_for(n4, (size_t)COPY_THREADS * COPY_UNROLL), COPY_THREADS>>>((const float4 *)x, (float4 *)y,
                                                                                         n4);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        done = n4 * 4;
    }
    if (done < n) copy_scalar<<<blocks_for(n - done, COPY_THREADS), COPY_THREADS>>>(x + done, y + done, n - done);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel(s) over n elements (nothing when n == 0) and
    //|  * return cudaGetLastError(). */
    //| (void)x, (void)y, (void)n;
    //| return cudaSuccess;
    //@end
}
