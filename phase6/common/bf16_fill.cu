/* bf16_fill.cu — see bf16_fill.h. */
#include <cuda_bf16.h>
#include "bf16_fill.h"

static __device__ __forceinline__ unsigned long long mix64(unsigned long long x)
{
    x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27, x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static __global__ void fill_kernel(__nv_bfloat16 *d, size_t n, unsigned long long seed, float lo, float hi)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float u = (float)(mix64(seed * 0x9e3779b97f4a7c15ull + i) >> 40) * (1.f / 16777216.f); /* [0, 1) */
        d[i] = __float2bfloat16_rn(lo + (hi - lo) * u);
    }
}

cudaError_t bf16_fill_uniform(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    if (blocks > 65536) blocks = 65536;
    fill_kernel<<<(unsigned)blocks, 256>>>((__nv_bfloat16 *)d, n, seed, lo, hi);
    return cudaGetLastError();
}
