/* yard_unfused.cu — week 12, given: an element-wise chain as three kernels, the
 * way a framework runs it op by op: every step reads and writes n floats. */
#include <cuda_runtime.h>
#include "fuse.h"

static __global__ void k_affine(const float *x, float *t, size_t n, float a, float b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) t[i] = fmaf(a, x[i], b);
}
static __global__ void k_relu(const float *t, float *u, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) u[i] = t[i] < 0 ? 0.0f : t[i];
}
static __global__ void k_scale(const float *u, float *y, size_t n, float s)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = u[i] * s;
}

extern "C" cudaError_t yard_unfused_chain(const float *x, float *t1, float *t2, float *y, size_t n, float a, float b,
                                          float s)
{
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    if (blocks > 65535u * 32u) blocks = 65535u * 32u;
    k_affine<<<(unsigned)blocks, 256>>>(x, t1, n, a, b);
    k_relu<<<(unsigned)blocks, 256>>>(t1, t2, n);
    k_scale<<<(unsigned)blocks, 256>>>(t2, y, n, s);
    return cudaGetLastError();
}
