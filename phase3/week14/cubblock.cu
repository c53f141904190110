/* cubblock.cu — week 14, exercise 3: CUB's block and warp collectives with
 * your own operators.
 *
 * cub::BlockReduce and cub::WarpReduce are templates you instantiate inside
 * your kernel: shared TempStorage, then Reduce(value, op). The operator can
 * be anything associative; CUB combines partial results in a tree whose
 * shape it chooses, so the operator must give the same answer in any
 * grouping (and here, in any order).
 *
 * cubblock_row_argmax: one block of 256 threads per row. Each thread folds its
 * columns (j = tid, tid + 256, ...) into one (column, value) pair, then the
 * block reduces the pairs with an arg-max operator that is a total order:
 * NaN first, then the larger value, then the smaller column.
 * cubblock_row_amax: one warp per row, eight rows per block; each lane folds its
 * columns into one max-abs, then cub::WarpReduce finishes with shuffles.
 * Lane 0 writes. No block barrier is involved, so a warp past the last row
 * simply returns. */
#include <limits.h>
#include <cub/cub.cuh>
#include "cubblock.h"

/* TODO: two kernels and their operators.
 * row_argmax_kernel: one block of 256 threads per row; each thread folds
 *   columns tid, tid + 256, ... into a cub::KeyValuePair<int, float>
 *   (column, value), then cub::BlockReduce<..., 256> reduces the pairs
 *   with your arg-max operator (NaN, then larger value, then smaller
 *   column); thread 0 writes the column.
 * row_amax_kernel: one warp per row, 8 warps per block; each lane folds
 *   its columns with a max-abs operator (NaN wins), cub::WarpReduce<float>
 *   finishes; lane 0 writes. */

cudaError_t cubblock_row_argmax(const float *x, int rows, int cols, int *idx)
{
    /* TODO: check the shape (rows < 0 or cols < 1: cudaErrorInvalidValue),
     * launch one block per row, return the launch's error. */
    (void)x, (void)rows, (void)cols, (void)idx;
    return cudaErrorNotSupported;
}

cudaError_t cubblock_row_amax(const float *x, int rows, int cols, float *amax)
{
    /* TODO: check the shape, launch ceil(rows / 8) blocks of 8 warps, return
     * the launch's error. */
    (void)x, (void)rows, (void)cols, (void)amax;
    return cudaErrorNotSupported;
}
