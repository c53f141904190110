/* ln_dx.cu — week 32, exercise 2: dx of LayerNorm, at the speed of memory.
 *
 * Every row needs two sums over the row before any dx of it can be written:
 *     s1 = sum_j g_j,  s2 = sum_j g_j xhat_j   (g = dy * gamma, xhat = (x - mean) * rstd)
 *     dx_j = rstd * (g_j - s1/N - xhat_j * s2/N)
 * so the kernel is a row reduction followed by an element-wise pass, as in
 * week 15's softmax. Its traffic: read x and dy once, write dx once (12 bytes
 * an element), plus gamma (cols floats, from cache after the first rows) and
 * mean and rstd (one float each a row). The yardstick is a copy.
 *
 * One block a row. When cols is a multiple of 4 and x, dy, gamma and dx are
 * 16-byte aligned, and cols <= 8192, each thread keeps its V float4 of x and
 * of dy in registers between the sums and the output pass (V <= 8, a template
 * parameter): the row is read from DRAM once. The block is 128 threads up to
 * cols = 4096 (fewer below 512 columns: one float4 a thread, whole warps)
 * and 256 up to 8192. Every other shape goes to a loop kernel
 * that reads the row twice (the second time from L1 or L2): correct for any
 * cols and alignment, and slower. */
#include <stdint.h>
#include "ln_dx.h"

#define DX_THREADS_MAX 256

//@solution
static __device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/* s1 and s2 summed over the block, in every thread. Called once per block by
 * every thread (blockDim.x a multiple of 32, at most DX_THREADS_MAX): one
 * pair per warp goes through shared memory, then each thread adds the pairs
 * in the same order, so all agree to the bit. */
static __device__ __forceinline__ void block_sum2(float &s1, float &s2)
{
    __shared__ float red[2][DX_THREADS_MAX / 32];
    s1 = warp_sum(s1);
    s2 = warp_sum(s2);
    const int warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if ((threadIdx.x & 31) == 0) red[0][warp] = s1, red[1][warp] = s2;
    __syncthreads();
    s1 = 0.f, s2 = 0.f;
    for (int w = 0; w < nw; w++) s1 += red[0][w], s2 += red[1][w];
}

/* The row in registers: thread t holds float4s t, t + blockDim.x, ...,
 * t + (V-1) blockDim.x of x (as xhat) and of dy (as g); slots past the row
 * hold g = 0, which adds nothing to either sum, and are never stored. */
template <int V>
static __global__ void __launch_bounds__(DX_THREADS_MAX)
dx_regs(const float4 *__restrict__ x, const float4 *__restrict__ dy, const float4 *__restrict__ gamma,
        const float *__restrict__ mean, const float *__restrict__ rstd, float4 *__restrict__ dx, int cols4,
        float inv_n)
{
    const size_t base = (size_t)blockIdx.x * cols4;
    const float mu = mean[blockIdx.x], rs = rstd[blockIdx.x];
    float4 a[V], d[V];
#pragma unroll
    for (int k = 0; k < V; k++) { /* all the loads first: 2V requests in flight per thread */
        const int c = threadIdx.x + k * blockDim.x;
        if (c < cols4) {
            a[k] = x[base + c];
            d[k] = dy[base + c];
        } else {
            a[k] = make_float4(0.f, 0.f, 0.f, 0.f);
            d[k] = a[k];
        }
    }
    float s1 = 0.f, s2 = 0.f;
#pragma unroll
    for (int k = 0; k < V; k++) {
        const int c = threadIdx.x + k * blockDim.x;
        const float4 w = c < cols4 ? gamma[c] : make_float4(0.f, 0.f, 0.f, 0.f);
        a[k].x = (a[k].x - mu) * rs, a[k].y = (a[k].y - mu) * rs;
        a[k].z = (a[k].z - mu) * rs, a[k].w = (a[k].w - mu) * rs;
        d[k].x *= w.x, d[k].y *= w.y, d[k].z *= w.z, d[k].w *= w.w;
        s1 += (d[k].x + d[k].y) + (d[k].z + d[k].w);
        s2 += fmaf(d[k].x, a[k].x, d[k].y * a[k].y) + fmaf(d[k].z, a[k].z, d[k].w * a[k].w);
    }
    block_sum2(s1, s2);
    const float c1 = s1 * inv_n, c2 = s2 * inv_n;
#pragma unroll
    for (int k = 0; k < V; k++) {
        const int c = threadIdx.x + k * blockDim.x;
        if (c < cols4)
            dx[base + c] = make_float4(rs * (d[k].x - fmaf(a[k].x, c2, c1)), rs * (d[k].y - fmaf(a[k].y, c2, c1)),
                                       rs * (d[k].z - fmaf(a[k].z, c2, c1)), rs * (d[k].w - fmaf(a[k].w, c2, c1)));
    }
}

/* Any cols, any alignment: the block sweeps its row twice, the second time
 * from cache. */
static __global__ void __launch_bounds__(DX_THREADS_MAX)
dx_loop(const float *__restrict__ x, const float *__restrict__ dy, const float *__restrict__ gamma,
        const float *__restrict__ mean, const float *__restrict__ rstd, float *__restrict__ dx, int cols, float inv_n)
{
    const size_t base = (size_t)blockIdx.x * cols;
    const float mu = mean[blockIdx.x], rs = rstd[blockIdx.x];
    float s1 = 0.f, s2 = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float xh = (x[base + c] - mu) * rs, g = dy[base + c] * gamma[c];
        s1 += g;
        s2 = fmaf(g, xh, s2);
    }
    block_sum2(s1, s2);
    const float c1 = s1 * inv_n, c2 = s2 * inv_n;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float xh = (x[base + c] - mu) * rs, g = dy[base + c] * gamma[c];
        dx[base + c] = rs * (g - fmaf(xh, c2, c1));
    }
}
//@starter
//| /* TODO: one block a row (blockIdx.x = the row; index it as (size_t)row * cols).
//|  * First pass: each thread adds g = dy * gamma and g * xhat over its columns
//|  * (c = threadIdx.x, c + blockDim.x, ...), with xhat = (x - mean[row]) * rstd[row].
//|  * Sum both over the block: a __shfl_xor_sync butterfly in each warp, one pair a
//|  * warp through __shared__ memory, __syncthreads(), every thread adds the pairs.
//|  * Second pass: dx = rstd * (g - s1 / cols - xhat * s2 / cols).
//|  * For speed, hold the row's float4s in registers between the passes (see the
//|  * README's optimisation story). */
//@end

cudaError_t ln_dx_backward(const float *x, const float *dy, const float *gamma, const float *mean,
                           const float *rstd, float *dx, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const float inv_n = 1.0f / (float)cols;
    const int vec = cols % 4 == 0 && (((uintptr_t)x | (uintptr_t)dy | (uintptr_t)gamma | (uintptr_t)dx) & 15) == 0;
    const int cols4 = cols / 4;
    if (vec && cols4 <= 8 * DX_THREADS_MAX) {
        /* a warp's multiple of threads; 128 of them up to 1024 float4s a row, 256 past it */
        const int threads = cols4 <= 128 ? (cols4 + 31) / 32 * 32 : cols4 <= 1024 ? 128 : DX_THREADS_MAX;
        const int per = (cols4 + threads - 1) / threads; /* float4s a thread: 1 to 8 */
        const float4 *x4 = (const float4 *)x, *dy4 = (const float4 *)dy, *g4 = (const float4 *)gamma;
        float4 *dx4 = (float4 *)dx;
        if (per <= 1) dx_regs<1><<<rows, threads>>>(x4, dy4, g4, mean, rstd, dx4, cols4, inv_n);
        else if (per <= 2) dx_regs<2><<<rows, threads>>>(x4, dy4, g4, mean, rstd, dx4, cols4, inv_n);
        else if (per <= 4) dx_regs<4><<<rows, threads>>>(x4, dy4, g4, mean, rstd, dx4, cols4, inv_n);
        else dx_regs<8><<<rows, threads>>>(x4, dy4, g4, mean, rstd, dx4, cols4, inv_n);
    } else {
        dx_loop<<<rows, DX_THREADS_MAX>>>(x, dy, gamma, mean, rstd, dx, cols, inv_n);
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0; launch `rows` blocks (a multiple of 32
    //|  * threads each) and return cudaGetLastError(). */
    //| (void)x, (void)dy, (void)gamma, (void)mean, (void)rstd, (void)dx, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}
