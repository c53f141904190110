/* rowsoftmax.h — week 30: the online softmax on the GPU, a warp a row and a
 * block a row, and the dispatcher that picks one by row length. */
#ifndef ROWSOFTMAX_H
#define ROWSOFTMAX_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function computes, for each row i of x (rows x cols, row-major,
 * contiguous, device pointers of any float alignment), with m = max_j x[i][j]
 * and s = sum_j exp(x[i][j] - m):
 *     y[i][j] = exp(x[i][j] - m) / s
 * -Inf entries give 0; a row with a NaN or a +Inf, or of -Inf only, gives NaN
 * in every element (week 29's conventions). Accuracy: 1e-7 + 5e-5 |ref|
 * against a double reference (__expf is fine). rows or cols <= 0 does
 * nothing. Default stream; each returns its launch's error.
 *
 * The statistics (m, s) come from the online rule: each thread makes its own
 * (m, s) over the elements it holds, and pairs merge as
 *     M = max(m1, m2),  S = s1 exp(m1 - M) + s2 exp(m2 - M)
 * (a term whose m equals M is taken as it is: never exp(-Inf - (-Inf))).
 * When the row fits in registers (cols % 4 == 0, x and y 16-byte aligned and
 * cols small enough for the kernel's threads), x is read from DRAM once;
 * otherwise one online pass makes (m, s) and a second reads x again to write
 * y. */

/* A warp a row (or a part of a warp: 8 or 16 lanes a row for rows of at most
 * 32 or 64 floats), 8 warps a block; the row in registers up to 1024 floats. */
cudaError_t rowsoftmax_warp(const float *x, float *y, int rows, int cols);

/* A block a row, 256 to 1024 threads; the row in registers up to 32768
 * floats. */
cudaError_t rowsoftmax_block(const float *x, float *y, int rows, int cols);

/* The dispatcher: the warp version for rows of at most SOFTMAX_WARP_MAX
 * floats, the block version for longer rows. */
cudaError_t rowsoftmax_online(const float *x, float *y, int rows, int cols);

#define SOFTMAX_WARP_MAX 1024

#ifdef __cplusplus
}
#endif
#endif
