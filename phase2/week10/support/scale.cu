/* scale.cu — week 10, given: the launch-configuration sweep's kernel. One
 * float per thread per iteration of a grid-stride loop, so the number of
 * loads in flight per SM is set by how many threads are resident there. */
#include <cuda_runtime.h>
#include "occ_kernels.h"

static __global__ void scale_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n, float a)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i];
}

extern "C" cudaError_t scale_launch(const float *x, float *y, size_t n, float a, int threads, int blocks)
{
    scale_kernel<<<blocks, threads>>>(x, y, n, a);
    return cudaGetLastError();
}

extern "C" cudaError_t scale_attr(struct cudaFuncAttributes *a) { return cudaFuncGetAttributes(a, scale_kernel); }
