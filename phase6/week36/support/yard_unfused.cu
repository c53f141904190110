/* yard_unfused.cu — week 36, given: the scale, mask, softmax chain as a framework
 * runs it, one operation a kernel, through a temporary T. This is the
 * yardstick UNFUSED of w36.smx-speed and one of the variants the traffic
 * model of w36.model is checked on. Each kernel is itself reasonably fast
 * (8 loads in flight per thread, every warp reading 128 contiguous bytes):
 * the comparison is about traffic, not sloppy code.
 *
 *   u_scale:   T = scale * S                        reads S, writes T
 *   u_mask:    T[..][i][j] = -Inf for j > i + cols - rows, in place
 *                                                   reads T, writes T (causal only)
 *   u_softmax: a block a row, three passes over it: max, sum, write
 *                                                   reads T (the row again from
 *                                                   L1/L2), writes P */
#include <math.h>
#include <stddef.h>
#include <cuda_runtime.h>
#include "smx.h"

#define U_THREADS 256
#define U_WARPS   (U_THREADS / 32)
#define U_UNROLL  8
#define U_STEP    (U_THREADS * U_UNROLL)

static unsigned u_grid(size_t work)
{
    const size_t cap = (size_t)1 << 20;
    return (unsigned)(work < 1 ? 1 : work < cap ? work : cap);
}

static __global__ void __launch_bounds__(U_THREADS) u_scale(const float *__restrict__ S, float *__restrict__ T, size_t n, float scale)
{
    const size_t stride = (size_t)gridDim.x * U_STEP;
    for (size_t base = (size_t)blockIdx.x * U_STEP; base < n; base += stride) {
        float v[U_UNROLL];
#pragma unroll
        for (int u = 0; u < U_UNROLL; u++) {
            const size_t k = base + (size_t)u * U_THREADS + threadIdx.x;
            v[u] = k < n ? S[k] : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < U_UNROLL; u++) {
            const size_t k = base + (size_t)u * U_THREADS + threadIdx.x;
            if (k < n) T[k] = __fmul_rn(scale, v[u]);
        }
    }
}

static __global__ void __launch_bounds__(U_THREADS) u_mask(float *T, size_t nrows, int rows, int cols)
{
    for (size_t row = blockIdx.x; row < nrows; row += gridDim.x) {
        float *t = T + row * (size_t)cols;
        const long long lim = (long long)(row % (size_t)rows) + cols - rows; /* the last kept key */
        for (long long base = 0; base < cols; base += U_STEP) {
            float v[U_UNROLL];
#pragma unroll
            for (int u = 0; u < U_UNROLL; u++) {
                const long long j = base + u * U_THREADS + threadIdx.x;
                v[u] = j < cols ? t[j] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < U_UNROLL; u++) {
                const long long j = base + u * U_THREADS + threadIdx.x;
                if (j < cols) t[j] = j <= lim ? v[u] : -INFINITY;
            }
        }
    }
}

static __device__ float u_block_max(float v, float *red)
{
    for (int lane_mask = 16; lane_mask >= 1; lane_mask /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane_mask));
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < U_WARPS; w++) v = fmaxf(v, red[w]);
    __syncthreads();
    return v;
}
static __device__ float u_block_sum(float v, float *red)
{
    for (int lane_mask = 16; lane_mask >= 1; lane_mask /= 2) v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < U_WARPS; w++) v += red[w];
    __syncthreads();
    return v;
}

/* One block a row: the max, the sum of exp(t - max), then P; a row of -Inf
 * only gives zeros. The second and third passes find the row in L1 or L2. */
static __global__ void __launch_bounds__(U_THREADS) u_softmax(const float *__restrict__ T, float *__restrict__ P, size_t nrows, int cols)
{
    __shared__ float red[U_WARPS];
    for (size_t row = blockIdx.x; row < nrows; row += gridDim.x) {
        const float *t = T + row * (size_t)cols;
        float *p = P + row * (size_t)cols;
        float m = -INFINITY;
        for (long long base = 0; base < cols; base += U_STEP) {
#pragma unroll
            for (int u = 0; u < U_UNROLL; u++) {
                const long long j = base + u * U_THREADS + threadIdx.x;
                if (j < cols) m = fmaxf(m, t[j]);
            }
        }
        m = u_block_max(m, red);
        float s = 0;
        if (m != -INFINITY)
            for (long long base = 0; base < cols; base += U_STEP) {
                float v[U_UNROLL];
#pragma unroll
                for (int u = 0; u < U_UNROLL; u++) {
                    const long long j = base + u * U_THREADS + threadIdx.x;
                    v[u] = j < cols ? t[j] : -INFINITY;
                }
#pragma unroll
                for (int u = 0; u < U_UNROLL; u++) s += __expf(v[u] - m);
            }
        s = u_block_sum(s, red);
        const float inv = 1.0f / s;
        for (long long base = 0; base < cols; base += U_STEP) {
            float v[U_UNROLL];
#pragma unroll
            for (int u = 0; u < U_UNROLL; u++) {
                const long long j = base + u * U_THREADS + threadIdx.x;
                v[u] = j < cols ? t[j] : -INFINITY;
            }
#pragma unroll
            for (int u = 0; u < U_UNROLL; u++) {
                const long long j = base + u * U_THREADS + threadIdx.x;
                if (j < cols) p[j] = m == -INFINITY ? 0.0f : __expf(v[u] - m) * inv;
            }
        }
    }
}

cudaError_t yard_smx_unfused(const float *S, float *T, float *P, int batch, int rows, int cols, float scale, int causal)
{
    if (batch < 1 || rows < 1 || cols < 1) return cudaSuccess; /* nothing to do */
    const size_t nrows = (size_t)batch * (size_t)rows, n = nrows * (size_t)cols;
    u_scale<<<u_grid((n + U_STEP - 1) / U_STEP), U_THREADS>>>(S, T, n, scale);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    if (causal) {
        u_mask<<<u_grid(nrows), U_THREADS>>>(T, nrows, rows, cols);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    u_softmax<<<u_grid(nrows), U_THREADS>>>(T, P, nrows, cols);
    return cudaGetLastError();
}
