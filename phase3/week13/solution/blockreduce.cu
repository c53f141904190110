/* blockreduce.cu — week 13, exercise 4: a block reduction from warp
 * shuffles.
 *
 * A block of BR_THREADS = 1024 threads is 32 warps. Each warp folds its 32
 * values into lane 0 with five shuffles (no barrier: a warp needs none),
 * lane 0 of each warp writes one float to shared memory, one __syncthreads,
 * and warp 0 folds the 32 partials with five more shuffles. The classic
 * shared-memory tree (support/yard_shared_rowsum.cu, the yardstick) instead
 * halves the active threads ten times, with a __syncthreads and a
 * shared-memory round trip at every level.
 *
 * br_rowsum: one block per row, each thread adds the row's elements
 * tid, tid + 1024, ..., then the block reduction; thread 0 writes out[row].
 * Where rows are short the tree is a large part of a block's life, and the
 * shorter tree shows.
 *
 * br_sum: the sum of a large array in one pass. Each thread adds many
 * elements in registers first (grid-stride, 16-byte loads, four loads in
 * flight), so the tree runs once per block; each block adds its sum to *out
 * with one atomicAdd. This one is bound by memory: its yardstick is a copy. */
#include <stdint.h>
#include "blockreduce.h"

#define WARPS (BR_THREADS / 32)

//@solution
/* Sum over the 32 lanes; every lane gets it (xor butterfly). */
static __device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/* Sum of v over the block, valid in thread 0. Every thread of the block
 * calls it (it holds a __syncthreads); call it once per kernel (a second
 * call would need a __syncthreads before it reuses `partial`). */
static __device__ __forceinline__ float block_sum(float v)
{
    __shared__ float partial[WARPS];
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = 0.0f;
    if (warp == 0) v = warp_sum(lane < WARPS ? partial[lane] : 0.0f);
    return v;
}

static __global__ void __launch_bounds__(BR_THREADS) rowsum_kernel(const float *__restrict__ x, size_t cols,
                                                                   float *__restrict__ out)
{
    const float *row = x + (size_t)blockIdx.x * cols;
    float acc = 0.0f;
    for (size_t c = threadIdx.x; c < cols; c += BR_THREADS) acc += row[c];
    acc = block_sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

static __global__ void __launch_bounds__(BR_THREADS) sum_kernel(const float *__restrict__ x, size_t n,
                                                                float *__restrict__ out)
{
    size_t t = (size_t)blockIdx.x * BR_THREADS + threadIdx.x, nt = (size_t)gridDim.x * BR_THREADS;
    /* the first `head` elements, up to the first 16-byte boundary, go scalar */
    size_t head = ((16 - ((uintptr_t)x & 15)) & 15) / 4;
    if (head > n) head = n;
    const float4 *x4 = (const float4 *)(x + head);
    size_t n4 = (n - head) / 4, i = t;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (; i + 3 * nt < n4; i += 4 * nt) { /* four independent 16-byte loads in flight */
        float4 p = x4[i], q = x4[i + nt], r = x4[i + 2 * nt], u = x4[i + 3 * nt];
        a0 += (p.x + p.y) + (p.z + p.w);
        a1 += (q.x + q.y) + (q.z + q.w);
        a2 += (r.x + r.y) + (r.z + r.w);
        a3 += (u.x + u.y) + (u.z + u.w);
    }
    for (; i < n4; i += nt) {
        float4 p = x4[i];
        a0 += (p.x + p.y) + (p.z + p.w);
    }
    if (t < head) a1 += x[t];
    for (size_t k = head + n4 * 4 + t; k < n; k += nt) a2 += x[k]; /* the last 0-3 elements */
    float v = block_sum((a0 + a1) + (a2 + a3));
    if (threadIdx.x == 0) atomicAdd(out, v);
}
//@starter
//| /* TODO: block_sum(v), the sum of v over the block (blockDim.x == BR_THREADS):
//|  * a warp sum by shuffles (__shfl_xor_sync or __shfl_down_sync, full mask),
//|  * lane 0 of each warp writes to a __shared__ float[WARPS], __syncthreads(),
//|  * warp 0 sums those WARPS values by shuffles. Then the two kernels:
//|  * rowsum_kernel: block b sums row b (threads stride by BR_THREADS along it,
//|  *   cols may be anything, 0 too), thread 0 writes out[b].
//|  * sum_kernel: every thread sums a grid-stride share of x in registers
//|  *   (float4 loads once x is 16-byte aligned, several loads in flight; the
//|  *   elements before the first 16-byte boundary and the last n % 4 by
//|  *   scalar loads), then block_sum, then thread 0 does atomicAdd(out, sum). */
//| static __global__ void rowsum_kernel(const float *x, size_t cols, float *out)
//| {
//|     (void)x, (void)cols, (void)out;
//| }
//|
//| static __global__ void sum_kernel(const float *x, size_t n, float *out)
//| {
//|     (void)x, (void)n, (void)out;
//| }
//@end

/* ---- given: the launchers ---- */
cudaError_t br_rowsum(const float *x, size_t rows, size_t cols, float *out)
{
    if (rows >= ((size_t)1 << 31)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    rowsum_kernel<<<(unsigned)rows, BR_THREADS>>>(x, cols, out);
    return cudaGetLastError();
}

/* Blocks for br_sum: enough to fill every SM (two blocks of 1024 each),
 * fewer when n is small (at least 16 elements a thread). */
static unsigned sum_blocks(size_t n)
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            sms <= 0)
            sms = 132;
    }
    size_t want = (n + 16 * BR_THREADS - 1) / (16 * BR_THREADS), cap = 2 * (size_t)sms;
    return (unsigned)(want < cap ? want : cap);
}

cudaError_t br_sum(const float *x, size_t n, float *out)
{
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    sum_kernel<<<sum_blocks(n), BR_THREADS>>>(x, n, out);
    return cudaGetLastError();
}
