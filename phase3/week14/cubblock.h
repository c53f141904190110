/* cubblock.h — week 14: CUB's block- and warp-wide reductions inside your
 * own kernels, with operators you write.
 *
 * x is a row-major rows x cols matrix (row r starts at x + r * cols), in
 * device memory. rows >= 0, cols >= 1: rows < 0 or cols < 1 returns
 * cudaErrorInvalidValue and launches nothing; rows == 0 launches nothing.
 * Default stream; returns the launch's error. */
#ifndef W14_CUBBLOCK_H
#define W14_CUBBLOCK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* idx[r] = the column of the largest element of row r: a NaN counts as
 * larger than any number; among equal values (or several NaN) the smallest
 * column wins. One block per row, cub::BlockReduce over key-value pairs. */
cudaError_t cubblock_row_argmax(const float *x, int rows, int cols, int *idx);

/* amax[r] = max |x[r][j]| over the row; NaN if the row holds a NaN. One
 * warp per row, cub::WarpReduce with a max-abs operator. */
cudaError_t cubblock_row_amax(const float *x, int rows, int cols, float *amax);

#ifdef __cplusplus
}
#endif
#endif
