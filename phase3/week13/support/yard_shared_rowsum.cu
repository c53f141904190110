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
static __global__ void __launch_bounds__(BR_ROW_THREADS) rowsum_shared_kernel(const float *__restrict__ in, size_t nrows,
                                                                              size_t ncols, float *__restrict__ sums)
{
    __shared__ float s[BR_ROWS][BR_ROW_THREADS];
    const size_t first = (size_t)blockIdx.x * BR_ROWS;
    const float *src[BR_ROWS]; /* row first + k; past the end, the last row (its sum is never stored) */
    float part[BR_ROWS];
#pragma unroll
    for (int k = 0; k < BR_ROWS; k++) {
        src[k] = in + (first + k < nrows ? first + k : nrows - 1) * ncols;
        part[k] = 0.0f;
    }
    if (VEC) {
        for (size_t j = threadIdx.x; j < ncols / 4; j += BR_ROW_THREADS) {
            float4 q[BR_ROWS];
#pragma unroll
            for (int k = 0; k < BR_ROWS; k++) q[k] = ((const float4 *)src[k])[j];
#pragma unroll
            for (int k = 0; k < BR_ROWS; k++) part[k] += (q[k].x + q[k].y) + (q[k].z + q[k].w);
        }
    } else {
        for (size_t j = threadIdx.x; j < ncols; j += BR_ROW_THREADS) {
            float q[BR_ROWS];
#pragma unroll
            for (int k = 0; k < BR_ROWS; k++) q[k] = src[k][j];
#pragma unroll
            for (int k = 0; k < BR_ROWS; k++) part[k] += q[k];
        }
    }
#pragma unroll
    for (int k = 0; k < BR_ROWS; k++) s[k][threadIdx.x] = part[k];
    __syncthreads();
    for (unsigned st = BR_ROW_THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
#pragma unroll
            for (int k = 0; k < BR_ROWS; k++) s[k][threadIdx.x] += s[k][threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x < BR_ROWS && first + threadIdx.x < nrows) sums[first + threadIdx.x] = s[threadIdx.x][0];
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
