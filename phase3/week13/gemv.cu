/* gemv.cu — week 13, exercise 5: y = A x, one warp per row.
 *
 * A warp owns a row: lane l reads elements l, l + 32, l + 64, ... (with
 * float4, elements 4l..4l+3, then 128 further on), so each load instruction
 * of the warp reads 512 contiguous bytes, and multiplies them by the same
 * elements of x (4 KB of x for 1024 columns: it stays in L1 and L2). The 32
 * partial dot products are then summed by a shuffle reduction and lane 0
 * writes y[row]. No shared memory and no barrier: the warp is the unit.
 *
 * A GEMV reads the matrix once (2 flops per 4-byte element): it is bound by
 * memory, and its yardstick is a copy. Warps loop over rows (row += all
 * warps of the grid), so any number of rows fits any grid; the loop bound is
 * the same for every lane of a warp, so the full-mask shuffles are safe. */
#include <stdint.h>
#include "gemv.h"

#define THREADS (GV_WARPS * 32)

/* TODO: gemv_vec4 and gemv_scalar, one warp per row: warp w of the grid
 * (w = global thread index / 32) does rows w, w + nwarps, ... (nwarps =
 * gridDim.x * GV_WARPS). Each lane accumulates A[r][k] * x[k] for its own k
 * (lane, lane + 32, ...; in gemv_vec4 as float4: k4 = lane, lane + 32, ...
 * over cols / 4, several loads in flight), then a warp sum by
 * __shfl_xor_sync or __shfl_down_sync; lane 0 writes y[r]. Every lane of the
 * warp must reach the shuffles: loop over rows the same way in all lanes. */
static __global__ void gemv_vec4(const float *A, const float *x, float *y, size_t rows, size_t cols)
{
    (void)A, (void)x, (void)y, (void)rows, (void)cols;
}

static __global__ void gemv_scalar(const float *A, const float *x, float *y, size_t rows, size_t cols)
{
    (void)A, (void)x, (void)y, (void)rows, (void)cols;
}

/* ---- given: the launcher ---- */
cudaError_t gv_gemv(const float *A, const float *x, float *y, size_t rows, size_t cols)
{
    if (rows == 0) return cudaSuccess;
    size_t blocks = (rows + GV_WARPS - 1) / GV_WARPS;
    if (blocks > ((size_t)1 << 22)) blocks = (size_t)1 << 22; /* the row loop covers the rest */
    int vec = (((uintptr_t)A | (uintptr_t)x) & 15) == 0 && cols % 4 == 0;
    if (vec) gemv_vec4<<<(unsigned)blocks, THREADS>>>(A, x, y, rows, cols);
    else gemv_scalar<<<(unsigned)blocks, THREADS>>>(A, x, y, rows, cols);
    return cudaGetLastError();
}
