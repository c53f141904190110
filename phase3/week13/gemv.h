/* gemv.h — week 13: y = A x with one warp per row. */
#ifndef GEMV_H
#define GEMV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows (warps) per block of 256 threads. */
#define GV_WARPS 8

/* y[r] = sum over k < cols of A[r*cols + k] * x[k], for r < rows (0 when
 * cols == 0). A is row-major with rows of exactly cols floats. One warp per
 * row: each lane strides along the row, a shuffle reduction combines the
 * lanes. Any alignment and any cols; 16-byte loads when A and x are 16-byte
 * aligned and cols is a multiple of 4. Device pointers; nothing past
 * y[rows-1] is written. Asynchronous; returns the launch's error. */
cudaError_t gv_gemv(const float *A, const float *x, float *y, size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif
#endif
