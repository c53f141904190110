/* gemm_support.cu — given code for week 28: half inputs made on the device. */
#include <cuda_fp16.h>
#include "wb_cuda.h"
#include "support/gemm_support.h"

static __global__ void f32_to_f16_kernel(const float *src, __half *dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = __float2half_rn(src[i]);
}

extern "C" cudaError_t fill_half_uniform(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (n == 0) return cudaSuccess;
    float *tmp = NULL;
    cudaError_t e = cudaMalloc(&tmp, n * sizeof(float));
    if (e != cudaSuccess) return e;
    wb_dfill_uniform_f32(tmp, n, seed, lo, hi);
    size_t b = (n + 255) / 256;
    f32_to_f16_kernel<<<(unsigned)(b < 65535u * 16u ? b : 65535u * 16u), 256>>>(tmp, (__half *)d, n);
    e = cudaGetLastError();
    cudaError_t e2 = cudaFree(tmp); /* waits for the conversion */
    return e != cudaSuccess ? e : e2;
}
