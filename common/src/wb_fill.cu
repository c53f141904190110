/* wb_fill.cu — device-side random fill, bit-identical to its host twin. */
#include <cuda_bf16.h>
#include "wb_cuda.h"
#include "wb_hd.h"

static __global__ void fill_kernel(float *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = wb_hash_uniform(seed, i, lo, hi);
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
    return wb_hash_uniform(seed, i, lo, hi);
}

static __global__ void fill_bf16_kernel(__nv_bfloat16 *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = __float2bfloat16_rn(wb_hash_uniform(seed, i, lo, hi));
}

extern "C" void wb_dfill_uniform_bf16(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi)
{
    if (!n) return;
    size_t blocks = (n + 255) / 256;
    fill_bf16_kernel<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256>>>((__nv_bfloat16 *)d, n, seed, lo, hi);
    WB_LAUNCH();
}
