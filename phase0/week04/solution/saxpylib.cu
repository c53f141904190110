/* saxpylib.cu — week 04, exercise 1: the library, sl_saxpy and sl_dot.
 *
 * SAXPY reads x and y and writes y: 12 bytes per 2 flops, memory-bound, so
 * its yardstick is the device-to-device copy (week 01's vecadd with one more
 * operand). Dot reads 8 bytes per 2 flops and writes one number: each thread
 * keeps a running sum in a register over a grid-stride loop, each block adds
 * its threads' sums with warp shuffles and shared memory, and one atomicAdd
 * per block adds the block's sum into the result (set to 0 first). */
#include <stdint.h>
#include "saxpylib.h"

//@solution
#define SL_THREADS 256

static unsigned blocks_for(size_t work, int threads)
{
    size_t b = (work + threads - 1) / threads;
    return (unsigned)(b < 65535u * 32u ? b : 65535u * 32u);
}

static __global__ void saxpy_scalar(float a, const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaf(a, x[i], y[i]);
}

static __global__ void saxpy_vec4(float a, const float4 *__restrict__ x, float4 *__restrict__ y, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 u = x[i], v = y[i];
        y[i] = make_float4(fmaf(a, u.x, v.x), fmaf(a, u.y, v.y), fmaf(a, u.z, v.z), fmaf(a, u.w, v.w));
    }
}

static __global__ void dot_kernel(const float *__restrict__ x, const float *__restrict__ y, size_t n, int vec,
                                  float *result)
{
    __shared__ float warp_sums[SL_THREADS / 32];
    float acc = 0;
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x, done = 0;
    if (vec) {
        const float4 *x4 = (const float4 *)x, *y4 = (const float4 *)y;
        size_t n4 = n / 4;
#pragma unroll 4
        for (size_t i = tid; i < n4; i += stride) {
            float4 u = x4[i], v = y4[i];
            acc = fmaf(u.x, v.x, acc);
            acc = fmaf(u.y, v.y, acc);
            acc = fmaf(u.z, v.z, acc);
            acc = fmaf(u.w, v.w, acc);
        }
        done = n4 * 4;
    }
    for (size_t i = done + tid; i < n; i += stride) acc = fmaf(x[i], y[i], acc);
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < SL_THREADS / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0) atomicAdd(result, acc);
    }
}
//@starter
//| /* TODO: the kernels: saxpy (scalar, then float4) and a dot product that
//|  * reduces in registers, then in the block, then across blocks. */
//@end

cudaError_t sl_saxpy(float a, const float *x, float *y, size_t n)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t done = 0;
    if (((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0 && n >= 4) {
        size_t n4 = n / 4;
        saxpy_vec4<<<blocks_for(n4, SL_THREADS), SL_THREADS>>>(a, (const float4 *)x, (float4 *)y, n4);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        done = n4 * 4;
    }
    if (done < n) saxpy_scalar<<<blocks_for(n - done, SL_THREADS), SL_THREADS>>>(a, x + done, y + done, n - done);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch the saxpy kernel(s) (nothing when n == 0); return the launch's error. */
    //| (void)a, (void)x, (void)y, (void)n;
    //| return cudaSuccess;
    //@end
}

cudaError_t sl_dot(const float *x, const float *y, size_t n, float *result)
{
    //@solution
    cudaError_t e = cudaMemsetAsync(result, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    static int sms = 0; /* asked once: a few blocks per SM are enough */
    if (!sms) {
        int dev = 0;
        if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return e;
    }
    int vec = ((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0;
    unsigned blocks = blocks_for(vec ? (n + 3) / 4 : n, SL_THREADS), most = (unsigned)sms * 8;
    dot_kernel<<<blocks < most ? blocks : most, SL_THREADS>>>(x, y, n, vec, result);
    return cudaGetLastError();
    //@starter
    //| /* TODO: zero *result (cudaMemsetAsync), then launch the dot kernel;
    //|  * return the first error. */
    //| (void)x, (void)y, (void)n, (void)result;
    //| return cudaSuccess;
    //@end
}
