/* yard_triad.cu — the given kernel of week 52 (see yard_triad.h). */
#include "yard_triad.h"

static __global__ void triad_kernel(float4 *__restrict__ a, const float4 *__restrict__ b,
                                    const float4 *__restrict__ c, float s, size_t n4)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t k = threadIdx.x + (size_t)blockDim.x * blockIdx.x; k < n4; k += step) {
        float4 x = b[k], y = c[k];
        a[k] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}

static __global__ void triad_tail(float *a, const float *b, const float *c, float s, size_t from, size_t n)
{
    size_t i = from + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + s * c[i];
}

static unsigned blocks_for(size_t work)
{
    const size_t want = work / 256 + (work % 256 != 0);
    return (unsigned)(want < 132u * 16u ? (want ? want : 1) : 132u * 16u); /* grid-stride covers the rest */
}

cudaError_t yard_triad(float *a, const float *b, const float *c, float s, size_t n, double planted)
{
    if (n == 0) return cudaSuccess;
    size_t n4 = n / 4;
    if (n4) triad_kernel<<<blocks_for(n4), 256>>>((float4 *)a, (const float4 *)b, (const float4 *)c, s, n4);
    if (n4 * 4 < n) triad_tail<<<1, 256>>>(a, b, c, s, n4 * 4, n);
    /* the planted slowdown: the first `planted` of the vector once more */
    size_t again = planted > 0 ? (size_t)(planted * (double)n4) : 0;
    if (again) triad_kernel<<<blocks_for(again), 256>>>((float4 *)a, (const float4 *)b, (const float4 *)c, s, again);
    return cudaGetLastError();
}
