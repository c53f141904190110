/* rmsnorm.cu — week 31, exercise 3: RMSNorm forward (rmsnorm.h has the
 * contract).
 *
 * The same shape as exercise 2's kernels: one block a row, the row in
 * registers (RMS_V groups of 4 elements a thread, a block as wide as the row
 * needs), one block reduction of sum x^2, then y from the registers. RMSNorm
 * has no mean to subtract, so it has no cancellation to fear and only one
 * reduction; and no beta, so it reads one parameter vector, not two. Rows
 * longer than 4 * RMS_V * 1024 elements take a two-sweep kernel (the
 * second sweep mostly from L2). */
#include <math.h>
#include <stdint.h>
#include "rmsnorm.h"

/* TODO: your kernel goes here (exercise 2's shape, one reduction). */

cudaError_t rmsnorm(const float *x, const float *gamma, float *y, float *rstd, int rows, int cols, float eps)
{
    /* TODO: check the arguments (rmsnorm.h), then one block a row: the row
     * into registers, q = sum of x*x, one block sum, rstd = 1 / sqrtf(q / cols
     * + eps), thread 0 writes rstd[row], then y = (x * rstd) * gamma from the
     * registers. It is exercise 2's kernel with a simpler reduction. */
    (void)x, (void)gamma, (void)y, (void)rstd, (void)rows, (void)cols, (void)eps;
    return cudaSuccess;
}
