/* smx.cu — week 36, exercise 2: scale, mask and softmax in one pass.
 *
 * The given chain (support/yard_unfused.cu) runs three kernels through a
 * temporary T: 8 bytes a score to scale, 8 to mask, 8 to normalise. Fused,
 * a block reads its row of S once, makes z = scale * s (or -Inf where the
 * mask says so) in registers, reduces the max and the sum there, and writes
 * P: 8 bytes a score, a third of the chain's traffic.
 *
 * Version 1 (rows up to SMX_ONCHIP_COLS keys): a block of 256 threads a
 * row; thread t holds keys t, t + 256, ... in K registers (K a template
 * parameter: 2 to 32), so the row crosses DRAM once. Loads of consecutive
 * threads are consecutive: every warp reads 128 contiguous bytes.
 * Version 2 (longer rows): the row does not fit on chip; one pass keeps a
 * running (max, sum) per thread (the online softmax of week 30), a block
 * merge gives the row's, and a second pass writes P: 12 bytes a score. */
#include <math.h>
#include <stddef.h>
#include "smx.h"

//@solution
#define SMX_THREADS 256
#define SMX_WARPS   (SMX_THREADS / 32)
#define SMX_UNROLL  8 /* loads in flight per thread in the long-row passes */

/* Keys 0 .. kept-1 of row r survive the mask (0 <= kept <= cols). */
static __device__ __forceinline__ long long smx_kept(size_t r, int rows, int cols, int causal)
{
    if (!causal) return cols;
    const long long lim = (long long)(r % (size_t)rows) + cols - rows; /* last kept key */
    return lim < 0 ? 0 : lim + 1 < cols ? lim + 1 : cols;
}

/* Block-wide max and sum of 256 threads; every thread gets the same value
 * (xor butterflies, then the warps' values read in the same order). */
static __device__ float smx_block_max(float v, float *red)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < SMX_WARPS; w++) v = fmaxf(v, red[w]);
    __syncthreads(); /* everyone has read red before it is written again */
    return v;
}
static __device__ float smx_block_sum(float v, float *red)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < SMX_WARPS; w++) v += red[w];
    __syncthreads();
    return v;
}

/* (m, s) += (m2, s2): running max and the sum of exp(z - m). When both maxima
 * are -Inf nothing was kept yet, and the sums (0, or NaN from a NaN score)
 * just add: -Inf - -Inf would make a NaN of nothing. */
static __device__ __forceinline__ void smx_merge(float &m, float &s, float m2, float s2)
{
    const float mn = fmaxf(m, m2);
    if (mn == -INFINITY) s = s + s2;
    else s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
    m = mn;
}

/* (m, s) += U scores z at once: one rescale for the batch. */
static __device__ __forceinline__ void smx_add(float &m, float &s, const float (&z)[SMX_UNROLL])
{
    float mb = z[0];
#pragma unroll
    for (int u = 1; u < SMX_UNROLL; u++) mb = fmaxf(mb, z[u]);
    const float mn = fmaxf(m, mb);
    if (mn == -INFINITY) { /* only -Inf and NaN so far: keep a NaN */
        bool nan = false;
#pragma unroll
        for (int u = 0; u < SMX_UNROLL; u++) nan |= z[u] != z[u];
        if (nan) s = NAN;
        return;
    }
    float t = 0;
#pragma unroll
    for (int u = 0; u < SMX_UNROLL; u++) t += __expf(z[u] - mn); /* -Inf gives 0, NaN stays */
    s = s * __expf(m - mn) + t;
    m = mn;
}

static __device__ void smx_block_merge(float &m, float &s, float *red_m, float *red_s)
{
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
        smx_merge(m, s, m2, s2);
    }
    if ((threadIdx.x & 31) == 0) red_m[threadIdx.x >> 5] = m, red_s[threadIdx.x >> 5] = s;
    __syncthreads();
    m = red_m[0], s = red_s[0];
    for (int w = 1; w < SMX_WARPS; w++) smx_merge(m, s, red_m[w], red_s[w]);
    __syncthreads();
}

/* Version 1: the row in registers, K keys a thread (cols <= 256 K). */
template <int K>
static __global__ void __launch_bounds__(SMX_THREADS)
smx_onchip(const float *__restrict__ S, float *__restrict__ P, size_t nrows, int rows, int cols, float scale, int causal)
{
    __shared__ float red[SMX_WARPS];
    for (size_t r = blockIdx.x; r < nrows; r += gridDim.x) { /* the same trip count in the whole block */
        const float *x = S + r * (size_t)cols;
        float *y = P + r * (size_t)cols;
        const int kept = (int)smx_kept(r, rows, cols, causal);
        float z[K], m = -INFINITY;
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int j = (int)threadIdx.x + k * SMX_THREADS;
            z[k] = j < kept ? __fmul_rn(scale, x[j]) : -INFINITY; /* __fmul_rn: never fused into the subtraction */
            m = fmaxf(m, z[k]);
        }
        m = smx_block_max(m, red);
        float s = 0;
        if (m != -INFINITY) {
#pragma unroll
            for (int k = 0; k < K; k++) s += __expf(z[k] - m);
        }
        s = smx_block_sum(s, red);
        const float inv = 1.0f / s;
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int j = (int)threadIdx.x + k * SMX_THREADS;
            if (j < cols) y[j] = m == -INFINITY ? 0.0f : __expf(z[k] - m) * inv;
        }
    }
}

/* Version 2: rows longer than the chip holds; two passes over DRAM. */
static __global__ void __launch_bounds__(SMX_THREADS)
smx_long(const float *__restrict__ S, float *__restrict__ P, size_t nrows, int rows, int cols, float scale, int causal)
{
    __shared__ float red_m[SMX_WARPS], red_s[SMX_WARPS];
    const long long step = (long long)SMX_THREADS * SMX_UNROLL;
    for (size_t r = blockIdx.x; r < nrows; r += gridDim.x) {
        const float *x = S + r * (size_t)cols;
        float *y = P + r * (size_t)cols;
        const long long kept = smx_kept(r, rows, cols, causal);
        float m = -INFINITY, s = 0;
        for (long long base = 0; base < kept; base += step) {
            float z[SMX_UNROLL];
#pragma unroll
            for (int u = 0; u < SMX_UNROLL; u++) {
                const long long j = base + u * SMX_THREADS + threadIdx.x;
                z[u] = j < kept ? __fmul_rn(scale, x[j]) : -INFINITY;
            }
            smx_add(m, s, z);
        }
        smx_block_merge(m, s, red_m, red_s);
        const float inv = 1.0f / s;
        for (long long base = 0; base < cols; base += step) {
            float v[SMX_UNROLL];
#pragma unroll
            for (int u = 0; u < SMX_UNROLL; u++) {
                const long long j = base + u * SMX_THREADS + threadIdx.x;
                v[u] = j < kept ? x[j] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < SMX_UNROLL; u++) {
                const long long j = base + u * SMX_THREADS + threadIdx.x;
                const float z = j < kept ? __fmul_rn(scale, v[u]) : -INFINITY;
                if (j < cols) y[j] = m == -INFINITY ? 0.0f : __expf(z - m) * inv;
            }
        }
    }
}
//@starter
//| /* TODO: the kernel. A block of 256 threads a row (blockIdx.x walks the
//|  * batch * rows rows, in a loop when they outnumber the grid). For row r:
//|  * query i = r % rows keeps keys j <= i + cols - rows when causal (all of
//|  * them otherwise); z = scale * S (use __fmul_rn, smx.h says why), -Inf where
//|  * masked; the row's max, then the sum of exp(z - max), both reduced over the
//|  * block (warp shuffles, one value per warp through shared memory); then
//|  * P = exp(z - max) / sum, or 0 for the whole row when the max is -Inf.
//|  * Hold the row in registers when it fits (SMX_ONCHIP_COLS keys), so it is
//|  * read from DRAM once; longer rows: hints and README. */
//| static __global__ void smx_kernel(const float *S, float *P, size_t nrows, int rows, int cols, float scale, int causal)
//| {
//| }
//@end

cudaError_t smx_fused(const float *S, float *P, int batch, int rows, int cols, float scale, int causal)
{
    //@solution
    if (batch <= 0 || rows <= 0 || cols <= 0) return cudaSuccess;
    const size_t nrows = (size_t)batch * (size_t)rows;
    const unsigned grid = (unsigned)(nrows < ((size_t)1 << 20) ? nrows : ((size_t)1 << 20));
    if (cols <= 512) smx_onchip<2><<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    else if (cols <= 1024) smx_onchip<4><<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    else if (cols <= 2048) smx_onchip<8><<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    else if (cols <= 4096) smx_onchip<16><<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    else if (cols <= SMX_ONCHIP_COLS) smx_onchip<32><<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    else smx_long<<<grid, SMX_THREADS>>>(S, P, nrows, rows, cols, scale, causal);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing to do when batch, rows or cols <= 0; otherwise launch
    //|  * smx_kernel on batch * rows rows and return cudaGetLastError(). */
    //| smx_kernel<<<1, 256>>>(S, P, 0, rows, cols, scale, causal);
    //| (void)batch;
    //| return cudaSuccess;
    //@end
}
