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

/* TODO: block_sums<THREADS, R>(v), the sums of v[0..R) over the block
 * (blockDim.x == THREADS): a warp sum of each v[r] by shuffles
 * (__shfl_xor_sync or __shfl_down_sync, full mask), lane 0 of each warp
 * writes them to a __shared__ float[R][THREADS / 32], __syncthreads(),
 * warp r sums the THREADS / 32 partials of v[r] by shuffles. Then:
 * rowsum_kernel: block b sums rows 4b .. 4b + 3 (BR_ROWS of them, fewer in
 *   the last block, whose threads must still reach the barrier; threads
 *   stride by BR_ROW_THREADS along the rows, cols may be anything, 0 too):
 *   load the four rows' elements first, then add (float4 when VEC: x
 *   16-byte aligned, cols % 4 == 0), then the block sums, and lane 0 of
 *   warp r writes out[4b + r].
 * sum_kernel: every thread sums a grid-stride share of x in registers
 *   (float4 loads once x is 16-byte aligned, several loads in flight; the
 *   elements before the first 16-byte boundary and the last n % 4 by
 *   scalar loads), then the block sum, then thread 0 does atomicAdd(out, sum). */
template <bool VEC>
static __global__ void rowsum_kernel(const float *x, size_t rows, size_t cols, float *out)
{
    (void)x, (void)rows, (void)cols, (void)out;
}

static __global__ void sum_kernel(const float *x, size_t n, float *out)
{
    (void)x, (void)n, (void)out;
}

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
