/* split.cu — week 36, exercise 3: the softmax split along the keys.
 *
 * For a few long rows (decoding: one query a head, a long key cache) one
 * block a row leaves most SMs idle. Here a block owns a chunk of
 * SPLIT_CHUNK keys of one row, in two kernels:
 *
 *   split_stats: the chunk's (max, sum of exp(z - max)), online, 8 loads in
 *                flight per thread, merged over the block; one pair to tmp.
 *   split_norm:  every block of a row merges the row's pairs (a few hundred
 *                at most, from L2) in the same order, so all agree on the
 *                row's (M, S); then it writes its chunk of exp(z - M) / S.
 *
 * 12 bytes a score (S twice, P once) against the fused kernel's 8, but
 * batch * rows * chunks blocks: the whole machine works. */
#include <math.h>
#include <stddef.h>
#include "split.h"

//@solution
#define SP_THREADS 256
#define SP_WARPS   (SP_THREADS / 32)
#define SP_UNROLL  8
#define SP_STEP    (SP_THREADS * SP_UNROLL) /* keys a block covers per step; SPLIT_CHUNK is 8 steps */

static int sp_chunks(int cols) { return (int)(((long long)cols + SPLIT_CHUNK - 1) / SPLIT_CHUNK); }

/* Keys 0 .. kept-1 of row r survive the mask. */
static __device__ __forceinline__ long long sp_kept(size_t r, int rows, int cols, int causal)
{
    if (!causal) return cols;
    const long long lim = (long long)(r % (size_t)rows) + cols - rows;
    return lim < 0 ? 0 : lim + 1 < cols ? lim + 1 : cols;
}

/* (m, s) += (m2, s2); two -Inf maxima: nothing kept, the sums (0 or NaN) add. */
static __device__ __forceinline__ void sp_merge(float &m, float &s, float m2, float s2)
{
    const float mn = fmaxf(m, m2);
    if (mn == -INFINITY) s = s + s2;
    else s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
    m = mn;
}

/* (m, s) += SP_UNROLL scores at once. */
static __device__ __forceinline__ void sp_add(float &m, float &s, const float (&z)[SP_UNROLL])
{
    float mb = z[0];
#pragma unroll
    for (int u = 1; u < SP_UNROLL; u++) mb = fmaxf(mb, z[u]);
    const float mn = fmaxf(m, mb);
    if (mn == -INFINITY) { /* only -Inf and NaN so far: keep a NaN */
        bool nan = false;
#pragma unroll
        for (int u = 0; u < SP_UNROLL; u++) nan |= z[u] != z[u];
        if (nan) s = NAN;
        return;
    }
    float t = 0;
#pragma unroll
    for (int u = 0; u < SP_UNROLL; u++) t += __expf(z[u] - mn);
    s = s * __expf(m - mn) + t;
    m = mn;
}

/* Merge (m, s) over the block; every thread ends with the same pair. */
static __device__ void sp_block_merge(float &m, float &s, float *red_m, float *red_s)
{
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
        sp_merge(m, s, m2, s2);
    }
    if ((threadIdx.x & 31) == 0) red_m[threadIdx.x >> 5] = m, red_s[threadIdx.x >> 5] = s;
    __syncthreads();
    m = red_m[0], s = red_s[0];
    for (int w = 1; w < SP_WARPS; w++) sp_merge(m, s, red_m[w], red_s[w]);
    __syncthreads(); /* red is read by all before the next block's writes */
}

/* Block b = (row b / chunks, chunk b % chunks): its pair into part[2b], part[2b+1]. */
static __global__ void __launch_bounds__(SP_THREADS)
split_stats(const float *__restrict__ S, float *__restrict__ part, size_t nblk, int chunks, int rows, int cols,
            float scale, int causal)
{
    __shared__ float red_m[SP_WARPS], red_s[SP_WARPS];
    for (size_t b = blockIdx.x; b < nblk; b += gridDim.x) {
        const size_t r = b / (size_t)chunks;
        const long long lo = (long long)(b % (size_t)chunks) * SPLIT_CHUNK;
        const long long kept = sp_kept(r, rows, cols, causal);
        const long long hi = kept < lo + SPLIT_CHUNK ? kept : lo + SPLIT_CHUNK; /* may be <= lo: a masked chunk */
        const float *x = S + r * (size_t)cols;
        float m = -INFINITY, s = 0;
        for (long long base = lo; base < hi; base += SP_STEP) {
            float z[SP_UNROLL];
#pragma unroll
            for (int u = 0; u < SP_UNROLL; u++) {
                const long long j = base + u * SP_THREADS + threadIdx.x;
                z[u] = j < hi ? __fmul_rn(scale, x[j]) : -INFINITY;
            }
            sp_add(m, s, z);
        }
        sp_block_merge(m, s, red_m, red_s);
        if (threadIdx.x == 0) part[2 * b] = m, part[2 * b + 1] = s;
    }
}

static __global__ void __launch_bounds__(SP_THREADS)
split_norm(const float *__restrict__ S, float *__restrict__ P, const float *__restrict__ part, size_t nblk,
           int chunks, int rows, int cols, float scale, int causal)
{
    __shared__ float red_m[SP_WARPS], red_s[SP_WARPS];
    for (size_t b = blockIdx.x; b < nblk; b += gridDim.x) {
        const size_t r = b / (size_t)chunks;
        const long long lo = (long long)(b % (size_t)chunks) * SPLIT_CHUNK;
        const long long hi = (long long)cols < lo + SPLIT_CHUNK ? (long long)cols : lo + SPLIT_CHUNK;
        const long long kept = sp_kept(r, rows, cols, causal);
        const float *pr = part + 2 * (r * (size_t)chunks);
        float m = -INFINITY, s = 0; /* the identity of sp_merge */
        for (int k = threadIdx.x; k < chunks; k += SP_THREADS) sp_merge(m, s, pr[2 * k], pr[2 * k + 1]);
        sp_block_merge(m, s, red_m, red_s);
        const float inv = 1.0f / s;
        const float *x = S + r * (size_t)cols;
        float *y = P + r * (size_t)cols;
        for (long long base = lo; base < hi; base += SP_STEP) {
            float v[SP_UNROLL];
#pragma unroll
            for (int u = 0; u < SP_UNROLL; u++) {
                const long long j = base + u * SP_THREADS + threadIdx.x;
                v[u] = j < hi && j < kept ? x[j] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < SP_UNROLL; u++) {
                const long long j = base + u * SP_THREADS + threadIdx.x;
                const float z = j < kept ? __fmul_rn(scale, v[u]) : -INFINITY;
                if (j < hi) y[j] = m == -INFINITY ? 0.0f : __expf(z - m) * inv;
            }
        }
    }
}
//@starter
//| /* TODO: two kernels of 256-thread blocks, block b owning chunk b % chunks
//|  * (SPLIT_CHUNK keys) of row b / chunks, with chunks = ceil(cols /
//|  * SPLIT_CHUNK):
//|  *   stats:     the chunk's max m and sum s of exp(z - m) over its kept keys
//|  *              (smx.h: z, the mask), reduced over the block, written to tmp;
//|  *   normalise: merge the row's pairs (M = max m, S = sum s exp(m - M)),
//|  *              then write the chunk's exp(z - M) / S (0 for the whole row
//|  *              when M is -Inf).
//|  * A chunk with nothing kept has m = -Inf and s = 0: merging it must give
//|  * no NaN (-Inf - -Inf is NaN). */
//@end

size_t split_smx_tmp_bytes(int batch, int rows, int cols)
{
    //@solution
    if (batch <= 0 || rows <= 0 || cols <= 0) return 0;
    return (size_t)batch * (size_t)rows * (size_t)sp_chunks(cols) * 2 * sizeof(float);
    //@starter
    //| /* TODO: one (max, sum) pair of floats per chunk of every row; 0 when
    //|  * there is nothing to do. */
    //| (void)batch, (void)rows, (void)cols;
    //| return 0;
    //@end
}

cudaError_t split_smx(const float *S, float *P, int batch, int rows, int cols, float scale, int causal, void *tmp)
{
    //@solution
    if (batch <= 0 || rows <= 0 || cols <= 0) return cudaSuccess;
    const int chunks = sp_chunks(cols);
    const size_t nblk = (size_t)batch * (size_t)rows * (size_t)chunks;
    const unsigned grid = (unsigned)(nblk < ((size_t)1 << 20) ? nblk : ((size_t)1 << 20));
    float *part = (float *)tmp;
    split_stats<<<grid, SP_THREADS>>>(S, part, nblk, chunks, rows, cols, scale, causal);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    split_norm<<<grid, SP_THREADS>>>(S, P, part, nblk, chunks, rows, cols, scale, causal);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing to do for an empty shape; otherwise launch stats, then
    //|  * normalise (the same stream orders them), and return the first error. */
    //| (void)S, (void)P, (void)batch, (void)rows, (void)cols, (void)scale, (void)causal, (void)tmp;
    //| return cudaSuccess;
    //@end
}
