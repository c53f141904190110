/* tiny.cu — week 12, given: a kernel too small to matter, so launching it is
 * all that costs: the eager loop of it (support/yard_eager.cu) is the
 * baseline a graph replay must beat. */
#include <cuda_runtime.h>
#include "graph.h"

static __global__ void tiny_kernel(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] += 1.0f;
}

extern "C" cudaError_t tiny_add(float *d, int n, cudaStream_t s)
{
    if (n <= 0) return cudaSuccess;
    tiny_kernel<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    return cudaGetLastError();
}
