/* yard_fullocc.cu — week 10, given: the yardstick of the volkov exercise. One
 * element, so one dependent FMA chain, per thread: the only parallelism a
 * scheduler can find is other warps, so this form needs many resident warps
 * (high occupancy) to keep the FMA pipe busy. The benchmark launches it on 8
 * blocks of 256 threads per SM: 64 warps, 100 % occupancy on an H100. The
 * step loop is unrolled by 64 so that its counter and branch cost few issue
 * slots: the yardstick is not handicapped. */
#include "volkov.h"

static __global__ void fullocc_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, int steps, float a,
                                      float b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = x[i];
#pragma unroll 64
        for (int s = 0; s < steps; s++) v = fmaf(v, a, b);
        y[i] = v;
    }
}

extern "C" cudaError_t yard_fullocc_chains(const float *x, float *y, size_t n, int steps, float a, float b, int threads,
                                           int blocks)
{
    if (n == 0) return cudaSuccess;
    fullocc_kernel<<<blocks, threads>>>(x, y, n, steps, a, b);
    return cudaGetLastError();
}

extern "C" cudaError_t yard_fullocc_attr(struct cudaFuncAttributes *attr)
{
    return cudaFuncGetAttributes(attr, fullocc_kernel);
}

extern "C" cudaError_t yard_fullocc_max_active(int threads, int *blocks_per_sm)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, fullocc_kernel, threads, 0);
}
