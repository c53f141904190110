/* rowsoftmax.cu — week 30, exercise 2: the online softmax, a warp a row and a
 * block a row, and the dispatcher.
 *
 * Every version makes the row's (m, s) with the online rule of online.cu:
 * each thread makes its own pair over the elements it holds, then pairs merge,
 *     M = max(m1, m2),  S = s1 exp(m1 - M) + s2 exp(m2 - M),
 * first across a warp with __shfl_xor_sync, then (a block a row) across the
 * warps through shared memory. Then y = exp(x - M) / S.
 *
 * Where x lives between the statistics and the output decides the traffic:
 *   - in registers (cols % 4 == 0, x and y 16-byte aligned, the row no longer
 *     than the threads can hold: 1024 floats a warp, 32768 a block): each
 *     thread loads its float4s once, makes its pair from its registers, and
 *     after the merge writes y from the same registers. DRAM sees x once and
 *     y once, 8 bytes an element: the copy's traffic.
 *   - streamed (longer rows, or unaligned ones): one online pass over the row
 *     makes the pair (a chunk of loads at a time, the sum rescaled when the
 *     chunk raises the max), and a second pass reads x again to write y.
 *     That re-read comes from L2 when little else has passed through it in
 *     between (a block a row, few rows in flight), from DRAM otherwise.
 *
 * One subtlety: a thread whose elements are all -Inf (a masked stretch, or
 * the padding past the row's end) has m = -Inf, and exp(x - m) would be
 * exp(-Inf + Inf) = NaN. Its exponentials are taken against 0 instead
 * (exp(-Inf - 0) = 0; a NaN element still gives NaN), and merges never
 * evaluate exp(m - M) for the term whose m is M. */
#include <math.h>
#include <stdint.h>
#include "rowsoftmax.h"

#define WARP_THREADS 256 /* the warp versions: 8 warps a block */

/* TODO: the kernels. rowsoftmax.h says what they compute and how the
 * (m, s) pairs merge; online.cu is the same rule on the CPU.
 *  - a warp a row: lane l loads float4s l, l + 32, ... of its row into
 *    registers (V of them, a template parameter, -Inf past the row), makes
 *    its pair (max, then the sum of __expf(v - max)), merges pairs with a
 *    __shfl_xor_sync butterfly (offsets 16 ... 1), then writes y from the
 *    registers. Rows of 32 or 64 floats: 8 or 16 lanes a row, 4 or 2 rows
 *    a warp (butterfly offsets below the group size), loop over rows the
 *    same in the whole warp.
 *  - a block a row: the same with thread t holding float4s t, t + THREADS,
 *    ...; after the warp butterfly, one pair per warp through __shared__
 *    arrays, __syncthreads(), and a butterfly over those.
 *  - streamed, for rows too long for registers or not float4-aligned: an
 *    online pass (a chunk of loads, the chunk's max, rescale s when it
 *    rose), the merge, then a second pass that reads x again and writes y.
 * A thread whose elements are all -Inf must take its exponentials against
 * 0, not against its own -Inf max. */

cudaError_t rowsoftmax_warp(const float *x, float *y, int rows, int cols)
{
    /* TODO: nothing for rows or cols <= 0. float4 registers when cols % 4
     * == 0 and x, y are 16-byte aligned and the row fits (pick GROUP and V
     * from cols / 4); the streamed kernel otherwise. Blocks of WARP_THREADS,
     * rows / rows-per-block of them (at most 2^20: loop past). */
    (void)x, (void)y, (void)rows, (void)cols;
    return cudaSuccess;
}

cudaError_t rowsoftmax_block(const float *x, float *y, int rows, int cols)
{
    /* TODO: nothing for rows or cols <= 0. float4 registers when cols % 4
     * == 0, x and y are 16-byte aligned and cols <= 32768 (pick THREADS and
     * V so that 4 * THREADS * V >= cols); the streamed kernel otherwise. A
     * block a row, at most 2^20 blocks (loop past). */
    (void)x, (void)y, (void)rows, (void)cols;
    return cudaSuccess;
}

cudaError_t rowsoftmax_online(const float *x, float *y, int rows, int cols)
{
    /* TODO: pick rowsoftmax_warp or rowsoftmax_block by the row's length
     * (SOFTMAX_WARP_MAX). Why there? Look at what fits in a warp's
     * registers, and at the ladder's plot. */
    (void)x, (void)y, (void)rows, (void)cols;
    return cudaSuccess;
}
