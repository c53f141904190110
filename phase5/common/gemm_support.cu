/* gemm_support.cu — given device code for the tests of weeks 25-28: half
 * inputs made on the device (every week) and halves widened to floats. Built
 * into phase 5's libphase.a, shipped with every phase-5 week: no exercise's
 * answer lives here, nor anything that does a week's job for it (week 26's
 * FP32 CUDA-core GEMM lives in week26/support/). */
#include <cuda_fp16.h>
#include "wb_cuda.h"
#include "gemm_support.h"

static __global__ void f32_to_f16_kernel(const float *src, __half *dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = __float2half_rn(src[i]);
}

static __global__ void f16_to_f32_kernel(const __half *src, float *dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = __half2float(src[i]);
}

static unsigned grid_for(size_t n) { size_t b = (n + 255) / 256; return (unsigned)(b < 65535u * 16u ? b : 65535u * 16u); }

extern "C" cudaError_t fill_half_uniform(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (n == 0) return cudaSuccess;
    float *tmp = NULL;
    cudaError_t e = cudaMalloc(&tmp, n * sizeof(float));
    if (e != cudaSuccess) return e;
    wb_dfill_uniform_f32(tmp, n, seed, lo, hi);
    f32_to_f16_kernel<<<grid_for(n), 256>>>(tmp, (__half *)d, n);
    e = cudaGetLastError();
    cudaError_t e2 = cudaFree(tmp); /* waits for the conversion */
    return e != cudaSuccess ? e : e2;
}

extern "C" cudaError_t half_to_float(const uint16_t *src, float *dst, size_t n)
{
    if (n == 0) return cudaSuccess;
    f16_to_f32_kernel<<<grid_for(n), 256>>>((const __half *)src, dst, n);
    return cudaGetLastError();
}

