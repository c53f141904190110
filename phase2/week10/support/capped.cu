/* capped.cu — week 10, given: the lowocc computation forced to full
 * occupancy. __launch_bounds__(256, 8) promises 8 resident blocks of 256
 * threads, so the compiler must fit each thread in 65536 / 2048 = 32
 * registers; 48 live accumulators do not fit and spill to local memory. */
#include "lowocc_body.h"

static __global__ void __launch_bounds__(256, 8) capped_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = lowocc_element(x[i]);
}

extern "C" cudaError_t lowocc_capped(const float *x, float *y, size_t n)
{
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    if (blocks > 65535u * 32u) blocks = 65535u * 32u;
    capped_kernel<<<(unsigned)blocks, 256>>>(x, y, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lowocc_capped_attr(struct cudaFuncAttributes *a) { return cudaFuncGetAttributes(a, capped_kernel); }
