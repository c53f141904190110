/* gelu_chain.cu — week 15, exercise 2: four element-wise kernels as one.
 *
 * y = r + s * gelu(x + bias[col]) is what a transformer block runs after a
 * linear layer (bias, activation, scale, residual). Run op by op (the given
 * support/yard_unfused.cu), each step reads its input from DRAM and writes its
 * output back: 36 bytes an element. Fused, x and r are read once and y
 * written once, 12 bytes, and the intermediates never leave registers: the
 * chain is memory-bound, so the time falls with the bytes, up to 3x.
 *
 * Layout: blockIdx.y walks the rows (a grid-stride loop past 65535 rows),
 * blockIdx.x and the threads walk the columns of one row, so the column, and
 * with it the bias element, comes without a division. When cols is a multiple
 * of 4 and every pointer is 16-byte aligned each thread moves float4s.
 *
 * GELU in the tanh form, as v * sigmoid(2u) = v / (1 + exp(-2u)): one fast
 * exponential (__expf) and one fast division (__fdividef). Both stay exact
 * enough (a few ulp here) and keep the kernel far from its compute limit. */
#include <stdint.h>
#include "gelu_chain.h"

#define GC_THREADS 256

/* TODO: one kernel computing y = r + s * gelu(x + bias[col]) with every
 * intermediate in registers. GELU, tanh form (gelu_chain.h): a fast one is
 * v / (1 + __expf(-1.5957691216f * (v + 0.044715f * v*v*v))), with __fdividef.
 * Walk rows with blockIdx.y and columns with blockIdx.x and the threads,
 * so the bias index is the column; float4 when cols % 4 == 0 and all four
 * pointers are 16-byte aligned. */

cudaError_t gelu_chain_fused(const float *x, const float *bias, const float *r, float *y, int rows, int cols, float s)
{
    /* TODO: nothing to do for rows or cols <= 0; choose the float4 or the
     * scalar kernel, a grid of (column blocks, min(rows, 65535)), and return
     * cudaGetLastError(). */
    (void)x, (void)bias, (void)r, (void)y, (void)rows, (void)cols, (void)s;
    return cudaSuccess;
}
