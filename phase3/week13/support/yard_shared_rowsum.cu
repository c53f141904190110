/* yard_shared_rowsum.cu — week 13, given: row sums with the classic
 * shared-memory tree, a report row of w13.shfl-speed.
 *
 * The same blocks and the same loads as br_rowsum (BR_ROW_THREADS threads
 * per BR_ROWS rows, each thread loading its elements of the block's rows
 * side by side); only the reduction differs: every thread stores its
 * partial of each row in shared memory, then eight levels (128, 64, ..., 1)
 * in which the lower half of the active threads adds the upper half, each
 * level closed by a __syncthreads. This is week 07's sequential-addressing
 * version, BR_ROWS rows at a time. */
#include <stdint.h>
#include <cuda_runtime.h>
#include "blockreduce.h"

template <bool VEC>
static __global__ void __launch_bounds__(BR_ROW_THREADS) rowsum_shared_kernel(const float *__restrict__ x, size_t rows,
                                                                              size_t cols, float *__restrict__ out)
{
    __shared__ float s[BR_ROWS][BR_ROW_THREADS];
    const size_t r0 = (size_t)blockIdx.x * BR_ROWS;
    float part[BR_ROWS];
#pragma unroll
    for (int r = 0; r < BR_ROWS; r++) part[r] = 0.0f;
    /* Past the last row (the last block), read the last row again: the loads
     * stay unconditional, and those sums are never written. */
    const float *row[BR_ROWS];
#pragma unroll
    for (int r = 0; r < BR_ROWS; r++) row[r] = x + (r0 + r < rows ? r0 + r : rows - 1) * cols;
    if (VEC) {
        for (size_t c = threadIdx.x; c < cols / 4; c += BR_ROW_THREADS) {
            float4 v[BR_ROWS];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) v[r] = reinterpret_cast<const float4 *>(row[r])[c];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) part[r] += (v[r].x + v[r].y) + (v[r].z + v[r].w);
        }
    } else {
        for (size_t c = threadIdx.x; c < cols; c += BR_ROW_THREADS) {
            float v[BR_ROWS];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) v[r] = row[r][c];
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) part[r] += v[r];
        }
    }
#pragma unroll
    for (int r = 0; r < BR_ROWS; r++) s[r][threadIdx.x] = part[r];
    __syncthreads();
    for (unsigned st = BR_ROW_THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
#pragma unroll
            for (int r = 0; r < BR_ROWS; r++) s[r][threadIdx.x] += s[r][threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x < BR_ROWS && r0 + threadIdx.x < rows) out[r0 + threadIdx.x] = s[threadIdx.x][0];
}

extern "C" cudaError_t yard_rowsum_shared(const float *x, size_t rows, size_t cols, float *out)
{
    if (rows >= ((size_t)1 << 31)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    const unsigned blocks = (unsigned)((rows + BR_ROWS - 1) / BR_ROWS);
    if (((uintptr_t)x & 15) == 0 && cols % 4 == 0) rowsum_shared_kernel<true><<<blocks, BR_ROW_THREADS>>>(x, rows, cols, out);
    else rowsum_shared_kernel<false><<<blocks, BR_ROW_THREADS>>>(x, rows, cols, out);
    return cudaGetLastError();
}
