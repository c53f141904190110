/* blockreduce.cu — week 13, exercise 4: a block reduction from warp
 * shuffles.
 *
 * A block of w warps: each warp folds its 32 values into lane 0 with five
 * shuffles (no barrier: a warp needs none), lane 0 of each warp writes one
 * float to shared memory, one __syncthreads, and a warp folds the w
 * partials with five more shuffles. The classic shared-memory tree
 * (support/yard_shared_rowsum.cu) instead halves the active threads log2 of
 * the block size times, with a __syncthreads and a shared-memory round trip
 * at every level.
 *
 * br_rowsum: a block of 256 threads sums 4 rows at once. Each thread loads
 * one float4 of each of the 4 rows before it adds any of them (64 bytes in
 * flight a thread), and the 4 sums share the block reduction: 4 independent
 * shuffle chains, one barrier, then warp r finishes row r. A row sum reads
 * every byte once: it is bound by memory, and its yardstick is a copy. What
 * decides its speed is the bytes in flight per SM while a block waits for
 * DRAM, and how long a block spends not loading (README).
 *
 * br_sum: the sum of a large array in one pass. Each thread adds many
 * elements in registers first (grid-stride, 16-byte loads, four loads in
 * flight), so the tree runs once per block; each block adds its sum to *out
 * with one atomicAdd. */
#include <stdint.h>
#include "blockreduce.h"
#include "support/sum_grid.h"

//@solution
/* Sum over the 32 lanes; every lane gets it (xor butterfly). */
static __device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

/* The block sums of R values a thread (v[0..R)), for a block of THREADS
 * threads: the sum of v[r] over the block ends in lane 0 of warp r, which
 * gets it as the return value. Every thread of the block calls it (it holds
 * a __syncthreads); call it once per kernel (a second call would need a
 * __syncthreads before it reuses `partial`). */
template <unsigned THREADS, int R>
static __device__ __forceinline__ float block_sums(const float (&v)[R])
{
    constexpr unsigned WARPS = THREADS / 32;
    static_assert(R <= (int)WARPS, "warp r finishes sum r");
    __shared__ float partial[R][WARPS];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float w[R];
#pragma unroll
    for (int r = 0; r < R; r++) w[r] = warp_sum(v[r]); /* R independent chains, interleaved */
    if (lane == 0)
#pragma unroll
        for (int r = 0; r < R; r++) partial[r][warp] = w[r];
    __syncthreads();
    float s = 0.0f;
    if (warp < (unsigned)R) s = warp_sum(lane < WARPS ? partial[warp][lane] : 0.0f);
    return s;
}

/* Rows r0 .. r0 + BR_ROWS - 1 (those below rows): thread t adds the
 * elements t, t + BR_ROW_THREADS, ... of each, as float4 (VEC: x 16-byte
 * aligned and cols % 4 == 0) or one float at a time. The loads of the
 * BR_ROWS rows are issued together, then added. */
template <bool VEC>
static __global__ void __launch_bounds__(BR_ROW_THREADS) rowsum_kernel(const float *__restrict__ x, size_t rows,
                                                                       size_t cols, float *__restrict__ out)
{
    const size_t r0 = (size_t)blockIdx.x * BR_ROWS;
    float acc[BR_ROWS];
#pragma unroll
    for (int r = 0; r < BR_ROWS; r++) acc[r] = 0.0f;
    /* Past the last row (the last block), read the last row again: the loads
     * stay unconditional, and those sums are never written. */
    const float *row[BR_ROWS];
#pragma unroll
    for (int r = 0; r < BR_ROWS; r++) row[r] = x + (r0 + r < rows ? r0 + r : rows - 1) * cols;
    if (VEC) {
        const size_t c4 = cols / 4;
        for (size_t c = threadIdx.x; c < c4; c += BR_ROW_THREADS) {
            float4 v[BR_ROWS];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) v[r] = reinterpret_cast<const float4 *>(row[r])[c];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) acc[r] += (v[r].x + v[r].y) + (v[r].z + v[r].w);
        }
    } else {
        for (size_t c = threadIdx.x; c < cols; c += BR_ROW_THREADS) {
            float v[BR_ROWS];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) v[r] = row[r][c];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) acc[r] += v[r];
        }
    }
    const float s = block_sums<BR_ROW_THREADS, BR_ROWS>(acc);
    const unsigned warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0 && warp < BR_ROWS && r0 + warp < rows) out[r0 + warp] = s;
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
    const float mine[1] = { (a0 + a1) + (a2 + a3) };
    const float v = block_sums<BR_THREADS, 1>(mine);
    if (threadIdx.x == 0) atomicAdd(out, v);
}
//@starter
//| /* TODO: block_sums<THREADS, R>(v), the sums of v[0..R) over the block
//|  * (blockDim.x == THREADS): a warp sum of each v[r] by shuffles
//|  * (__shfl_xor_sync or __shfl_down_sync, full mask), lane 0 of each warp
//|  * writes them to a __shared__ float[R][THREADS / 32], __syncthreads(),
//|  * warp r sums the THREADS / 32 partials of v[r] by shuffles. Then:
//|  * rowsum_kernel: block b sums rows 4b .. 4b + 3 (BR_ROWS of them, fewer in
//|  *   the last block, whose threads must still reach the barrier; threads
//|  *   stride by BR_ROW_THREADS along the rows, cols may be anything, 0 too):
//|  *   load the four rows' elements first, then add (float4 when VEC: x
//|  *   16-byte aligned, cols % 4 == 0), then the block sums, and lane 0 of
//|  *   warp r writes out[4b + r].
//|  * sum_kernel: every thread sums a grid-stride share of x in registers
//|  *   (float4 loads once x is 16-byte aligned, several loads in flight; the
//|  *   elements before the first 16-byte boundary and the last n % 4 by
//|  *   scalar loads), then the block sum, then thread 0 does atomicAdd(out, sum). */
//| template <bool VEC>
//| static __global__ void rowsum_kernel(const float *x, size_t rows, size_t cols, float *out)
//| {
//|     (void)x, (void)rows, (void)cols, (void)out;
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
    const unsigned blocks = (unsigned)((rows + BR_ROWS - 1) / BR_ROWS);
    if (((uintptr_t)x & 15) == 0 && cols % 4 == 0) rowsum_kernel<true><<<blocks, BR_ROW_THREADS>>>(x, rows, cols, out);
    else rowsum_kernel<false><<<blocks, BR_ROW_THREADS>>>(x, rows, cols, out);
    return cudaGetLastError();
}

cudaError_t br_sum(const float *x, size_t n, float *out)
{
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    unsigned blocks = 0;
    if ((e = sum_grid(n, BR_THREADS, &blocks)) != cudaSuccess) return e;
    sum_kernel<<<blocks, BR_THREADS>>>(x, n, out);
    return cudaGetLastError();
}
