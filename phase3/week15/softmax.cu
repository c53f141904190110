/* softmax.cu — week 15, exercise 4: a first softmax, fused.
 *
 * Row-wise and numerically stable: m = max of the row, then exp(x - m) (every
 * term in (0, 1], no overflow even for rows near 1e30), their sum, and the
 * quotient. The given chain (support/yard_unfused.cu) is three kernels: the row
 * max reads x, the sum of exponentials reads x again, the normalisation reads
 * x a third time and writes y: 16 bytes an element. Fused, each row is read
 * from DRAM once and written once: 8 bytes.
 *
 * One warp a row: the reductions are warp shuffles (no shared memory, no
 * __syncthreads), and 32 to 64 rows per SM are in flight at once (32 for the
 * 1024-column kernel: 51 registers a thread with nvcc 13, room for 4 blocks),
 * plenty of bytes to hide DRAM latency. When a row fits in registers
 * (cols <= 1024, a multiple of 4, both pointers 16-byte aligned) each lane
 * keeps its V float4 in registers between the three steps: the row crosses
 * DRAM exactly once.
 * Otherwise the warp sweeps the row three times; the second and third sweeps
 * find it in L1 or L2 (a few KB a warp), so DRAM still sees it once. */
#include <math.h>
#include <stdint.h>
#include "softmax.h"

#define SMX_THREADS 256 /* 8 warps, one row each */
#define SMX_WARPS (SMX_THREADS / 32)

/* TODO: one warp a row (8 rows a block of SMX_THREADS): m = the row's max
 * (fmaxf, then a __shfl_xor_sync butterfly so every lane has it), then
 * s = sum of __expf(x - m) (the same butterfly with +), then
 * y = __expf(x - m) * (1 / s). Start m at -INFINITY. For speed keep the row
 * in registers when it fits (float4s, cols % 4 == 0, aligned pointers,
 * cols <= 1024): then DRAM sees it once. */

cudaError_t softmax_fused(const float *x, float *y, int rows, int cols)
{
    /* TODO: nothing for rows or cols <= 0; ceil(rows / 8) blocks of
     * SMX_THREADS; return cudaGetLastError(). */
    (void)x, (void)y, (void)rows, (void)cols;
    return cudaSuccess;
}
