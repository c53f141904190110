/* softmax.cu — week 34, exercise 1: the row softmax of masked scores.
 *
 * One block of 256 threads per row (a grid-stride loop over rows). Thread t
 * owns the row's columns t, t + 256, t + 512, ...; for rows of up to 4096
 * columns it keeps them in registers (PER of them, a template parameter), so
 * the row is read from DRAM once and written once: the least a softmax can
 * move, 8 bytes per score, as a copy does. Longer rows are read three times
 * (max, sum, write); the block's 1 to 16 KB row is then mostly in L1 on the
 * second and third reads.
 *
 * Three steps per row, each a block-wide reduction:
 *   m = max_j x_j          NaN never wins a comparison (b > a is false);
 *   s = sum_j e_j,         e_j = exp(x_j - m), exactly 0 for a masked -inf
 *                          (computing exp(-inf - m) would give 0 too, but
 *                          exp(-inf - (-inf)) is exp(NaN) in a fully masked row);
 *   p_j = e_j / s          s >= 1 whenever one entry is finite (the max gives
 *                          e = 1); s == 0 means every entry is masked, and
 *                          the row is written as zeros; a NaN x makes e, s and
 *                          so the whole row NaN.
 * Each thread reads and writes only its own columns, so P == S is safe. */
#include <math.h>
#include "softmax.h"

/* TODO: a kernel for the row softmax. Suggested shape: one block of 256
 * threads per row (grid-stride over rows, size_t offsets), thread t taking
 * columns t, t + 256, ...; a block-wide max (shuffles, then one value per
 * warp in shared memory), then a block-wide sum of exp(x - max), then
 * write exp(x - max) / sum. The rules in softmax.h: a -inf gets weight
 * exactly 0 (test for it: exp(-inf - (-inf)) is NaN); a row whose sum is
 * 0 is all masked and becomes zeros; a NaN must spread to its row (so the
 * max must skip it, and the sum must not). */

cudaError_t softmax_scores(const float *S, float *P, size_t rows, int L)
{
    /* TODO: refuse L < 0, launch nothing for an empty input, launch your
     * kernel and return cudaGetLastError(). */
    (void)S, (void)P, (void)rows, (void)L;
    return cudaSuccess;
}
