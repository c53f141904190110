/* naive.cu — week 29, exercise 1: the naive softmax, op by op.
 *
 * y = exp(x) / rowsum(exp(x)), written the way a framework without a fused
 * softmax runs it: three kernels, each one pass over memory.
 *   1. exp:    y = expf(x), element-wise (reads x, writes y);
 *   2. rowsum: sums[i] = sum of row i of y (reads y), a block a row;
 *   3. scale:  y[i][j] /= sums[i] (reads y, writes y), a block a row.
 * 20 bytes an element cross DRAM where one fused kernel needs 8 (the
 * benchmark prints both). And the formula has no safeguard: expf overflows
 * to +Inf past x = 88.72, and underflows to 0 below about -103.97, so rows of
 * large logits give Inf / Inf and rows of very negative ones 0 / 0: NaN.
 * That is the point of this exercise: write it, then watch it fail. */
#include <float.h>
#include <math.h>
#include "naive.h"

#define NV_THREADS 256

/* TODO: three kernels, each a pass over memory (naive.h says what each
 * does): an element-wise y = expf(x) over rows * cols elements (a size_t
 * index: rows * cols can pass 2^31); a row sum of y into sums[row], a
 * block of NV_THREADS threads a row (strided loop, then a warp
 * __shfl_xor_sync butterfly and one value per warp through shared
 * memory, week 07); and y[row][j] /= sums[row]. No max subtraction: that
 * is the point. */

cudaError_t naive_softmax(const float *x, float *y, float *sums, int rows, int cols)
{
    /* TODO: nothing for rows or cols <= 0; launch the three kernels in
     * order on the default stream (each waits for the one before) and
     * return the first cudaGetLastError() that is not cudaSuccess. */
    (void)x, (void)y, (void)sums, (void)rows, (void)cols;
    return cudaSuccess;
}

double naive_limit(int cols)
{
    /* TODO: the largest L with cols * exp(L) <= FLT_MAX (float.h), in
     * double: 88.72 for one column, less for a long row. */
    (void)cols;
    return 0.0;
}
