/* wb_fill.cu — device-side random fill, bit-identical to its host twin. */
#include <cuda_bf16.h>
#include "wb_cuda.h"

static __host__ __device__ float hash_uniform(unsigned long long seed, size_t i, float lo, float hi)
{
    unsigned long long z = seed ^ ((unsigned long long)i * 0x9E3779B97F4A7C15ull);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    float u = (float)(z >> 40) * (1.0f / 16777216.0f); /* exact: 24 bits */
#ifdef __CUDA_ARCH__
    return __fadd_rn(lo, __fmul_rn(hi - lo, u)); /* no FMA contraction */
#else
    volatile float prod = (hi - lo) * u;
    return lo + prod;
#endif
}

static __global__ void fill_kernel(float *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = hash_uniform(seed, i, lo, hi);
}

extern "C" void wb_dfill_uniform_f32(float *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (!n) return;
    size_t blocks = (n + 255) / 256;
    fill_kernel<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256>>>(d, n, seed, lo, hi);
    WB_LAUNCH();
}

extern "C" float wb_hash_uniform_f32(unsigned long long seed, size_t i, float lo, float hi)
{
    return hash_uniform(seed, i, lo, hi);
}

static __global__ void fill_bf16_kernel(__nv_bfloat16 *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = __float2bfloat16_rn(hash_uniform(seed, i, lo, hi));
}

extern "C" void wb_dfill_uniform_bf16(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (!n) return;
    size_t blocks = (n + 255) / 256;
    fill_bf16_kernel<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256>>>((__nv_bfloat16 *)d, n, seed, lo, hi);
    WB_LAUNCH();
}
