/* yard_shared_rowsum.cu — week 13, given: row sums with the classic
 * shared-memory tree, the yardstick SHARED of w13.shfl-speed.
 *
 * The same loads as br_rowsum (one block of BR_THREADS per row, threads
 * striding along it); only the reduction differs: every thread stores its
 * partial in shared memory, then ten levels (512, 256, ..., 1) in which the
 * lower half of the active threads adds the upper half, each level closed
 * by a __syncthreads. This is week 07's sequential-addressing version. */
#include <cuda_runtime.h>
#include "blockreduce.h"

static __global__ void __launch_bounds__(BR_THREADS) rowsum_shared_kernel(const float *__restrict__ x, size_t cols,
                                                                          float *__restrict__ out)
{
    __shared__ float s[BR_THREADS];
    size_t base = (size_t)blockIdx.x * cols;
    float part = 0.0f;
    for (size_t j = threadIdx.x; j < cols; j += BR_THREADS) part += x[base + j];
    s[threadIdx.x] = part;
    __syncthreads();
    for (unsigned st = BR_THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

extern "C" cudaError_t yard_rowsum_shared(const float *x, size_t rows, size_t cols, float *out)
{
    if (rows >= ((size_t)1 << 31)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    rowsum_shared_kernel<<<(unsigned)rows, BR_THREADS>>>(x, cols, out);
    return cudaGetLastError();
}
