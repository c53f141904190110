/* fp8_fill.cu — week 60, given: the device side of fp8_fill.h. */
#include "fp8_fill.h"

static __global__ void fp8_fill_kernel(uint8_t *d, size_t n, unsigned long long seed, int range, int e)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = fp8_fill_code(fp8_fill_int(seed, i, range), e);
}

extern "C" cudaError_t fp8_fill_small(uint8_t *d, size_t n, unsigned long long seed, int range, int e)
{
    if (n == 0) return cudaSuccess;
    if (range < 0 || range > 3 || e < -9 || e > 7) return cudaErrorInvalidValue;
    const size_t want = (n + 255) / 256;
    fp8_fill_kernel<<<(unsigned)(want < 8192 ? want : 8192), 256>>>(d, n, seed, range, e);
    return cudaGetLastError();
}
