/* ilp.cu — week 12, exercise 1: several independent loads per thread.
 *
 * A load from HBM takes on the order of 600-800 ns; to stream 3 TB/s the SMs
 * must keep about bandwidth x latency = 2 MB in flight, some 16 KB per SM.
 * Threads are one way to get there (occupancy); independent loads in each
 * thread are the other (ILP, or memory-level parallelism). With ILP loads
 * issued before the first store, one warp has ILP x 512 bytes outstanding.
 * The ladder ILP 1, 2, 4, 8 at one block per SM shows bandwidth grow with
 * bytes in flight; at full occupancy ILP 4 matches a copy. */
#include "ilp.h"

//@solution
template <int ILP>
static __global__ void ilp_kernel(const float4 *__restrict__ x, float4 *__restrict__ y, size_t n4, float a)
{
    size_t stride = (size_t)gridDim.x * blockDim.x * ILP;
    for (size_t base = (size_t)blockIdx.x * blockDim.x * ILP + threadIdx.x; base < n4; base += stride) {
        float4 v[ILP];
#pragma unroll
        for (int u = 0; u < ILP; u++) {
            size_t i = base + (size_t)u * blockDim.x;
            if (i < n4) v[u] = x[i];
        }
#pragma unroll
        for (int u = 0; u < ILP; u++) {
            size_t i = base + (size_t)u * blockDim.x;
            if (i < n4) y[i] = make_float4(a * v[u].x, a * v[u].y, a * v[u].z, a * v[u].w);
        }
    }
}

static __global__ void ilp_tail(const float *__restrict__ x, float *__restrict__ y, size_t n, float a)
{
    size_t i = threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
//@end

cudaError_t ilp_scale(const float *x, float *y, size_t n, float a, int ilp, int blocks_per_sm)
{
    if (ilp != 1 && ilp != 2 && ilp != 4 && ilp != 8) return cudaErrorInvalidValue;
    //@solution
    if (n == 0) return cudaSuccess;
    const int threads = 256;
    size_t n4 = n / 4, done = n4 * 4;
    if (n4) {
        size_t blocks;
        if (blocks_per_sm > 0) {
            int dev = 0, sms = 0;
            cudaGetDevice(&dev);
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
            blocks = (size_t)blocks_per_sm * sms;
        } else {
            size_t per_block = (size_t)threads * ilp;
            blocks = (n4 + per_block - 1) / per_block;
            if (blocks > 65535u * 32u) blocks = 65535u * 32u;
        }
        switch (ilp) {
        case 1: ilp_kernel<1><<<(unsigned)blocks, threads>>>((const float4 *)x, (float4 *)y, n4, a); break;
        case 2: ilp_kernel<2><<<(unsigned)blocks, threads>>>((const float4 *)x, (float4 *)y, n4, a); break;
        case 4: ilp_kernel<4><<<(unsigned)blocks, threads>>>((const float4 *)x, (float4 *)y, n4, a); break;
        default: ilp_kernel<8><<<(unsigned)blocks, threads>>>((const float4 *)x, (float4 *)y, n4, a); break;
        }
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    if (done < n) ilp_tail<<<1, 32>>>(x + done, y + done, n - done, a);
    return cudaGetLastError();
    //@starter
    //| /* TODO: a kernel (a template on ILP is one way) where each thread loads
    //|  * ilp float4 values, then stores ilp results; the grid as ilp.h says. */
    //| (void)x, (void)y, (void)n, (void)a, (void)blocks_per_sm;
    //| return cudaSuccess;
    //@end
}
