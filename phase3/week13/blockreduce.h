/* blockreduce.h — week 13: a block reduction built from warp shuffles, used
 * twice: row sums (a block per few rows) and the sum of a large array (one
 * pass, one atomic per block). */
#ifndef BLOCKREDUCE_H
#define BLOCKREDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of br_sum's kernel: 32 warps. */
#define BR_THREADS 1024

/* br_rowsum's blocks (and those of the given shared-memory version): 256
 * threads, 8 warps, each block summing BR_ROWS consecutive rows at once. */
#define BR_ROW_THREADS 256
#define BR_ROWS 4

/* out[r] = x[r*cols] + ... + x[r*cols + cols - 1] for r < rows (0 when
 * cols == 0): one block of BR_ROW_THREADS per BR_ROWS consecutive rows (the
 * last block may have fewer). Each thread adds, in each of the block's
 * rows, the elements tid, tid + BR_ROW_THREADS, ... (as float4 when x is
 * 16-byte aligned and cols % 4 == 0, so that every row starts aligned),
 * loading the block's rows side by side; the block's partial sums of all
 * its rows are then combined by shuffles, with one barrier. x is row-major,
 * rows of exactly cols floats, any alignment. rows must be below 2^31
 * (cudaErrorInvalidValue otherwise). Asynchronous (default stream); returns
 * the launch's error. */
cudaError_t br_rowsum(const float *x, size_t rows, size_t cols, float *out);

/* *out (one device float) = x[0] + ... + x[n-1], 0 when n == 0, in one pass
 * over x: every block adds its sum to *out with one atomicAdd (*out is
 * zeroed first, here). NaN and Inf propagate. x may start at any float.
 * Asynchronous; returns the first error. */
cudaError_t br_sum(const float *x, size_t n, float *out);

/* Given (support/yard_shared_rowsum.cu): br_rowsum with the same blocks and
 * the same loads, the rows reduced by the classic shared-memory tree (one
 * __syncthreads per level): a report row beside yours. */
cudaError_t yard_rowsum_shared(const float *x, size_t rows, size_t cols, float *out);

#ifdef __cplusplus
}
#endif
#endif
