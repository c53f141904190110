/* ew.h — week 05: element-wise operations, 1D grid-stride, 2D and 3D indexing. */
#ifndef EW_H
#define EW_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = relu(alpha * x[i]) for i < n, where relu(v) = v < 0 ? 0 : v (NaN
 * stays NaN, +Inf stays +Inf). Device pointers of any float alignment;
 * nothing past y[n-1] is written. A grid-stride loop: the grid size does not
 * grow with n. Launches on the default stream and returns the launch's error. */
cudaError_t ew_scale_relu(const float *x, float *y, size_t n, float alpha);

/* c = a + b on rows x cols row-major matrices with leading dimensions
 * (elements between rows) lda, ldb, ldc >= cols. Only the rows x cols
 * elements of c are written, never the padding. A 2D grid. */
cudaError_t ew_add2d(const float *a, size_t lda, const float *b, size_t ldb, float *c, size_t ldc, int rows, int cols);

/* y, a contiguous shape[0] x shape[1] x shape[2] tensor, gets
 * y[i][j][k] = relu(alpha * x[i*st[0] + j*st[1] + k*st[2]]): the
 * materialised copy of a strided view (a permute, a slice with a step).
 * Strides are in elements and >= 0; any shape entry may be 0. A 3D grid. */
cudaError_t ew_tensor3_relu(const float *x, const long long st[3], float *y, const int shape[3], float alpha);

#ifdef __cplusplus
}
#endif
#endif
